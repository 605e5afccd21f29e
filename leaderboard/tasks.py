from celery import shared_task
from django.conf import settings

from . import replays


@shared_task
def prune_replays():
    return replays.prune(max_bytes=settings.GAMEWORLD_REPLAY_CACHE_MB * 1024 * 1024)
