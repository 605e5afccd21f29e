"""The GameWorld sandbox: plain Python (no Django), Gymnasium-like envs over deterministic game backends.

    from sandbox import make
    with make("breakout/rally-5", observation="state") as env:
        obs, info = env.reset(seed=1)
        obs, info = env.step({"type": "press_key", "key": "ArrowLeft"})
"""
from . import batch
from .env import TaskEnv
from .errors import (GameCrashed, GameNotReady, InvalidAction, ManifestError, RomError, RunOver, SandboxError,
                     StateError, UnknownTask)
from .manifest import GameSpec, TaskSpec, Trajectory, load_manifest
from .protocol import ProtocolError
from .registry import registry

__all__ = ["make", "run_trajectory", "registry", "TaskEnv", "GameSpec", "TaskSpec", "Trajectory",
           "load_manifest", "SandboxError", "ManifestError", "UnknownTask", "InvalidAction",
           "RunOver", "GameNotReady", "GameCrashed", "RomError", "StateError", "ProtocolError"]


def make(task, *, observation="frame", **session_options):
    """An env for a TaskSpec or a task id (`game/task` or `game/task@version`)."""
    if isinstance(task, str):
        task = registry.task(task)
    return TaskEnv(task, open_session(task.game, **session_options), observation=observation)


def open_session(game, **options):
    if game.backend == "browser":
        from .backends.browser import BrowserSession

        return BrowserSession(game, **options)
    if game.backend == "gameboy":
        from .backends.gameboy import GameBoySession

        return GameBoySession(game, **options)
    raise SandboxError(f"{game.slug}: backend {game.backend!r} is not available")


def run_trajectory(task, trajectory, *, on_step=None, frames=False, run_ahead=True, last_frame=False,
                   **session_options):
    """Replay a trajectory (seed + actions) to its end or the run's end; return the oracle score and the trace,
    and with `last_frame` a PNG of the frame the run ended on as a third item.

    `on_step(index, action, info, frame_or_None)` is called after the ready state (index 0, action None)
    and after each step. Without it (nobody watches the steps) the backend runs the known actions ahead in
    a few round trips (`sandbox.batch`), unless `run_ahead=False`: the same score and trace either way.
    """
    if isinstance(task, str):
        task = registry.task(task)
    session = open_session(task.game, **session_options)
    if run_ahead and on_step is None:
        session = batch.run_ahead(session, task, trajectory)
    with TaskEnv(task, session, observation="state") as env:
        _, info = env.reset(seed=trajectory.seed)
        if on_step:
            on_step(0, None, info, env.render("png") if frames else None)
        for index, action in enumerate(trajectory.actions, start=1):
            if env.done:
                break
            _, info = env.step(action)
            if on_step:
                on_step(index, action, info, env.render("png") if frames else None)
        if not last_frame:
            return env.score(), list(env.trace)
        if getattr(session, "caught_up", True):
            return env.score(), list(env.trace), env.render("png")
    # The run ended before its last action and the page ran past it: only a step-by-step replay shows that frame.
    return run_trajectory(task, trajectory, run_ahead=False, last_frame=True, **session_options)
