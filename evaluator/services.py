"""Writes that span models. Keyword-only arguments; each function is one transaction's worth of work."""
import logging
from dataclasses import dataclass, field
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Count, F, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from . import bundles
from .bundles import BundleRejected
from .models import MEASURED_FIELDS, Game, Run, Submission, SubmissionEvent, Task, TaskSet
from sandbox import ManifestError, SandboxError, Trajectory, make, registry, run_trajectory

log = logging.getLogger(__name__)

DEFAULT_TASK_SET = ("core-v1", "GameWorld core v1")
FRAME_AFTER_ACTIONS = 12  # a frame from a dozen reference actions in shows the game being played


class BundleConflict(Exception):
    """A bundle would silently change a published task version."""


@dataclass
class LoadReport:
    lines: list = field(default_factory=list)
    errors: list = field(default_factory=list)

    def say(self, line):
        self.lines.append(line)


def load_bundles(*, slugs=None, capture_frames=True, games_registry=None, publish_default=True):
    """Load or update bundles into the database. A bad bundle is refused whole and reported; the others load.
    With publish_default=False a new default task set stays a draft, for the caller to validate and publish
    (`load_games` does; tests and benches publish it at once)."""
    games_registry = games_registry or registry
    report = LoadReport()
    loaded = []
    for slug in slugs or games_registry.slugs():
        try:
            spec = import_bundle(source_dir=games_registry.game(slug).bundle_dir, report=report)
            game = Game.objects.get(slug=spec.slug)
            loaded.append(game)
        except (ManifestError, BundleConflict, BundleRejected) as exc:
            report.errors.append(str(exc))
            continue
        if capture_frames:
            store_frame(game=game, png=capture_frame(game_spec=spec))
            report.say(f"{slug}: captured a frame")
    if loaded:
        ensure_default_task_set(report=report, publish=publish_default)
    return report


def import_bundle(*, source_dir, report):
    """Keep the bundle's game version in the store, then add or update the game and its tasks in one
    transaction; a bundle that would change a published task version is refused whole."""
    spec = bundles.store(source_dir)
    with transaction.atomic():
        _upsert_game(spec, report)
    return spec


def _upsert_game(spec, report):
    game, created = Game.objects.get_or_create(slug=spec.slug, defaults=_game_fields(spec))
    if not created:
        for name, value in _game_fields(spec).items():
            setattr(game, name, value)
        game.save()
    report.say(f"{spec.slug} {spec.version}: {'added' if created else 'loaded'} ({spec.genre}, level {spec.level})")
    for index, task_spec in enumerate(spec.tasks.values()):
        _upsert_task(game, spec, index, task_spec, report)
    return game


def _game_fields(spec):
    return {"title": spec.title, "version": spec.version, "genre": spec.genre, "level": spec.level,
            "backend": spec.backend, "description": spec.description, "manifest": spec.manifest}


def _upsert_task(game, spec, index, task_spec, report):
    wanted = {**task_spec.to_dict(), "game_version": spec.version}
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
    """A new site's first published task set becomes its default."""
    with transaction.atomic():
        if not TaskSet.objects.select_for_update().filter(is_default=True).exists():
            TaskSet.objects.filter(pk=task_set.pk).update(is_default=True)
    task_set.refresh_from_db()


def _latest_task_versions():
    latest = {}
    for task in Task.objects.select_related("game").order_by("version"):
        latest[(task.game_id, task.slug)] = task
    return list(latest.values())


def capture_frame(*, game_spec):
    """A PNG of the game a few reference actions into its first task, rendered by the sandbox."""
    task = next(iter(game_spec.tasks.values()))
    with make(task, observation="state") as env:
        env.reset(seed=task.reference.seed)
        for action in task.reference.actions[:FRAME_AFTER_ACTIONS]:
            if env.done:
                break
            env.step(action)
        return env.render("png")


