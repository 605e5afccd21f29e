"""The one settings module. Everything that differs between machines comes from the environment, and a
bad value stops the site at start-up with a message naming the variable.

Embedded default (no variables set): SQLite in WAL mode under var/, the Celery broker on SQLite through
kombu's SQLAlchemy transport, the in-memory channel layer. Scaled: set DATABASE_URL (PostgreSQL) and
REDIS_URL (Celery broker and channels_redis).
"""
import os
import re
import secrets
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from kombu import Queue

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name, default):
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    if raw.lower() in ("1", "true", "yes", "on"):
        return True
    if raw.lower() in ("0", "false", "no", "off"):
        return False
    raise ImproperlyConfigured(f"{name}={raw!r}: expected one of 1/0, true/false, yes/no, on/off")


def env_int(name, default, minimum=None):
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r}: expected an integer") from None
    if minimum is not None and value < minimum:
        raise ImproperlyConfigured(f"{name}={raw!r}: must be at least {minimum}")
    return value


RATE = re.compile(r"[1-9][0-9]*/[smhd]")


def env_rate(name, default):
    """A limit as `count/period` (s, m, h or d), as django-ratelimit reads it: 20/h is 20 an hour."""
    raw = os.environ.get(name) or default
    if not RATE.fullmatch(raw):
        raise ImproperlyConfigured(f"{name}={raw!r}: expected a count per period such as 20/h (s, m, h or d)")
    return raw


DEBUG = env_bool("DJANGO_DEBUG", False)
ALLOWED_HOSTS = [h.strip() for h in os.environ.get("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]").split(",")
                 if h.strip()]
CSRF_TRUSTED_ORIGINS = [o.strip() for o in os.environ.get("DJANGO_CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()]

DATA_DIR = Path(os.environ.get("GAMEWORLD_DATA_DIR", BASE_DIR / "var"))
DATA_DIR.mkdir(parents=True, exist_ok=True)

SECRET_MIN_CHARS = 32


def kept_secret(variable):
    """A server-side key from `variable`; the embedded default makes a random one once and keeps it in the data
    directory (a file named after the variable), so that every process of the site (and every restart) shares it
    and no two sites share one. Off the embedded default the variable is required."""
    secret = os.environ.get(variable, "")
    if secret:
        if len(secret) < SECRET_MIN_CHARS or not secret.isprintable():
            raise ImproperlyConfigured(f"{variable}: expected at least {SECRET_MIN_CHARS} printable "
                                       "characters (e.g. `python -c 'import secrets; print(secrets.token_hex(32))'`)")
        return secret
    if not env_bool("GAMEWORLD_EMBEDDED", True):
        raise ImproperlyConfigured(f"{variable} must be set when GAMEWORLD_EMBEDDED is off")
    path = DATA_DIR / KEPT_SECRET_FILES[variable]
    if not path.exists():  # written whole, then linked in place: processes starting together keep one secret
        draft = DATA_DIR / f"{path.name}.{os.getpid()}"
        draft.touch(mode=0o600)
        draft.write_text(secrets.token_hex(32))
        try:
            os.link(draft, path)
        except FileExistsError:
            pass
        finally:
            draft.unlink()
    kept = path.read_text().strip()
    if len(kept) < SECRET_MIN_CHARS:
        raise ImproperlyConfigured(f"{path}: the kept secret is shorter than {SECRET_MIN_CHARS} characters; "
                                   f"set {variable} or remove the file to make a new one")
    return kept


KEPT_SECRET_FILES = {"DJANGO_SECRET_KEY": "secret-key", "GAMEWORLD_SEAL_SECRET": "seal-secret"}
# Django's signing key (sessions, CSRF, password reset links).
SECRET_KEY = kept_secret("DJANGO_SECRET_KEY")
# The key of the HMAC that draws sealed seeds (submissions/sealing.py); it never leaves the server.
GAMEWORLD_SEAL_SECRET = kept_secret("GAMEWORLD_SEAL_SECRET")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "axes",
    "django_ratelimit",
    "gameworld_site",  # the commands that run the whole site (runsite, load_games)
    "evaluator",  # no code: the migration history of the models that moved to the three apps below
    "catalogue",
    "submissions",
    "hosted",
    "rounds",  # rounds evaluations: improvement curves over sealed rounds of hosted play
    "humanplay",
    "leaderboard",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",  # static files, compressed when collected: before GZip
    "django.middleware.gzip.GZipMiddleware",  # before every middleware that reads or changes a response's body
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "axes.middleware.AxesMiddleware",  # answers a locked-out sign-in with the lockout page
]

ROOT_URLCONF = "gameworld_site.urls"
ASGI_APPLICATION = "gameworld_site.asgi.application"

TEMPLATES = [{
    "BACKEND": "django.template.backends.django.DjangoTemplates",
    "DIRS": [BASE_DIR / "templates"],
    "APP_DIRS": True,
    "OPTIONS": {"context_processors": [
        "django.template.context_processors.request",
        "django.contrib.auth.context_processors.auth",
        "django.contrib.messages.context_processors.messages",
    ]},
}]

DATABASE_URL = os.environ.get("DATABASE_URL", "")
if DATABASE_URL:
    try:
        DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=60)}
    except ValueError as exc:
        raise ImproperlyConfigured(f"DATABASE_URL: {exc}") from None
