"""The scripted players of the repository's own game bundles (`games/<slug>/solver.py`, class `Player`).

A solver is code, so only bundles inside this repository are run, never a bundle imported from elsewhere.
"""
import importlib.util
import sys
from pathlib import Path

from . import make
from .errors import SandboxError

REPO_ROOT = Path(__file__).resolve().parent.parent


def player_class(game):
    """The `Player` class of the game's solver.py, loaded once per process."""
    bundle_dir = Path(game.bundle_dir).resolve()
    if not bundle_dir.is_relative_to(REPO_ROOT):
        raise SandboxError(f"{game.slug}: only the repository's own bundles' solvers are run ({bundle_dir} is "
                           "outside it)")
    name = f"gameworld_solver_{game.slug}"
    if name not in sys.modules:
        path = bundle_dir / "solver.py"
        if not path.is_file():
            raise SandboxError(f"{game.slug}: no solver: {path.relative_to(REPO_ROOT)} is missing")
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        try:
            spec.loader.exec_module(module)
        except BaseException:
            del sys.modules[name]
            raise
    player = getattr(sys.modules[name], "Player", None)
    if player is None:
        raise SandboxError(f"{game.slug}: solver.py has no Player class")
    return player


def play_solver(task, seed, **session_options):
    """One run of the game's solver on a seed; the oracle's score."""
    player = player_class(task.game)(task)
    with make(task, observation="state", **session_options) as env:
        state, info = env.reset(seed=seed)
        while not env.done:
            state, info = env.step(player.act(env, state, info))
        return env.score()