def store_frame(*, game, png):
    Game.objects.filter(pk=game.pk).update(frame_png=png)


# Submissions and their verification by replay.

FINISHED_RUN = (Run.Status.VERIFIED, Run.Status.FAILED)
PROGRESS_TOLERANCE = 1e-6


def create_submission(*, user, parsed):
    """Store a validated upload whole (or not at all), then queue its verification once committed."""
    agent = parsed.agent
    with transaction.atomic():
        submission = Submission.objects.create(
            user=user, task_set=parsed.task_set, agent_name=agent["name"], model_name=agent["model"],
            organisation=agent.get("org", ""), interface=agent["interface"],
            memory_rounds=agent.get("memory_rounds", 0), url=agent.get("url", ""), notes=agent.get("notes", ""),
            protocol=parsed.protocol, runs_total=len(parsed.runs), payload_sha256=parsed.payload_sha256)
        Run.objects.bulk_create([
            Run(submission=submission, task=run.task, seed=run.seed, actions=run.actions,
                claimed_progress=run.claimed_progress, claimed_success=run.claimed_success)
            for run in parsed.runs])
        log_event(submission_id=submission.pk, message=f"received {len(parsed.runs)} runs on task set "
                                                       f"{parsed.task_set.slug} (file sha256 {parsed.payload_sha256[:16]}…)")
        transaction.on_commit(lambda: queue_verification(submission_id=submission.pk))
    return submission


def queue_verification(*, submission_id):
    """Send one Celery task per unfinished run of the submission; the submission becomes queued."""
    from .tasks import verify_run

    Submission.objects.filter(pk=submission_id, status=Submission.Status.RECEIVED).update(
        status=Submission.Status.QUEUED)
    run_ids = list(Run.objects.filter(submission_id=submission_id).exclude(status__in=FINISHED_RUN)
                   .values_list("pk", flat=True))
    for run_id in run_ids:
        verify_run.delay(run_id)
    log_event(submission_id=submission_id, message=f"queued {len(run_ids)} runs for replay")


def log_event(*, submission_id, message):
    """A line of the submission's verification log (shown to maintainers in the admin)."""
    if submission_id:
        SubmissionEvent.objects.create(submission_id=submission_id, message=message)


def queue_run(*, run_id):
    """Queue one run outside a submission (a human baseline): the same replay as an agent's run."""
    from .tasks import verify_run

    verify_run.delay(run_id)


def claim_run(*, run_id):
    """Take a run for replay, once: pending, or running under a lease that ran out (its worker died)."""
    now = timezone.now()
    expired = now - timedelta(seconds=settings.GAMEWORLD_RUN_LEASE_S)
    claimed = Run.objects.filter(
        Q(status=Run.Status.PENDING) | Q(status=Run.Status.RUNNING, claimed_at__lt=expired), pk=run_id,
    ).update(status=Run.Status.RUNNING, claimed_at=now, verify_attempts=F("verify_attempts") + 1)
    return now if claimed == 1 else None


