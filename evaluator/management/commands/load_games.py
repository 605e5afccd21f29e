from django.core.management.base import BaseCommand, CommandError

from evaluator.services import load_bundles


class Command(BaseCommand):
    help = ("Load or update the game bundles of evaluator/games/ into the database. A manifest with an error "
            "is refused with the file and field at fault; a published task version is never overwritten.")

    def add_arguments(self, parser):
        parser.add_argument("slugs", nargs="*", help="only these games (default: every bundle)")
        parser.add_argument("--no-frames", action="store_true", help="skip capturing a frame of each game")

    def handle(self, *args, slugs=(), no_frames=False, **options):
        report = load_bundles(slugs=slugs or None, capture_frames=not no_frames)
        for line in report.lines:
            self.stdout.write(line)
        if report.errors:
            raise CommandError("refused:\n" + "\n".join(f"  {error}" for error in report.errors))
