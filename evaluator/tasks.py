"""Celery tasks: each takes an id, calls a service, and owns only retry and failure."""
import logging

from celery import shared_task
from django.contrib.auth import get_user_model

from . import bundle_loading, curation, services, verification
from .hosted_tasks import expire_idle_hosted_evaluations  # noqa: F401  (autodiscovery imports this module only)
from .models import Task, TaskSet
from sandbox import SandboxError

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
def validate_task(task_id, actor_id):
    curation.validate_task(actor=get_user_model().objects.get(pk=actor_id), task=Task.objects.get(pk=task_id))


@shared_task(acks_late=True)
def capture_game_frames(game_ids):
    bundle_loading.capture_frames_of(game_ids=game_ids, say=logging.getLogger(__name__).info)


@shared_task(acks_late=True)
def publish_default_task_set(task_set_id):
    """A new site's first start (`load_games --background`): validate the draft default set task by task (the
    board shows the progress), publish it, then load the baselines, which need a published set. A task that
    already passed is not validated again, so a worker that died half-way resumes where it was."""
    log = logging.getLogger(__name__).info
    task_set = TaskSet.objects.get(pk=task_set_id)
    if task_set.status == TaskSet.Status.DRAFT:
        try:
            curation.validate_and_publish_default(task_set=task_set, say=log)
        except curation.CurationRefused as exc:
            log("%s", exc)
            return
    services.load_baseline_files(say=log)
