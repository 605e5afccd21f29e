"""Verification by replay: runs are sent to the Celery workers, claimed once under a lease, replayed in the
sandbox and scored by the oracle beside their claims; a submission finishes when all its runs have. Keyword-only
arguments."""
import logging
import os
import socket
import time
from datetime import timedelta

from celery import current_app
from django.conf import settings
from django.db.models import Count, F, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from catalogue.models import TASK_BULKY_FIELDS
from sandbox import SandboxError, Trajectory, run_trajectory

from .models import Run, Submission, SubmissionEvent
from .sealing import CommitmentBroken, check_commitment

log = logging.getLogger(__name__)

FINISHED_RUN = (Run.Status.VERIFIED, Run.Status.FAILED)
PROGRESS_TOLERANCE = 1e-6
# The Celery task that replays one run (submissions/tasks.py), found by name in the Celery app's registry (the
# app's AppConfig.ready() imports the tasks): the tasks import this module, so importing them back here
# would make an import circle.
VERIFY_RUN_TASK = "submissions.tasks.verify_run"


def _send_for_replay(run_ids, *, baseline=False):
    """One Celery task a run: on the interactive queue, unless the runs are the platform's own baselines, which
    nobody waits for (the background queue)."""
    task = current_app.tasks[VERIFY_RUN_TASK]
    queue = settings.BACKGROUND_QUEUE if baseline else settings.INTERACTIVE_QUEUE
    for run_id in run_ids:
        task.apply_async((run_id,), queue=queue)


def queue_verification(*, submission_id):
    """Send one Celery task per unfinished run of the submission; the submission becomes queued."""
    Submission.objects.filter(pk=submission_id, status=Submission.Status.RECEIVED).update(
        status=Submission.Status.QUEUED)
    run_ids = list(Run.objects.filter(submission_id=submission_id).exclude(status__in=FINISHED_RUN)
                   .values_list("pk", flat=True))
    _send_for_replay(run_ids, baseline=Submission.objects.filter(pk=submission_id, is_baseline=True).exists())
    log_event(submission_id=submission_id, message=f"queued {len(run_ids)} runs for replay")


def log_event(*, submission_id, message):
    """A line of the submission's verification log (shown to maintainers in the admin)."""
    if submission_id:
        SubmissionEvent.objects.create(submission_id=submission_id, message=message)


def queue_run(*, run_id):
    """Queue one run outside a submission (a human baseline): the same replay as an agent's run."""
    _send_for_replay([run_id])


def this_process():
    """A lease holder's name: the machine and the process replaying the run."""
    return f"{socket.gethostname()}:{os.getpid()}"


def holder_is_gone(holder):
    """Whether a lease was held by a process of this machine that no longer runs (a killed worker): its runs
    need not wait for the lease to run out. A holder on another machine cannot be checked from here."""
    host, _, pid = holder.rpartition(":")
    if host != socket.gethostname() or not pid.isdigit():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except PermissionError:  # alive, under another user
        return False
    return False


def claim_run(*, run_id):
    """Take a run for replay, once: pending, or running under a lease that ran out or whose holder is gone."""
    now = timezone.now()
    expired = now - timedelta(seconds=settings.GAMEWORLD_RUN_LEASE_S)
    free = Q(status=Run.Status.PENDING) | Q(status=Run.Status.RUNNING, claimed_at__lt=expired)
    holder = Run.objects.filter(pk=run_id, status=Run.Status.RUNNING).values_list("claimed_by", flat=True).first()
    if holder and holder_is_gone(holder):
        free |= Q(status=Run.Status.RUNNING, claimed_by=holder)  # only one claimant still finds this holder
    claimed = Run.objects.filter(free, pk=run_id).update(
        status=Run.Status.RUNNING, claimed_at=now, claimed_by=this_process(),
        verify_attempts=F("verify_attempts") + 1)
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
    run = Run.objects.select_related("task__game").defer(*(f"task__{name}" for name in TASK_BULKY_FIELDS)) \
        .get(pk=run_id)
    if run.commitment:  # a sealed run replays only at the seed its episode committed to before it was played
        try:
            check_commitment(seed=run.seed, salt=run.salt, commitment_hex=run.commitment,
                             what=f"run {run.pk} ({run.task.task_id})")
        except CommitmentBroken as broken:
            fail_run(run_id=run_id, error=str(broken))
            return None
    Submission.objects.filter(pk=run.submission_id, status__in=[Submission.Status.RECEIVED,
                                                                Submission.Status.QUEUED]) \
        .update(status=Submission.Status.VERIFYING)
    _hold_for_kill_drill(run)
    try:
        score, _ = run_trajectory(run.task.spec(), Trajectory(seed=run.seed, actions=run.actions))
    except (SandboxError, ValueError):
        Run.objects.filter(pk=run_id, claimed_at=claimed_at).update(status=Run.Status.PENDING, claimed_at=None,
                                                                    claimed_by="")
        raise
    mismatch = claim_differs(claimed_progress=run.claimed_progress, claimed_success=run.claimed_success,
                             score=score)
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


def _hold_for_kill_drill(run):
    """The kill drill's worker (GAMEWORLD_DRILL_HOLD_AFTER_RUNS set) keeps the run it claims once that many of its
    submission's runs are verified, claimed and never replayed, until it is killed: a kill known to land mid-way."""
    hold_after = settings.GAMEWORLD_DRILL_HOLD_AFTER_RUNS
    if hold_after is None or not run.submission_id:
        return
    if Run.objects.filter(submission_id=run.submission_id, status=Run.Status.VERIFIED).count() >= hold_after:
        log.warning("kill drill: holding run %s claimed and not replayed until this worker is killed", run.pk)
        while True:
            time.sleep(60)


def claim_differs(*, claimed_progress, claimed_success, score):
    """Whether a run's claim (either part may be missing) disagrees with the oracle's score of its replay."""
    return (claimed_progress is not None and abs(claimed_progress - score.progress) > PROGRESS_TOLERANCE) \
        or (claimed_success is not None and claimed_success != score.success)


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


def requeue_stuck_runs():
    """The periodic sweep: send again every run that nobody is replaying (lost message, dead worker)."""
    now = timezone.now()
    lease = timedelta(seconds=settings.GAMEWORLD_RUN_LEASE_S)
    stuck = list(Run.objects.filter(
        Q(status=Run.Status.PENDING, created__lt=now - lease) | Q(status=Run.Status.RUNNING, claimed_at__lt=now - lease),
    ).values_list("pk", "submission__is_baseline"))
    stuck += [(pk, baseline) for pk, holder, baseline in Run.objects.filter(
        status=Run.Status.RUNNING, claimed_at__gte=now - lease).values_list("pk", "claimed_by", "submission__is_baseline")
        if holder and holder_is_gone(holder)]
    for baseline in (False, True):
        _send_for_replay([pk for pk, of_baseline in stuck if bool(of_baseline) == baseline], baseline=baseline)
    stuck = [pk for pk, _ in stuck]
    # A worker that died between storing a run and counting it leaves a submission with nothing left to replay.
    for submission_id in Submission.objects.filter(status__in=[Submission.Status.QUEUED, Submission.Status.VERIFYING]) \
            .exclude(runs__status__in=[Run.Status.PENDING, Run.Status.RUNNING]).values_list("pk", flat=True):
        refresh_submission(submission_id=submission_id)
    if stuck:
        log.info("re-queued %d stuck runs", len(stuck))
    return stuck

