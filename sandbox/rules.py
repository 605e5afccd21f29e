"""The rules of a run as wrappers around a bare backend session, Gymnasium-style: each rule is one small
piece that adds its fields to `info` and forwards what it does not know to the env it wraps.

    TraceRecording(ResetOnFail(Budget(RealtimeLatency(InvalidActionCharging(SessionEnv(session))))))

`SessionEnv` opens the game at a seed, restarts it, applies one primitive action and keeps the last state.
Every layer's `reset(seed)` and `step(action)` return `(state, info)`. `TaskEnv` (sandbox/env.py) composes
them for a task; the live sessions and the client use that composition, never their own copy of a rule.

The realtime protocol (sandbox/protocol.py): an action may carry `latency_ms`, the time the agent took to
choose it. The game clock first runs for that long with no input (the world does not wait for a slow agent),
then the action lands, unless the game ended during the wait. Latency is part of the recorded action, so a
replay is as deterministic as a paused run. An action without `latency_ms` is a paused step, recorded exactly
as before.
"""
import json

from . import oracle
from .errors import InvalidAction, RunOver
from .protocol import LATENCY_FIELD, invalid_record, is_invalid_record, read_latency, with_latency


class Wrapper:
    """A rule around an env: forwards every attribute it does not define to the env it wraps."""

    def __init__(self, env):
        self.env = env

    def __getattr__(self, name):
        if name == "env":  # not set yet (e.g. while unpickling): no recursion
            raise AttributeError(name)
        return getattr(self.env, name)

    def reset(self, seed):
        return self.env.reset(seed)

    def step(self, action):
        return self.env.step(action)


class SessionEnv:
    """The bare backend session as an env: no rules, the state is the observation."""

    def __init__(self, session):
        self.session = session
        self.state = None

    def reset(self, seed):
        self.state = self.session.open(seed)
        return self.state, {}

    def restart(self, seed):
        self.state = self.session.restart(seed)
        return self.state

    def step(self, primitive):
        self.state = self.session.apply(primitive)
        return self.state, {}

    def wait(self, ms):
        """Run the game clock `ms` milliseconds with no input."""
        return self.step({"type": "wait", "duration_ms": ms})

    def close(self):
        self.session.close()


class InvalidActionCharging(Wrapper):
    """An action outside the game's action space is charged as a step, but the game does not move.

    `step(action, move=False)` resolves and records without applying (a realtime action whose game ended
    during the agent's latency)."""

    def __init__(self, env, *, action_space, step_ms):
        super().__init__(env)
        self.action_space = action_space
        self.step_ms = step_ms

    def step(self, action, *, move=True):
        try:
            primitive, reason = self.action_space.resolve(action, self.step_ms), None
        except InvalidAction as exc:
            primitive, reason = None, str(exc)
        state, info = (self.env.step(primitive) if primitive is not None and move else (self.env.state, {}))
        return state, {**info, "applied": primitive, "invalid": primitive is None, "invalid_reason": reason}


class RealtimeLatency(Wrapper):
    """An action with `latency_ms`: the clock runs that long with no input first; the action lands only if
    the game did not end meanwhile. A bad latency makes the step invalid (charged, nothing moves, recorded
    as a paused step with the reason). Wraps InvalidActionCharging, which resolves an action that did not
    land without applying it."""

    def step(self, action):
        body, latency, reason = read_latency(action)
        if reason is not None:
            return self.env.state, {"applied": None, "invalid": True, "invalid_reason": reason}
        if latency is None:  # a paused step
            return self.env.step(action)
        landed = True
        if latency:
            state, _ = self.env.wait(latency)
            landed = not (state.get("terminal") or {}).get("is_terminal")
        state, info = self.env.step(body, move=landed)
        return state, {**info, LATENCY_FIELD: latency, "landed": landed}


class Budget(Wrapper):
    """At most `max_actions` steps per run, invalid ones included; `truncated` once they are spent."""

    def __init__(self, env, *, max_actions):
        super().__init__(env)
        self.max_actions = max_actions
        self.actions_used = 0

    @property
    def actions_left(self):
        return self.max_actions - self.actions_used

    def reset(self, seed):
        self.actions_used = 0
        state, info = self.env.reset(seed)
        return state, {**info, **self._counts()}

    def step(self, action):
        if self.actions_left <= 0:
            raise RunOver(f"the budget of {self.max_actions} actions is spent; call reset()")
        state, info = self.env.step(action)
        self.actions_used += 1
        return state, {**info, **self._counts()}

    def _counts(self):
        return {"actions_used": self.actions_used, "actions_left": self.actions_left,
                "truncated": self.actions_left <= 0}


