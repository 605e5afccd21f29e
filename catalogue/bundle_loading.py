"""Loading game bundles into the catalogue: each bundle's game version is kept in the bundle store, then the
game and its tasks are added or updated in the database, and the default task set is assembled. Keyword-only
arguments; each function is one transaction's worth of work."""
from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone

from sandbox import ManifestError, SandboxError, Trajectory, registry, run_trajectory
from sandbox.calibration import load_calibration

from . import bundles
from .bundles import BundleRejected
from .models import MEASURED_FIELDS, Game, Task, TaskSet

# Earlier defaults: core-v14 (before the last eight legacy cards were measured under the full gate), core-v13
# (before 23 games' cards were), core-v12 (before 8 games' cards were, and before Moon Slice and Bubble Reef),
# core-v11 (before the random agents took key pairs, pointer moves and drags, the noisy solver's
# ladder, budgets with slack and distinct rungs, and Game library IV's pointing and planning games), core-v10 (before Saw Run was made seed-robust and Gem Maze's and Spring Jump's solvers reached
# their last tasks), core-v9 (before Gem Maze, Cliff Hop, Downshaft, Flutter, Coin Cavern, Dash & Dive, Gem Fall,
# Maze Munch, Galley Rush, Pin Spin, Boost Ball, Tower Stack, Merge 2048, Sky Hop and Meadow Farm were made
# seed-robust), core-v8 (before Corner Market, Quarry Nights, Starhold, Sky Raider and Bunker Sweep were made
# seed-robust or winnable on every seed), core-v7 (before Bastion Path, Boost Ball and Dot Dodge were made seed-robust), core-v6 (40 games, before the arms on fresh seeds), core-v5 (36 games), core-v4 (30), core-v3 (24), core-v2 (before the game library), core-v1
# (before the gate).
DEFAULT_TASK_SET = ("core-v15", "GameWorld core v15")
FRAME_AFTER_ACTIONS = 12  # a frame from a dozen reference actions in shows the game being played


class BundleConflict(Exception):
    """A bundle would silently change a published task version."""


@dataclass
class LoadReport:
    lines: list = field(default_factory=list)
    errors: list = field(default_factory=list)
    game_ids: list = field(default_factory=list)  # the games loaded

    def say(self, line):
        self.lines.append(line)


def load_bundles(*, slugs=None, capture_frames=True, games_registry=None, publish_default=True):
    """Load or update bundles into the database. A bad bundle is refused whole and reported; the others load.
    With publish_default=False a new default task set stays a draft, for the caller to validate and publish
    (`load_games` does; tests and benches publish it at once)."""
    games_registry = games_registry or registry
    report = LoadReport()
    for slug in slugs or games_registry.slugs():
        try:
            spec = import_bundle(source_dir=games_registry.game(slug).bundle_dir, report=report)
            report.game_ids.append(Game.objects.get(slug=spec.slug).pk)
        except (ManifestError, BundleConflict, BundleRejected) as exc:
            report.errors.append(str(exc))
    if capture_frames:
        capture_frames_of(game_ids=report.game_ids, say=report.say)
    if report.game_ids:
        ensure_default_task_set(report=report, publish=publish_default)
    return report


def import_bundle(*, source_dir, report):
    """Keep the bundle's game version in the store, then add or update the game and its tasks in one
    transaction; a bundle that would change a published task version is refused whole."""
    spec = bundles.store(source_dir)
    cards = _calibration_cards(spec)
    with transaction.atomic():
        _upsert_game(spec, cards, report)
    return spec


def _calibration_cards(spec):
    """{task id: card} of the bundle's calibration.json (checked against its schema), {} when it has none."""
    try:
        document = load_calibration(spec)
    except SandboxError as exc:
        raise BundleRejected(str(exc)) from None
    return document["tasks"] if document else {}


def _upsert_game(spec, cards, report):
    game, created = Game.objects.get_or_create(slug=spec.slug, defaults=_game_fields(spec))
    if not created:
        for name, value in _game_fields(spec).items():
            setattr(game, name, value)
        game.save()
    report.say(f"{spec.slug} {spec.version}: {'added' if created else 'loaded'} ({spec.genre}, level {spec.level})")
    for index, task_spec in enumerate(spec.tasks.values()):
        _upsert_task(game, spec, index, task_spec, cards.get(task_spec.id), report)
    return game


