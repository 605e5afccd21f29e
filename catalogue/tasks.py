"""Celery tasks of the catalogue: each takes an id, calls a service, and owns only retry and failure. They run on
the background queue (settings.CELERY_TASK_ROUTES): nobody is waiting at a page for them."""
import logging
from datetime import datetime

from celery import shared_task
from django.contrib.auth import get_user_model
from django.utils import timezone

from . import bundle_loading, curation
from .models import Task, TaskSet

log = logging.getLogger(__name__)
# How often a first start's publication looks again whether every task of the set has been checked, and after how
# many looks it sends the tasks still unchecked again (a message lost with a worker; a task checked meanwhile is
# skipped).
CHECKED_POLL_S = 2
RESEND_AFTER_POLLS = 150


@shared_task(acks_late=True)
def validate_task(task_id, actor_id):
    curation.validate_task(actor=get_user_model().objects.get(pk=actor_id), task=Task.objects.get(pk=task_id))


@shared_task(acks_late=True)
def capture_game_frames(game_ids):
    """One message a game, so that every background worker process captures its share."""
    for game_id in game_ids:
        capture_game_frame.delay(game_id)


@shared_task(acks_late=True)
def capture_game_frame(game_id):
    bundle_loading.capture_frames_of(game_ids=[game_id], say=log.info)


@shared_task(acks_late=True)
def check_default_task(task_id):
    task = Task.objects.get(pk=task_id)
    log.info("validated %s: %s", task.task_id, curation.outcome(curation.check_default_task(task=task)))


@shared_task(bind=True, acks_late=True, max_retries=None)
def publish_default_task_set(self, task_set_id, started=None):
    """A new site's first start (`load_games --background`): check each task of the draft default set in a
    message of its own (spread over the background worker's processes; the board shows the progress), then, once
    every task has been checked since this started, publish the set. Until then this task comes back every
    CHECKED_POLL_S (a retry keeps its place in a chain: the baselines load after it). A task that already passed
    is not checked again, so a worker that died half-way resumes where it was."""
    task_set = TaskSet.objects.get(pk=task_set_id)
    if task_set.status != TaskSet.Status.DRAFT:
        return
    started = datetime.fromisoformat(started) if started else timezone.now()
    unchecked = curation.unchecked_tasks(task_set, since=started)
    if unchecked and self.request.retries % RESEND_AFTER_POLLS == 0:
        for task in unchecked:
            check_default_task.delay(task.pk)
    if unchecked:
        raise self.retry(args=(task_set_id, started.isoformat()), countdown=CHECKED_POLL_S)
    try:
        curation.publish_checked_default(task_set=task_set, say=log.info)
    except curation.CurationRefused as exc:
        log.info("%s", exc)
