"""The benches' own site: settings pointed at a temporary folder (database, broker, bundle store), migrated
and loaded with the bundled games, so a bench never touches the developer's data."""
import io
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


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
        call_command("load_games", "--no-frames", stdout=io.StringIO())
    except CommandError as exc:
        print(f"load_games refused some bundles (the others are used): {exc}".replace("\n", " "))
