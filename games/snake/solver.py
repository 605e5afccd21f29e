"""Scripted player for snake (Pocket Snake, Game Boy); writes the reference trajectories into the manifest.

It plays through the sandbox and reads the game's state, plus the field the ROM keeps at 0xC300 (18x15
bytes, 1 where the snake is). Each step it tries every pair of next two actions (wait or a turn) in the
emulator itself, from a saved emulator state, and keeps the first action of the best pair: a crash is
worst; then more apples; then a short path to the apple (breadth-first over free cells) while keeping
enough room (the cells reachable from the head) for the snake's body. One game on seed 1 gives every
task's reference: the actions up to the step where its target is reached.

    .venv/bin/python games/snake/solver.py            # references, nulls, the fail trajectory, the banner
    .venv/bin/python games/snake/solver.py --banner   # only the GAME OVER reference capture
"""
import io
import json
import sys
from collections import deque
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from sandbox import make, registry  # noqa: E402
from sandbox import manifest_json  # noqa: E402

MANIFEST = ROOT / "games/snake/manifest.json"
W, H = 18, 15
FIELD = 0xC300
WAIT = {"type": "wait"}
TURNS = {"up": {"type": "press_key", "key": "up"}, "down": {"type": "press_key", "key": "down"},
         "left": {"type": "press_key", "key": "left"}, "right": {"type": "press_key", "key": "right"}}
OPPOSITE = {"up": "down", "down": "up", "left": "right", "right": "left"}
STEP_MS = 318


def candidates(state):
    """Wait, or turn to one of the two sides (going on straight is a wait; straight back is ignored)."""
    heading = state["direction"]
    return [WAIT] + [TURNS[d] for d in TURNS if d not in (heading, OPPOSITE[heading])]


def primitive(action):
    return {**action, "duration_ms": STEP_MS}


def bfs(occupied, start, goal=None):
    """Distance to `goal` over free cells (None if unreachable) and the number of cells reachable."""
    seen = {start}
    queue = deque([(start, 0)])
    found = None
    while queue:
        (x, y), d = queue.popleft()
        if (x, y) == goal and found is None:
            found = d
        for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if 0 <= nx < W and 0 <= ny < H and (nx, ny) not in seen and not occupied[ny * W + nx]:
                seen.add((nx, ny))
                queue.append(((nx, ny), d + 1))
    return found, len(seen)


def value(session, state):
    if state["terminal"]["is_terminal"]:
        return -1e9
    occupied = session.memory(FIELD, W * H)
    head = (state["head_x"], state["head_y"])
    distance, room = bfs(occupied, head, (state["apple_x"], state["apple_y"]))
    score = state["score"] * 10_000
    if distance is None:
        score -= 300
    else:
        score -= distance * 10
    if room < state["length"] + 4:
        score -= 5_000 * (state["length"] + 4 - room)
    return score


def choose(session, state):
    pyboy = session.machine.pyboy
    root = io.BytesIO()
    pyboy.save_state(root)
    root = root.getvalue()
    best, best_action = None, WAIT
    for first in candidates(state):
        pyboy.load_state(io.BytesIO(root))
        after_first = session.apply(primitive(first))
        if after_first["terminal"]["is_terminal"]:
            outcome = -1e9
        else:
            outcome = -1e12
            for second in candidates(after_first):
                pyboy.load_state(io.BytesIO(root))
                session.apply(primitive(first))
                outcome = max(outcome, value(session, session.apply(primitive(second))))
            outcome = max(outcome, value(session, after_first) - 50) if outcome < -1e8 else outcome
        if best is None or outcome > best:
            best, best_action = outcome, first
    pyboy.load_state(io.BytesIO(root))
    return best_action


def play(task_id, seed=1, max_actions=100):
    """One game through the sandbox; returns the actions and the score after each."""
    actions, scores = [], []
    with make(task_id, observation="state") as env:
        state, info = env.reset(seed=seed)
        while not env.done and len(actions) < max_actions:
            action = choose(env.session, state)
            state, info = env.step(action)
            actions.append(action)
            scores.append(max(scores[-1] if scores else 0, state["score"]))
            if info["reset"]:
                print(f"  lost at step {len(actions)}", file=sys.stderr)
    return actions, scores


class Player:
    """The scripted player the baselines use (one action a call, read from the state): a two-step look-ahead in a copy of the emulator."""

    def __init__(self, task):
        self.task = task

    def act(self, env, state, info):
        return choose(env.session, state)


def main():
    manifest = json.loads(MANIFEST.read_text())
    hardest = manifest["tasks"][-1]
    actions, scores = play(f"snake/{hardest['slug']}", seed=1)
    print(f"seed 1: {scores[-1]} apples in {len(actions)} actions")
    for task in manifest["tasks"]:
        reached = next((i for i, s in enumerate(scores) if s >= task["target"]), None)
        if reached is None:
            raise SystemExit(f"{task['slug']}: the player reached {scores[-1]}, not {task['target']}")
        task["reference"] = {"seed": 1, "actions": actions[:reached + 1]}
        task["null"] = {"seed": 1, "actions": [TURNS["up"]] * task["max_actions"]}
        print(f"{task['slug']}: target {task['target']} in {reached + 1} actions")
    # the fail trajectory: wait until the snake runs into the wall
    manifest["tests"]["fail"] = {"seed": 1, "actions": [WAIT] * 10}
    manifest_json.write(MANIFEST, manifest)
    capture_banner()


def capture_banner():
    """The reference capture of the GAME OVER banner (the `game_over_banner` screen field): the region of
    the screen after the fail trajectory's crash."""
    from PIL import Image

    registry._loaded.clear()
    game = registry.game("snake")
    region = game.manifest["gameboy"]["fields"]["game_over_banner"]["screen"]
    with make(next(iter(game.tasks.values())), observation="state") as env:
        env.reset(seed=1)
        while True:
            env.session.apply({"type": "wait", "duration_ms": STEP_MS})
            if env.session.state()["terminal"]["is_terminal"]:
                break
        image = Image.open(io.BytesIO(env.render("png")))
    box = (region["x"], region["y"], region["x"] + region["width"], region["y"] + region["height"])
    image.crop(box).save(MANIFEST.parent / "refs/game_over.png")
    print("captured refs/game_over.png")


if __name__ == "__main__":
    capture_banner() if sys.argv[1:] == ["--banner"] else main()
