import json
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sandbox.registry import Registry

FIXTURE_GAMES = Path(__file__).parent / "fixtures" / "games"
FROM_THE_SITE = [(b"origin", b"http://localhost")]  # what a browser on the site's own pages sends
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"

# Playwright's sync API (end-to-end tests) runs an event loop on the test thread; Django's ORM calls made
# from that thread by the tests themselves are still synchronous and safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def tally_copy(games_dir, *, tasks=None, flaw=None):
    """`games_dir` holding a copy of the tally fixture (calibration cards included): with only the `tasks` named,
    when given; with `flaw` set as its canvas's data-flaw (a rule of the gate it breaks), when given."""
    bundle = Path(games_dir) / "tally"
    shutil.copytree(FIXTURE_GAMES / "tally", bundle)
    if tasks is not None:
        path = bundle / "manifest.json"
        manifest = json.loads(path.read_text())
        manifest["tasks"] = [task for task in manifest["tasks"] if task["slug"] in tasks]
        path.write_text(json.dumps(manifest))
    if flaw is not None:
        page = bundle / "index.html"
        page.write_text(page.read_text().replace('data-flaw=""', f'data-flaw="{flaw}"'))
    return Path(games_dir)


@pytest.fixture(scope="session")
def fixture_games():
    """A registry of the small test games in tests/fixtures/games."""
    return Registry(FIXTURE_GAMES)


@pytest.fixture(scope="module")
def bundled_games(django_db_setup, django_db_blocker):
    """The bundled games in the test database, loaded once for a module's tests: each test's own transaction
    nests in this one (a savepoint) and rolls back to it; the module's end rolls this one back. Only for modules
    without transactional tests: their flush would take the games away."""
    from django.db import transaction

    from tests.factories import load_games

    with django_db_blocker.unblock(), transaction.atomic():
        load_games()
        yield
        transaction.set_rollback(True)


@pytest.fixture(scope="session")
def counter_task(fixture_games):
    return fixture_games.task("counter/score-3")


@pytest.fixture(scope="session")
def artifacts_dir():
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


def pytest_configure(config):
    """Pages are served as in production (WhiteNoise, hashed manifest): collect before any server starts, in each
    process that runs tests (each pytest-xdist worker has a data folder of its own: tests/worker_data.py)."""
    import django
    from django.core.management import call_command

    django.setup()
    if os.environ.get("PYTEST_XDIST_WORKER") or not config.getoption("numprocesses", None):
        call_command("collectstatic", "--noinput", verbosity=0)


def server_env():
    """The environment for a site process that uses the test database of this test session."""
    from django.db import connection

    env = dict(os.environ)
    if not env.get("REDIS_URL"):  # a broker of this test run's own: runs side by side never share messages
        env["CELERY_BROKER_URL"] = f"sqla+sqlite:///{connection.settings_dict['NAME']}.broker"
    if connection.vendor == "sqlite":
        env["GAMEWORLD_SQLITE_PATH"] = str(connection.settings_dict["NAME"])
    else:
        env["DATABASE_URL"] = env["DATABASE_URL"].rsplit("/", 1)[0] + "/" + connection.settings_dict["NAME"]
    return env


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="session")
def site_url(django_db_setup, django_db_blocker):
    """The real site, served by Daphne (HTTP + WebSockets, WhiteNoise) on the test database."""
    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
                                "gameworld_site.asgi:application"], env=server_env(),
                               cwd=Path(__file__).resolve().parent.parent)
    deadline = time.monotonic() + 30
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                raise RuntimeError("Daphne did not start for the browser tests") from None
            time.sleep(0.2)
    yield f"http://127.0.0.1:{port}"
    process.terminate()
    process.wait(timeout=20)


@pytest.fixture(scope="session")
def celery_worker_process(django_db_setup, django_db_blocker):
    """The site's two real Celery worker processes, as `runsite` starts them (one for the interactive and replay
    queues, one for the background queue), on the test database and the configured broker (embedded: SQLite)."""
    from gameworld_site.management.commands.runsite import worker_commands

    options = ["--pool", "solo", "--loglevel", "WARNING", "--without-gossip", "--without-mingle"]
    processes = [subprocess.Popen(command, env=server_env(), cwd=Path(__file__).resolve().parent.parent)
                 for command in worker_commands(options).values()]
    yield processes
    for process in processes:
        process.terminate()
    for process in processes:
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()


@pytest.fixture(autouse=True)
def queued_runs(request, monkeypatch):
    """Verification tasks are recorded here instead of sent to a broker, unless the test is marked
    `real_broker` (it runs a worker process and needs the messages)."""
    sent = SentRuns()
    if request.node.get_closest_marker("real_broker") is None:
        from submissions import tasks

        monkeypatch.setattr(tasks.verify_run, "apply_async", sent.record)
    return sent


class SentRuns(list):
    """The ids of the runs sent for replay, in order; `queue_of[run id]` is the queue each was sent to."""

    def __init__(self):
        super().__init__()
        self.queue_of = {}

    def record(self, args, queue=None, **options):
        self.append(args[0])
        self.queue_of[args[0]] = queue
