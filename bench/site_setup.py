"""The benches' own site: settings pointed at a temporary folder (database, broker, bundle store), migrated
and loaded with the bundled games, so a bench never touches the developer's data."""
import io
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


@contextmanager
def temporary_site(*, keep=False):
    """A fresh temporary directory with the settings pointed at it; removed afterwards unless kept."""
    tmp = Path(tempfile.mkdtemp(prefix="gameworld-bench-"))
    isolate(tmp)
    try:
        yield tmp
    finally:
        if keep:
            print(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


def isolate(tmp):
    """Point the settings at the temporary directory; must run before Django is imported."""
    for name in ("DATABASE_URL", "REDIS_URL", "CELERY_TASK_ALWAYS_EAGER"):
        os.environ.pop(name, None)
    os.environ.update({
        "DJANGO_SETTINGS_MODULE": "gameworld_site.settings",
        "GAMEWORLD_DATA_DIR": str(tmp),
        "GAMEWORLD_SQLITE_PATH": str(Path(tmp) / "gameworld.sqlite3"),
        "CELERY_BROKER_URL": f"sqla+sqlite:///{Path(tmp) / 'broker.sqlite3'}",
        "GAMEWORLD_LOG_LEVEL": "WARNING",
    })


def set_up():
    """django.setup(), migrate, and load the bundled games (a refused bundle is reported; the rest load)."""
    import django

    django.setup()
    from django.core.management import CommandError, call_command

    call_command("migrate", verbosity=0)
    try:
        call_command("load_games", "--no-frames", "--no-validate", stdout=io.StringIO())
    except CommandError as exc:
        print(f"load_games refused some bundles (the others are used): {exc}".replace("\n", " "))


@contextmanager
def serving(tmp):
    """The bench's site served by Daphne on loopback while the block runs; yields its URL."""
    process, site = start_daphne(tmp)
    try:
        yield site
    finally:
        stop(process)


def start_daphne(tmp):
    """Daphne serving the bench's site on a free loopback port; returns (process, "http://127.0.0.1:<port>")."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    log = open(tmp / "daphne.log", "w")
    process = subprocess.Popen([sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
                                "gameworld_site.asgi:application"], cwd=ROOT, env=dict(os.environ), stdout=log,
                               stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return process, f"http://127.0.0.1:{port}"
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                raise SystemExit(f"Daphne did not start: see {tmp / 'daphne.log'}")
            time.sleep(0.2)


def stop(process, timeout=20):
    process.terminate()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
