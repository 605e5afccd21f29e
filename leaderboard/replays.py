"""Step-by-step replays of verified runs: the frames drawn by the sandbox once, on a worker, then served from disk.

A replay is a ReplayRender row: the run page asks for it (`ask`), which sends it to the Celery task
leaderboard.tasks.render_replay. Its service, `render_replay`, claims the row once (queued -> rendering: a message
delivered twice renders once), keeps its progress in it, and stores there what the replay found and each step's
details. The frames are files, ``DATA_DIR/replays/<run id>-<trace hash>/NNN.png`` (``000.png`` is the ready frame),
drawn into a ``.work`` folder beside it that is renamed when every frame is there, so a replay on disk is always
whole. A render whose worker died stops moving; the next ask after STALE_AFTER_S sends it again. `prune` keeps the
folder under a size (an hourly task).
"""
import os
import shutil
from datetime import timedelta
from pathlib import Path

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from sandbox import Trajectory, run_trajectory
from sandbox.protocol import read_field

from .models import ReplayRender

Status = ReplayRender.Status
STALE_AFTER_S = 120  # a render with no progress for this long was left by a worker that died
VIEWED_MARK_EVERY_S = 60  # a ready replay's last view is written at most this often
KEEP_VIEWED_WITHIN_S = 3600  # pruning never removes a replay viewed this recently (someone may be watching)
# The Celery task that renders (leaderboard/tasks.py), found by name in the app's registry (the leaderboard's
# AppConfig.ready() imports the tasks): the tasks import this module, so importing them here would make a circle.
RENDER_TASK = "leaderboard.tasks.render_replay"


def root():
    return Path(settings.DATA_DIR) / "replays"


def frames_dir(run_id, trace_sha256):
    return root() / f"{run_id}-{trace_sha256[:16]}"


def frame_path(run, step):
    return frames_dir(run.pk, run.trace_sha256) / f"{step:03d}.png"


def ask(run, *, retry=False):
    """The replay of a verified run's trace, sent to a worker unless it is ready, being rendered or failed (see
    `_send_again`)."""
    render, created = ReplayRender.objects.get_or_create(run=run, trace_sha256=run.trace_sha256,
                                                         defaults={"total": len(run.actions) + 1})
    now = timezone.now()
    # Guarded by the state seen: of two asks at once, one sends it.
    if created or (_send_again(render, retry=retry) and ReplayRender.objects.filter(
            pk=render.pk, status=render.status, updated=render.updated).update(
            status=Status.QUEUED, done=0, error="", result=None, updated=now)):
        transaction.on_commit(lambda: current_app.tasks[RENDER_TASK].delay(render.pk))
        render.refresh_from_db()
    elif render.status == Status.READY and render.viewed < now - timedelta(seconds=VIEWED_MARK_EVERY_S):
        ReplayRender.objects.filter(pk=render.pk).update(viewed=now)
    return render


def _send_again(render, *, retry):
    """Whether a replay goes to a worker again: failed, when asked to retry; ready, when its frames are gone;
    queued or rendering, when its worker died (nothing moved for STALE_AFTER_S)."""
    if render.status == Status.ERROR:
        return retry
    if render.status == Status.READY:
        return not frames_dir(render.run_id, render.trace_sha256).is_dir()
    return render.updated < timezone.now() - timedelta(seconds=STALE_AFTER_S)


def progress(render):
    """What the run page shows of a replay: its state and frames drawn, and its error or, once ready, its result."""
    shown = {"state": render.status, "done": render.done, "total": render.total}
    if render.status == Status.ERROR:
        shown["error"] = render.error
    elif render.status == Status.READY:
        shown.update(render.result)
    return shown


def render_replay(*, render_id):
    """Claim a queued replay and draw its frames; False when it was not queued (another worker took it, or it
    is done). An error puts it back in the queue and propagates, for the task to retry it or record the failure."""
    if not ReplayRender.objects.filter(pk=render_id, status=Status.QUEUED).update(
            status=Status.RENDERING, done=0, updated=timezone.now()):
        return False
    claimed = ReplayRender.objects.select_related("run__task__game") \
        .defer("run__task__calibration", "run__task__game__frame_png").get(pk=render_id)
    try:
        result = _draw(claimed)
    except Exception:
        _update_while(claimed.pk, Status.RENDERING, status=Status.QUEUED, done=0)
        raise
    frames = len(result["steps"])
    _update_while(claimed.pk, Status.RENDERING, status=Status.READY, done=frames, total=frames,
                  result=result)
    return True


