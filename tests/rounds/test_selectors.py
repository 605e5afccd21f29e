"""The figures of a rounds evaluation from verified runs (the cold round, best, final, area, gain and transfer with
their bootstrap intervals, the ranking), its pages and exports, and the people's curve."""
import json

import pytest
from django.core.cache import cache

from hosted.models import HostedEvaluation
from rounds import selectors, services
from submissions.models import Run, Submission
from tests.factories import make_user
from tests.rounds.factories import counter_curriculum, people_rounds

pytestmark = pytest.mark.django_db
AGENT = {"name": "learner", "model": "m-1", "interface": "generalist"}


def play(evaluation, progress, *, status=Run.Status.VERIFIED, mismatch=False):
    """Submit a round with runs of the given progress ({task: [progress of each episode]}), verified by default."""
    submission = Submission.objects.create(task_set=evaluation.task_set, agent_name=AGENT["name"], model_name="m-1",
                                           interface="generalist", status="verified", provenance="round")
    for task, values in progress.items():
        for number, value in enumerate(values, 1):
            Run.objects.create(submission=submission, task=task, seed=number, actions=[], status=status,
                               progress=value, success=value >= 1, mismatch=mismatch)
    HostedEvaluation.objects.filter(pk=evaluation.pk).update(status="submitted", submission=submission)


def entry_through(curriculum, user, rounds, held_out, agent=AGENT):
    """An entry that played `rounds` (a list of {task: [progress]}) and then the held-out round (or stopped)."""
    evaluation = services.begin(user, {"curriculum": curriculum.slug, "agent": agent})
    entry = evaluation.round.entry
    for index, progress in enumerate(rounds):
        play(evaluation, progress)
        if index + 1 < len(rounds) or held_out is not None:
            evaluation = services.begin(user, {"rounds_entry": entry.pk, "artifact": f"notes after round {index}"})
    if held_out is not None:
        play(evaluation, held_out)
    return entry


