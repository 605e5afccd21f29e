"""A rounds evaluation end to end, against Daphne and a Celery worker: `gameworld run --rounds` drives a scripted
fake model whose notes change its play (so its curve is known in advance, a rollback included) and a random agent
(whose curve is flat within its interval); every round is verified by the worker's replay; the board and the entry
page are looked at in Chromium at 1280 and 390 pixels."""
import json
import re
import time

import pytest
from django.core.cache import cache

from gameworld_client.__main__ import main
from rounds import selectors
from submissions.models import Submission
from tests.gameworld_client.fake_chat import FakeChat, text, tool_call
from tests.hosted.test_hosted import token_for
from tests.rounds.factories import counter_curriculum, people_rounds

pytestmark = [pytest.mark.slow, pytest.mark.real_broker, pytest.mark.django_db(transaction=True)]
NOTES = re.compile(r"press up (\d+) times")


class Learner:
    """A fake computer-use model that plays by its notes: "press up N times" makes it press ArrowUp on the first N
    steps of an episode and wait after, so on counter/score-3 its progress is min(N, 3) / 3. Reflecting, it writes
    N + 1, except once, from N = 2, when it forgets (N = 0): the drop the runner must roll back from."""

    def __init__(self):
        self.forgot = False
        self.reflections = []

    def __call__(self, body):
        messages = body["messages"]
        if not body.get("tools"):  # the reflection between rounds
            prompt = messages[-1]["content"]
            notes = re.search(r"<<<\n(.*?)\n>>>", prompt, re.S).group(1)
            count = int(NOTES.search(notes).group(1)) if NOTES.search(notes) else 0
            self.reflections.append(count)
            if count == 2 and not self.forgot:
                self.forgot = True
                return text("press up 0 times")
            return text(f"press up {count + 1} times")
        found = NOTES.search(messages[0]["content"])
        count = int(found.group(1)) if found else 0
        step = int(re.search(r"Step (\d+) of", messages[-1]["content"][0]["text"]).group(1))
        return tool_call("press_key", {"key": "ArrowUp"}) if step <= count else tool_call("wait")


def verified_rounds(timeout=300):
    deadline = time.monotonic() + timeout
    while Submission.objects.filter(provenance="round").exclude(status__in=["verified", "rejected"]).exists():
        assert time.monotonic() < deadline, "the worker did not verify every round in time"
        time.sleep(0.5)
    assert not Submission.objects.filter(provenance="round", status="rejected").exists()


def test_learning_and_random_curves_from_the_runner_to_the_board(site_url, celery_worker_process, page, capsys,
                                                                  artifacts_dir):
    learning = counter_curriculum("counter-learning", training=(3,), held_out=(2,), rounds=4, episodes=2,
                                  description="Press up to score: a curriculum whose best play is found by trying.")
    chance = counter_curriculum("counter-chance", training=(3, 5, 6, 7), held_out=(2, 4), rounds=2, episodes=2)
    key = token_for("rounds-e2e")
    site = ["--site", site_url, "--token", key, "--interface", "cua", "--no-wait"]
    learner = Learner()
    with FakeChat(respond=learner) as fake:
        assert main(["run", "--rounds", learning.slug, "--agent", "chat", "--base-url", fake.base_url, "--model",
                     "fake-learner", "--api-key", fake.key, "--name", "Fake learner", *site]) == 0
    said = capsys.readouterr().out
    assert learner.reflections == [0, 1, 2, 2], said  # the fourth reflection starts again from round 2's notes
    assert "a sharp drop from round 2" in said and "rolled back after round 3" in said
    assert "the held-out round plays with the notes of round 4, the best" in said
    assert main(["run", "--rounds", chance.slug, "--agent", "random", "--random-seed", "3", *site]) == 0
    verified_rounds()

    cache.clear()
    [fake_entry] = selectors.board(learning)
    figures = fake_entry["figures"][selectors.OVERALL]
    assert figures["curve"] == pytest.approx([0, 100 / 3, 200 / 3, 0, 100], abs=0.01)
    assert (figures["rounds_to_best"], figures["final"], figures["held_out_cold"], figures["held_out"]) == (
        4, 100.0, 0.0, 100.0)
    assert figures["gain"]["diff"] == 100.0 and figures["transfer"]["diff"] == 100.0 and not figures["flat"]
    assert [r["artifact"] for r in fake_entry["rounds"]] == [
        "", "press up 1 times", "press up 2 times", "press up 0 times", "press up 3 times", "press up 3 times"]
    [random_entry] = selectors.board(chance)
    noise = random_entry["figures"][selectors.OVERALL]
    assert noise["flat"] and noise["gain"]["lo"] <= 0 <= noise["gain"]["hi"], noise
    assert noise["transfer"]["lo"] <= 0 <= noise["transfer"]["hi"], noise  # no transfer either
    assert all(r["artifact"] == "" for r in random_entry["rounds"])  # it learns nothing: it carries nothing

    (artifacts_dir / "rounds-figures.json").write_text(json.dumps(  # for a person to read: both curves' figures
        {"fake learner": figures, "random": noise}, indent=1))
    people_rounds(learning, {"ann": [0.0, 1 / 3, 2 / 3, 1.0, 1.0], "bo": [1 / 3, 1 / 3, 1.0]})  # beside the agents
    cache.clear()
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(f"{site_url}/rounds/")
        assert page.locator("#curricula tbody tr").count() == 2
        page.screenshot(path=str(artifacts_dir / f"rounds-index-{width}.png"), full_page=True)
        page.get_by_role("link", name=learning.title).click()
        page.locator(".chart .main-svg").first.wait_for()
        assert page.locator("#rounds-board tbody tr").count() == 1 and page.locator("#people").is_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= width  # nothing wider than the screen
        page.screenshot(path=str(artifacts_dir / f"rounds-board-{width}.png"), full_page=True)
        page.get_by_role("link", name="Fake learner").click()
        page.locator(".chart .main-svg").first.wait_for()
        assert page.locator("#round-3 pre").inner_text() == "press up 0 times"
        assert page.locator("#transfer").inner_text() == "+100.0 n/a (1 task)"  # one task a side: no interval
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.screenshot(path=str(artifacts_dir / f"rounds-entry-{width}.png"), full_page=True)
