import os
from pathlib import Path

import pytest

from evaluator.sandbox.registry import Registry

FIXTURE_GAMES = Path(__file__).parent / "fixtures" / "games"
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"

# Playwright's sync API (end-to-end tests) runs an event loop on the test thread; Django's ORM calls made
# from that thread by the tests themselves are still synchronous and safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(scope="session")
def fixture_games():
    """A registry of the small test games in tests/fixtures/games."""
    return Registry(FIXTURE_GAMES)


@pytest.fixture(scope="session")
def counter_task(fixture_games):
    return fixture_games.task("counter/score-3")


@pytest.fixture(scope="session")
def artifacts_dir():
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
