from django.apps import AppConfig

from catalogue import data_version


class LeaderboardConfig(AppConfig):
    name = "leaderboard"

    def ready(self):
        from .models import BoardSettings

        data_version.watch(BoardSettings)  # its minimum coverage marks human rows on the board
        from . import tasks  # noqa: F401  registers the Celery tasks, which replays sends by name
