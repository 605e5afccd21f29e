"""Helpers for the scaled-configuration tests: PostgreSQL and Redis on 127.0.0.1, a throwaway database per
use and a Redis db number flushed before and after, and `manage.py` subprocesses pointed at them."""
import os
import socket
import subprocess
import sys
import uuid
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.worker_data import redis_db

ROOT = Path(__file__).resolve().parent.parent
PSQL = ["psql", "-h", "127.0.0.1", "-U", "postgres", "-v", "ON_ERROR_STOP=1"]


def reachable(port):
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return True
    except OSError:
        return False


def require_postgres_and_redis():
    """Skip when the services are missing; in CI, where .ci/run starts them, fail instead."""
    if not (reachable(5432) and reachable(6379)):
        if os.environ.get("CI"):
            pytest.fail("CI must start PostgreSQL and Redis on 127.0.0.1 (see .ci/run)")
        pytest.skip("PostgreSQL and Redis are not running on 127.0.0.1")


@contextmanager
def throwaway_database(prefix="gameworld_scaled"):
    """A new, empty PostgreSQL database; yields its DATABASE_URL and drops it afterwards."""
    name = f"{prefix}_{uuid.uuid4().hex[:8]}"
    subprocess.run([*PSQL, "-c", f"CREATE DATABASE {name}"], check=True, capture_output=True)
    try:
        yield f"postgres://postgres@127.0.0.1:5432/{name}"
    finally:
        subprocess.run([*PSQL, "-c", f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"], capture_output=True)


@contextmanager
def flushed_redis(db):
    """A Redis database number, emptied before and after use; yields its REDIS_URL."""
    import redis

    url = f"redis://127.0.0.1:6379/{db}"
    client = redis.Redis.from_url(url)
    client.flushdb()
    try:
        yield url
    finally:
        client.flushdb()
        client.close()


@pytest.fixture
def postgres_and_redis():
    """DATABASE_URL (a throwaway database) and REDIS_URL (this worker's db 12) for `manage.py` subprocesses."""
    require_postgres_and_redis()
    with throwaway_database() as database_url:
        yield {"DATABASE_URL": database_url, "REDIS_URL": f"redis://127.0.0.1:6379/{redis_db(12)}"}


def subprocess_env(env=None):
    """This process's environment without its database, broker or test-only switches, plus `env`."""
    full_env = {k: v for k, v in os.environ.items()
                if k not in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "CELERY_TASK_ALWAYS_EAGER",
                             "DJANGO_ALLOW_ASYNC_UNSAFE")}
    full_env.update(env or {})
    return full_env


def manage(*args, env=None, check=False, timeout=300):
    result = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=subprocess_env(env),
                            capture_output=True, text=True, timeout=timeout)
    if check and result.returncode != 0:
        raise AssertionError(f"manage.py {' '.join(args)} failed:\n{result.stdout}\n{result.stderr}")
    return result


def psql(database_url, sql):
    """Rows of a query on the database, as lists of strings (psql's unaligned output, fields split on |)."""
    result = subprocess.run([*PSQL, "-d", database_url.rsplit("/", 1)[1], "-tA", "-F", "|", "-c", sql],
                            check=True, capture_output=True, text=True, timeout=30)
    return [line.split("|") for line in result.stdout.splitlines() if line]
