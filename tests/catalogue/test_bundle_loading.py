"""Loading bundles into the database: no duplicates, no silent overwrite of a published task version."""
import json
import re
import shutil
from types import SimpleNamespace

import pytest
from celery import current_app

from catalogue.bundle_loading import load_bundles, make_default_if_none
from catalogue.models import Game, Task, TaskSet
from sandbox.registry import Registry
from tests.conftest import FIXTURE_GAMES, tally_copy

pytestmark = pytest.mark.django_db


@pytest.fixture
def games_dir(tmp_path):
    shutil.copytree(FIXTURE_GAMES / "counter", tmp_path / "counter")
    return tmp_path


def edit_manifest(games_dir, change):
    path = games_dir / "counter" / "manifest.json"
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


def load(games_dir, **options):
    return load_bundles(games_registry=Registry(games_dir), capture_frames=False, **options)


def test_first_load_adds_games_tasks_and_publishes_the_default_task_set(games_dir):
    report = load(games_dir)
    assert not report.errors
    game = Game.objects.get(slug="counter")
    assert (game.title, game.genre, game.level, game.version) == ("Counter (test fixture)", "arcade", 1, "1.0.0")
    task = Task.objects.get(game=game, slug="score-3")
    assert (task.version, task.target, task.max_actions, task.game_version) == (1, 3, 10, "1.0.0")
    default = TaskSet.objects.get(is_default=True)
    assert default.status == "published" and list(default.tasks.all()) == [task]
    assert task.is_published


def test_loading_twice_duplicates_nothing(games_dir):
    load(games_dir)
    report = load(games_dir)
    assert not report.errors
    assert Game.objects.count() == 1 and Task.objects.count() == 1 and TaskSet.objects.count() == 1


def test_wording_of_a_published_task_may_change(games_dir):
    load(games_dir)
    edit_manifest(games_dir, lambda d: d["tasks"][0].update(instruction="Press ArrowUp three times to reach 3."))
    report = load(games_dir)
    assert not report.errors
    assert Task.objects.get().instruction.startswith("Press ArrowUp three times")


def test_changing_what_a_published_task_measures_is_refused(games_dir):
    load(games_dir)
    edit_manifest(games_dir, lambda d: d["tasks"][0].update(target=5))
    report = load(games_dir)
    assert len(report.errors) == 1
    assert "counter/manifest.json: tasks[0].version: counter/score-3@1 is published" in report.errors[0]
    assert "target" in report.errors[0]
    assert Task.objects.get().target == 3  # nothing half-stored


def test_a_new_task_version_is_added_beside_the_published_one(games_dir):
    load(games_dir)
    edit_manifest(games_dir, lambda d: d["tasks"][0].update(target=5, version=2, instruction="Reach 5 points."))
    report = load(games_dir)
    assert not report.errors
    assert sorted(Task.objects.values_list("version", "target")) == [(1, 3.0), (2, 5.0)]
    default = TaskSet.objects.get(is_default=True)
    assert [t.version for t in default.tasks.all()] == [1]  # a published set stays frozen
    assert any("newer task versions are not in it" in line for line in report.lines)


def test_a_bad_manifest_is_refused_naming_file_and_field(games_dir):
    edit_manifest(games_dir, lambda d: d.update(genre="racing"))
    report = load(games_dir)
    assert report.errors and "counter/manifest.json: genre:" in report.errors[0]
    assert not Game.objects.exists()


def test_the_command_fails_loudly_on_a_bad_bundle(games_dir, settings, monkeypatch):
    from django.core.management import CommandError, call_command

    import catalogue.bundle_loading as bundle_loading

    edit_manifest(games_dir, lambda d: d["tasks"][0].update(score_field="coins"))
    monkeypatch.setattr(bundle_loading, "registry", Registry(games_dir))
    with pytest.raises(CommandError, match="tasks\\[0\\].score_field: 'coins' is not a state field"):
        call_command("load_games", "--no-frames")


def load_command(games_dir, monkeypatch):
    import io

    from django.core.management import call_command

    import catalogue.bundle_loading as bundle_loading

    monkeypatch.setattr(bundle_loading, "registry", Registry(games_dir))
    out = io.StringIO()
    call_command("load_games", "--no-frames", stdout=out)
    return out.getvalue()


def tally_with(tmp_path, *slugs):
    """A games folder holding the tally fixture (calibrated) with only the named tasks."""
    return tally_copy(tmp_path, tasks=slugs)


def edit_card(games_dir, task_id, change):
    path = games_dir / "tally" / "calibration.json"
    data = json.loads(path.read_text())
    change(data["tasks"][task_id])
    path.write_text(json.dumps(data))


@pytest.fixture
def calibrated_dir(tmp_path):
    return tally_with(tmp_path, "points-15")


