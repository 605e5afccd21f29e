"""Settings come from the environment; a bad value stops start-up with the variable's name."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sandbox import registry
from tests.scaled import postgres_and_redis  # noqa: F401 (a fixture)

ROOT = Path(__file__).resolve().parents[2]


def manage(*args, env=None, check=False):
    full_env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    full_env.update(env or {})
    full_env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    result = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=full_env, capture_output=True,
                            text=True, timeout=300)
    if check and result.returncode != 0:
        raise AssertionError(f"manage.py {' '.join(args)} failed:\n{result.stdout}\n{result.stderr}")
    return result


@pytest.mark.parametrize("variable, value, message", [
    ("DJANGO_DEBUG", "maybe", "DJANGO_DEBUG='maybe': expected one of"),
    ("REDIS_URL", "http://127.0.0.1:6379", "REDIS_URL='http://127.0.0.1:6379': expected a redis://"),
    ("GAMEWORLD_WORKER_CONCURRENCY", "0", "GAMEWORLD_WORKER_CONCURRENCY='0': must be at least 1"),
    ("GAMEWORLD_BROWSERS", "0", "GAMEWORLD_BROWSERS='0': must be at least 1"),
    ("GAMEWORLD_WEB_PROCESSES", "0", "GAMEWORLD_WEB_PROCESSES='0': must be at least 1"),
    ("GAMEWORLD_WEB_PROCESSES", "two", "GAMEWORLD_WEB_PROCESSES='two': expected an integer"),
    ("GAMEWORLD_REPLAY_CACHE_MB", "lots", "GAMEWORLD_REPLAY_CACHE_MB='lots': expected an integer"),
    ("DATABASE_URL", "nosuch://x", "DATABASE_URL"),
    ("GAMEWORLD_SEAL_SECRET", "short", "GAMEWORLD_SEAL_SECRET: expected at least 32 printable characters"),
    ("DJANGO_SECRET_KEY", "short", "DJANGO_SECRET_KEY: expected at least 32 printable characters"),
    ("GAMEWORLD_INSECURE_FAST_PASSWORD_HASHING", "fast", "GAMEWORLD_INSECURE_FAST_PASSWORD_HASHING='fast': expected"),
])
def test_a_bad_value_fails_loudly_naming_the_variable(variable, value, message):
    result = manage("check", env={variable: value})
    assert result.returncode != 0
    assert message in result.stderr


def test_passwords_are_hashed_with_pbkdf2_unless_the_test_suite_asks_for_speed():
    read = ["shell", "-c", "from django.conf import settings; print(settings.PASSWORD_HASHERS[0])"]
    default = manage(*read, env={"GAMEWORLD_INSECURE_FAST_PASSWORD_HASHING": ""}, check=True).stdout.split()[-1]
    assert default == "django.contrib.auth.hashers.PBKDF2PasswordHasher"
    assert manage(*read, check=True).stdout.split()[-1] == "django.contrib.auth.hashers.MD5PasswordHasher"


@pytest.mark.scaled
@pytest.mark.parametrize("setting, variable, other, kept_in", [
    ("GAMEWORLD_SEAL_SECRET", "GAMEWORLD_SEAL_SECRET", "DJANGO_SECRET_KEY", "seal-secret"),
    ("SECRET_KEY", "DJANGO_SECRET_KEY", "GAMEWORLD_SEAL_SECRET", "secret-key"),
])
def test_a_secret_is_required_off_the_embedded_default_and_made_and_kept_in_the_data_dir_on_it(
        tmp_path, setting, variable, other, kept_in):
    refused = manage("check", env={"GAMEWORLD_EMBEDDED": "false", other: "k" * 50, "GAMEWORLD_DATA_DIR": str(tmp_path)})
    assert refused.returncode != 0
    assert f"{variable} must be set when GAMEWORLD_EMBEDDED is off" in refused.stderr
    read = ["shell", "-c", f"from django.conf import settings; print(settings.{setting})"]
    env = {"GAMEWORLD_DATA_DIR": str(tmp_path), variable: ""}
    first = manage(*read, env=env, check=True).stdout.split()[-1]
    again = manage(*read, env=env, check=True).stdout.split()[-1]
    assert len(first) == 64 and first == again == (tmp_path / kept_in).read_text()  # made once, then kept
    assert (tmp_path / kept_in).stat().st_mode & 0o077 == 0  # for the server's eyes only
    elsewhere = tmp_path / "another-site"
    assert manage(*read, env={**env, "GAMEWORLD_DATA_DIR": str(elsewhere)}, check=True).stdout.split()[-1] != first


def test_the_embedded_default_caches_in_a_folder_of_the_data_dir_that_every_process_shares(tmp_path):
    env = {"GAMEWORLD_DATA_DIR": str(tmp_path), "REDIS_URL": ""}
    manage("shell", "-c", "from django.core.cache import cache; cache.set('probe', 7)", env=env, check=True)
    read = manage("shell", "-c", "from django.core.cache import cache; print('probe', cache.get('probe'))", env=env,
                  check=True)
    assert "probe 7" in read.stdout and (tmp_path / "cache").is_dir()


def test_the_scaled_configuration_runs_on_postgresql_and_redis(postgres_and_redis):
    env = postgres_and_redis
    manage("migrate", "--noinput", env=env, check=True)
    loaded = manage("load_games", "--no-frames", "--no-validate", env=env, check=True)
    assert "task set core-v15: published" in loaded.stdout
    probe = manage("shell", "-c", "\n".join([
        "from django.db import connection; from catalogue.models import Task",
        "from asgiref.sync import async_to_sync; from channels.layers import get_channel_layer",
        "from gameworld_site.celery import app",
        "layer = get_channel_layer()",
        "name = async_to_sync(layer.new_channel)()",
        "async_to_sync(layer.send)(name, {'type': 'probe', 'n': 7})",
        "print('layer', type(layer).__name__, async_to_sync(layer.receive)(name)['n'])",
        "print('db', connection.vendor, Task.objects.count())",
        "with app.connection_for_write() as conn: conn.ensure_connection(max_retries=1); print('broker', conn.transport_cls)",
        "from django.core.cache import caches; cache = caches['default']; cache.set('probe', 7)",
        "print('cache', type(cache).__name__, cache.get('probe'))",
        "from catalogue import data_version; from catalogue.models import Game",
        "before = data_version.current()",
        "Game.objects.filter(slug='breakout').update(title='Brick Breaker')",
        "print('data version moved', data_version.current() > before)",
    ]), env=env, check=True)
    assert "layer RedisChannelLayer 7" in probe.stdout
    tasks = sum(len(game.tasks) for game in registry.games())
    assert f"db postgresql {tasks}" in probe.stdout
    assert "broker redis" in probe.stdout
    assert "cache RedisCache 7" in probe.stdout and "data version moved True" in probe.stdout


def test_every_periodic_task_of_the_beat_schedule_is_a_registered_task():
    from django.conf import settings

    from gameworld_site.celery import app

    app.loader.import_default_modules()
    scheduled = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert scheduled - set(app.tasks) == set()
    assert {"leaderboard.tasks.prune_replays", "humanplay.tasks.prune_play_frames",
            "hosted.tasks.expire_idle_hosted_evaluations"} <= scheduled