def test_an_entrys_curve_gain_and_transfer_come_from_its_verified_runs(client):
    cache.clear()
    curriculum = counter_curriculum(training=(3, 5), held_out=(2, 4), rounds=3)
    three, five = curriculum.training_tasks.order_by("target")
    two, four = curriculum.held_out_tasks.order_by("target")
    user = make_user("lena")
    # Round means over the training tasks of episode means: 0.25, 0.5, 0.75 then 0.5 (a drop). The held-out tasks:
    # 0.5 and 0.25 cold in round 0, then 1.0 and 0.5 in the held-out round.
    rounds = [{three: [0.5, 0.0], five: [0.0, 0.5], two: [0.5, 0.5], four: [0.0, 0.5]},
              {three: [0.5, 0.5], five: [0.5, 0.5]},
              {three: [1.0, 1.0], five: [0.5, 0.5]}, {three: [0.5, 0.5], five: [0.5, 0.5]}]
    learner = entry_through(curriculum, user, rounds, {two: [1.0, 1.0], four: [0.5, 0.5]})
    Run.objects.create(submission=learner.rounds.get(index=0).evaluation.submission, task=three, seed=9, actions=[],
                       status=Run.Status.VERIFIED, progress=1.0, success=True, mismatch=True)  # never counted
    Run.objects.create(submission=learner.rounds.get(index=0).evaluation.submission, task=five, seed=9, actions=[],
                       status=Run.Status.PENDING)  # not yet verified: not counted
    entry_through(curriculum, make_user("ben"), [{three: [0.5], five: [0.5], two: [0.5], four: [0.5]},
                                                 *[{three: [0.5], five: [0.5]}] * 3],
                         {two: [0.5], four: [0.5]}, agent={**AGENT, "name": "flat"})
    unfinished = entry_through(curriculum, make_user("cy"), [{three: [0.2], five: [0.2]}], None,
                               agent={**AGENT, "name": "unfinished"})

    rows = selectors.board(curriculum)
    figures = {row["agent"]["name"]: row["figures"] for row in rows}
    mine = figures["learner"][selectors.OVERALL]
    assert mine["curve"] == [25.0, 50.0, 75.0, 50.0]
    assert (mine["cold"], mine["best"], mine["rounds_to_best"], mine["final"]) == (25.0, 75.0, 2, 50.0)
    assert mine["auc"] == pytest.approx((25 / 2 + 50 + 75 + 50 / 2) / 3, abs=0.01)
    assert mine["gain"]["diff"] == 25.0 and mine["gain"]["lo"] == 25.0 and mine["gain"]["hi"] == 25.0  # both +25
    assert mine["flat"] is False
    assert (mine["held_out_cold"], mine["held_out"], mine["transfer"]["diff"]) == (37.5, 75.0, 37.5)
    assert (mine["transfer"]["lo"], mine["transfer"]["hi"]) == (25.0, 50.0)  # the two tasks' gains, +50 and +25
    by_game = figures["learner"]["counter"]
    assert by_game["curve"] == mine["curve"]  # one game: the same figures
    assert figures["flat"][selectors.OVERALL]["flat"] is True
    assert figures["flat"][selectors.OVERALL]["transfer"]["diff"] == 0.0
    assert figures["unfinished"][selectors.OVERALL]["curve"] == [20.0, None, None, None]
    assert figures["unfinished"][selectors.OVERALL]["final"] is None
    # Ranked by transfer among finished entries (the learner's lower bound, +25, is above the flat one's 0); the
    # unfinished entry after them, unranked.
    assert [(row["agent"]["name"], row["rank"], row["stage"]) for row in rows] == [
        ("learner", 1, "finished"), ("flat", 2, "finished"), ("unfinished", None, "between")]

    page = client.get(f"/rounds/{curriculum.slug}/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "learner" in text and 'id="fig-curves"' in text and "+37.5" in text and "37.5 → 75.0" in text
    entry_page = client.get(f"/rounds/entries/{learner.pk}/").content.decode()
    assert "notes after round 2" in entry_page and "Played cold" in entry_page and 'id="fig-entry-curves"' in entry_page
    assert client.get(f"/rounds/entries/{unfinished.pk}/").status_code == 200

    exported = json.loads(client.get(f"/rounds/{curriculum.slug}/export.json").content)
    learner_rows = [r for r in exported["rows"] if r["agent"] == "learner" and r["scope"] == "overall"]
    assert [r["pg"] for r in learner_rows] == [25.0, 50.0, 75.0, 50.0]
    assert learner_rows[0]["transfer"] == 37.5 and learner_rows[0]["rank"] == 1
    csv = client.get(f"/rounds/{curriculum.slug}/export.csv").content.decode().splitlines()
    assert csv[0].startswith("entry,agent,model,interface,stage,rank,scope,round,pg")
    assert len(csv) == 1 + len(exported["rows"])


def test_round_submissions_stay_off_the_leaderboards():
    from leaderboard import selectors as board_selectors

    curriculum = counter_curriculum()
    three = curriculum.training_tasks.get()
    entry_through(curriculum, make_user("lena"), [{three: [1.0]}], None)
    for board in board_selectors.BOARDS.values():
        assert Submission.Provenance.ROUND not in board


def test_the_peoples_curve_is_the_campaigns_volunteers_round_by_round(client):
    curriculum = counter_curriculum(rounds=2)
    assert selectors.people_curve(curriculum) is None  # no campaign
    people_rounds(curriculum, {"ann": [0.0, 0.5, 1.0, 1.0], "bo": [0.5, 1.0]})
    # Round 0: 0 and 50; round 1: 50 and 100; round 2: ann's 100; her round 3 is past the curriculum's last round.
    assert selectors.people_curve(curriculum) == {"curve": [25.0, 75.0, 100.0], "pairs": [2, 2, 1], "players": 2}
    page = client.get(f"/rounds/{curriculum.slug}/").content.decode()
    assert 'id="people"' in page and "Learning, people" in page and "people (2)" in page


def test_a_curriculum_refuses_tasks_that_do_not_make_one():
    from django.core.exceptions import ValidationError

    from catalogue.models import TaskSet
    from tests.rounds.factories import counter_tasks

    three, two = counter_tasks(3, 2)
    task_set = TaskSet.objects.create(slug="s", name="s", status=TaskSet.Status.PUBLISHED)
    task_set.tasks.set([three])
    with pytest.raises(ValidationError) as refused:
        services.create_curriculum(slug="bad", title="Bad", task_set=task_set, training=[three], held_out=[three, two],
                                   rounds=0)
    text = str(refused.value)
    assert "between 1 and 20 rounds" in text
    task_set.tasks.add(two)
    with pytest.raises(ValidationError) as refused:
        services.create_curriculum(slug="bad", title="Bad", task_set=task_set, training=[three], held_out=[three, two])
    assert "a held-out task may not be a training task: counter/score-3@1" in str(refused.value)


def test_the_admin_refuses_a_curriculum_whose_tasks_do_not_make_one_and_stores_nothing(admin_client):
    from rounds.models import Curriculum
    from tests.rounds.factories import counter_tasks

    three, two = counter_tasks(3, 2)
    curriculum = counter_curriculum("kept")  # a published set holding score-3 and score-2
    form = {"slug": "mixed", "title": "Mixed", "description": "", "task_set": curriculum.task_set.pk,
            "training_tasks": [three.pk], "held_out_tasks": [three.pk], "rounds": 3, "episodes_per_round": 2,
            "artifact_max_chars": 4000, "published": "on"}
    answer = admin_client.post("/admin/rounds/curriculum/add/", form)
    assert answer.status_code == 200
    assert "a held-out task may not be a training task: counter/score-3@1" in answer.content.decode()
    answer = admin_client.post("/admin/rounds/curriculum/add/", {**form, "held_out_tasks": [two.pk], "rounds": 0})
    assert "between 1 and 20 rounds" in answer.content.decode()
    assert not Curriculum.objects.filter(slug="mixed").exists()
    answer = admin_client.post("/admin/rounds/curriculum/add/", {**form, "held_out_tasks": [two.pk]})
    assert answer.status_code == 302 and Curriculum.objects.get(slug="mixed").held_out_tasks.get() == two


def test_a_new_site_publishes_its_default_curriculum_once_on_the_default_set():
    from catalogue.bundle_loading import DEFAULT_TASK_SET
    from rounds.models import Curriculum
    from tests.factories import load_games

    assert services.ensure_default_curriculum() is None  # no default set yet
    load_games()  # the bundled games, their default set published
    curriculum = services.ensure_default_curriculum()
    games = services.DEFAULT_CURRICULUM["games"]
    assert curriculum.published and curriculum.task_set.slug == DEFAULT_TASK_SET[0]
    assert sorted({t.game.slug for t in curriculum.training_tasks.all()}) == sorted(games)
    for slug in games:  # each game's first two tasks in its manifest's order are trained on, its third held out
        manifest = [t["slug"] for t in curriculum.training_tasks.filter(game__slug=slug).first().game.manifest["tasks"]]
        assert sorted(curriculum.training_tasks.filter(game__slug=slug).values_list("slug", flat=True)) == sorted(
            manifest[:2])
        assert list(curriculum.held_out_tasks.filter(game__slug=slug).values_list("slug", flat=True)) == [manifest[2]]
    Curriculum.objects.filter(pk=curriculum.pk).update(title="Edited by a maintainer")
    assert services.ensure_default_curriculum().title == "Edited by a maintainer"  # made once, then left alone
    assert Curriculum.objects.count() == 1
