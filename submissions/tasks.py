"""Celery tasks of submissions: each takes an id, calls a service, and owns only retry and failure."""
import logging

from celery import shared_task

from sandbox import SandboxError

from . import services, verification

MAX_RETRIES = 3


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True, max_retries=MAX_RETRIES)
def verify_run(self, run_id):
    try:
        held_for = verification.verify_run(run_id=run_id)
    except (SandboxError, ValueError) as exc:
        if self.request.retries >= self.max_retries:
            verification.fail_run(run_id=run_id, error=exc)
            return
        verification.log_run_retry(run_id=run_id, error=exc, attempt=self.request.retries + 1)
        raise self.retry(exc=exc, countdown=2 ** self.request.retries)
    if held_for is not None:  # another worker holds it; if that worker died, take the run when its lease ends
        raise self.retry(countdown=held_for + 1, max_retries=None)


@shared_task
def requeue_stuck_runs():
    return len(verification.requeue_stuck_runs())


@shared_task(acks_late=True)
def load_baselines():
    """The baseline agents' submissions, once their task set is published (a new site's first start runs this
    after publishing the default set; a file whose set is not published is reported and skipped)."""
    services.load_baseline_files(say=logging.getLogger(__name__).info)
