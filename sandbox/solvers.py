"""The scripted players of the repository's own game bundles (`games/<slug>/solver.py`, class `Player`).

A solver is code, so only bundles of the repository's games folder are run (through `registry.solver`), never a
bundle imported from elsewhere or kept in a site's bundle store.
"""
from pathlib import Path

from . import make
from .errors import SandboxError
from .registry import Registry


def player_class(game):
    """The `Player` class of the game's solver.py, for a game of a registry (see Registry.owning)."""
    owner = Registry.owning(game.bundle_dir)
    if owner is None or Path(game.bundle_dir).name != game.slug:
        raise SandboxError(f"{game.slug}: only the repository's own bundles' solvers are run ({game.bundle_dir} "
                           "is not a folder of a registry of games)")
    player = getattr(owner.solver(game.slug), "Player", None)
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
