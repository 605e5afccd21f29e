from celery import shared_task

from . import services


@shared_task
def expire_abandoned_sessions():
    return services.expire_abandoned_sessions()


@shared_task
def prune_play_frames():
    return services.prune_play_frames()


@shared_task
def release_abandoned_assignments():
    return services.release_abandoned_assignments()
