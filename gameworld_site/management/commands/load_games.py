from celery import chain
from django.core.management.base import BaseCommand, CommandError

from catalogue.bundle_loading import DEFAULT_TASK_SET, load_bundles
from catalogue.curation import CurationRefused, validate_and_publish_default
from catalogue.models import TaskSet
from catalogue.tasks import capture_game_frames, publish_default_task_set
from rounds import services as rounds_services
from rounds.tasks import ensure_default_curriculum
from submissions.tasks import load_baselines


class Command(BaseCommand):
    help = ("Load or update the game bundles of games/ into the database. A manifest with an error "
            "is refused with the file and field at fault; a published task version is never overwritten. "
            "A new default task set is validated (each task's reference reaches its target, its null does not, "
            "two replays agree) and published only if every task passes.")

    def add_arguments(self, parser):
        parser.add_argument("slugs", nargs="*", help="only these games (default: every bundle)")
        parser.add_argument("--no-frames", action="store_true", help="skip capturing a frame of each game")
        parser.add_argument("--no-validate", action="store_true",
                            help="publish a new default task set without validating it (tests and benches)")
        parser.add_argument("--background", action="store_true",
                            help="leave the frames and the validation of a new default task set to the worker "
                                 "(bin/serve: the site answers at once and shows the progress; the baselines load "
                                 "once it is published)")

    def handle(self, *args, slugs=(), no_frames=False, no_validate=False, background=False, **options):
        # In the background the worker captures the frames too (the game pages show a placeholder until then).
        report = load_bundles(slugs=slugs or None, capture_frames=not (no_frames or background),
                              publish_default=no_validate)
        for line in report.lines:
            self.stdout.write(line)
        if report.errors:
            raise CommandError("refused:\n" + "\n".join(f"  {error}" for error in report.errors))
        if background and not no_frames and report.game_ids:
            capture_game_frames.delay(report.game_ids)
            self.stdout.write(f"{len(report.game_ids)} games' frames queued for capture on the worker")
        draft = TaskSet.objects.filter(slug=DEFAULT_TASK_SET[0], status=TaskSet.Status.DRAFT).first()
        if draft is None:
            return
        if background:
            chain(publish_default_task_set.si(draft.pk), load_baselines.si(), ensure_default_curriculum.si()).delay()
            self.stdout.write(f"task set {draft.slug}: {draft.tasks.count()} tasks queued for validation; the worker "
                              "publishes it when every task passes (the leaderboard shows the progress)")
            return
        self.stdout.write(f"validating task set {draft.slug} ({draft.tasks.count()} tasks) before publishing it")
        try:
            validate_and_publish_default(task_set=draft, say=self.stdout.write)
        except CurationRefused as exc:
            raise CommandError(f"{exc}. Fix the bundle (or its trajectories) and run load_games again.") from None
        self.stdout.write(f"task set {draft.slug}: published")
        curriculum = rounds_services.ensure_default_curriculum()
        if curriculum is not None:
            self.stdout.write(f"rounds curriculum {curriculum.slug}: published")
