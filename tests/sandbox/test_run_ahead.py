"""Run-ahead replays (sandbox/batch.py): the same traces as step by step, with one round trip to the page;
and the warm pool of browser contexts they open, where nothing of one run reaches the next. Every bundled game's
random play is replayed both ways in test_conformance.py."""
import math
import time

import pytest

import sandbox
from sandbox import GameCrashed, SandboxError, Trajectory, run_trajectory
from sandbox.backends.browser import SPARE_CONTEXTS, BrowserHost, BrowserSession
from sandbox.oracle import trace_sha256

UP = {"type": "press_key", "key": "ArrowUp"}
DOWN = {"type": "press_key", "key": "ArrowDown"}  # loses the counter game
WAIT = {"type": "wait"}


def both_ways(task, trajectory):
    """(stepwise, run-ahead) results of the same replay."""
    return run_trajectory(task, trajectory, run_ahead=False), run_trajectory(task, trajectory)


RUNS = pytest.mark.parametrize("actions", [
    # reset-on-fail twice, invalid actions (unknown key, bad type, bad duration), a click, a semantic action
    [UP, DOWN, {"type": "press_key", "key": "KeyQ"}, UP, {"type": "fly"}, DOWN,
     {"type": "left_click", "x": 20, "y": 60}, {"type": "wait", "duration_ms": 1}, {"type": "semantic", "name": "up"}],
    # realtime steps: waits before the action, one refused latency, one loss; more actions than the budget
    [{**UP, "latency_ms": 300}, {**DOWN, "latency_ms": 0}, {**UP, "latency_ms": -5}, {**WAIT, "latency_ms": 1500},
     UP, {**UP, "latency_ms": 40}] + [WAIT] * 8,
    # the target is reached at the third action: what follows is never part of the run
    [UP, UP, UP, DOWN, UP],
], ids=["reset-and-invalid", "realtime-and-budget", "target-reached"])


@RUNS
def test_run_ahead_replays_the_stepwise_trace_byte_for_byte(counter_task, actions):
    trajectory = Trajectory(seed=3, actions=actions)
    (step_score, step_trace), (ahead_score, ahead_trace) = both_ways(counter_task, trajectory)
    assert ahead_trace == step_trace
    assert ahead_score == step_score and ahead_score.trace_sha256 == trace_sha256(step_trace)
    assert run_trajectory(counter_task, trajectory) == (ahead_score, ahead_trace)  # and twice the same


@pytest.mark.parametrize("task_id, ends", [("tiltmaze/maze-1", "at its last action"),
                                             ("breakout/rally-5", "before its last action")])
def test_the_frame_a_run_ended_on_is_the_stepwise_one(task_id, ends):
    """A run-ahead draws its last action (a game that draws in animation frames would otherwise show the canvas of
    its first frame), and a run that ended before its last action, whose page ran past it, is replayed step by
    step."""
    task = sandbox.registry.task(task_id)
    trajectory = Trajectory(seed=task.reference.seed, actions=task.reference.actions
                            + ([] if ends == "at its last action" else [WAIT] * 3))
    *step_result, step_frame = run_trajectory(task, trajectory, run_ahead=False, last_frame=True)
    *ahead_result, ahead_frame = run_trajectory(task, trajectory, last_frame=True)
    assert ahead_result == step_result and ahead_frame == step_frame


def test_a_known_run_takes_one_round_trip_to_the_page(counter_task, monkeypatch):
    batches = []
    run_ahead = BrowserSession.run_ahead

    def counted(self, steps, seeds):
        batches.append(steps)
        return run_ahead(self, steps, seeds)

    def refused(self, *args):
        raise AssertionError("a run-ahead replay stepped the page")

    monkeypatch.setattr(BrowserSession, "run_ahead", counted)
    monkeypatch.setattr(BrowserSession, "apply", refused)
    monkeypatch.setattr(BrowserSession, "restart", refused)
    score, trace = run_trajectory(counter_task, Trajectory(seed=1, actions=[UP, DOWN, UP, DOWN, UP, UP, UP]))
    assert len(batches) == 1 and score.attempts == 3 and score.success
    assert [r["kind"] for r in trace].count("ready") == 3


class ScriptedBackend:
    """A backend session whose run-ahead returns the given events (the counter game's state shape)."""

    def __init__(self, events):
        self.events = events

    @staticmethod
    def state(score, terminal=False):
        return {"actionable": not terminal, "score": score,
                "terminal": {"is_terminal": terminal, "outcome": "lose" if terminal else None}}

    def open(self, seed):
        return self.state(0)

    def run_ahead(self, steps, seeds):
        return self.events

    def close(self):
        pass


