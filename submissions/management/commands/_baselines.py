"""The baseline agents that need no model, played in the sandbox: uniform random (both interfaces) and a
scripted player per game that reads the game's state (`Player` of games/<slug>/solver.py, which made the tasks'
reference trajectories). Used by `manage.py make_baselines`; not a command itself (leading underscore).

Every action is recorded as the sandbox applies it; the scripted player's actions are recorded as the
computer-use primitives they resolve to (the interface it is labelled with), so its claims replay exactly.
"""
import json
import zlib

from sandbox import Trajectory, make, run_trajectory
from sandbox.actions import RandomActions
from sandbox.solvers import player_class

AGENTS = {
    "random-cua": {
        "name": "Random (computer-use)", "model": "none: uniform random actions", "org": "GameWorld baselines",
        "interface": "cua", "memory_rounds": 0,
        "notes": "Baseline: each step a uniform sample of the computer-use action space (press one of the "
                 "game's keys, wait, or click/move at a uniform point where the game uses the pointer). Sees "
                 "nothing. Made by `manage.py make_baselines`."},
    "random-generalist": {
        "name": "Random (generalist)", "model": "none: uniform random actions", "org": "GameWorld baselines",
        "interface": "generalist", "memory_rounds": 0,
        "notes": "Baseline: each step a uniform sample of the game's semantic actions (arguments uniform in their "
                 "bounds). Sees nothing. Made by `manage.py make_baselines`."},
    "scripted-state": {
        "name": "Scripted solver (reads game state, not pixels)", "model": "none: scripted player reading the "
        "game's state", "org": "GameWorld baselines", "interface": "cua", "memory_rounds": 0,
        "notes": "Reference baseline that READS THE GAME'S INTERNAL STATE, NOT PIXELS: the scripted players of "
                 "games/<slug>/solver.py (breakout: ball-flight model; runner: obstacle distance; platformer: beam "
                 "search over a model of the physics; merge2048: expectimax on the board; minesweeper: mine "
                 "probabilities; shop: a shopkeeper's rules; snake and gemmaze: two-step look-ahead in a copy "
                 "of the emulator). An upper reference, not comparable with agents that see only frames. Made "
                 "by `manage.py make_baselines`."},
}


def primitive(action, task):
    """The computer-use action a (possibly semantic) action resolves to; the default duration left out."""
    resolved = task.game.action_space.resolve(action, task.step_ms)
    if resolved.get("duration_ms") == task.step_ms:
        resolved = {k: v for k, v in resolved.items() if k != "duration_ms"}
    return resolved


def play(task, seed, agent_key):
    """One run of a baseline agent; returns the run of a submission (claimed figures from the live sandbox)."""
    if agent_key != "scripted-state":
        # Random actions do not depend on what the game shows: drawn up front, they run ahead in a few round
        # trips; the run keeps the ones applied before the episode ended, as a stepwise run would.
        choose = RandomActions(task.game.action_space, agent_key.split("-", 1)[1],
                               seed=zlib.crc32(f"{agent_key}:{task.id}:{seed}".encode()))
        drawn = [choose() for _ in range(task.max_actions)]
        score, _ = run_trajectory(task, Trajectory(seed=seed, actions=drawn))
        return _run(task, seed, drawn[:score.actions], score)
    actions = []
    with make(task, observation="state") as env:
        state, info = env.reset(seed=seed)
        player = player_class(task.game)(task)
        while not env.done:
            action = primitive(player.act(env, state, info), task)
            state, info = env.step(action)
            actions.append(action)
        return _run(task, seed, actions, env.score())


def _run(task, seed, actions, score):
    return {"task": task.id, "seed": seed, "actions": actions,
            "claimed": {"progress": score.progress, "success": score.success}}


def dump(data):
    """The submission as JSON with one run a line: readable, and diffs stay small."""
    head = json.dumps({k: v for k, v in data.items() if k != "runs"}, indent=2, ensure_ascii=False)
    runs = ",\n".join("    " + json.dumps(run, ensure_ascii=False, separators=(",", ":")) for run in data["runs"])
    return head[:-2] + ',\n  "runs": [\n' + runs + "\n  ]\n}\n"