def verify_run(*, run_id):
    """Replay one run in the sandbox and store the oracle's figures beside the claimed ones.

    Returns None when the run is done with (verified now or before), or, when another worker holds it under a
    live lease, the seconds until that lease runs out: the caller should try again then, since that worker
    may have died. Sandbox errors propagate, with the run released, so that the task can retry it.
    """
    claimed_at = claim_run(run_id=run_id)
    if claimed_at is None:
        return _not_claimed(run_id)
    run = Run.objects.select_related("task__game").get(pk=run_id)
    Submission.objects.filter(pk=run.submission_id, status__in=[Submission.Status.RECEIVED,
                                                                Submission.Status.QUEUED]) \
        .update(status=Submission.Status.VERIFYING)
    try:
        score, _ = run_trajectory(run.task.spec(), Trajectory(seed=run.seed, actions=run.actions))
    except (SandboxError, ValueError):
        Run.objects.filter(pk=run_id, claimed_at=claimed_at).update(status=Run.Status.PENDING, claimed_at=None)
        raise
    mismatch = (run.claimed_progress is not None and abs(run.claimed_progress - score.progress) > PROGRESS_TOLERANCE) \
        or (run.claimed_success is not None and run.claimed_success != score.success)
    stored = Run.objects.filter(pk=run_id, status=Run.Status.RUNNING, claimed_at=claimed_at).update(
        status=Run.Status.VERIFIED, progress=score.progress, success=score.success, attempts=score.attempts,
        actions_used=score.actions, invalid_actions=score.invalid, trace_sha256=score.trace_sha256,
        mismatch=mismatch, error="", verified_at=timezone.now())
    if stored and run.submission_id:
        log_event(submission_id=run.submission_id,
                  message=f"run {run.pk} ({run.task.task_id} seed {run.seed}) replayed: progress {score.progress:.3f}, "
                          f"success {score.success}, {score.attempts} attempt(s), {score.invalid} invalid of "
                          f"{score.actions} actions{'; the claim differs' if mismatch else ''}")
        refresh_submission(submission_id=run.submission_id)
    return None


def _not_claimed(run_id):
    run = Run.objects.filter(pk=run_id).values("status", "claimed_at", "submission_id").first()
    if run is None:
        return None
    if run["status"] == Run.Status.RUNNING:
        lease_ends = run["claimed_at"] + timedelta(seconds=settings.GAMEWORLD_RUN_LEASE_S)
        return max((lease_ends - timezone.now()).total_seconds(), 0.0)
    if run["submission_id"]:  # finished: its worker may have died before counting it
        refresh_submission(submission_id=run["submission_id"])
    return None


def log_run_retry(*, run_id, error, attempt):
    submission_id = Run.objects.filter(pk=run_id).values_list("submission_id", flat=True).first()
    log_event(submission_id=submission_id, message=f"run {run_id}: {error}; retry {attempt}")


def fail_run(*, run_id, error):
    """A run that could not be replayed after its retries: recorded, and the submission can finish."""
    run = Run.objects.filter(pk=run_id).exclude(status=Run.Status.VERIFIED).first()
    if run is None:
        return
    Run.objects.filter(pk=run_id).update(status=Run.Status.FAILED, error=str(error)[:2000])
    if run.submission_id:
        log_event(submission_id=run.submission_id, message=f"run {run.pk} could not be replayed: {error}")
        refresh_submission(submission_id=run.submission_id)


def refresh_submission(*, submission_id):
    """Recount finished runs in one statement (no lost updates between workers); finish when all are."""
    done = Run.objects.filter(submission=OuterRef("pk"), status__in=FINISHED_RUN).order_by() \
        .values("submission").annotate(n=Count("pk")).values("n")
    Submission.objects.filter(pk=submission_id).update(runs_done=Coalesce(Subquery(done), 0))
    submission = Submission.objects.get(pk=submission_id)
    if submission.runs_done < submission.runs_total or submission.finished:
        return submission
    failed = list(submission.runs.filter(status=Run.Status.FAILED).select_related("task__game"))
    if failed:
        reason = "; ".join(f"{run.task.task_id} seed {run.seed} could not be replayed: {run.error}" for run in failed[:5])
        status = Submission.Status.REJECTED
    else:
        reason, status = "", Submission.Status.VERIFIED
    finished = Submission.objects.filter(pk=submission_id).exclude(
        status__in=[Submission.Status.VERIFIED, Submission.Status.REJECTED]).update(status=status, reason=reason)
    if finished:
        log_event(submission_id=submission_id, message=f"{status}{': ' + reason if reason else ''}")
    notify_submission(submission_id=submission_id)
    return submission


