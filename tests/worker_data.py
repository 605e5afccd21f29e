"""A pytest plugin (pytest.ini loads it with `-p` before pytest-django reads the settings): under pytest-xdist each
worker gets a data folder of its own, so the tests of different workers never share a page cache, a broker, a
replay or a play folder, or the site processes they start (which inherit the environment). The scaled tests'
Redis databases are shared out per worker by `redis_db`."""
import os
from pathlib import Path

WORKER = os.environ.get("PYTEST_XDIST_WORKER")  # "gw0", "gw1", ... set by xdist before the worker's config
if WORKER:
    base = Path(os.environ.get("GAMEWORLD_DATA_DIR", Path(__file__).resolve().parent.parent / "var"))
    os.environ["GAMEWORLD_DATA_DIR"] = str(base / f"test-{WORKER}")

# The suite signs up, signs in, uploads and plays far more often than a person does: the abuse limits are raised
# for it (site processes that tests start inherit them); each limit's own test applies its real default.
for variable in ("GAMEWORLD_LIMIT_SIGNUPS", "GAMEWORLD_LIMIT_CAMPAIGN_CODES", "GAMEWORLD_LIMIT_TOKENS",
                 "GAMEWORLD_LIMIT_UPLOADS", "GAMEWORLD_LIMIT_HOSTED_EVALUATIONS", "GAMEWORLD_LIMIT_PLAY_SESSIONS"):
    os.environ.setdefault(variable, "100000/h")
os.environ.setdefault("GAMEWORLD_SIGNIN_FAILURES", "1000")
os.environ.setdefault("GAMEWORLD_INSECURE_FAST_PASSWORD_HASHING", "1")  # accounts are made by the hundred
os.environ.setdefault("GAMEWORLD_MAX_AGENT_SOCKETS", "100")

REDIS_WORKERS = 4  # Redis has 16 databases: each fixed number below stands for four, one per worker


def redis_db(base):
    """This worker's Redis database for a test that uses database number `base` (a multiple of REDIS_WORKERS)."""
    index = int(WORKER[2:]) if WORKER else 0
    if index >= REDIS_WORKERS:
        raise RuntimeError(f"at most {REDIS_WORKERS} pytest workers share the Redis databases; this is {WORKER}")
    return base + index
