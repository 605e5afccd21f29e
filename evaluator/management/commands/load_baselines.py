"""Create the baseline submissions from evaluator/baselines/*.json (bin/serve runs it after load_games).

Each file goes through the upload checks and create_submission, which queues its runs for the site's worker:
the rows appear on the leaderboard once replayed, marked as the platform's own baselines. A file already loaded (same bytes) is skipped; a file the
checks refuse (say, a task set that no longer has its tasks) is reported and skipped, never fatal.
"""
import hashlib
from pathlib import Path

from django.core.management.base import BaseCommand

from evaluator import services
from evaluator.models import Submission, UploadLimits
from evaluator.uploads import UploadRejected, parse_upload

from .make_baselines import BASELINES_DIR


class Command(BaseCommand):
    help = "Create (once) the submissions of the baseline agents' files; the worker verifies them."

    def add_arguments(self, parser):
        parser.add_argument("--dir", default=str(BASELINES_DIR), help="the folder of submission files")

    def handle(self, *args, dir=None, **options):
        files = sorted(Path(dir).glob("*.json"))
        if not files:
            self.stdout.write(f"no baseline files in {dir}")
        for path in files:
            raw = path.read_bytes()
            digest = hashlib.sha256(raw).hexdigest()
            existing = Submission.objects.filter(payload_sha256=digest).first()
            if existing is not None:
                self.stdout.write(f"{path.name}: already loaded (submission {existing.pk}, {existing.status})")
                continue
            try:
                parsed = parse_upload(raw, user=None, limits=UploadLimits.current())
            except UploadRejected as rejected:
                self.stderr.write(f"{path.name}: not loaded: " + "; ".join(
                    f"{e['field']}: {e['message']}" for e in rejected.errors[:5]))
                continue
            submission = services.create_submission(user=None, parsed=parsed)
            Submission.objects.filter(pk=submission.pk).update(is_baseline=True)  # the platform's own reference agent
            self.stdout.write(f"{path.name}: submission {submission.pk} ({submission.agent_name}, "
                              f"{submission.runs_total} runs) queued for verification")