def _game_fields(spec):
    return {"title": spec.title, "version": spec.version, "genre": spec.genre, "level": spec.level,
            "backend": spec.backend, "description": spec.description, "manifest": spec.manifest}


def _upsert_task(game, spec, index, task_spec, card, report):
    wanted = {**task_spec.to_dict(), "game_version": spec.version, "calibration": card}
    task = Task.objects.filter(game=game, slug=task_spec.slug, version=task_spec.version).first()
    if task is None:
        Task.objects.create(game=game, **wanted)
        report.say(f"  {task_spec.id}: added")
        return
    changed = [name for name, value in wanted.items() if getattr(task, name) != value]
    if not changed:
        return
    measured = [name for name in changed if name in MEASURED_FIELDS + ("reference", "null")]
    if measured and task.is_published:
        raise BundleConflict(
            f"{spec.bundle_dir / 'manifest.json'}: tasks[{index}].version: {task.task_id} is published and the "
            f"bundle changes what it measures ({', '.join(measured)}); give the task a new version")
    for name in changed:
        setattr(task, name, wanted[name])
    task.save()
    report.say(f"  {task_spec.id}: updated {', '.join(changed)}")


def ensure_default_task_set(*, report, publish=True):
    """The first load creates the default task set (published at once, or left a draft for validation);
    later loads update a draft to the latest task versions and never change a published one."""
    latest = _latest_task_versions()
    slug, name = DEFAULT_TASK_SET
    with transaction.atomic():
        task_set, created = TaskSet.objects.get_or_create(slug=slug, defaults={"name": name})
        if created or not task_set.frozen:
            task_set.tasks.set(latest)
            if publish:
                publish_default_task_set(task_set=task_set)
            report.say(f"task set {slug}: {'published' if publish else 'a draft'} with {len(latest)} tasks")
            return task_set
    missing = set(t.pk for t in latest) - set(task_set.tasks.values_list("pk", flat=True))
    if missing:
        report.say(f"task set {slug} is published and frozen; {len(missing)} newer task versions are not in it "
                   "(assemble a new task set in the admin)")
    return task_set


def publish_default_task_set(*, task_set):
    """Publish the set at once (tests and benches: no validation), and make it the default if none is."""
    TaskSet.objects.filter(pk=task_set.pk).update(status=TaskSet.Status.PUBLISHED, published_at=timezone.now())
    make_default_if_none(task_set=task_set)


def make_default_if_none(*, task_set):
    """A new site's first published task set becomes its default; so does a new bundled default task set
    (core-v15 after core-v14), the earlier one staying published and viewable with its submissions. A default
    a maintainer chose among their own sets is left alone."""
    with transaction.atomic():
        current = TaskSet.objects.select_for_update().filter(is_default=True).first()
        if current is None or (current.pk != task_set.pk and _bundled_default(current.slug)
                               and _bundled_default(task_set.slug)):
            TaskSet.objects.filter(is_default=True).update(is_default=False)
            TaskSet.objects.filter(pk=task_set.pk).update(is_default=True)
    task_set.refresh_from_db()


def _bundled_default(slug):
    """A slug the set-up gives its default task sets (DEFAULT_TASK_SET, in any version: core-v1 ... core-v15)."""
    stem = DEFAULT_TASK_SET[0].rsplit("-v", 1)[0]
    return slug.startswith(stem + "-v") and slug[len(stem) + 2:].isdigit()


def _latest_task_versions():
    latest = {}
    for task in Task.objects.select_related("game").order_by("version"):
        latest[(task.game_id, task.slug)] = task
    return list(latest.values())


def capture_frame(*, game_spec):
    """A PNG of the game a few reference actions into its first task, rendered by the sandbox."""
    task = next(iter(game_spec.tasks.values()))
    opening = Trajectory(seed=task.reference.seed, actions=task.reference.actions[:FRAME_AFTER_ACTIONS])
    return run_trajectory(task, opening, last_frame=True)[2]


def store_frame(*, game, png):
    Game.objects.filter(pk=game.pk).update(frame_png=png)


def capture_frames_of(*, game_ids, say=None):
    """Capture and store a frame of each game (`load_games --background` leaves it to the worker)."""
    for game in Game.objects.defer("frame_png").filter(pk__in=game_ids).order_by("slug"):
        store_frame(game=game, png=capture_frame(game_spec=game.spec))
        if say:
            say(f"{game.slug}: captured a frame")

