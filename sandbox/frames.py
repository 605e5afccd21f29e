"""The frame rule (DESIGN.md "Frames tell the truth"), shared by the conformance test, the calibration gate
and `python -m sandbox doctor`: the first frame after the readiness gate is drawn (not one flat colour), and
the frame after a reset-on-fail is the first frame of a fresh reset with that attempt's seed."""
import io

from PIL import Image, ImageChops

from . import make, oracle

FLAT_TOLERANCE = 3          # channel values: a frame whose every channel spans no more than this is blank
PIXEL_TOLERANCE = 24        # a pixel "differs" when a channel differs by more than this
MAX_DIFFERING_SHARE = 0.01  # two frames show the same thing when at most this share of their pixels differs


def _image(png):
    return Image.open(io.BytesIO(png)).convert("RGB")


def is_flat(png):
    """True when the frame is one flat colour (nothing drawn)."""
    return all(high - low <= FLAT_TOLERANCE for low, high in _image(png).getextrema())


def differing_share(png_a, png_b):
    """The share of pixels that differ between two frames (1.0 when their sizes differ)."""
    a, b = _image(png_a), _image(png_b)
    if a.size != b.size:
        return 1.0
    mask = ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v > PIXEL_TOLERANCE else 0)
    return mask.histogram()[255] / (a.width * a.height)


def first_frame(task, seed, **session_options):
    """The PNG frame right after the readiness gate of a fresh run."""
    with make(task, observation="state", **session_options) as env:
        env.reset(seed=seed)
        return env.render("png")


def post_reset_check(task, trajectory, **session_options):
    """Play `trajectory` to its first reset-on-fail and compare the frame then with a fresh reset's first
    frame at that attempt's seed: `{seed, attempt, attempt_seed, differing_share, stale}`, or None when the
    trajectory never loses the game."""
    with make(task, observation="state", **session_options) as env:
        env.reset(seed=trajectory.seed)
        for action in trajectory.actions:
            if env.done:
                return None
            _, info = env.step(action)
            if info["reset"]:
                after_reset = env.render("png")
                break
        else:
            return None
    attempt_seed = oracle.attempt_seed(trajectory.seed, info["attempt"])
    share = differing_share(after_reset, first_frame(task, attempt_seed, **session_options))
    return {"seed": trajectory.seed, "attempt": info["attempt"], "attempt_seed": attempt_seed,
            "differing_share": round(share, 4), "stale": share > MAX_DIFFERING_SHARE}


def frame_facts(game, **session_options):
    """The frame rule's facts for a game: which seeds of its tasks start on a blank frame, and the post-reset
    comparison on the game's fail trajectory (its hardest task) when it has one."""
    tasks = list(game.tasks.values())
    seeds = sorted({seed for task in tasks for seed in task.seeds})
    flat = {str(seed): is_flat(first_frame(tasks[0], seed, **session_options)) for seed in seeds}
    post_reset = None
    if game.fail_trajectory is not None:
        post_reset = post_reset_check(tasks[-1], game.fail_trajectory, **session_options)
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
                        f"{post_reset['attempt_seed']} in {post_reset['differing_share']:.0%} of its pixels: "
                        "redraw on reset")
    return problems