def notify_submission(*, submission_id):
    """Tell open submission pages at once when the channel layer crosses processes (Redis). The pages also
    poll the database, which is what reaches them in the embedded default (in-memory layer)."""
    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    if layer is not None and settings.REDIS_URL:
        async_to_sync(layer.group_send)(f"submission-{submission_id}", {"type": "submission.changed"})


def reverify_submission(*, submission):
    """Replay every run again (after a sandbox fix, say): figures are replaced in place, no rows added."""
    with transaction.atomic():
        Run.objects.filter(submission=submission).update(
            status=Run.Status.PENDING, progress=None, success=None, attempts=None, actions_used=None,
            invalid_actions=None, trace_sha256="", mismatch=False, error="", claimed_at=None, verified_at=None)
        Submission.objects.filter(pk=submission.pk).update(status=Submission.Status.RECEIVED, runs_done=0, reason="")
        log_event(submission_id=submission.pk, message="re-verification: every run will be replayed again")
        transaction.on_commit(lambda: queue_verification(submission_id=submission.pk))


def requeue_stuck_runs():
    """The periodic sweep: send again every run that nobody is replaying (lost message, dead worker)."""
    from .tasks import verify_run

    now = timezone.now()
    lease = timedelta(seconds=settings.GAMEWORLD_RUN_LEASE_S)
    stuck = Run.objects.filter(
        Q(status=Run.Status.PENDING, created__lt=now - lease) | Q(status=Run.Status.RUNNING, claimed_at__lt=now - lease),
    ).values_list("pk", flat=True)
    stuck = list(stuck)
    for run_id in stuck:
        verify_run.delay(run_id)
    # A worker that died between storing a run and counting it leaves a submission with nothing left to replay.
    for submission_id in Submission.objects.filter(status__in=[Submission.Status.QUEUED, Submission.Status.VERIFYING]) \
            .exclude(runs__status__in=[Run.Status.PENDING, Run.Status.RUNNING]).values_list("pk", flat=True):
        refresh_submission(submission_id=submission_id)
    if stuck:
        log.info("re-queued %d stuck runs", len(stuck))
    return stuck


# Registered Game Boy ROMs: a maintainer's own legal copy, stored privately (never served), pinned by sha256.

ROM_UPLOAD_MAX_BYTES = 8 * 1024 * 1024


def rom_storage_dir():
    """settings.DATA_DIR/roms: outside the static root (and there is no media root); no URL serves it."""
    return settings.DATA_DIR / "roms"


def inspect_rom_upload(*, data, name="the ROM"):
    """The header facts of an uploaded ROM, or a RomError saying why it is not a usable Game Boy ROM."""
    from sandbox.backends.gameboy.rom import inspect_rom

    if len(data) > ROM_UPLOAD_MAX_BYTES:
        from sandbox import RomError

        raise RomError(f"{name} is {len(data)} bytes, larger than any Game Boy cartridge (8 MiB)")
    return inspect_rom(data, name)


def store_rom_file(*, data):
    """Write a checked ROM to DATA_DIR/roms/<sha256>.gb (readable by the site's user only); return its info."""
    import os

    info = inspect_rom_upload(data=data)
    folder = rom_storage_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{info.sha256}.gb"
    if not path.is_file() or path.read_bytes() != data:
        temporary = path.with_suffix(".part")
        temporary.write_bytes(data)
        os.chmod(temporary, 0o600)
        temporary.replace(path)
    return info