def test_a_bundle_s_calibration_cards_are_kept_with_its_task_versions(calibrated_dir, games_dir):
    load(calibrated_dir)
    card = Task.objects.get(slug="points-15").calibration
    stored = json.loads((calibrated_dir / "tally" / "calibration.json").read_text())["tasks"]["tally/points-15@1"]
    assert card == stored and len(card["random"]["cua"]["results"]) >= 30
    summary = Task.objects.get(slug="points-15").calibration_summary()
    assert summary["solver"]["sr"] == 100.0 and summary["random"]["cua"]["sr"] <= 10.0
    assert summary["fresh_solver"]["sr"] == 100.0 and summary["open_loop"]["sr"] <= 10.0
    assert summary["trivial"]["sr"] == 0.0 and summary["trivial"]["policies"] == 8  # 2 keys, 1 pair, 3 actions, 2 cycles
    ladder = summary["noise"]  # the noisy solver, from no noise up, in percent
    assert [level["noise"] for level in ladder] == [0, 10, 30, 60] and ladder[0]["sr"] == 100.0
    assert [level["runs"] for level in ladder] == [10] * 4 and ladder[1]["pg"] > ladder[3]["pg"]
    load(games_dir)
    assert Task.objects.get(slug="score-3").calibration is None  # a bundle without a calibration file


def test_a_malformed_calibration_file_refuses_the_bundle_naming_the_field(calibrated_dir):
    edit_card(calibrated_dir, "tally/points-15@1", lambda card: card["random"]["cua"].update(results="many"))
    report = load(calibrated_dir)
    assert len(report.errors) == 1
    assert "calibration.json: tasks/tally/points-15@1/random/cua/results:" in report.errors[0]
    assert not Task.objects.exists()


def test_the_command_validates_a_new_default_task_set_before_publishing_it(calibrated_dir, monkeypatch,
                                                                              admin_client):
    from catalogue.models import AuditEntry

    out = load_command(calibrated_dir, monkeypatch)
    assert "task set core-v15: a draft with 1 tasks" in out
    assert "validated 1/1 tally/points-15@1: ok" in out and out.rstrip().endswith("task set core-v15: published")
    default = TaskSet.objects.get(is_default=True)
    validation = Task.objects.get().validations.get()
    assert default.status == "published" and validation.ok and validation.deterministic and validation.frame_png
    actions = list(AuditEntry.objects.order_by("at").values_list("action", "actor"))
    assert actions == [("validated task", None), ("published task set", None)]
    assert admin_client.get("/admin/catalogue/auditentry/").content.decode().count("set-up (load_games)") == 2
    task_page = admin_client.get(f"/admin/catalogue/task/{Task.objects.get().pk}/change/").content.decode()
    assert "set-up (load_games)" in task_page  # the validation's "requested by"
    assert "validated" not in load_command(calibrated_dir, monkeypatch)  # a published set is not validated again
    task_page = admin_client.get(f"/admin/catalogue/task/{Task.objects.get().pk}/change/").content.decode()
    assert "Random, computer-use" in task_page and "Scripted solver" in task_page  # the calibration card
    assert "Open loop (the reference replayed blind on fresh seeds)" in task_page and "Trivial policies" in task_page


@pytest.mark.parametrize("case, message", [
    ("null reaches", "the null trajectory reaches the target"),
    ("no card", "not calibrated: run `python -m sandbox calibrate tally`"),
    ("forged card", "random (cua|generalist) run \\(seed \\d, action seed \\d+\\) replays as"),
])
def test_the_command_leaves_a_task_that_fails_validation_out_of_the_default_set(tmp_path, monkeypatch, case,
                                                                                 message):
    from catalogue.models import AuditEntry

    games_dir = tally_with(tmp_path, "points-8", "points-15")

    def forge(card):  # every stored random run claims a trace it never had
        for interface in ("cua", "generalist"):
            for run in card["random"][interface]["results"]:
                run["trace_sha256"] = "0" * 64
    if case == "null reaches":
        path = games_dir / "tally" / "manifest.json"
        data = json.loads(path.read_text())
        data["tasks"][0]["null"] = data["tasks"][0]["reference"]
        path.write_text(json.dumps(data))
    elif case == "no card":
        path = games_dir / "tally" / "calibration.json"
        data = json.loads(path.read_text())
        del data["tasks"]["tally/points-8@1"]
        path.write_text(json.dumps(data))
    else:
        edit_card(games_dir, "tally/points-8@1", forge)
    out = load_command(games_dir, monkeypatch)
    assert re.search("validated 1/2 tally/points-8@1: FAILED: .*" + message, out), out
    assert "validated 2/2 tally/points-15@1: ok" in out
    assert "1 tasks fail validation and are left out of core-v15: tally/points-8@1" in out
    task_set = TaskSet.objects.get(slug="core-v15")
    assert task_set.status == "published" and task_set.is_default
    assert [task.task_id for task in task_set.tasks.all()] == ["tally/points-15@1"]
    left_out = AuditEntry.objects.get(action="left failing tasks out of the task set")
    assert list(left_out.changes) == ["tally/points-8@1"] and re.search(message, left_out.changes["tally/points-8@1"])


