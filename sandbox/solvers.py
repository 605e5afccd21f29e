"""The scripted players of the repository's own game bundles (`games/<slug>/solver.py`, class `Player`).

A solver is code, so only bundles of the repository's games folder are run (through `registry.solver`), never a
bundle imported from elsewhere or kept in a site's bundle store.
"""
import json
import random
from pathlib import Path
from typing import NamedTuple

from . import make, manifest_json
from .actions import random_action
from .errors import SandboxError
from .protocol import interface_of
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


class SolverRun(NamedTuple):
    score: object  # the oracle's score
    actions: list
    state: dict    # the game's state at the end


def play_solver(task, seed, *, player=None, noise=0.0, noise_seed=0, **session_options):
    """One run of a solver's `Player` (the game's own unless `player` is given) on a task (a TaskSpec or task
    id) and seed. With `noise`, each of its actions is replaced, with that probability, by a uniform random
    action of the same interface (drawn from `noise_seed`): the noisy solver of the calibration's ladder. The
    solver still sees every state and keeps its plans, as a good player who slips does."""
    rng = random.Random(noise_seed)
    with make(task, observation="state", **session_options) as env:
        playing = (player or player_class(env.task.game))(env.task)
        state, info = env.reset(seed=seed)
        actions = []
        while not env.done:
            action = playing.act(env, state, info)
            if noise and rng.random() < noise:
                action = random_action(env.task.game.action_space, rng, interface_of(action) or "cua")
            actions.append(action)
            state, info = env.step(action)
        return SolverRun(env.score(), actions, state)


WAIT = {"type": "wait"}


def write_fail_trajectory(manifest_path, choose, *, seed=1):
    """A solver script's `tests.fail`: `choose(state)` (a careless player's action) played on the game's first task
    from `seed` until the game is lost, written into the manifest; SandboxError when it never loses."""
    manifest_path = Path(manifest_path)
    games = Registry.owning(manifest_path.parent) or Registry(manifest_path.parent.parent)
    manifest = json.loads(manifest_path.read_text())
    with make(games.task(f"{manifest['slug']}/{manifest['tasks'][0]['slug']}"), observation="state") as env:
        state, _ = env.reset(seed=seed)
        actions = []
        while not env.done:
            actions.append(choose(state))
            state, info = env.step(actions[-1])
            if info["reset"]:
                break
        else:
            raise SandboxError(f"{manifest['slug']}: the careless player did not lose on seed {seed}")
    print(f"tests.fail: seed={seed}, lost after {len(actions)} actions")
    manifest["tests"] = {"fail": {"seed": seed, "actions": actions}}
    manifest_json.write(manifest_path, manifest)


def write_references(manifest_path, player_class, *, every_seed=True, null_action=WAIT, only=(), report=None):
    """A solver script's main: play every task (or those slugged in `only`) on each of its seeds (or its first),
    store the first seed's run as the task's reference trajectory and `max_actions` of `null_action` as its null
    (None keeps the manifest's null), and write the manifest back readably. Prints one line a run, with
    `report(state)` appended; a run that misses its target stops it with the task and seed named."""
    manifest_path = Path(manifest_path)
    games = Registry.owning(manifest_path.parent) or Registry(manifest_path.parent.parent)
    manifest = json.loads(manifest_path.read_text())
    for task in manifest["tasks"]:
        if only and task["slug"] not in only:
            continue
        task_id = f"{manifest['slug']}/{task['slug']}"
        for seed in task["seeds"] if every_seed else task["seeds"][:1]:
            score, actions, state = play_solver(games.task(task_id), seed, player=player_class)
            extra = f" {report(state)}" if report else ""
            print(f"{task_id} seed={seed}: success={score.success} actions={len(actions)} "
                  f"attempt={score.attempts}{extra}", flush=True)
            if not score.success:
                raise SandboxError(f"{task_id} seed {seed}: the solver missed the target {task['target']}")
            if seed == task["seeds"][0]:
                task["reference"] = {"seed": seed, "actions": actions}
        if null_action is not None:
            task["null"] = {"seed": task["seeds"][0], "actions": [null_action] * task["max_actions"]}
    manifest_json.write(manifest_path, manifest)
    return manifest
