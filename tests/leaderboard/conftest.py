import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def fresh_cache():
    """The leaderboard's cache is shared by processes (a folder, or Redis): start every test without it."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def queued_renders(request, monkeypatch):
    """Replay renders are recorded here (render ids) instead of sent to a broker, unless the test is marked
    `real_broker` (a worker process takes them)."""
    sent = []
    if request.node.get_closest_marker("real_broker") is None:
        from leaderboard import tasks

        monkeypatch.setattr(tasks.render_replay, "delay", sent.append)
    return sent