class ResetOnFail(Wrapper):
    """Scores the run against the task's target and restarts a lost game while the budget lasts.

    Attempt n plays at `oracle.attempt_seed(seed, n)`; progress is the best score over all attempts; the
    run is `terminated` when the target is reached or the game is won. After a restart the returned state
    is the new attempt's ready state and `info["final_state"]` the lost attempt's last one."""

    def __init__(self, env, *, score_field, start, target):
        super().__init__(env)
        self.score_field, self.start_spec, self.target = score_field, start, target
        self.seed = None
        self.attempt = 0
        self.terminated = False

    def reset(self, seed):
        self.seed, self.attempt, self.terminated = seed, 1, False
        state, info = self.env.reset(oracle.attempt_seed(seed, 1))
        self.start = oracle.resolve_start(self.start_spec, [{"kind": "ready", "state": state}], self.score_field)
        self.best = self.start
        return state, {**info, **self._figures(reset=False)}

    def step(self, action):
        if self.terminated:
            raise RunOver("the target is reached; call reset()")
        state, info = self.env.step(action)
        score = oracle.read_score(state, self.score_field)
        if score is not None:
            self.best = oracle.better(self.start, self.target, self.best, score)
        terminal = state.get("terminal") or {}
        restarted = False
        if oracle.reached(self.start, self.target, self.best) or (
                terminal.get("is_terminal") and terminal.get("outcome") == "win"):
            self.terminated = True
        elif terminal.get("is_terminal") and self.env.actions_left > 0:
            self.attempt += 1
            info["final_state"] = state
            state = self.env.restart(oracle.attempt_seed(self.seed, self.attempt))
            restarted = True
        info["truncated"] = info["truncated"] and not self.terminated
        return state, {**info, **self._figures(reset=restarted)}

    def _figures(self, *, reset):
        return {"terminated": self.terminated, "attempt": self.attempt, "reset": reset,
                "progress": oracle.progress(self.start, self.target, self.best),
                "success": oracle.reached(self.start, self.target, self.best)}


class TraceRecording(Wrapper):
    """Records the state trace the oracle scores: a "ready" record per attempt, a "step" record per action
    (the action as given, the primitive applied, whether it was invalid, the state it left)."""

    def __init__(self, env):
        super().__init__(env)
        self.trace = []

    def reset(self, seed):
        state, info = self.env.reset(seed)
        self.trace = [{"kind": "ready", "attempt": self.env.attempt, "state": state}]
        return state, info

    def step(self, action):
        attempt = self.env.attempt
        state, info = self.env.step(action)
        record = {"kind": "step", "attempt": attempt, "action": as_data(action), "applied": info["applied"],
                  "invalid": info["invalid"], "state": info.get("final_state", state)}
        if LATENCY_FIELD in info:  # realtime steps only: paused traces are unchanged
            record.update({LATENCY_FIELD: info[LATENCY_FIELD], "landed": info["landed"]})
        self.trace.append(record)
        if info["reset"]:
            self.trace.append({"kind": "ready", "attempt": self.env.attempt, "state": state})
        return state, info


def as_data(action):
    """Actions are recorded as JSON data; anything else is recorded by its repr, as an invalid action."""
    try:
        json.dumps(action, allow_nan=False)
        return action
    except (TypeError, ValueError):
        return repr(action)


def as_run_action(action, action_space, step_ms, *, latency=None):
    """The action as a run stores it (a hosted episode, the client's run record): itself when the action
    space accepts it, else its invalid record; with the reason it is invalid. `action` has no `latency_ms`
    (see protocol.split_latency); a realtime `latency` is added to the record."""
    if is_invalid_record(action):
        recorded, reason = invalid_record(action.get("raw", "")), "no valid action (recorded as invalid)"
    else:
        try:
            action_space.resolve(action, step_ms)
            recorded, reason = action, None
        except InvalidAction as exc:
            recorded, reason = invalid_record(action), str(exc)
    return with_latency(recorded, latency), reason


__all__ = ["Wrapper", "SessionEnv", "InvalidActionCharging", "RealtimeLatency", "Budget", "ResetOnFail",
           "TraceRecording", "as_data", "as_run_action"]
