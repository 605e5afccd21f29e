"""In a real browser: two volunteers join a campaign with its sign-up code, "Play the next task" gives them
different tasks, they agree to the consent text and play; the coverage view moves; a third volunteer takes the
last task and walks away, and after the campaign's hold time the task is released and goes to someone else.
The runs are verified by a worker and the export names the players by pseudonym."""
import time
from datetime import date, timedelta

import pytest
from django.db.models import F
from django.utils import timezone

from catalogue.models import TaskSet
from humanplay.models import Assignment, Campaign, PlaySession
from leaderboard.models import BoardSettings
from sandbox import registry
from sandbox.solvers import play_solver
from tests.factories import load_games, make_user, task

pytestmark = [pytest.mark.slow, pytest.mark.real_broker, pytest.mark.django_db(transaction=True)]

# Level 3, 4 and 5: the rule hands them out in this order. The first two are played with their references.
GEMS, CORNER, SHOP = "gemmaze/escape-1@3", "merge2048/corner-20@1", "shop/earn-15@1"
KEYS = {"up": "ArrowUp", "down": "ArrowDown", "left": "ArrowLeft", "right": "ArrowRight"}


def sign_in(browser, site_url, name):
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    page.goto(site_url + "/accounts/login/?next=/campaigns/spring/")
    page.fill("#id_username", name)
    page.fill("#id_password", f"pw-{name}-2026!")
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url("**/campaigns/spring/")
    return context, page


def join(page):
    page.fill("#signup-code", "LAB-7")
    page.get_by_role("button", name="Join this campaign").click()
    page.locator(".messages", has_text="You joined").wait_for()


def fact(page, name):
    return page.locator(f"#fact-{name} strong").inner_text()


def play_reference(page, task_id):
    """Agree to the consent text, start the recorded attempt, confirm it as a novice run and press the keys the
    game's solver presses at the attempt's seed (a recorded attempt plays at a sealed seed the page never shows; the
    test reads it from the database, as only the server can)."""
    assert page.locator("#consent-text").is_visible()
    page.check("#consent")
    page.get_by_role("button", name="Play the recorded attempt").click()
    page.get_by_role("button", name="Yes, start my novice run").click()
    page.wait_for_url("**/play/sessions/*/")
    left = page.locator("#actions-left")
    left.filter(has_text="100").wait_for()
    session = PlaySession.objects.get(pk=int(page.url.rstrip("/").rsplit("/", 1)[1]))
    assert str(session.seed) not in page.content()
    solved = play_solver(registry.task(task_id), session.seed)
    # A person's page has keys only: a solver run that waits somewhere (Gem Maze's does on about half the seeds,
    # to let the ghost pass) is played without its waits, then with further presses until the attempt ends.
    keys = [action["key"] for action in solved.actions if action["type"] == "press_key"]
    keys += ["left", "right"] * 50
    for index, key in enumerate(keys[:100]):
        page.keyboard.press(KEYS.get(key, key))
        if page.locator("#result").is_visible():
            break
        if index < 99:
            page.wait_for_function(f"document.getElementById('result') !== null "  # the attempt ended
                                   f"|| document.getElementById('actions-left').textContent === '{99 - index}'")
    page.locator("#result").wait_for(timeout=30_000)
    reached = page.locator(".big-figure").inner_text().startswith("Target reached")
    if len(keys) - 100 == len(solved.actions):  # the solver's run, key for key
        assert reached
    assert page.locator("#campaign-link").get_by_role("button", name="Play the next task").is_visible()
    return reached


