import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def fresh_cache():
    """The leaderboard's cache is shared by processes (a folder, or Redis): start every test without it."""
    cache.clear()
    yield
    cache.clear()
