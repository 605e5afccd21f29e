"""The frame rule (games/README.md, "The page": frames tell the truth) as checks over PNG frames, shared by the conformance
test, the calibration gate and `python -m sandbox doctor`.

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

FLAT_TOLERANCE = 3  # channel values: a frame whose every channel spans no more than this is blank


class NoLoss(SandboxError):
    """No losing action list lost the game within the run's budget: the post-reset frame cannot be checked."""


def pixels(png_bytes):
    """The frame as a (height, width, 4) RGBA array."""
    return numpy.asarray(Image.open(io.BytesIO(png_bytes)).convert("RGBA"))


def is_flat(png_bytes):
    """True when the frame is one flat colour (nothing drawn), give or take FLAT_TOLERANCE per channel."""
    image = pixels(png_bytes).reshape(-1, 4).astype(int)
    return bool((image.max(axis=0) - image.min(axis=0) <= FLAT_TOLERANCE).all())


def differing_pixels(png_a, png_b):
    """How many pixels differ between two frames of the same size (any channel, alpha included)."""
    a, b = pixels(png_a), pixels(png_b)
    if a.shape != b.shape:
        raise ValueError(f"frames of different sizes: {a.shape[1]}x{a.shape[0]} and {b.shape[1]}x{b.shape[0]}")
    return int((a != b).any(axis=-1).sum())


def first_frame(task, seed, **session_options):
    """The PNG frame an agent sees after `reset(seed=seed)`, once the game is actionable."""
    with make(task, observation="state", **session_options) as env:
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


def post_reset_frame(task, seed, actions=None, **session_options):
    """Play `actions` (by default each of `losing_action_lists(task)` in turn) from `reset(seed=seed)` until
    the game is lost and reset; return that frame and the fresh one. NoLoss when no list loses the game."""
    for plan in [actions] if actions is not None else losing_action_lists(task):
        lost = _frame_after_loss(task, seed, plan, **session_options)
        if lost is not None:
            attempt, frame = lost
            new_seed = attempt_seed(seed, attempt)
            fresh = first_frame(task, new_seed, **session_options)
            return PostResetFrame(attempt=attempt, seed=new_seed, frame=frame, fresh=fresh,
                                  differing_pixels=differing_pixels(frame, fresh))
    raise NoLoss(f"{task.id} seed {seed}: no losing action list lost the game within {task.max_actions} actions")


def _frame_after_loss(task, seed, actions, **session_options):
    """(attempt, PNG) at the first reset-on-fail while playing `actions`, or None if the game was not lost."""
    with make(task, observation="state", **session_options) as env:
        env.reset(seed=seed)
        for action in actions:
            if env.done:
                return None
            _, info = env.step(action)
            if info["reset"]:
                return info["attempt"], env.render("png")
    return None


def frame_facts(game, **session_options):
    """The frame rule's facts for a game, as stored on its calibration card: which seeds of its tasks start on
    a blank frame, and the post-reset comparison on its hardest task (at the fail trajectory's seed)."""
    tasks = list(game.tasks.values())
    seeds = sorted({seed for task in tasks for seed in task.seeds})
    flat = {str(seed): is_flat(first_frame(tasks[0], seed, **session_options)) for seed in seeds}
    hardest = tasks[-1]
    seed = game.fail_trajectory.seed if game.fail_trajectory else hardest.seeds[0]
    try:
        result = post_reset_frame(hardest, seed, **session_options)
    except NoLoss:
        post_reset = None
    else:
        size = pixels(result.frame).shape
        post_reset = {"seed": seed, "attempt": result.attempt, "attempt_seed": result.seed,
                      "differing_share": round(result.differing_pixels / (size[0] * size[1]), 4),
                      "differing_pixels": result.differing_pixels,
                      "stale": not result.matches}
    return {"first_frame_flat": flat, "fail_trajectory": game.fail_trajectory is not None, "post_reset": post_reset}


def frame_problems(task_id, facts):
    """The frame rule's problems for a task, each naming it, from `frame_facts`."""
    problems = [f"{task_id}: the first frame after the readiness gate on seed {seed} is one flat colour (blank): "
                "draw a frame before reporting actionable"
                for seed, flat in facts["first_frame_flat"].items() if flat]
    post_reset = facts["post_reset"]
    if facts["fail_trajectory"] and post_reset is None:
        problems.append(f"{task_id}: the game's fail trajectory (tests.fail) never lost the game, so the frame "
                        "after a reset was not checked")
    elif post_reset and post_reset["stale"]:
        problems.append(f"{task_id}: the frame after the reset to attempt {post_reset['attempt']} (seed "
                        f"{post_reset['seed']}) differs from a fresh reset's first frame at that attempt's seed "
                        f"{post_reset['attempt_seed']} in {_pixels(post_reset)}: "
                        "redraw on reset")
    return problems


def _pixels(post_reset):
    """How much of the frame after a reset differs, in words: a few pixels are a count, not "0.0 %"."""
    count = post_reset.get("differing_pixels")  # cards written before the count was kept have the share only
    share = f"{post_reset['differing_share']:.1%} of its pixels"
    return share if count is None else f"{count} pixel{'s' if count != 1 else ''} ({share})"