def test_two_volunteers_get_different_tasks_coverage_moves_and_an_abandoned_task_is_released(
        site_url, celery_worker_process, browser, artifacts_dir):
    load_games()
    task_set = TaskSet.objects.create(slug="lab-v1", name="Lab v1", status=TaskSet.Status.PUBLISHED,
                                      published_at=timezone.now())
    task_set.tasks.set([task(t) for t in (GEMS, CORNER, SHOP)])
    Campaign.objects.create(slug="spring", title="Spring lab baselines", task_set=task_set, novice_runs_per_task=1,
                            expert_runs_per_task=0, signup_code="LAB-7", hold_minutes=10,
                            consent_text="Your key presses are recorded and published under a pseudonym.",
                            starts_on=date.today(), ends_on=date.today() + timedelta(days=7))
    for name in ("ann", "ben", "cal"):
        make_user(name)

    ann_context, ann = sign_in(browser, site_url, "ann")
    ben_context, ben = sign_in(browser, site_url, "ben")
    cal_context, cal = sign_in(browser, site_url, "cal")
    try:
        join(ann)
        join(ben)
        assert (fact(ann, "done"), fact(ann, "missing")) == ("0", "3")
        ann.locator("[data-chart=fig-coverage] .main-svg").first.wait_for()
        ann.screenshot(path=str(artifacts_dir / "campaign-before.png"), full_page=True)

        # "Play the next task": different tasks for the two volunteers.
        ann.locator("#play-next").click()
        ann.wait_for_url("**/campaigns/spring/assignments/*/")
        ben.locator("#play-next").click()
        ben.wait_for_url("**/campaigns/spring/assignments/*/")
        assert "Gem" in ann.locator("h1").inner_text() and "2048" in ben.locator("h1").inner_text(), (
            ann.locator("h1").inner_text(), ben.locator("h1").inner_text())
        assert ann.locator("#assignment-kind").inner_text() == "novice"
        assert "no practice before it" in ann.content()
        ann.screenshot(path=str(artifacts_dir / "campaign-assignment.png"), full_page=True)

        ben.goto(site_url + "/campaigns/spring/")
        assert fact(ben, "in-play") == "2"
        ben.locator("#continue-assignment").click()
        gems_reached = play_reference(ann, GEMS)  # without the solver's waits, not on every sealed seed
        assert play_reference(ben, CORNER)
        ann.screenshot(path=str(artifacts_dir / "campaign-played.png"), full_page=True)

        # The coverage view moved: two of three runs done, by two players.
        ann.goto(site_url + "/campaigns/spring/")
        assert (fact(ann, "done"), fact(ann, "missing"), fact(ann, "players")) == ("2", "1", "2")
        assert ann.locator('#coverage-task tr[data-task="gemmaze/escape-1@3"] .cov').inner_text() == "1/1"
        assert ann.locator('#coverage-task tr[data-task="shop/earn-15@1"] .cov').inner_text() == "0/1"

        # Cal takes the last task and walks away without playing.
        join(cal)
        cal.locator("#play-next").click()
        cal.wait_for_url("**/campaigns/spring/assignments/*/")
        assert "Earn" in cal.locator("h1").inner_text(), cal.locator("h1").inner_text()
        cal_context.close()

        ann.goto(site_url + "/campaigns/spring/")
        assert fact(ann, "in-play") == "1"
        assert "1 in play" in ann.locator('#coverage-task tr[data-task="shop/earn-15@1"]').inner_text()
        ann.locator("#play-next").click()  # nothing Ann can give while the shop task is held
        ann.locator(".messages", has_text="No task of this campaign needs a run you can give").wait_for()
        ann.locator("[data-chart=fig-coverage] .main-svg").first.wait_for()
        ann.screenshot(path=str(artifacts_dir / "campaign-after.png"), full_page=True)

        # The hold time (10 minutes, so that Ben's hold outlasts Ann's play on a busy machine) passes with no play:
        # the assignment is moved ten and a half minutes into the past rather than waited for
        # (tests/humanplay/test_campaigns.py checks the boundary). The page releases it,
        # and the task goes to Ann.
        ann.reload()
        assert fact(ann, "in-play") == "1"  # not before its time
        earlier = timedelta(minutes=10, seconds=30)
        assert Assignment.objects.filter(user__username="cal", status=Assignment.Status.HELD).update(
            created=F("created") - earlier, held_until=F("held_until") - earlier) == 1
        ann.reload()
        assert fact(ann, "in-play") == "0", "the abandoned assignment was not released"
        ann.locator("#play-next").click()
        ann.wait_for_url("**/campaigns/spring/assignments/*/")
        assert "consent" not in ann.locator("#start-form").inner_text().lower()  # agreed once already
        ann.goto(site_url + "/campaigns/spring/")
        assert "1 in play" in ann.locator('#coverage-task tr[data-task="shop/earn-15@1"]').inner_text()
        ann.screenshot(path=str(artifacts_dir / "campaign-released.png"), full_page=True)

        # The worker verifies the two runs; the export lists them under pseudonyms.
        deadline = time.monotonic() + 180
        while True:
            runs = ann.request.get(site_url + "/campaigns/spring/runs.json").json()["runs"]
            if len(runs) == 2 or time.monotonic() > deadline:
                break
            time.sleep(3)
        assert {(r["task"], r["kind"], r["success"]) for r in runs} == {(GEMS, "novice", gems_reached),
                                                                        (CORNER, "novice", True)}
        assert all(r["player"].startswith("volunteer-") for r in runs) and len({r["player"] for r in runs}) == 2

        # On the board the novice row says what stands behind it; below the maintainers' coverage it is incomplete.
        BoardSettings.objects.update_or_create(pk=1, defaults={"human_min_coverage": 80})
        ann.goto(site_url + "/?ts=lab-v1")
        novice = ann.locator('tr[data-key="novice"]')
        assert "2 players · 2 of 3 tasks" in novice.inner_text()
        progress = sorted(100 * r["progress"] for r in runs)  # two tasks, one run each: the interval spans them
        interval = f"{progress[0]:.1f}–{progress[-1]:.1f}"
        assert f"95 % bootstrap interval over tasks {interval}" in novice.locator(".support").get_attribute("title")
        assert interval in novice.locator("td.pg.overall").inner_text()  # the interval under the figure
        assert novice.locator(".incomplete-badge").inner_text() == "incomplete · 2/3 tasks"
        novice.screenshot(path=str(artifacts_dir / "campaign-board-human-row.png"))
    finally:
        ann_context.close()
        ben_context.close()
