"""Celery tasks of rounds evaluations."""
from celery import shared_task

from . import services


@shared_task(acks_late=True)
def ensure_default_curriculum():
    """After a new site publishes its default task set: its default curriculum."""
    curriculum = services.ensure_default_curriculum()
    return curriculum.slug if curriculum else None
