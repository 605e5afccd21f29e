from django.apps import AppConfig

from catalogue import data_version


class SubmissionsConfig(AppConfig):
    """Agents' results: uploads, their verification by replay on the worker, API tokens and the JSON API."""
    name = "submissions"

    def ready(self):
        from .models import Run, Submission

        data_version.watch(Submission, Run)
        from . import tasks  # noqa: F401  registers the Celery tasks, which the services send by name
