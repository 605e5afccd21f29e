"""Celery tasks of the catalogue: each takes an id, calls a service, and owns only retry and failure."""
import logging

from celery import shared_task
from django.contrib.auth import get_user_model

from . import bundle_loading, curation
from .models import Task, TaskSet


@shared_task(acks_late=True)
def validate_task(task_id, actor_id):
    curation.validate_task(actor=get_user_model().objects.get(pk=actor_id), task=Task.objects.get(pk=task_id))


@shared_task(acks_late=True)
def capture_game_frames(game_ids):
    bundle_loading.capture_frames_of(game_ids=game_ids, say=logging.getLogger(__name__).info)


@shared_task(acks_late=True)
def publish_default_task_set(task_set_id):
    """A new site's first start (`load_games --background`): validate the draft default set task by task (the
    board shows the progress) and publish it. A task that already passed is not validated again, so a worker
    that died half-way resumes where it was."""
    log = logging.getLogger(__name__).info
    task_set = TaskSet.objects.get(pk=task_set_id)
    if task_set.status == TaskSet.Status.DRAFT:
        try:
            curation.validate_and_publish_default(task_set=task_set, say=log)
        except curation.CurationRefused as exc:
            log("%s", exc)
