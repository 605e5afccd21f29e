"""Replays: a worker's Celery task draws the frames once, its progress in the database; then served from disk."""
import shutil
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.utils import timezone

from gameworld_site.celery import app
from leaderboard import replays, tasks
from leaderboard.models import ReplayRender
from sandbox import GameCrashed
from submissions import verification
from submissions.models import Run
from tests.factories import task
from tests.leaderboard.factories import core_task_set, run, submission

pytestmark = pytest.mark.django_db


@pytest.fixture
def verified_run(settings, tmp_path):
    settings.DATA_DIR = tmp_path
    ts = core_task_set()
    sub = submission(ts, "Replayer")
    reference = task("breakout/rally-5@2").reference
    found = Run.objects.create(submission=sub, task=task("breakout/rally-5@2"), seed=reference["seed"],
                               actions=reference["actions"], claimed_progress=1.0, claimed_success=True)
    verification.verify_run(run_id=found.pk)
    found.refresh_from_db()
    assert found.status == "verified" and found.success
    return found


@pytest.fixture
def poll(client, verified_run, django_capture_on_commit_callbacks):
    """The run page's poll of its replay: the JSON it gets (a render it sends leaves when the request commits)."""
    def replay_json(query=""):
        with django_capture_on_commit_callbacks(execute=True):
            return client.get(f"/leaderboard/runs/{verified_run.pk}/replay.json{query}").json()
    return replay_json


@pytest.fixture
def drawn(monkeypatch):
    """The indexes of the frames the sandbox draws, in order; each of `drawn.watchers` is called with each."""
    drawn = SimpleNamespace(indexes=[], watchers=[])
    real = replays.run_trajectory

    def watched(spec, trajectory, *, on_step, **options):
        def step(index, *args):
            on_step(index, *args)
            drawn.indexes.append(index)
            for watcher in drawn.watchers:
                watcher(index)
        return real(spec, trajectory, on_step=step, **options)
    monkeypatch.setattr(replays, "run_trajectory", watched)
    return drawn


def render_sent(render_id):
    """What the worker does with a render_replay message (the task run in this process)."""
    tasks.render_replay.apply(args=[render_id])


def test_a_replay_is_rendered_by_the_worker_task_with_its_progress_shown_while_it_renders(
        client, poll, verified_run, queued_renders, drawn):
    total = len(verified_run.actions) + 1
    assert poll() == {"state": "queued", "done": 0, "total": total}
    render = ReplayRender.objects.get(run=verified_run)
    assert queued_renders == [render.pk]
    final = replays.frames_dir(verified_run.pk, verified_run.trace_sha256)
    shown = []
    drawn.watchers.append(lambda index: shown.append((poll(), final.exists())))
    render_sent(render.pk)
    assert [page for page, _ in shown] == [{"state": "rendering", "done": n, "total": total}
                                           for n in range(1, total + 1)]
    assert not any(on_disk for _, on_disk in shown)          # the frames' folder appears whole, once all are drawn
    assert queued_renders == [render.pk]                     # polls while it renders send no other

    ready = poll()
    steps = ready["steps"]
    assert ready["state"] == "ready" and ready["done"] == ready["total"] == len(steps) == total
    assert ready["matches_verified"] and ready["trace_sha256"] == verified_run.trace_sha256
    assert steps[0]["label"] == "start (ready)"
    assert steps[1]["action"] == verified_run.actions[0] and steps[1]["label"].startswith(("press", "launch"))
    assert steps[-1]["success"] and steps[-1]["fields"]["score"] >= 10 and "lives" in steps[-1]["fields"]
    assert "bricks" not in steps[-1]["fields"]                # lists are left out of the panel
    frame = client.get(ready["frame_url"] + "1.png")
    assert frame.status_code == 200 and frame["Content-Type"] == "image/png"
    assert b"".join(frame.streaming_content).startswith(b"\x89PNG")
    assert sorted(path.name for path in replays.root().iterdir()) == [final.name]   # no work folder left


def test_asking_again_or_a_message_delivered_twice_renders_once(poll, verified_run, queued_renders, drawn):
    poll()
    poll()
    render = ReplayRender.objects.get(run=verified_run)
    assert queued_renders == [render.pk]
    render_sent(render.pk)
    render_sent(render.pk)                                    # the broker delivers it again
    assert drawn.indexes.count(0) == 1 and poll()["state"] == "ready"
    assert queued_renders == [render.pk]


@pytest.fixture
def sandbox_raising(monkeypatch):
    """sandbox_raising(error): every replay raises it from now on; returns the list of attempts. The task's errors
    are recorded, not raised, as on a worker."""
    monkeypatch.setattr(app.conf, "task_eager_propagates", False)

    def raising(error):
        attempts = []

        def replay(*args, **kwargs):
            attempts.append(1)
            raise error
        monkeypatch.setattr(replays, "run_trajectory", replay)
        return attempts
    return raising


