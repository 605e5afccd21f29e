"""In a real browser against Daphne and a Celery worker: the leaderboard, its views, an agent, and a run's
step-by-step replay (rendered by the worker)."""
import re

import pytest
from django.core.cache import cache

from submissions import verification
from submissions.models import Run, Submission
from tests.factories import task
from tests.leaderboard.factories import core_task_set, populate

pytestmark = [pytest.mark.slow, pytest.mark.real_broker, pytest.mark.django_db(transaction=True)]


def figures(page, column):
    """The numbers of one column of the table (rows without a figure left out)."""
    index = page.locator(f'#leaderboard thead th[data-sort="{column}"]').evaluate(
        "th => [...th.parentElement.children].indexOf(th)")
    # The second header row starts after the four row-spanning columns (rank, agent, interface, date).
    texts = page.locator(f"#leaderboard tbody tr td:nth-child({index + 5})").evaluate_all(
        "cells => cells.map(c => c.firstChild.textContent.trim() || c.textContent.trim())")
    return [float(t.split()[0]) for t in texts if re.match(r"^\d", t)]


def test_browse_the_leaderboard_and_step_through_a_replay(site_url, celery_worker_process, page, artifacts_dir):
    cache.clear()
    ts = core_task_set()
    agents = populate(ts, agents=10)
    best = agents[0]
    reference = task("breakout/rally-5@2").reference
    real = Run.objects.create(submission=best, task=task("breakout/rally-5@2"), seed=reference["seed"],
                              actions=reference["actions"], claimed_progress=1.0, claimed_success=True)
    verification.verify_run(run_id=real.pk)

    Submission.objects.filter(pk=best.pk).update(  # names as long as real ones: the table must still fit
        model_name="gpt-5.1-2026-11-13-computer-use-preview", organisation="Institute for Interactive Agents")
    page.goto(site_url + "/")
    rows = page.locator("#leaderboard tbody tr")
    assert rows.count() == 12 and page.locator("#leaderboard tbody tr.human").count() == 2
    assert page.locator("#leaderboard tbody tr.partial").count() == 3
    page.locator(".chart .main-svg").first.wait_for()                       # plotly drew, from our own server
    page.wait_for_function("document.querySelectorAll('.chart .main-svg').length >= 3")
    page.screenshot(path=str(artifacts_dir / "leaderboard.png"), full_page=True)
    for width in (1280, 1366):  # what ranks the agents is in view without scrolling the table
        page.set_viewport_size({"width": width, "height": 900})
        box = page.locator("#leaderboard").evaluate("t => [t.parentElement.clientWidth, t.parentElement.scrollWidth]")
        assert box[1] <= box[0], f"at {width} px the table is {box[1]} px wide in a box of {box[0]} px"
        runs = page.locator("#leaderboard td.runs").first.bounding_box()
        assert runs["x"] + runs["width"] <= width, f"at {width} px the Runs column is out of view"
    page.set_viewport_size({"width": 1366, "height": 900})

    page.get_by_role("link", name="Levels 1–5").click()
    page.wait_for_url("**view=level**")
    assert page.locator("#leaderboard thead").get_by_text("L1 timing").is_visible()
    page.get_by_role("link", name="Computer-use").click()
    page.wait_for_url(re.compile(r".*iface=cua.*view=level.*"))
    badges = set(page.locator("#leaderboard tbody .iface-badge").all_inner_texts())
    assert badges == {"CUA", "HUMAN"} or badges == {"CUA", "Human"}

    page.locator('#leaderboard thead th[data-sort="overall_pg"] a').click()
    page.wait_for_url("**sort=overall_pg**")
    values = figures(page, "overall_pg")
    assert values == sorted(values, reverse=True) and len(values) >= 4
    page.locator('#leaderboard thead th[data-sort="overall_pg"] a').click()
    page.wait_for_url("**dir=asc**")
    values = figures(page, "overall_pg")
    assert values == sorted(values)
    page.screenshot(path=str(artifacts_dir / "leaderboard-levels-cua.png"), full_page=False)

    page.get_by_role("link", name=best.agent_name, exact=True).click()
    page.wait_for_url(f"**/leaderboard/agents/{best.pk}/")
    assert page.locator("h1").inner_text().startswith(best.agent_name)
    page.get_by_role("link", name="compare with another entry").click()
    page.wait_for_url(f"**/leaderboard/compare/**a=s{best.pk}**")
    page.locator('select[name="b"]').select_option(f"s{agents[1].pk}")
    page.get_by_role("button", name="Compare").click()
    page.wait_for_url(f"**b=s{agents[1].pk}**")
    summary = page.locator("#compare-summary").inner_text()
    assert "tasks ran by both" in summary and "% of resamples" in summary
    page.wait_for_function("document.querySelectorAll('.chart .main-svg').length >= 2")
    page.screenshot(path=str(artifacts_dir / "leaderboard-compare.png"), full_page=True)
    page.go_back()
    page.go_back()
    page.wait_for_url(f"**/leaderboard/agents/{best.pk}/")
    page.locator(f'#tasks a[href="/leaderboard/runs/{real.pk}/"]').click()
    page.wait_for_url(f"**/leaderboard/runs/{real.pk}/")

    page.locator("#frame").wait_for(state="visible", timeout=90_000)        # rendered by the worker, once
    counter = page.locator("#counter")
    total = len(reference["actions"])
    assert counter.inner_text() == f"Step 0 / {total}"
    assert page.locator("#step-action").inner_text() == "start (ready)"
    page.get_by_role("button", name="Next ▶").click()
    assert counter.inner_text() == f"Step 1 / {total}"
    assert page.locator("#step-action").inner_text() != "start (ready)"
    # The next frame loads after the click; on a busy machine that takes a moment.
    page.wait_for_function("() => { const img = document.querySelector('#frame');"
                           " return img.complete && img.naturalWidth > 0; }", timeout=30_000)
    page.keyboard.press("End")
    assert counter.inner_text() == f"Step {total} / {total}"
    # The step list follows the current step on a run longer than the list shows.
    assert page.locator("#step-list").evaluate("l => l.scrollHeight > l.clientHeight")
    assert page.locator("#step-list").evaluate(
        "l => { const a = l.getBoundingClientRect(), b = l.querySelector('.on').getBoundingClientRect();"
        " return b.top >= a.top && b.bottom <= a.bottom; }"), "the current step is scrolled out of the list"
    assert "target reached" in page.locator("#step-flags").inner_text()
    assert "matches the verified one" in page.locator("#replay-check").inner_text()
    page.screenshot(path=str(artifacts_dir / "leaderboard-replay.png"), full_page=False)


def test_a_task_page_draws_its_noisy_solver_ladder(site_url, page, artifacts_dir):
    import json

    from tests.conftest import FIXTURE_GAMES

    cache.clear()
    ts = core_task_set()
    populate(ts, agents=2)
    found = task("breakout/rally-5@2")
    found.calibration = json.loads((FIXTURE_GAMES / "tally" / "calibration.json").read_text())["tasks"]["tally/points-8@1"]
    found.save()
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{site_url}/leaderboard/tasks/breakout/rally-5/2/?ts={ts.slug}")
    ladder = page.locator('[data-chart="fig-noise"]')
    ladder.locator(".main-svg").first.wait_for()
    assert ladder.locator(".scatterlayer .trace").count() == 2  # success rate and mean progress
    assert "share of the solver's actions replaced" in ladder.inner_text()
    ladder.screenshot(path=str(artifacts_dir / "task-noise-ladder.png"))
