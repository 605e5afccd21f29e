from django.apps import AppConfig


class HumanplayConfig(AppConfig):
    name = "humanplay"
    verbose_name = "Human play"