def scripted(monkeypatch, events):
    monkeypatch.setattr(sandbox, "open_session", lambda game, **options: ScriptedBackend(events))


def test_an_error_the_page_met_is_raised_where_the_env_meets_it_and_not_before(counter_task, monkeypatch):
    crash = GameCrashed("counter: the page raised: boom")
    state = ScriptedBackend.state
    events = [(("apply", 0, 0), state(1)), (("apply", 1, 0), state(2)), (("apply", 2, 0), state(3)),
              (("apply", 3, 0), crash)]
    scripted(monkeypatch, events)
    score, _ = run_trajectory(counter_task, Trajectory(seed=1, actions=[UP, UP, UP, UP]))
    assert score.success and score.actions == 3  # the target came first: the run never reached the error
    scripted(monkeypatch, events[:1] + [(("apply", 1, 0), crash)])
    with pytest.raises(GameCrashed, match="boom"):
        run_trajectory(counter_task, Trajectory(seed=1, actions=[UP, UP, UP, UP]))


def test_a_run_ahead_that_drifts_from_the_env_fails_loudly(counter_task, monkeypatch):
    state = ScriptedBackend.state
    scripted(monkeypatch, [(("apply", 0, 0), state(0, terminal=True)), (("apply", 1, 0), state(1))])
    with pytest.raises(SandboxError, match="asked to restart at seed .* where the backend ran apply"):
        run_trajectory(counter_task, Trajectory(seed=1, actions=[DOWN, UP]))


def page_eval(session, script):
    return session.host.call(lambda _browser: session._page.evaluate(script))


def test_the_page_stops_at_an_error_and_reports_it_at_its_step(counter_task):
    session = BrowserSession(counter_task.game)
    try:
        session.open(1)
        page_eval(session, """() => window.addEventListener("keydown", (event) => {
            if (event.code === "ArrowDown") throw new Error("boom"); })""")
        primitive = {"type": "press_key", "duration_ms": 200}
        events = session.run_ahead([[{**primitive, "key": key}] for key in ("ArrowUp", "ArrowDown", "ArrowUp")], [])
    finally:
        session.close()
    assert [call for call, _ in events] == [("apply", 0, 0), ("apply", 1, 0)]
    assert events[0][1]["score"] == 1
    assert isinstance(events[1][1], GameCrashed) and "boom" in str(events[1][1])


def test_states_that_json_cannot_hold_come_back_as_a_step_returns_them(counter_task):
    session = BrowserSession(counter_task.game)
    try:
        session.open(1)
        page_eval(session, """() => { const read = window.gameAPI.getState;
            window.gameAPI.getState = () => ({...read(), odd: [-0, Infinity, undefined], missing: undefined}); }""")
        [(_, ahead)] = session.run_ahead([[{"type": "wait", "duration_ms": 100}]], [])
        stepped = session.state()
    finally:
        session.close()
    assert ahead == stepped and "missing" in ahead
    assert math.copysign(1, ahead["odd"][0]) == -1 and ahead["odd"][1] == math.inf and ahead["odd"][2] is None


def test_runs_take_a_warm_context_where_nothing_of_the_last_run_remains(counter_task):
    host = BrowserHost.for_session()
    host.warm()
    spare = host._spares[0]
    with sandbox.make(counter_task, observation="state", host=host) as env:
        env.reset(seed=1)
        assert env.session._context is spare.context  # the run did not wait for a new context
        page_eval(env.session, """() => { window.leaked = 1; localStorage.setItem("leaked", "1");
            sessionStorage.setItem("leaked", "1"); document.cookie = "leaked=1"; }""")
        assert page_eval(env.session, "() => localStorage.getItem('leaked')") == "1"
    deadline = time.monotonic() + 30
    while len(host._spares) < SPARE_CONTEXTS:  # an idle host makes the next spare by itself
        assert time.monotonic() < deadline, "the host made no spare context while idle"
        time.sleep(0.05)
    refilled = host._spares[0]
    with sandbox.make(counter_task, observation="state", host=host) as env:
        env.reset(seed=1)
        assert env.session._context is refilled.context and refilled.context is not spare.context
        left = page_eval(env.session, """() => [typeof window.leaked, localStorage.getItem("leaked"),
            sessionStorage.getItem("leaked"), document.cookie]""")
        assert left == ["undefined", None, None, ""]
