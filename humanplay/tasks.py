from celery import shared_task

from . import hosted, services


@shared_task
def expire_abandoned_sessions():
    return services.expire_abandoned_sessions()


@shared_task
def prune_play_frames():
    return services.prune_play_frames()


@shared_task
def expire_idle_hosted_evaluations():
    return hosted.expire_idle_evaluations()
