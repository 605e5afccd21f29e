"""Celery tasks: each takes an id, calls a service, and owns only retry and failure."""
from celery import shared_task
from django.conf import settings

from sandbox import SandboxError

from . import replays

RENDER_RETRIES = 2


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True, max_retries=RENDER_RETRIES)
def render_replay(self, render_id):
    try:
        replays.render_replay(render_id=render_id)
    except SandboxError as exc:  # the browser or the game crashed: it may not again
        if self.request.retries < self.max_retries:
            raise self.retry(exc=exc, countdown=2 ** self.request.retries)
        replays.fail(render_id=render_id, error=exc)
    except Exception as exc:  # the bundle is missing, or a bug: the page shows it and offers to try again
        replays.fail(render_id=render_id, error=exc)
        raise


@shared_task
def prune_replays():
    return replays.prune(max_bytes=settings.GAMEWORLD_REPLAY_CACHE_MB * 1024 * 1024)
