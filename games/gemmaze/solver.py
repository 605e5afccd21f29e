"""Scripted player for gemmaze (Gem Maze, Game Boy); writes the reference trajectories into the manifest.

It plays through the sandbox, reads the game's state and the maze the ROM keeps at 0xC100 (19x17 bytes:
0 floor, 1 wall, 2 gem, 3 exit). Each step it tries every pair of next two actions (wait or one of the
four directions) in the emulator itself, from a saved emulator state, and keeps the first action of the
best pair: being caught is worst; then more mazes escaped and gems taken; then a short way (breadth-first
over the maze) to the nearest gem, or to the exit once it is open; and some distance from the ghost.
One game on seed 1 gives every task's reference: the actions up to the step where its target is reached.

    .venv/bin/python games/gemmaze/solver.py
"""
import io
import json
import sys
from collections import deque
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from sandbox import make  # noqa: E402
from sandbox import manifest_json  # noqa: E402

MANIFEST = ROOT / "games/gemmaze/manifest.json"
W, H = 19, 17
MAZE = 0xC100
WAIT = {"type": "wait"}
MOVES = [WAIT] + [{"type": "press_key", "key": k} for k in ("up", "down", "left", "right")]
STEP_MS = 318


def primitive(action):
    return {**action, "duration_ms": STEP_MS}


def distance_to_target(maze, start, exit_open):
    """Breadth-first steps from `start` to the nearest gem (or to the exit once it is open)."""
    goals = {3} if exit_open else {2}
    seen = {start}
    queue = deque([(start, 0)])
    while queue:
        (x, y), d = queue.popleft()
        if maze[y * W + x] in goals:
            return d
        for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if 0 <= nx < W and 0 <= ny < H and (nx, ny) not in seen and maze[ny * W + nx] != 1:
                seen.add((nx, ny))
                queue.append(((nx, ny), d + 1))
    return 99


def value(session, state):
    if state["terminal"]["is_terminal"]:
        return -1e9
    maze = session.memory(MAZE, W * H)
    score = state["mazes"] * 100_000 + state["score"] * 10_000
    score -= distance_to_target(maze, (state["player_x"], state["player_y"]), state["exit_open"]) * 10
    danger = max(0, 6 - state["ghost_distance"])
    return score - danger * danger * 40


def choose(session, state):
    pyboy = session.machine.pyboy
    root = io.BytesIO()
    pyboy.save_state(root)
    root = root.getvalue()
    best, best_action = None, WAIT
    for first in MOVES:
        pyboy.load_state(io.BytesIO(root))
        after_first = session.apply(primitive(first))
        if after_first["terminal"]["is_terminal"]:
            outcome = -1e9
        else:
            outcome = -1e12
            for second in MOVES:
                pyboy.load_state(io.BytesIO(root))
                session.apply(primitive(first))
                outcome = max(outcome, value(session, session.apply(primitive(second))))
            if outcome < -1e8:  # caught whatever comes next: still prefer the later catch
                outcome = value(session, after_first) - 1e8
        if best is None or outcome > best:
            best, best_action = outcome, first
    pyboy.load_state(io.BytesIO(root))
    return best_action


def play(task_id, seed=1, max_actions=100):
    """One game through the sandbox; returns the actions and the best state figures after each."""
    actions, reached = [], []
    best = {"score": 0, "mazes": 0}
    with make(task_id, observation="state") as env:
        state, info = env.reset(seed=seed)
        while not env.done and len(actions) < max_actions:
            action = choose(env.session, state)
            state, info = env.step(action)
            actions.append(action)
            best = {k: max(v, state[k]) for k, v in best.items()}
            reached.append(dict(best))
            if info["reset"]:
                print(f"  caught at step {len(actions)}", file=sys.stderr)
    return actions, reached


class Player:
    """The scripted player the baselines use (one action a call, read from the state): a two-step look-ahead in a copy of the emulator."""

    def __init__(self, task):
        self.task = task

    def act(self, env, state, info):
        return choose(env.session, state)


def main():
    manifest = json.loads(MANIFEST.read_text())
    hardest = manifest["tasks"][-1]
    actions, reached = play(f"gemmaze/{hardest['slug']}", seed=1)
    print(f"seed 1: {reached[-1]} in {len(actions)} actions")
    for task in manifest["tasks"]:
        field = task["score_field"]
        at = next((i for i, r in enumerate(reached) if r[field] >= task["target"]), None)
        if at is None:
            raise SystemExit(f"{task['slug']}: the player reached {reached[-1][field]} {field}, not {task['target']}")
        task["reference"] = {"seed": 1, "actions": actions[:at + 1]}
        task["null"] = {"seed": 1, "actions": [WAIT] * task["max_actions"]}
        print(f"{task['slug']}: {field} {task['target']} in {at + 1} actions")
    manifest["tests"]["fail"] = {"seed": 1, "actions": [WAIT] * 40}
    manifest_json.write(MANIFEST, manifest)


if __name__ == "__main__":
    main()
