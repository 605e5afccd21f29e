from django.apps import AppConfig


class RoundsConfig(AppConfig):
    name = "rounds"
    verbose_name = "Rounds evaluations (improvement curves)"

    def ready(self):
        from catalogue import data_version

        from .models import Curriculum, Entry, Round

        data_version.watch(Curriculum, Entry, Round)  # the rounds board shows them
