"""Helpers for the submission tests: bundled games in the test database, and upload payloads."""
import json

from django.contrib.auth.models import User

from catalogue.bundle_loading import load_bundles
from catalogue.models import Task, TaskSet
from submissions.management.commands._baselines import primitive
from submissions.models import UploadLimits

# Short reference trajectories, one per game: quick to replay.
SHORT_TASKS = ["minesweeper/clear-2-boards@2", "platformer/seven-coins@3", "breakout/rally-5@2",
               "merge2048/corner-20@1"]


def load_games():
    report = load_bundles(capture_frames=False)
    assert not report.errors, report.errors


def task(task_id):
    slug, version = task_id.split("@")
    game, name = slug.split("/")
    return Task.objects.get(game__slug=game, slug=name, version=int(version))


def run_entry(task_id, trajectory="reference", with_claim=True, **overrides):
    found = task(task_id)
    data = getattr(found, trajectory)
    entry = {"task": task_id, "seed": data["seed"], "actions": data["actions"]}
    if with_claim:
        entry["claimed"] = {"progress": 1.0, "success": True}
    entry.update(overrides)
    return entry


def payload(runs, **overrides):
    """A submission of these runs. Its interface is the one their actions show: generalist when every
    action is semantic; else computer-use, with each semantic action replaced by the key press or click it
    stands for (the same game input, so the same figures), since one submission has one interface."""
    actions = [a for r in runs for a in r.get("actions", []) if isinstance(a, dict) and a.get("type") != "invalid"]
    interface = "generalist" if actions and all(a.get("type") == "semantic" for a in actions) else "cua"
    if interface == "cua":
        runs = [as_computer_use(r) for r in runs]
    data = {"format": "gameworld.submission/1",
            "agent": {"name": "test-agent", "model": "scripted", "org": "GameWorld", "interface": interface},
            "protocol": "paused", "task_set": "core-v15", "runs": runs}
    data.update(overrides)
    return json.dumps(data).encode()


def as_computer_use(run):
    if not any(isinstance(a, dict) and a.get("type") == "semantic" for a in run.get("actions", [])):
        return run
    spec = task(run["task"]).spec()
    return {**run, "actions": [primitive(a, spec) if isinstance(a, dict) and a.get("type") == "semantic" else a
                               for a in run["actions"]]}


def as_semantic(actions, game):
    """Primitive actions as the semantic actions that stand for them (the same game input), for a generalist's
    plan; `game` is a GameSpec."""
    names = {json.dumps(entry["action"], sort_keys=True): entry["name"] for entry in game.manifest["semantic_actions"]}
    return [{"type": "semantic", "name": names[json.dumps(action, sort_keys=True)]} for action in actions]


def make_user(name="alice"):
    user = User.objects.filter(username=name).first()
    return user or User.objects.create_user(name, password=f"pw-{name}-2026!")


def limits():
    return UploadLimits.current()


def validating_the_default_set(done, seconds_apart):
    """A first start: core-v15 a draft, `done` of its tasks validated `seconds_apart` apart, nothing published."""
    from datetime import timedelta

    from django.utils import timezone

    from catalogue.models import TaskValidation

    draft = TaskSet.objects.get(slug="core-v15")
    TaskSet.objects.filter(pk=draft.pk).update(status=TaskSet.Status.DRAFT)
    started = timezone.now()
    for index, task in enumerate(draft.tasks.all()[:done]):
        validation = TaskValidation.objects.create(task=task, game_version=task.game_version, ok=True)
        TaskValidation.objects.filter(pk=validation.pk).update(created=started + timedelta(seconds=index * seconds_apart))
    return draft.tasks.count()
