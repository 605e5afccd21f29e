"""Scripted player for blockfield (Block Field); writes the reference trajectories into the manifest.

The player reads the next gate's opening from the state and steers into the band of positions where the
glider (0.7 tiles wide) clears both edges with 0.05 tiles to spare: a step of Left or Right moves it 2 tiles
and the band is 2.2 tiles wide (to the rail where the opening touches it), so it never overshoots. It holds
still from then until the gate is behind it; the next opening is always reachable in time (at most 5 steps
away, and gates come 1.3 s apart or more).

    .venv/bin/python games/blockfield/solver.py
"""
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from sandbox import make, manifest_json  # noqa: E402

MANIFEST = Path(__file__).resolve().with_name("manifest.json")
HALF_SHIP, RAIL, SPARE = 35, 515, 5  # hundredths of a tile
LEFT = {"type": "semantic", "name": "steer_left"}
RIGHT = {"type": "semantic", "name": "steer_right"}
WAIT = {"type": "semantic", "name": "wait"}


def policy(state):
    if state["next_gap_left"] is None:
        return WAIT
    lo = max(state["next_gap_left"] + HALF_SHIP + SPARE, -RAIL)
    hi = min(state["next_gap_right"] - HALF_SHIP - SPARE, RAIL)
    x = state["ship_x"]
    if x < lo:
        return RIGHT
    if x > hi:
        return LEFT
    return WAIT


class Player:
    """The scripted player the baselines use: one action a call, read from the state."""

    def __init__(self, task):
        self.task = task

    def act(self, env, state, info):
        return policy(state)


def main():
    manifest = json.loads(MANIFEST.read_text())
    for task in manifest["tasks"]:
        task_id = f"{manifest['slug']}/{task['slug']}"
        for seed in task["seeds"]:
            with make(task_id, observation="state") as env:
                state, info = env.reset(seed=seed)
                actions = []
                while not env.done:
                    actions.append(policy(state))
                    state, info = env.step(actions[-1])
                    if info["reset"]:
                        raise SystemExit(f"{task_id} seed {seed}: the glider crashed after {len(actions)} actions")
            print(f"{task_id} seed={seed}: success={info['success']} actions={len(actions)} "
                  f"gates={state['gates_passed']} close={state['close_calls']} score={state['score']}")
            if seed == task["seeds"][0]:
                task["reference"] = {"seed": seed, "actions": actions}
        task["null"] = {"seed": task["seeds"][0], "actions": [{"type": "wait"}] * task["max_actions"]}
    manifest_json.write(MANIFEST, manifest)


if __name__ == "__main__":
    main()