else:
    DATABASES = {"default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": Path(os.environ.get("GAMEWORLD_SQLITE_PATH", DATA_DIR / "gameworld.sqlite3")),
        # A file, not memory, for tests too: the browser tests' Daphne and worker processes share it.
        # One per test run (process id), so that test runs side by side never share one.
        "TEST": {"NAME": DATA_DIR / f"test-gameworld-{os.getpid()}.sqlite3"},
        # WAL lets the site read while the worker writes; IMMEDIATE + a timeout waits instead of failing.
        "OPTIONS": {"init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
                    "transaction_mode": "IMMEDIATE", "timeout": 30},
        # Kept open, as the PostgreSQL connections are: a play socket stores every action, and a new
        # connection (its file opened, its pragmas run) costs more than the insert.
        "CONN_MAX_AGE": 60,
    }}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL and not REDIS_URL.startswith(("redis://", "rediss://")):
    raise ImproperlyConfigured(f"REDIS_URL={REDIS_URL!r}: expected a redis:// or rediss:// URL")
if REDIS_URL:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels_redis.core.RedisChannelLayer",
                                  "CONFIG": {"hosts": [REDIS_URL]}}}
    CELERY_BROKER_URL = REDIS_URL
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CELERY_BROKER_URL = f"sqla+sqlite:///{DATA_DIR / 'celery-broker.sqlite3'}"
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", CELERY_BROKER_URL)
# The cache the leaderboard's pages are served from, shared by every site process (web and worker): a folder under
# DATA_DIR in the embedded default, Redis when REDIS_URL is set. Entries are kept under the data version
# (catalogue/data_version.py), never invalidated.
if REDIS_URL:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL,
                          "KEY_PREFIX": "gameworld"}}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
                          "LOCATION": DATA_DIR / "cache", "OPTIONS": {"MAX_ENTRIES": 2000}}}
