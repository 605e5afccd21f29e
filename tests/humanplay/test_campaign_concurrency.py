"""Two "Play the next task" requests at once: both read the same free slots before either writes (a barrier
holds them there), and the database's unique constraint on held and filled slots decides. On the embedded
SQLite here; the scaled test runs this module again on PostgreSQL."""
import subprocess
import sys
import threading
from datetime import date, timedelta

import pytest
from django.db import connection

from humanplay import selectors, services
from humanplay.models import Assignment, Campaign
from tests.leaderboard.factories import mini_task_set, player
from tests.scaled import ROOT, require_postgres_and_redis, subprocess_env

pytestmark = pytest.mark.django_db(transaction=True)


def make_campaign(tasks, novice=1):
    return Campaign.objects.create(
        slug="rush", title="Rush", task_set=mini_task_set(tasks), novice_runs_per_task=novice, expert_runs_per_task=0,
        consent_text="ok", starts_on=date.today(), ends_on=date.today() + timedelta(days=1))


def at_once(campaign, users, monkeypatch):
    """assign_next for each user in its own thread, each request reading its candidates before any inserts."""
    barrier = threading.Barrier(len(users))
    real = selectors.candidate_slots

    def candidates_then_wait(**kwargs):
        found = real(**kwargs)
        barrier.wait(timeout=60)
        return found

    monkeypatch.setattr(selectors, "candidate_slots", candidates_then_wait)
    results, errors = [None] * len(users), []

    def request(index, user):
        try:
            found = services.assign_next(campaign=campaign, user=user)
            results[index] = None if found is None else (found.task_id, found.kind, found.slot, found.pk)
        except Exception as error:  # reported below, with the thread's traceback in the message
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=request, args=(i, u)) for i, u in enumerate(users)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors, errors
    return results


def joined(campaign, *names):
    users = [player(name) for name in names]
    for user in users:
        services.join_campaign(campaign=campaign, user=user)
    return users


def test_two_volunteers_at_once_take_different_slots(monkeypatch):
    campaign = make_campaign(["breakout/rally-5@2", "runner/clear-6@1"])
    first, second = at_once(campaign, joined(campaign, "ann", "ben"), monkeypatch)
    assert first and second, (first, second)
    assert first[:3] != second[:3]  # both read breakout's slot as free; the second insert moved on to runner
    held = Assignment.objects.filter(status=Assignment.Status.HELD)
    assert held.count() == 2 and len({(a.task_id, a.slot) for a in held}) == 2


def test_the_last_slot_goes_to_one_of_two_volunteers(monkeypatch):
    campaign = make_campaign(["breakout/rally-5@2"])
    results = at_once(campaign, joined(campaign, "cid", "dot"), monkeypatch)
    assert sorted(results, key=lambda r: r is None)[1] is None and any(results)
    assert Assignment.objects.count() == 1


def test_a_double_click_gives_one_assignment(monkeypatch):
    campaign = make_campaign(["breakout/rally-5@2", "runner/clear-6@1"], novice=2)
    (eve,) = joined(campaign, "eve")
    first, second = at_once(campaign, [eve, eve], monkeypatch)
    assert first == second
    assert Assignment.objects.filter(user=eve).count() == 1


@pytest.mark.scaled
@pytest.mark.slow
def test_the_same_races_on_postgresql():
    """This module's tests again, in a pytest process whose database is a real PostgreSQL (pytest-django makes
    and drops its test database there)."""
    require_postgres_and_redis()
    env = subprocess_env({"DATABASE_URL": "postgres://postgres@127.0.0.1:5432/gameworld_campaign_race"})
    result = subprocess.run([sys.executable, "-m", "pytest", __file__, "-q", "-p", "no:cacheprovider", "-m",
                             "not scaled", "--create-db"], cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=900)
    assert result.returncode == 0 and "3 passed" in result.stdout, result.stdout[-3000:] + result.stderr[-2000:]