def test_a_default_task_set_on_which_random_play_progresses_too_far_stays_a_draft(tmp_path, monkeypatch):
    from django.core.management import CommandError

    games_dir = tally_with(tmp_path, "points-8")  # passes the gate alone; random play makes ~36 % progress on it
    with pytest.raises(CommandError, match="GameWorld core v15 cannot be the default task set: the task set: random "
                                           "cua play makes [23]\\d\\.\\d% mean progress \\(at most 20%\\)"):
        load_command(games_dir, monkeypatch)
    assert Task.objects.get().validations.get().ok  # the task itself passed
    task_set = TaskSet.objects.get(slug="core-v15")
    assert task_set.status == "draft" and not task_set.is_default


def test_a_new_bundled_default_task_set_takes_over_and_the_old_one_stays_viewable(calibrated_dir, monkeypatch,
                                                                                    client):
    from django.utils import timezone

    old = TaskSet.objects.create(slug="core-v1", name="GameWorld core v1", status=TaskSet.Status.PUBLISHED,
                                 published_at=timezone.now(), is_default=True)
    mine = TaskSet.objects.create(slug="lab-v1", name="Our lab's set", status=TaskSet.Status.PUBLISHED,
                                  published_at=timezone.now())
    load_command(calibrated_dir, monkeypatch)
    assert TaskSet.objects.get(is_default=True).slug == "core-v15"
    assert TaskSet.objects.get(pk=old.pk).status == "published"
    page = client.get("/?ts=core-v1")
    assert page.status_code == 200 and "GameWorld core v1" in page.content.decode()
    # A default a maintainer chose among their own sets is theirs to change.
    TaskSet.objects.update(is_default=False)
    TaskSet.objects.filter(pk=mine.pk).update(is_default=True)
    make_default_if_none(task_set=TaskSet.objects.get(slug="core-v15"))
    assert TaskSet.objects.get(is_default=True) == mine


def test_a_first_start_in_the_background_shows_progress_then_publishes(calibrated_dir, monkeypatch, client):
    import io

    from django.core.management import call_command

    import catalogue.bundle_loading as bundle_loading
    from catalogue import tasks
    from gameworld_site.management.commands import load_games
    from rounds.tasks import ensure_default_curriculum
    from submissions.tasks import load_baselines

    queued, frames_queued = [], []
    monkeypatch.setattr(load_games, "chain", lambda *steps: SimpleNamespace(delay=lambda: queued.append(steps)))
    monkeypatch.setattr(load_games.capture_game_frames, "delay", frames_queued.append)
    monkeypatch.setattr(bundle_loading, "registry", Registry(calibrated_dir))
    out = io.StringIO()
    call_command("load_games", "--background", stdout=out)
    draft = TaskSet.objects.get(slug="core-v15")
    # Publish the set, then load the baselines and make the default rounds curriculum, which need a published set.
    [(publish, then, last)] = queued
    assert (publish.task, publish.args, then.task, last.task) == (
        tasks.publish_default_task_set.name, (draft.pk,), load_baselines.name, ensure_default_curriculum.name)
    assert draft.status == "draft" and "queued for validation" in out.getvalue()
    page = client.get("/").content.decode()
    assert "Setting up GameWorld core v15" in page  # the first phase: the frames
    assert re.search(r'<li class="now">Capturing a frame of each game:\s*<strong>0 of 1</strong>', page), page
    # Every board page answers with the notice, not a 404, before anything is published.
    task = draft.tasks.get()
    for path in ("/leaderboard/compare/", "/leaderboard/games/tally/", f"/leaderboard/tasks/tally/{task.slug}/1/",
                 "/leaderboard/humans/novice/"):
        answer = client.get(path)
        assert answer.status_code == 200 and 'id="setting-up"' in answer.content.decode(), path
    # The frames are the worker's too: until it has captured one, the game's frame is a placeholder.
    game = Game.objects.get(slug="tally")
    assert frames_queued == [[game.pk]] and "frames queued for capture" in out.getvalue()
    pending = client.get("/games/tally/frame.png")
    assert pending.status_code == 302 and re.search(r"/img/frame-pending\.(\w+\.)?svg$", pending["Location"])
    assert pending["Cache-Control"] == "no-store"
    monkeypatch.setattr(current_app.conf, "task_always_eager", True)  # what the worker runs, in this order
    tasks.capture_game_frames.apply(args=[frames_queued[0]])
    captured = client.get("/games/tally/frame.png")
    assert captured.status_code == 200 and captured.content.startswith(b"\x89PNG")
    page = client.get("/").content.decode()
    assert re.search(r'<li class="now">Checking the tasks:\s*<strong>0 of 1</strong>', page), page
    baselines = io.StringIO()
    call_command("load_baselines", stdout=baselines)
    assert "the worker loads the baselines once it publishes" in baselines.getvalue()

    tasks.publish_default_task_set.delay(draft.pk)
    load_baselines()
    draft.refresh_from_db()
    assert draft.status == "published" and draft.is_default
    page = client.get("/").content.decode()
    assert "Setting up" not in page and 'id="leaderboard"' in page
