"""The frame rule (DESIGN.md, "Frames tell the truth") as checks over PNG frames, shared by the conformance
test and the calibration gate.

- The first frame after the readiness gate is a drawn game frame: not one flat colour (a canvas nobody drew
  on is transparent black).
- The frame after a reset-on-fail shows the new attempt: pixel for pixel the first frame of a fresh
  `reset(seed=...)` of a new env with that attempt's seed, not the death screen of the attempt that ended.
"""
import io
from dataclasses import dataclass

import numpy
from PIL import Image

from . import make
from .errors import SandboxError
from .oracle import attempt_seed


class NoLoss(SandboxError):
    """No losing action list lost the game within the run's budget: the post-reset frame cannot be checked."""


def pixels(png_bytes):
    """The frame as a (height, width, 4) RGBA array."""
    return numpy.asarray(Image.open(io.BytesIO(png_bytes)).convert("RGBA"))


def is_flat(png_bytes):
    """True when every pixel of the frame has the same colour."""
    image = pixels(png_bytes)
    return bool((image == image[0, 0]).all())


def differing_pixels(png_a, png_b):
    """How many pixels differ between two frames of the same size (any channel, alpha included)."""
    a, b = pixels(png_a), pixels(png_b)
    if a.shape != b.shape:
        raise ValueError(f"frames of different sizes: {a.shape[1]}x{a.shape[0]} and {b.shape[1]}x{b.shape[0]}")
    return int((a != b).any(axis=-1).sum())


def first_frame(task, seed):
    """The PNG frame an agent sees after `reset(seed=seed)`, once the game is actionable."""
    with make(task, observation="state") as env:
        env.reset(seed=seed)
        return env.render("png")


@dataclass(frozen=True)
class PostResetFrame:
    """The frame after a reset-on-fail next to the first frame of a fresh reset with the same seed."""

    attempt: int  # the attempt the reset started
    seed: int  # that attempt's seed
    frame: bytes  # PNG, right after the reset-on-fail
    fresh: bytes  # PNG, after reset(seed=seed) of a new env
    differing_pixels: int

    @property
    def matches(self):
        return self.differing_pixels == 0


def losing_action_lists(task):
    """Action lists that may lose the game, tried in order: the game's `tests.fail` trajectory (made to lose
    its first attempt), then the task's null trajectory."""
    fail = task.game.fail_trajectory
    return [plan.actions for plan in (fail, task.null) if plan is not None]


def post_reset_frame(task, seed, actions=None):
    """Play `actions` (by default each of `losing_action_lists(task)` in turn) from `reset(seed=seed)` until
    the game is lost and reset; return that frame and the fresh one. NoLoss when no list loses the game."""
    for plan in [actions] if actions is not None else losing_action_lists(task):
        lost = _frame_after_loss(task, seed, plan)
        if lost is not None:
            attempt, frame = lost
            new_seed = attempt_seed(seed, attempt)
            fresh = first_frame(task, new_seed)
            return PostResetFrame(attempt=attempt, seed=new_seed, frame=frame, fresh=fresh,
                                  differing_pixels=differing_pixels(frame, fresh))
    raise NoLoss(f"{task.id} seed {seed}: no losing action list lost the game within {task.max_actions} actions")


def post_reset_frame_matches(task, seed, actions=None):
    """True when the frame after a reset-on-fail equals the first frame of a fresh reset with its seed."""
    return post_reset_frame(task, seed, actions).matches


def _frame_after_loss(task, seed, actions):
    """(attempt, PNG) at the first reset-on-fail while playing `actions`, or None if the game was not lost."""
    with make(task, observation="state") as env:
        env.reset(seed=seed)
        for action in actions:
            if env.done:
                return None
            _, info = env.step(action)
            if info["reset"]:
                return info["attempt"], env.render("png")
    return None
