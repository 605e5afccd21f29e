from django.apps import AppConfig


class HostedConfig(AppConfig):
    """Agents played live on the site: the live-session engine, the agent socket, hosted and sealed evaluations,
    the evaluate page and the client archive."""
    name = "hosted"

    def ready(self):
        from . import tasks  # noqa: F401  registers the Celery tasks, which the services send by name
