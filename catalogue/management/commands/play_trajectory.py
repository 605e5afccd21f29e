from django.core.management.base import BaseCommand, CommandError

from sandbox import SandboxError
from sandbox.cli import run


class Command(BaseCommand):
    help = ("Replay a trajectory file ({\"seed\": 1, \"actions\": [...]}) on a task in the sandbox and print "
            "progress, success, attempts and invalid-action rate; optionally write the frames.")

    def add_arguments(self, parser):
        parser.add_argument("task", help="game/task or game/task@version")
        parser.add_argument("trajectory", help="path of a JSON trajectory file")
        parser.add_argument("--frames", help="write one PNG per step into this folder")
        parser.add_argument("--gif", help="write the run as an animated GIF")

    def handle(self, *args, task, trajectory, frames=None, gif=None, **options):
        try:
            run(task, trajectory, frames_dir=frames, gif=gif, out=self.stdout.write)
        except SandboxError as exc:
            raise CommandError(str(exc)) from None
