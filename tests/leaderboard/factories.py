"""Build leaderboard data directly in the database: submissions and verified runs with chosen figures."""
import itertools
import random

from django.contrib.auth.models import User
from django.utils import timezone

from catalogue.bundle_loading import load_bundles
from catalogue.models import Task, TaskSet
from submissions.models import Run, Submission
from tests.factories import task

_seeds = itertools.count(1000)
# The bundled browser games the fixtures use (bundles being written elsewhere in the tree are left alone).
GAMES = ["breakout", "runner", "platformer", "merge2048", "minesweeper", "shop"]


def load_games():
    report = load_bundles(slugs=GAMES, capture_frames=False)
    assert not report.errors, report.errors


def core_task_set():
    load_games()
    return TaskSet.objects.get(slug="core-v15")


def mini_task_set(task_ids, slug="mini-v1", name="Mini v1"):
    """A published task set of the given tasks ("game/task@version")."""
    load_games()
    found = TaskSet.objects.create(slug=slug, name=name, status=TaskSet.Status.PUBLISHED, published_at=timezone.now())
    found.tasks.set([task(t) for t in task_ids])
    return found


def submission(task_set, name, *, model="model-x", org="Org", interface="cua", status="verified", created=None,
               provenance="sealed", copy_of=None):
    """A submission of the default (sealed) board unless another provenance is given."""
    sub = Submission.objects.create(task_set=task_set, agent_name=name, model_name=model, organisation=org,
                                    interface=interface, status=status, provenance=provenance, copy_of=copy_of)
    if created is not None:
        Submission.objects.filter(pk=sub.pk).update(created=created)
        sub.refresh_from_db()
    return sub


def run(target, task_id, progress, success=None, **options):
    """A run of a submission (target is a Submission) or of a human (target is "novice" or "expert")."""
    found = build_run(target, task_id, progress, success, **options)
    found.save()
    return found


def build_run(target, task_id, progress, success=None, *, player=None, mismatch=False, seed=None,
              actions_used=50, invalid_actions=0, status=Run.Status.VERIFIED, attempts=1, actions=None,
              claimed=None):
    """An unsaved Run (for bulk_create); `claimed` is a claimed progress (one that differs is a flagged run)."""
    found = task(task_id) if isinstance(task_id, str) else task_id
    human = isinstance(target, str)
    return Run(
        kind=target if human else Run.Kind.AGENT, submission=None if human else target, player=player,
        task=found, seed=next(_seeds) if seed is None else seed,
        actions=actions if actions is not None else found.null["actions"][:3],
        # No claim unless a test gives one (claims are optional): a figure read from the claims instead of the
        # replay is then missing, and every table test fails.
        claimed_progress=claimed, claimed_success=None if claimed is None else claimed >= 1.0,
        status=status, progress=progress if status == Run.Status.VERIFIED else None,
        success=(success if success is not None else progress >= 1.0) if status == Run.Status.VERIFIED else None,
        attempts=attempts, actions_used=actions_used, invalid_actions=invalid_actions, mismatch=mismatch,
        trace_sha256="0" * 64 if status == Run.Status.VERIFIED else "",
        verified_at=timezone.now() if status == Run.Status.VERIFIED else None)


def player(name):
    return User.objects.filter(username=name).first() or User.objects.create_user(name, password=f"pw-{name}-2026!")


def populate(task_set, *, agents=10, seeds=2, rng_seed=7, humans=True, partial=2, flagged=1):
    """A plausible board: agents of graded skill over every task (some partial, one with a flagged run) and
    novice and expert humans. Returns the submissions."""
    rng = random.Random(rng_seed)
    tasks = list(task_set.tasks.select_related("game").order_by("pk"))
    models = ["gpt-5.1", "claude-opus-5", "gemini-3-pro", "qwen3-vl-72b", "llama-5-vision", "ui-tars-2",
              "o5-mini", "grok-5", "kimi-vl", "glm-5v", "mistral-large-vl", "seed-vl-2"]
    orgs = ["OpenAI", "Anthropic", "Google", "Alibaba", "Meta", "ByteDance", "xAI", "Moonshot", "Zhipu", "Mistral"]
    made, runs = [], []
    for index in range(agents):
        skill = 0.15 + 0.6 * (agents - index) / agents
        interface = "cua" if index % 3 != 1 else "generalist"
        sub = submission(task_set, f"{['Atlas', 'Boreal', 'Cinder', 'Delta', 'Ember', 'Fjord', 'Gale', 'Harbor', 'Iris', 'Juno', 'Kestrel', 'Lumen'][index % 12]}-agent",
                         model=models[index % len(models)], org=orgs[index % len(orgs)], interface=interface,
                         created=timezone.now() - timezone.timedelta(days=3 * index))
        covered = tasks if index < agents - partial else tasks[: len(tasks) * 2 // 3]
        for t in covered:
            difficulty = (t.game.level - 1) / 5 + rng.random() * 0.2
            for _ in range(seeds):
                p = max(0.0, min(1.0, rng.gauss(skill - difficulty * 0.6 + 0.25, 0.25)))
                runs.append(build_run(sub, t, round(p, 3), p >= 0.999 or (p > 0.85 and rng.random() < 0.5),
                                      actions_used=rng.randint(20, 100), invalid_actions=rng.randint(0, 8)))
        if index == 1 and flagged:
            runs.append(build_run(sub, covered[0], 0.0, False, mismatch=True, claimed=1.0))
        made.append(sub)
    if humans:
        for kind, skill, names in (("novice", 0.62, ["ana", "ben", "cai"]), ("expert", 0.85, ["dee", "eli"])):
            people = [player(n) for n in names]
            for t in tasks:
                for who in people[:2]:
                    p = max(0.0, min(1.0, rng.gauss(skill - (t.game.level - 1) * 0.04, 0.2)))
                    runs.append(build_run(kind, t, round(p, 3), p >= 0.97, player=who,
                                          actions_used=rng.randint(30, 100)))
    Run.objects.bulk_create(runs)
    return made


def all_tasks(task_set):
    return list(Task.objects.filter(task_sets=task_set).order_by("pk"))
