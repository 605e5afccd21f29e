"""The rules every run obeys, whatever the backend: one action per step, invalid actions charged,
the action budget, reset-on-fail with the best score kept, and a recorded state trace.

The realtime protocol: an action may carry `latency_ms` (an integer from 0 to MAX_LATENCY_MS), the time the
agent took to choose it. The game clock first runs for that long with no input (the world does not wait for
a slow agent), then the action lands, unless the game ended during the wait. Latency is part of the
recorded action, so a replay is as deterministic as a paused run. An action without `latency_ms` is a
paused step, recorded exactly as before. Which protocol a run follows is checked where runs come in (the
upload format, the agent socket); the env applies what the action says.

A backend session only knows how to open a game at a seed, restart it, apply one primitive action
(advancing game time by its duration) and read the game's state; everything about tasks lives here.
"""
import json

from . import oracle
from .errors import BudgetExhausted, InvalidAction, SandboxError

OBSERVATIONS = ("frame", "state")
LATENCY_FIELD = "latency_ms"
MAX_LATENCY_MS = 30_000


class TaskEnv:
    """A Gymnasium-like env for one task: `reset(seed)`, `step(action)`, `render()`, `close()`."""

    def __init__(self, task, session, *, observation="frame"):
        if observation not in OBSERVATIONS:
            raise ValueError(f"observation must be one of {OBSERVATIONS}, got {observation!r}")
        self.task = task
        self.session = session
        self.observation = observation
        self.action_space = task.game.action_space
        self.trace = []
        self.seed = None
        self._started = False

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    @property
    def actions_used(self):
        return self._actions

    @property
    def actions_left(self):
        return self.task.max_actions - self._actions

    @property
    def done(self):
        return self._terminated or self._truncated

    def reset(self, seed=None):
        seed = self.task.seeds[0] if seed is None else seed
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise SandboxError(f"seed must be a non-negative integer, got {seed!r}")
        self.seed = seed
        self.trace = []
        self._actions = 0
        self._attempt = 1
        self._terminated = self._truncated = False
        self._started = True
        self._state = self.session.open(oracle.attempt_seed(seed, 1))
        self._record_ready()
        self._start = oracle.resolve_start(self.task.start, self.trace, self.task.score_field)
        self._best = self._start
        return self._observe(), self._info(invalid=False, reset=False)

    def step(self, action):
        if not self._started:
            raise SandboxError("call reset() before step()")
        if self.done:
            raise BudgetExhausted(f"the run is over ({self._actions} of {self.task.max_actions} actions used"
                                  f"{', target reached' if self._terminated else ''}); call reset()")
        reason = None
        body, latency = action, None
        if isinstance(action, dict) and LATENCY_FIELD in action:  # the realtime protocol
            body = {key: value for key, value in action.items() if key != LATENCY_FIELD}
            latency, reason = check_latency(action[LATENCY_FIELD])
        primitive = None
        if reason is None:
            try:
                primitive = self.action_space.resolve(body, self.task.step_ms)
            except InvalidAction as exc:
                reason = str(exc)
        landed = True
        if latency:  # the game runs on while the agent thinks; an action that lands on a finished game is lost
            self._state = self.session.apply({"type": "wait", "duration_ms": latency})
            landed = not (self._state.get("terminal") or {}).get("is_terminal")
        if primitive is not None and landed:  # an invalid action costs a step but the game does not move
            self._state = self.session.apply(primitive)
        self._actions += 1
        record = {"kind": "step", "attempt": self._attempt, "action": _as_data(action),
                  "applied": primitive, "invalid": primitive is None, "state": self._state}
        if latency is not None:  # realtime steps only: paused traces are unchanged
            record.update(latency_ms=latency, landed=landed)
        self.trace.append(record)
        score = oracle.read_score(self._state, self.task.score_field)
        if score is not None:
            self._best = oracle.better(self._start, self.task.target, self._best, score)
        reset = False
        terminal = self._state.get("terminal") or {}
        if oracle.reached(self._start, self.task.target, self._best):
            self._terminated = True
        elif terminal.get("is_terminal"):
            if terminal.get("outcome") == "win":
                self._terminated = True
            elif self.actions_left > 0:
                self._attempt += 1
                self._state = self.session.restart(oracle.attempt_seed(self.seed, self._attempt))
                self._record_ready()
                reset = True
        if self.actions_left <= 0 and not self._terminated:
            self._truncated = True
        info = self._info(invalid=primitive is None, reset=reset, reason=reason)
        if latency is not None:
            info.update(latency_ms=latency, landed=landed)
        return self._observe(), info

    def render(self, fmt="jpeg", scale=1):
        """The current frame (JPEG or PNG bytes). `scale` > 1 enlarges it with nearest-neighbour for people
        (Game Boy frames are 160x144); the default is the game's own viewport size."""
        if scale == 1:
            return self.session.frame(fmt)
        if getattr(self.session, "scales_frames", False):  # the Game Boy backend scales its own frames
            return self.session.frame(fmt, scale=scale)
        return _scaled(self.session.frame(fmt), fmt, scale)

    def score(self):
        """The oracle's figures for the run so far."""
        return oracle.score_run(self.trace, score_field=self.task.score_field, start=self.task.start,
                                target=self.task.target)

    def close(self):
        self.session.close()

    def _record_ready(self):
        self.trace.append({"kind": "ready", "attempt": self._attempt, "state": self._state})

    def _observe(self):
        return self._state if self.observation == "state" else self.session.frame("jpeg")

    def _info(self, *, invalid, reset, reason=None):
        return {
            "state": self._state, "terminated": self._terminated, "truncated": self._truncated,
            "attempt": self._attempt, "actions_used": self._actions, "actions_left": self.actions_left,
            "invalid": invalid, "invalid_reason": reason, "reset": reset,
            "progress": oracle.progress(self._start, self.task.target, self._best),
            "success": oracle.reached(self._start, self.task.target, self._best),
        }


def check_latency(value):
    """(latency, None) for a valid realtime latency, else (None, the reason the step is invalid)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_LATENCY_MS:
        return None, f"{LATENCY_FIELD} must be an integer from 0 to {MAX_LATENCY_MS}, got {value!r}"
    return value, None


def _as_data(action):
    """Actions are recorded as JSON data; anything else is recorded by its repr, as an invalid action."""
    try:
        json.dumps(action, allow_nan=False)
        return action
    except (TypeError, ValueError):
        return repr(action)


def _scaled(data, fmt, scale):
    import io

    from PIL import Image

    if isinstance(scale, bool) or not isinstance(scale, int) or not 1 <= scale <= 8:
        raise ValueError(f"scale is an integer from 1 to 8, got {scale!r}")
    image = Image.open(io.BytesIO(data)).convert("RGB")
    image = image.resize((image.width * scale, image.height * scale), Image.Resampling.NEAREST)
    out = io.BytesIO()
    image.save(out, "PNG" if fmt == "png" else "JPEG", **({} if fmt == "png" else {"quality": 90}))
    return out.getvalue()
