"""Celery tasks of hosted agent evaluation (registered with the worker through evaluator.tasks)."""
from celery import shared_task

from . import hosted


@shared_task
def expire_idle_hosted_evaluations():
    return hosted.expire_idle_evaluations()
