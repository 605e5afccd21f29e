"""Serve the site with Daphne and run its Celery worker beside it, as child processes of this command."""
import os
import signal
import subprocess
import sys
import time

from django.conf import settings
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Serve the site (Daphne, HTTP + WebSockets) with its Celery worker; Ctrl-C stops both."

    def add_arguments(self, parser):
        parser.add_argument("--host", default=os.environ.get("GAMEWORLD_HOST", "127.0.0.1"))
        parser.add_argument("--port", type=int, default=int(os.environ.get("GAMEWORLD_PORT", "8000")))
        parser.add_argument("--no-worker", action="store_true", help="serve only (workers run elsewhere)")

    def handle(self, *args, host, port, no_worker=False, **options):
        python = sys.executable
        children = [subprocess.Popen([python, "-m", "daphne", "-b", host, "-p", str(port),
                                      "gameworld_site.asgi:application"])]
        if not no_worker:
            children.append(subprocess.Popen([
                python, "-m", "celery", "-A", "gameworld_site", "worker", "--loglevel", "INFO",
                "--concurrency", str(settings.GAMEWORLD_WORKER_CONCURRENCY), "--beat",
                "--schedule", str(settings.DATA_DIR / "celerybeat-schedule")]))
        self.stdout.write(f"GameWorld is serving on http://{host}:{port}/ "
                          f"({'with' if not no_worker else 'without'} its worker). Ctrl-C stops it.")
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        try:
            while all(child.poll() is None for child in children):
                time.sleep(0.5)
            failed = next(child for child in children if child.poll() is not None)
            self.stderr.write(f"{failed.args[2]} exited with code {failed.returncode}; stopping.")
        except (KeyboardInterrupt, SystemExit):
            pass
        finally:
            for child in children:
                if child.poll() is None:
                    child.send_signal(signal.SIGTERM)
            for child in children:
                try:
                    child.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    child.kill()
