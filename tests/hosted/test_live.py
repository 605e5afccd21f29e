"""The live-session engine on its own, over the in-memory game of the sandbox rule tests (no browser, no
stored rows): what it refuses and why, the store-before-apply order, and resume by replaying the log."""
import pytest
from asgiref.sync import async_to_sync

from hosted import live
from hosted.live import LiveSession, Refusal
from hosted.models import StepTaken
from sandbox.env import TaskEnv
from tests.sandbox.counter_game import LEFT, OUTSIDE, RIGHT, CounterSession, task

# The engine stores through database_sync_to_async, which tidies Django's connections around each call.
pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def in_memory_games(monkeypatch):
    monkeypatch.setattr(live, "make", lambda spec, observation: TaskEnv(spec, CounterSession(),
                                                                         observation=observation))


class Log:
    """A session's stored actions, unique per index like the AppliedAction tables."""

    def __init__(self):
        self.actions = []

    def store(self, index, action):
        if index < len(self.actions):
            raise StepTaken(f"step {index + 1} was already played on another connection")
        self.actions.append(action)


def session(log, **options):
    return LiveSession(task(), 7, store=log.store, **options)


def run(coroutine_fn, *args):
    return async_to_sync(coroutine_fn)(*args)


def test_refusals_give_a_reason_and_store_and_apply_nothing():
    log = Log()
    person = session(log)
    run(person.open, [])
    for message, reason in [({"step": 1, "action": RIGHT}, "that action answers frame 1, but frame 0 is the current"),
                            ({"step": 0, "action": OUTSIDE}, "not an action of this game: key 'KeyQ'"),
                            ({"step": 0, "action": {**RIGHT, "latency_ms": 5}}, "realtime protocol")]:
        with pytest.raises(Refusal, match=reason):
            run(person.play, message)
    assert log.actions == [] and person.steps == 0


def test_an_agent_is_charged_for_an_invalid_action_and_it_is_stored_as_an_invalid_record():
    log = Log()
    agent = session(log, charge_invalid=True)
    run(agent.open, [])
    stored = run(agent.play, {"step": 0, "action": OUTSIDE})
    assert stored == log.actions[0] == {"type": "invalid", "raw": '{"type": "press_key", "key": "KeyQ"}'}
    status = agent.status(reveal_score=True)
    assert (status["step"], status["invalid"], "progress" in status) == (1, True, False)
    assert "KeyQ" in status["invalid_reason"]


def test_a_step_stored_by_another_connection_is_refused_before_the_game_moves():
    log = Log()
    first, second = session(log), session(log)
    run(first.open, [])
    run(second.open, [])
    run(first.play, {"step": 0, "action": RIGHT})
    with pytest.raises(Refusal, match="already played") as refused:
        run(second.play, {"step": 0, "action": LEFT})
    assert refused.value.close == live.CONFLICT and second.steps == 0 and log.actions == [RIGHT]


def test_resume_replays_the_log_to_the_same_place():
    log = Log()
    played = session(log, charge_invalid=True, protocol="realtime")
    run(played.open, [])
    for step, action in enumerate([RIGHT, {**OUTSIDE, "latency_ms": 50}, LEFT, RIGHT, RIGHT, RIGHT]):
        run(played.play, {"step": step, "action": action})
    resumed = session(Log(), charge_invalid=True, protocol="realtime")
    run(resumed.open, log.actions)
    assert resumed.status(reveal_score=True) == played.status(reveal_score=True)
    assert played.done and played.status(reveal_score=True)["success"]
    assert resumed.env.trace == played.env.trace
    with pytest.raises(Refusal, match="the run is over"):
        run(played.play, {"step": 6, "action": RIGHT})


def test_a_realtime_latency_is_what_the_server_measured_or_more_never_less(monkeypatch):
    clock = iter([100.0, 100.8, 101.0, 101.1])  # frame sent, action after 0.8 s; frame sent, action after 0.1 s
    monkeypatch.setattr(live, "now", lambda: next(clock))
    log = Log()
    agent = session(log, charge_invalid=True, protocol="realtime")
    run(agent.open, [])
    run(agent.frame)
    claimed_fast = run(agent.play, {"step": 0, "action": {**RIGHT, "latency_ms": 0}})
    run(agent.frame)
    claimed_slow = run(agent.play, {"step": 1, "action": {**RIGHT, "latency_ms": 900}})
    assert claimed_fast["latency_ms"] == 800 and claimed_slow["latency_ms"] == 900
    assert [a["latency_ms"] for a in log.actions] == [800, 900]