def fail(*, render_id, error):
    """Record why a replay could not be rendered (the page shows it and offers to try again)."""
    ReplayRender.objects.filter(pk=render_id).exclude(status=Status.READY).update(
        status=Status.ERROR, error=f"{type(error).__name__}: {error}"[:2000], done=0, updated=timezone.now())


def _update_while(render_id, current, **changes):
    """Change a replay that is still in the `current` state (a worker's claim ends with it), noting when it moved."""
    ReplayRender.objects.filter(pk=render_id, status=current).update(**changes, updated=timezone.now())


def _draw(claimed):
    """Replay the run in the sandbox, a frame a step into the work folder, then rename it into place; return what
    the replay found (its trace hash, its figures) and each step's details."""
    run, task = claimed.run, claimed.run.task
    final = frames_dir(claimed.run_id, claimed.trace_sha256)
    work = final.with_name(final.name + ".work")
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    state_fields = list((task.game.manifest or {}).get("state_fields", {}))
    steps = []

    def on_step(index, action, info, frame):
        (work / f"{index:03d}.png").write_bytes(frame)
        steps.append(step_record(index, action, info, task.score_field, state_fields))
        _update_while(claimed.pk, Status.RENDERING, done=index + 1)

    try:
        score, _trace = run_trajectory(task.spec(), Trajectory(seed=run.seed, actions=run.actions), on_step=on_step,
                                       frames=True)
        shutil.rmtree(final, ignore_errors=True)  # frames of an earlier render whose row was removed
        os.replace(work, final)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return {"steps": steps, "trace_sha256": score.trace_sha256,
            "matches_verified": score.trace_sha256 == claimed.trace_sha256, "progress": score.progress,
            "success": score.success, "best": score.best, "target": score.target, "actions": score.actions,
            "attempts": score.attempts, "invalid": score.invalid}


def step_record(index, action, info, score_field, state_fields):
    state = info.get("state") or {}
    fields = {}
    for name in [score_field, *state_fields]:
        value = read_field(state, name)
        if isinstance(value, (int, float, str, bool)) or value is None:
            if isinstance(value, str) and len(value) > 60:
                value = value[:57] + "…"
            if name not in fields and value is not None:
                fields[name] = value
    return {"index": index, "action": action, "invalid": bool(info.get("invalid")) if action is not None else False,
            "invalid_reason": info.get("invalid_reason"), "attempt": info.get("attempt"),
            "actions_used": info.get("actions_used"), "actions_left": info.get("actions_left"),
            "reset": bool(info.get("reset")), "progress": info.get("progress"), "success": info.get("success"),
            "terminated": bool(info.get("terminated")), "truncated": bool(info.get("truncated")),
            "score": read_field(state, score_field), "status": state.get("status"), "fields": fields}


def prune(*, max_bytes):
    """Remove the least recently viewed replays (row and frames) until the replays take at most max_bytes; return
    how many went. A removed replay is rendered again when next asked for, so this loses nothing; one viewed
    within KEEP_VIEWED_WITHIN_S, or not ready, stays. What no replay owns (the work folder of a render that is
    over, files of an older layout) goes first."""
    base = root()
    if not base.is_dir():
        return 0
    sizes = {path: _size(path) for path in base.iterdir()}  # listed before the rows: a render begun since stays
    renders = list(ReplayRender.objects.filter(status__in=[Status.READY, Status.RENDERING]).order_by("viewed"))
    owned = {frames_dir(r.run_id, r.trace_sha256).name + ("" if r.status == Status.READY else ".work")
             for r in renders}
    for path in sizes:
        if path.name not in owned:
            _remove(path)
    total = sum(size for path, size in sizes.items() if path.name in owned)
    removed = 0
    recent = timezone.now() - timedelta(seconds=KEEP_VIEWED_WITHIN_S)
    for replay in renders:
        if total <= max_bytes:
            break
        if replay.status != Status.READY or replay.viewed > recent:
            continue
        if ReplayRender.objects.filter(pk=replay.pk, status=Status.READY, viewed__lte=recent).delete()[0]:
            folder = frames_dir(replay.run_id, replay.trace_sha256)
            shutil.rmtree(folder, ignore_errors=True)
            total -= sizes.get(folder, 0)
            removed += 1
    return removed


def _size(path):
    if path.is_file():
        return path.stat().st_size
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def _remove(path):
    if path.is_dir():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)