# Three queues. `interactive` (the default): work a person waits for (their recorded attempt's verification, an
# upload's). `replays`: a replay rendered for someone watching its page, on a queue of its own that a worker takes
# from in turn with the interactive one, so that it never waits behind a whole upload's verifications.
# `background`: work nobody waits for at a page (validation, frame capture, the baselines, the sweeps), served by
# workers of its own (`runsite` starts one, at a lower CPU priority), so that it never holds up the other two.
INTERACTIVE_QUEUE, REPLAYS_QUEUE, BACKGROUND_QUEUE = "interactive", "replays", "background"
CELERY_TASK_QUEUES = [Queue(name, routing_key=name) for name in (INTERACTIVE_QUEUE, REPLAYS_QUEUE, BACKGROUND_QUEUE)]
CELERY_TASK_DEFAULT_QUEUE = INTERACTIVE_QUEUE
CELERY_TASK_ROUTES = {
    "leaderboard.tasks.render_replay": {"queue": REPLAYS_QUEUE},
    "catalogue.tasks.*": {"queue": BACKGROUND_QUEUE},
    "submissions.tasks.load_baselines": {"queue": BACKGROUND_QUEUE},
    "submissions.tasks.requeue_stuck_runs": {"queue": BACKGROUND_QUEUE},
    "humanplay.tasks.*": {"queue": BACKGROUND_QUEUE},
    "hosted.tasks.*": {"queue": BACKGROUND_QUEUE},
    "rounds.tasks.*": {"queue": BACKGROUND_QUEUE},
    "leaderboard.tasks.prune_replays": {"queue": BACKGROUND_QUEUE},
}
CELERY_TASK_ACKS_LATE = True  # a worker that dies mid-task leaves the message to be delivered again
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A run taken by a worker that died is taken again once its lease runs out (by a redelivered message or by
# the periodic sweep); unacknowledged messages come back after the broker's visibility timeout.
GAMEWORLD_RUN_LEASE_S = env_int("GAMEWORLD_RUN_LEASE_S", 300, minimum=1)
if CELERY_BROKER_URL.startswith("redis"):
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": env_int("GAMEWORLD_VISIBILITY_TIMEOUT_S", 600, minimum=1)}
# The worker-recovery drill's hook (tests/submissions/test_worker_recovery.py): a worker started with it holds the run
# it claims once this many runs of its submission are verified, until it is killed. Never set on a site.
GAMEWORLD_DRILL_HOLD_AFTER_RUNS = env_int("GAMEWORLD_DRILL_HOLD_AFTER_RUNS", None, minimum=0)
CELERY_BEAT_SCHEDULE = {
    "requeue-stuck-runs": {"task": "submissions.tasks.requeue_stuck_runs",
                           "schedule": env_int("GAMEWORLD_SWEEP_EVERY_S", 60, minimum=1)},
    "expire-abandoned-play-sessions": {"task": "humanplay.tasks.expire_abandoned_sessions", "schedule": 300},
    "expire-idle-hosted-evaluations": {"task": "hosted.tasks.expire_idle_hosted_evaluations", "schedule": 300},
    "prune-replays": {"task": "leaderboard.tasks.prune_replays", "schedule": 3600},
    "prune-play-frames": {"task": "humanplay.tasks.prune_play_frames", "schedule": 3600},
    "release-abandoned-assignments": {"task": "humanplay.tasks.release_abandoned_assignments", "schedule": 60},
}
# Replays are rendered on demand and cached on disk; past this size the least recently viewed are removed.
GAMEWORLD_REPLAY_CACHE_MB = env_int("GAMEWORLD_REPLAY_CACHE_MB", 2048, minimum=1)

# The largest request body the site reads at all; the admin's upload limit (UploadLimits) applies below it.
DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("GAMEWORLD_MAX_REQUEST_BYTES", 50 * 1024 * 1024, minimum=1024)

# The test suite makes hundreds of accounts, and a password hashed the proper way costs a CPU a few tenths of a
# second: it (and the site processes it starts) may hash with MD5, which no real site should.
if env_bool("GAMEWORLD_INSECURE_FAST_PASSWORD_HASHING", False):
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
# Abuse limits. Sign-in: django-axes locks a username at one address out after this many wrong passwords, for
# this long (its records are in the database, so every site process sees them).
AUTHENTICATION_BACKENDS = ["gameworld_site.signin.SignInLockout", "django.contrib.auth.backends.ModelBackend"]
AXES_FAILURE_LIMIT = env_int("GAMEWORLD_SIGNIN_FAILURES", 10, minimum=1)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("GAMEWORLD_SIGNIN_LOCKOUT_MINUTES", 15, minimum=1))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]  # a stranger cannot lock someone out from elsewhere
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_VERBOSE = False
# The rest: django-ratelimit's counters in the shared cache (every site process counts in the same place), per
# account unless said otherwise; a refusal says the limit and when it resets (submissions/limits.py).
RATELIMIT_USE_CACHE = "default"
LIMIT_DEFAULTS = {  # name: (variable, default)
    "signup": ("GAMEWORLD_LIMIT_SIGNUPS", "5/h"),  # accounts made from one address
    "campaign_code": ("GAMEWORLD_LIMIT_CAMPAIGN_CODES", "10/h"),  # wrong campaign sign-up codes
    "token": ("GAMEWORLD_LIMIT_TOKENS", "10/h"),  # API tokens created
    "upload": ("GAMEWORLD_LIMIT_UPLOADS", "30/h"),  # submissions uploaded (page and API)
    "hosted_evaluation": ("GAMEWORLD_LIMIT_HOSTED_EVALUATIONS", "20/h"),  # hosted evaluations begun
    "play_session": ("GAMEWORLD_LIMIT_PLAY_SESSIONS", "60/h"),  # human play sessions started
}
GAMEWORLD_LIMITS = {name: env_rate(variable, default) for name, (variable, default) in LIMIT_DEFAULTS.items()}
# Agent sockets one account may have open at once: each holds a browser, and a machine has few.
GAMEWORLD_MAX_AGENT_SOCKETS = env_int("GAMEWORLD_MAX_AGENT_SOCKETS", 4, minimum=1)
# django-ratelimit's list of caches predates Django's own Redis cache (whose increment is atomic). The embedded
# default's file cache is shared by the site's processes but counts with a read and a write, not an atomic
# increment: two requests at the same instant may count once, which a limit on abuse can afford.
SILENCED_SYSTEM_CHECKS = ["django_ratelimit.W001", *([] if REDIS_URL else ["django_ratelimit.E003"])]

LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/account/"  # tokens and submissions; Django's default, /accounts/profile/, is a 404 here

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATICFILES_FINDERS = ["django.contrib.staticfiles.finders.FileSystemFinder",
                       "django.contrib.staticfiles.finders.AppDirectoriesFinder",
                       "leaderboard.finders.PlotlyFinder"]  # plotly.js from the installed package
STATIC_ROOT = DATA_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
                    if not DEBUG else "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# The sandbox (plain Python) reads GAMEWORLD_CHROMIUM itself: Debian's Chromium headless shell by default. It reads
# GAMEWORLD_BROWSERS (Chromiums a process may run for sessions at the same time) too; checked here so that
# a bad value stops start-up.
env_int("GAMEWORLD_BROWSERS", 2, minimum=1)
# Processes of the worker `runsite` starts for the interactive and replay queues, and of the one for the background
# queue (one a core: a new site's first start checks its tasks on every core).
GAMEWORLD_WORKER_CONCURRENCY = env_int("GAMEWORLD_WORKER_CONCURRENCY", 1, minimum=1)
GAMEWORLD_BACKGROUND_CONCURRENCY = env_int("GAMEWORLD_BACKGROUND_CONCURRENCY", len(os.sched_getaffinity(0)), minimum=1)
# Daphne processes `runsite` starts, all serving the one port (HTTP and WebSockets): one a core by default, so
# that requests do not queue behind one another in a single process. Every piece of state a request or a socket
# relies on across connections is in the database or the shared cache, never in one process's memory.
GAMEWORLD_WEB_PROCESSES = env_int("GAMEWORLD_WEB_PROCESSES", len(os.sched_getaffinity(0)), minimum=1)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("GAMEWORLD_LOG_LEVEL", "INFO")},
}
