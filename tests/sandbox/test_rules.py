"""Each rule wrapper on its own, over an in-memory game (no browser), then their composition in TaskEnv."""
import pytest

from sandbox import ProtocolError, RunOver, oracle
from sandbox.env import TaskEnv
from sandbox.protocol import split_latency
from sandbox.rules import (Budget, InvalidActionCharging, RealtimeLatency, ResetOnFail, SessionEnv, TraceRecording,
                           as_run_action)
from tests.sandbox.counter_game import LEFT, OUTSIDE, RIGHT, SPACE, STEP_MS, CounterSession, task


def charging(session):
    return InvalidActionCharging(SessionEnv(session), action_space=SPACE, step_ms=STEP_MS)


def test_an_invalid_action_is_reported_with_its_reason_and_the_game_does_not_move():
    session = CounterSession()
    env = charging(session)
    env.reset(1)
    state, info = env.step(OUTSIDE)
    assert info["invalid"] and "KeyQ" in info["invalid_reason"] and info["applied"] is None
    assert session.applied == [] and state["clock"] == 0
    state, info = env.step(RIGHT)
    assert not info["invalid"] and session.applied == [{**RIGHT, "duration_ms": STEP_MS}] and state["score"] == 1


def test_the_budget_counts_every_step_and_refuses_past_it():
    session = CounterSession()
    env = Budget(charging(session), max_actions=2)
    _, info = env.reset(1)
    assert (info["actions_used"], info["actions_left"], info["truncated"]) == (0, 2, False)
    env.step(OUTSIDE)  # an invalid action counts
    _, info = env.step(RIGHT)
    assert (info["actions_used"], info["actions_left"], info["truncated"]) == (2, 0, True)
    with pytest.raises(RunOver, match="budget of 2 actions"):
        env.step(RIGHT)
    assert len(session.applied) == 1


def reset_on_fail(session, *, max_actions=100, target=3):
    return ResetOnFail(Budget(RealtimeLatency(charging(session)), max_actions=max_actions), score_field="score",
                       start=0, target=target)


def test_a_lost_game_restarts_at_the_next_attempt_seed_and_keeps_the_best_score():
    session = CounterSession()
    env = reset_on_fail(session)
    env.reset(5)
    env.step(RIGHT)
    env.step(RIGHT)
    state, info = env.step(LEFT)
    assert session.opened == [5, oracle.attempt_seed(5, 2)]
    assert (info["reset"], info["attempt"], info["terminated"]) == (True, 2, False)
    assert state == {"score": 0, "clock": 0, "seed": oracle.attempt_seed(5, 2),
                     "terminal": {"is_terminal": False, "outcome": None}}  # the new attempt's ready state
    assert info["final_state"]["terminal"]["is_terminal"] and info["final_state"]["score"] == 2
    assert info["progress"] == pytest.approx(2 / 3)  # the best over attempts, not the new attempt's 0
    state, info = env.step(RIGHT)
    assert state["score"] == 1 and info["progress"] == pytest.approx(2 / 3)  # nor the new attempt's 1
    _, info = env.step(RIGHT)
    assert info["progress"] == pytest.approx(2 / 3) and not info["success"]
    _, info = env.step(RIGHT)
    assert info["terminated"] and info["success"] and not info["truncated"]
    with pytest.raises(RunOver, match="target is reached"):
        env.step(RIGHT)


def test_a_loss_on_the_last_action_does_not_restart():
    session = CounterSession()
    env = reset_on_fail(session, max_actions=1)
    env.reset(5)
    _, info = env.step(LEFT)
    assert (info["reset"], info["attempt"], info["truncated"]) == (False, 1, True)
    assert session.opened == [5]


def test_latency_runs_the_clock_with_no_input_before_the_action_lands():
    session = CounterSession()
    env = RealtimeLatency(charging(session))
    env.reset(1)
    state, info = env.step({**RIGHT, "latency_ms": 300})
    assert session.applied == [{"type": "wait", "duration_ms": 300}, {**RIGHT, "duration_ms": STEP_MS}]
    assert (state["clock"], state["score"], info["latency_ms"], info["landed"]) == (500, 1, 300, True)
    state, info = env.step({**RIGHT, "latency_ms": 600})  # the game runs out of time while the agent thinks
    assert session.applied[-1] == {"type": "wait", "duration_ms": 600}
    assert (state["score"], info["landed"], info["invalid"]) == (1, False, False)
    assert info["applied"] == {**RIGHT, "duration_ms": STEP_MS}  # resolved and recorded, never applied


