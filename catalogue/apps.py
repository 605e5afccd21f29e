from django.apps import AppConfig
from django.db.models.signals import post_migrate

from . import data_version

MAINTAINERS = "Maintainers"
# What a maintainer may do: the curation permissions, and editing what they curate.
MAINTAINER_PERMISSIONS = [
    "validate_task", "publish_taskset", "curate_submission",
    "view_game", "change_game", "view_task", "change_task", "view_taskset", "add_taskset", "change_taskset",
    "view_submission", "change_submission", "view_run", "view_auditentry", "view_taskvalidation",
    "view_uploadlimits", "change_uploadlimits", "view_hostedevaluationsettings", "change_hostedevaluationsettings",
    "view_expertdesignation", "add_expertdesignation", "change_expertdesignation", "delete_expertdesignation",
    "view_humanplaysettings", "change_humanplaysettings", "view_baselinecoverage", "view_playsession",
    "view_curriculum", "add_curriculum", "change_curriculum", "view_entry",
]


def ensure_maintainers_group(**kwargs):
    """The Maintainers group with the curation permissions (made staff + added here, a user can curate)."""
    from django.contrib.auth.models import Group, Permission

    group, _ = Group.objects.get_or_create(name=MAINTAINERS)
    group.permissions.add(*Permission.objects.filter(codename__in=MAINTAINER_PERMISSIONS))


class CatalogueConfig(AppConfig):
    """Games, their versioned tasks and frozen task sets: the bundle store, ROMs, curation and its audit log."""
    name = "catalogue"

    def ready(self):
        from .models import Game, Task, TaskSet, TaskValidation

        post_migrate.connect(ensure_maintainers_group, dispatch_uid="gameworld-maintainers")
        post_migrate.connect(data_version.install, sender=self, dispatch_uid="gameworld-data-version")
        data_version.watch(Game, Task, TaskSet, TaskSet.tasks.through, TaskValidation)
        from . import tasks  # noqa: F401  registers the Celery tasks, which the services send by name
