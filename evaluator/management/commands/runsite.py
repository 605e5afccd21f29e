"""Serve the site with Daphne and run its Celery worker and beat beside it, as child processes of this command.

The children live and die as a group: each is asked by the kernel to stop when this command dies, however
it dies (SIGKILL included), and when one child exits the others are stopped. The beat runs as a child of its
own (not inside the worker), so that a killed worker cannot leave it behind, and it refuses to start while
another beat holds the same schedule (gameworld_site/beat.py).
"""
import ctypes
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
        commands = {"daphne": [python, "-m", "daphne", "-b", host, "-p", str(port), "gameworld_site.asgi:application"]}
        if not no_worker:
            commands["the worker"] = [python, "-m", "celery", "-A", "gameworld_site", "worker", "--loglevel", "INFO",
                                      "--concurrency", str(settings.GAMEWORLD_WORKER_CONCURRENCY)]
            commands["the beat"] = [python, "-m", "gameworld_site.beat",
                                    "--schedule", str(settings.DATA_DIR / "celerybeat-schedule")]
        children = {name: subprocess.Popen(command, preexec_fn=stop_with_parent(os.getpid()))
                    for name, command in commands.items()}
        self.stdout.write(f"GameWorld is serving on http://{host}:{port}/ "
                          f"({'with' if not no_worker else 'without'} its worker). Ctrl-C stops it.")
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        try:
            while all(child.poll() is None for child in children.values()):
                time.sleep(0.5)
            name, failed = next((n, c) for n, c in children.items() if c.poll() is not None)
            self.stderr.write(f"{name} exited with code {failed.returncode}; stopping the site.")
        except (KeyboardInterrupt, SystemExit):
            pass
        finally:
            for child in children.values():
                if child.poll() is None:
                    child.send_signal(signal.SIGTERM)
            for child in children.values():
                try:
                    child.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    child.kill()


PR_SET_PDEATHSIG = 1  # linux/prctl.h


def stop_with_parent(parent_pid):
    """A pre-exec hook: the child gets SIGTERM when its parent dies (the request survives the exec)."""
    def hook():
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
        if os.getppid() != parent_pid:  # the parent died before the request was in place
            os._exit(1)
    return hook