def test_a_bad_latency_makes_the_step_invalid_and_nothing_moves():
    session = CounterSession()
    env = RealtimeLatency(charging(session))
    env.reset(1)
    _, info = env.step({**RIGHT, "latency_ms": -1})
    assert info["invalid"] and "latency_ms must be an integer" in info["invalid_reason"]
    assert session.applied == [] and "latency_ms" not in info  # recorded as a paused step
    _, info = env.step(RIGHT)  # without latency_ms: a paused step
    assert "latency_ms" not in info and "landed" not in info


def test_the_trace_has_a_ready_record_per_attempt_and_a_step_record_per_action():
    session = CounterSession()
    env = TraceRecording(reset_on_fail(session))
    env.reset(5)
    env.step(OUTSIDE)
    env.step(LEFT)
    env.step({**RIGHT, "latency_ms": 0})
    kinds = [(r["kind"], r["attempt"]) for r in env.trace]
    assert kinds == [("ready", 1), ("step", 1), ("step", 1), ("ready", 2), ("step", 2)]
    invalid, lost, realtime = (r for r in env.trace if r["kind"] == "step")
    assert (invalid["action"], invalid["applied"], invalid["invalid"]) == (OUTSIDE, None, True)
    assert lost["state"]["terminal"]["is_terminal"]  # the lost attempt's last state, not the restart's
    assert env.trace[3]["state"]["seed"] == oracle.attempt_seed(5, 2)
    assert "latency_ms" not in lost and (realtime["latency_ms"], realtime["landed"]) == (0, True)


def play(actions):
    env = TaskEnv(task(), CounterSession(), observation="state")
    env.reset(seed=7)
    infos = [env.step(action)[1] for action in actions]
    return env, infos


def test_task_env_composes_the_rules_and_is_deterministic():
    plan = [OUTSIDE, RIGHT, LEFT, {**RIGHT, "latency_ms": 100}, RIGHT, RIGHT]
    env, infos = play(plan)
    again, _ = play(plan)
    assert oracle.trace_sha256(env.trace) == oracle.trace_sha256(again.trace)
    assert set(infos[0]) == {"state", "terminated", "truncated", "attempt", "actions_used", "actions_left",
                             "invalid", "invalid_reason", "reset", "progress", "success"}
    assert infos[2]["reset"] and infos[3]["landed"] and infos[-1]["terminated"]
    score = env.score()
    assert (score.actions, score.attempts, score.invalid, score.success) == (6, 2, 1, True)
    assert (env.actions_used, env.actions_left, env.done) == (6, 94, True)
    with pytest.raises(RunOver, match=r"the run is over \(6 of 100 actions used, target reached\)"):
        env.step(RIGHT)


def test_a_run_records_an_action_outside_the_space_as_an_invalid_record():
    assert as_run_action(RIGHT, SPACE, STEP_MS) == (RIGHT, None)
    recorded, reason = as_run_action(OUTSIDE, SPACE, STEP_MS)
    assert recorded == {"type": "invalid", "raw": '{"type": "press_key", "key": "KeyQ"}'} and "KeyQ" in reason
    assert as_run_action({"type": "invalid", "raw": "x" * 600}, SPACE, STEP_MS)[0]["raw"] == "x" * 500


def test_a_run_takes_latency_in_realtime_only():
    assert split_latency(RIGHT, protocol="paused") == (RIGHT, None)
    assert split_latency({**RIGHT, "latency_ms": 40}, protocol="realtime") == (RIGHT, 40)
    with pytest.raises(ProtocolError, match="realtime protocol; this run is paused"):
        split_latency({**RIGHT, "latency_ms": 40}, protocol="paused")
    with pytest.raises(ProtocolError, match="from 0 to 30000"):
        split_latency({**RIGHT, "latency_ms": 30_001}, protocol="realtime")
    assert as_run_action(OUTSIDE, SPACE, STEP_MS, latency=40)[0]["latency_ms"] == 40