def test_a_failed_render_is_recorded_as_an_error_and_can_be_tried_again(poll, queued_renders, sandbox_raising,
                                                                       monkeypatch):
    real = replays.run_trajectory
    attempts = sandbox_raising(GameCrashed("the page crashed"))
    poll()
    render_sent(queued_renders[-1])
    assert len(attempts) == tasks.RENDER_RETRIES + 1           # the browser may not crash again: retried first
    failed = poll()
    assert failed["state"] == "error" and "the page crashed" in failed["error"] and failed["done"] == 0
    assert list(replays.root().iterdir()) == []               # nothing half drawn is left
    assert len(queued_renders) == 1                           # an error is shown, not tried again by itself

    monkeypatch.setattr(replays, "run_trajectory", real)
    assert poll("?retry=1")["state"] == "queued" and len(queued_renders) == 2
    render_sent(queued_renders[-1])
    assert poll()["state"] == "ready"


def test_a_render_that_cannot_work_fails_at_once_with_the_reason(poll, queued_renders, sandbox_raising):
    attempts = sandbox_raising(ValueError("breakout 9.9.9 is not in the bundle store"))
    poll()
    render_sent(queued_renders[-1])
    failed = poll()
    assert attempts == [1] and failed["state"] == "error" and "not in the bundle store" in failed["error"]


def test_a_render_whose_worker_died_is_sent_again(poll, verified_run, queued_renders):
    poll()
    render = ReplayRender.objects.get(run=verified_run)
    long_ago = timezone.now() - timedelta(seconds=replays.STALE_AFTER_S + 5)
    ReplayRender.objects.filter(pk=render.pk).update(status="rendering", done=7, updated=long_ago)  # then killed
    render_sent(render.pk)                                     # its message, delivered again: taken, so left
    assert poll() == {"state": "queued", "done": 0, "total": render.total}   # the page's next poll sends it again
    assert queued_renders == [render.pk, render.pk]
    render_sent(render.pk)
    assert poll()["state"] == "ready"


def test_a_ready_replay_whose_frames_are_gone_is_rendered_again(poll, verified_run, queued_renders):
    poll()
    render_sent(queued_renders[-1])
    shutil.rmtree(replays.frames_dir(verified_run.pk, verified_run.trace_sha256))   # removed by hand
    assert poll()["state"] == "queued" and len(queued_renders) == 2


def rendered(poll, queued_renders, viewed_ago_s):
    poll()
    render_sent(queued_renders[-1])
    ReplayRender.objects.update(viewed=timezone.now() - timedelta(seconds=viewed_ago_s))
    return ReplayRender.objects.get()


def fake_replay(run_of, *, viewed_ago_s, size=1000, status="ready"):
    """A replay of another run with a frame of `size` bytes (in its work folder while rendering)."""
    render = ReplayRender.objects.create(run=run_of, trace_sha256=run_of.trace_sha256, total=2, status=status,
                                         viewed=timezone.now() - timedelta(seconds=viewed_ago_s))
    folder = replays.frames_dir(render.run_id, render.trace_sha256)
    folder = folder if status == "ready" else folder.with_name(folder.name + ".work")
    folder.mkdir(parents=True)
    (folder / "000.png").write_bytes(b"x" * size)
    return folder


def test_pruning_removes_the_least_recently_viewed_replays_and_a_removed_one_renders_again(
        poll, verified_run, queued_renders):
    real = rendered(poll, queued_renders, viewed_ago_s=7200)
    real_frames = replays.frames_dir(real.run_id, real.trace_sha256)
    others = [run(verified_run.submission, "runner/clear-6@1", 1.0) for _ in range(3)]
    oldest = fake_replay(others[0], viewed_ago_s=3 * 3600)
    recent = fake_replay(others[1], viewed_ago_s=600)          # someone watched it ten minutes ago
    rendering = fake_replay(others[2], viewed_ago_s=5 * 3600, status="rendering")
    leftovers = [replays.root() / "77-0123456789abcdef.lock", replays.root() / "78-0123456789abcdef"]
    leftovers[0].write_text("1 0\n")                           # an older layout's files, owned by no replay
    leftovers[1].mkdir()

    assert replays.prune(max_bytes=10 ** 9) == 0               # under the limit: no replay goes
    assert not any(path.exists() for path in leftovers)
    assert replays.prune(max_bytes=2500) == 2                  # oldest first, until under the limit or recent
    assert not oldest.exists() and not real_frames.exists() and recent.exists() and rendering.exists()
    assert not ReplayRender.objects.filter(pk=real.pk).exists()

    again = poll()
    assert again["state"] == "queued"
    render_sent(queued_renders[-1])
    assert poll()["matches_verified"]


def test_viewing_a_ready_replay_keeps_it_from_pruning(poll, queued_renders):
    viewed_long_ago = rendered(poll, queued_renders, viewed_ago_s=7200)
    assert poll()["state"] == "ready"                          # a view marks it
    assert ReplayRender.objects.get().viewed > viewed_long_ago.viewed
    assert replays.prune(max_bytes=0) == 0
    assert replays.frames_dir(viewed_long_ago.run_id, viewed_long_ago.trace_sha256).is_dir()
