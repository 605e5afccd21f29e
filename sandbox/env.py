"""A task's env: the rule wrappers of sandbox/rules.py composed over a backend session, behind one
Gymnasium-like API (`reset(seed)`, `step(action)`, `render()`, `score()`, `close()`).

A backend session only knows how to open a game at a seed, restart it, apply one primitive action
(advancing game time by its duration) and read the game's state; everything about tasks lives in the rules.
"""
from . import oracle
from .errors import RunOver, SandboxError
from .protocol import LATENCY_FIELD
from .rules import Budget, InvalidActionCharging, RealtimeLatency, ResetOnFail, SessionEnv, TraceRecording

OBSERVATIONS = ("frame", "state")
INFO_FIELDS = ("state", "terminated", "truncated", "attempt", "actions_used", "actions_left", "invalid",
               "invalid_reason", "reset", "progress", "success")
REALTIME_INFO_FIELDS = (LATENCY_FIELD, "landed")  # on realtime steps only


def compose(task, session):
    """The rules of `task` around a bare backend session, built from the inside out; returns the outermost."""
    env = SessionEnv(session)
    env = InvalidActionCharging(env, action_space=task.game.action_space, step_ms=task.step_ms)
    env = RealtimeLatency(env)
    env = Budget(env, max_actions=task.max_actions)
    env = ResetOnFail(env, score_field=task.score_field, start=task.start, target=task.target)
    return TraceRecording(env)


class TaskEnv:
    """A Gymnasium-like env for one task: `reset(seed)`, `step(action)`, `render()`, `close()`."""

    def __init__(self, task, session, *, observation="frame"):
        if observation not in OBSERVATIONS:
            raise ValueError(f"observation must be one of {OBSERVATIONS}, got {observation!r}")
        self.task = task
        self.session = session
        self.observation = observation
        self.action_space = task.game.action_space
        self.rules = compose(task, session)
        self.seed = None
        self._info = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    @property
    def trace(self):
        return self.rules.trace

    @property
    def actions_used(self):
        return self.rules.actions_used

    @property
    def actions_left(self):
        return self.rules.actions_left

    @property
    def done(self):
        return bool(self._info) and (self._info["terminated"] or self._info["truncated"])

    def reset(self, seed=None):
        seed = self.task.seeds[0] if seed is None else seed
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise SandboxError(f"seed must be a non-negative integer, got {seed!r}")
        self.seed = seed
        state, info = self.rules.reset(seed)
        return self._answer(state, {**info, "invalid": False, "invalid_reason": None})

    def step(self, action):
        if self._info is None:
            raise SandboxError("call reset() before step()")
        if self.done:
            raise RunOver(f"the run is over ({self.actions_used} of {self.task.max_actions} actions used"
                                  f"{', target reached' if self._info['terminated'] else ''}); call reset()")
        return self._answer(*self.rules.step(action))

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

    def _answer(self, state, info):
        self._info = {name: state if name == "state" else info[name] for name in INFO_FIELDS}
        self._info.update({name: info[name] for name in REALTIME_INFO_FIELDS if name in info})
        observation = state if self.observation == "state" else self.session.frame("jpeg")
        return observation, dict(self._info)


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
