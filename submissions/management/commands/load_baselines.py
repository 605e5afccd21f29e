"""Create the baseline submissions from submissions/baselines/*.json (bin/serve runs it after load_games).

Each file goes through the upload checks and create_submission, which queues its runs for the site's worker: the
rows appear on the leaderboard once replayed, as reference rows (the platform's own baselines). A file already
loaded is skipped; one the checks refuse is reported and skipped. While the default task set is still being
validated in the background, the worker loads them once it is published (submissions.tasks.load_baselines).
"""
from django.core.management.base import BaseCommand

from catalogue.models import TaskSet
from submissions import services


class Command(BaseCommand):
    help = "Create (once) the submissions of the baseline agents' files; the worker verifies them."

    def add_arguments(self, parser):
        parser.add_argument("--dir", default=str(services.BASELINES_DIR), help="the folder of submission files")

    def handle(self, *args, dir=None, **options):
        if not TaskSet.objects.filter(is_default=True, status=TaskSet.Status.PUBLISHED).exists():
            self.stdout.write("no published default task set yet: the worker loads the baselines once it publishes "
                              "the one it is validating")
            return
        services.load_baseline_files(folder=dir, say=self.stdout.write)