def registered_rom_manifest(*, rom):
    """The game manifest a registered ROM's declarations make (validated by the sandbox like any bundle)."""
    from sandbox.backends.gameboy import FRAME_MS

    step_ms = round((rom.press_frames + rom.release_frames) * FRAME_MS)
    rules = rom.rules if isinstance(rom.rules, dict) else {}
    gameboy = {"rom": "rom.gb", "rom_sha256": rom.sha256, "start_states": ["start.gwstate"],
               "press_frames": rom.press_frames, "release_frames": rom.release_frames,
               "fields": rom.fields, **{k: v for k, v in rules.items() if k in ("status", "actionable", "terminal")}}
    if rom.seed:
        gameboy["seed"] = rom.seed
    defaults = {"version": 1, "start": 0, "max_actions": 100, "step_ms": step_ms, "seeds": [1],
                "reference": {"seed": 1, "actions": []}, "null": {"seed": 1, "actions": []}}
    tasks = [{**defaults, **task} if isinstance(task, dict) else task for task in (rom.tasks or [])]
    return {"slug": rom.slug, "title": rom.title, "version": rom.version, "description": rom.description,
            "genre": rom.genre, "level": rom.level, "backend": "gameboy", "viewport": {"width": 160, "height": 144},
            "keys": rom.keys, "pointer": False, "step_ms": step_ms, "semantic_actions": rom.semantic_actions or [],
            "state_fields": rom.state_fields, "gameboy": gameboy, "tests": {"fail": None}, "tasks": tasks}


def write_rom_bundle(*, rom, folder=None, rom_bytes=None):
    """Write the private bundle of a registered ROM (manifest, ROM, start state) and load it: a GameSpec.

    The default folder is DATA_DIR/roms/bundles/<slug>/. Raises ManifestError naming the declaration at fault.
    """
    import json
    from pathlib import Path

    from sandbox import load_manifest

    folder = Path(folder) if folder else rom_storage_dir() / "bundles" / rom.slug
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "manifest.json").write_text(json.dumps(registered_rom_manifest(rom=rom), indent=2))
    data = rom_bytes if rom_bytes is not None else rom.rom_path.read_bytes()
    (folder / "rom.gb").write_bytes(data)
    state = folder / "start.gwstate"
    if rom.start_state:
        state.write_bytes(bytes(rom.start_state))
    elif state.exists():
        state.unlink()
    return load_manifest(folder)


def validate_rom_declarations(*, rom, rom_bytes):
    """Check a registered ROM's declarations as a manifest, in a scratch folder; ManifestError if wrong."""
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory(prefix="gameworld-rom-") as scratch:
        return write_rom_bundle(rom=rom, folder=Path(scratch) / rom.slug, rom_bytes=rom_bytes).slug


def capture_rom_start_state(*, rom):
    """Boot the ROM, run `boot_frames` frames and the start actions, and store the state as its start state."""
    import hashlib

    from sandbox.backends.gameboy.capture import capture_after_actions
    from sandbox.backends.gameboy.state import read_header

    blob = capture_after_actions(rom.rom_path.read_bytes(), rom.start_actions or [], boot_frames=rom.boot_frames,
                                 press_frames=rom.press_frames, release_frames=rom.release_frames,
                                 pinned_sha256=rom.sha256, note=f"registered ROM {rom.slug}")
    type(rom).objects.filter(pk=rom.pk).update(start_state=blob, start_state_sha256=hashlib.sha256(blob).hexdigest())
    rom.start_state = blob
    return read_header(blob)[0]


def check_rom_tasks(*, rom):
    """Run every declared task's reference (must reach its target) and null (must not): one line each."""
    from sandbox import SandboxError, run_trajectory

    if not rom.start_state:
        return ["no start state yet: capture one first"]
    try:
        game = write_rom_bundle(rom=rom)
    except SandboxError as exc:
        return [f"the declarations are refused: {exc}"]
    lines = []
    for task in game.tasks.values():
        for kind, must in (("reference", True), ("null", False)):
            try:
                score, _ = run_trajectory(task, getattr(task, kind))
            except SandboxError as exc:
                lines.append(f"FAIL {task.id} {kind}: {exc}")
                continue
            verdict = "ok" if score.success == must else "FAIL"
            lines.append(f"{verdict} {task.id} {kind}: best {score.best:g} of {score.target:g} in {score.actions} "
                         f"actions, {score.attempts} attempt(s)")
    return lines or ["no tasks declared"]
