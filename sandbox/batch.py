"""Replays of known actions, run ahead by the backend: the same trace as step by step, in a few round trips.

When a run's actions are known in advance (verification, validation, calibration, tests), a backend that
pays a round trip per step (the browser) can run them all in one: `RunAhead` turns the actions into the
primitive actions the env will apply, has the backend run them with reset-on-fail in place, then serves the
env's calls from those results. The env (TaskEnv) still makes every decision, so the rules live in one place;
the page only runs ahead of it, and whatever it ran past the run's end is never read.
"""
from collections import deque

from . import oracle
from .errors import InvalidAction, SandboxError
from .protocol import read_latency


def run_ahead(session, task, trajectory):
    """The session to give the env replaying `trajectory`: one that runs the actions ahead when the backend
    can (`run_ahead`), else the session itself (the Game Boy emulator has no round trips to save)."""
    if not hasattr(session, "run_ahead"):
        return session
    steps = planned_steps(task, trajectory.actions[:task.max_actions])
    # Every terminal state costs at least one action, so a run has at most one attempt per step after the first.
    seeds = [oracle.attempt_seed(trajectory.seed, attempt) for attempt in range(2, len(steps) + 2)]
    return RunAhead(session, steps, seeds)


def planned_steps(task, actions):
    """Each action's primitive actions, in the order TaskEnv.step applies them: the realtime wait (when the
    action carries a latency), then the action itself when it is valid. An invalid action applies nothing.
    RunAhead checks every call of the env against this plan, so a drift from TaskEnv.step fails loudly."""
    space = task.game.action_space
    steps = []
    for action in actions:
        body, latency, reason = read_latency(action)
        if reason is not None:
            steps.append([])
            continue
        primitives = [{"type": "wait", "duration_ms": latency}] if latency else []
        try:
            primitives.append(space.resolve(body, task.step_ms))
        except InvalidAction:
            pass
        steps.append(primitives)
    return steps


class RunAhead:
    """A backend session whose `apply` and `restart` answers come from one run-ahead of the planned steps.

    The run-ahead starts at the env's first `apply`. Once its events are used up, the page is exactly where
    the env believes it is, so any further call goes to the session as usual."""

    def __init__(self, session, steps, restart_seeds):
        self.session = session
        self.steps = steps
        self.restart_seeds = restart_seeds
        self._events = None

    def __getattr__(self, name):  # open, frame, state, close, ...: the session's own
        return getattr(self.session, name)

    @property
    def caught_up(self):
        """Whether the page is where the env believes it is (no run-ahead result is left unread), so that a frame
        it renders is the env's."""
        return not self._events

    def apply(self, action):
        if self._events is None:
            self._events = deque(self.session.run_ahead(self.steps, self.restart_seeds))
        if not self._events:
            return self.session.apply(action)
        call, outcome = self._events.popleft()
        if call[0] != "apply" or self.steps[call[1]][call[2]] != action:
            raise self._drift(f"apply {action}", call)
        return _returned(outcome)

    def restart(self, seed):
        if not self._events:
            return self.session.restart(seed)
        call, outcome = self._events.popleft()
        if call != ("restart", seed):
            raise self._drift(f"restart at seed {seed}", call)
        return _returned(outcome)

    def _drift(self, asked, call):
        ran = f"restart at seed {call[1]}" if call[0] == "restart" else f"apply {self.steps[call[1]][call[2]]}"
        return SandboxError(f"run-ahead replay: the env asked to {asked} where the backend ran {ran}; "
                            "planned_steps no longer matches TaskEnv.step")


def _returned(outcome):
    if isinstance(outcome, Exception):
        raise outcome
    return outcome
