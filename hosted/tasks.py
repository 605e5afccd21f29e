"""Celery tasks of hosted agent evaluation."""
from celery import shared_task

from . import services


@shared_task
def expire_idle_hosted_evaluations():
    return services.expire_idle_evaluations()
