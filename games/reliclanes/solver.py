"""Scripted player for reliclanes (Relic Lanes); writes the reference trajectories into the manifest.

The player reads the next obstacle of the straight from the state. Statues: walk to the free lane.
Roots and chasms: jump at the first step from which the jump (36 ticks, about 0.6 x speed tiles) lands
beyond the far edge. Branches: slide at the first step from which the slide (30 ticks, 0.5 x speed tiles)
lasts past the branch. With nothing left on the straight but the corner: press the corner's way as soon as
the state says the explorer is in the turn zone.

    .venv/bin/python games/reliclanes/solver.py
"""
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from sandbox import make, manifest_json  # noqa: E402

MANIFEST = Path(__file__).resolve().with_name("manifest.json")
MARGIN = 0.1  # tiles to spare
LEFT = {"type": "semantic", "name": "left"}
RIGHT = {"type": "semantic", "name": "right"}
JUMP = {"type": "semantic", "name": "jump"}
SLIDE = {"type": "semantic", "name": "slide"}
WAIT = {"type": "semantic", "name": "wait"}


def policy(state):
    kind = state["next_obstacle_kind"]
    if kind is None:
        if state["in_turn_zone"]:
            return RIGHT if state["corner_dir"] > 0 else LEFT
        return WAIT
    dist = state["next_obstacle_distance"] / 10
    length = state["next_obstacle_length"] / 10
    speed = state["speed"] / 10
    if kind == "statues":
        free, lane = state["free_lane"], state["lane"]
        return WAIT if lane == free else (RIGHT if free > lane else LEFT)
    busy = state["jump_ticks"] > 0 or state["slide_ticks"] > 0
    if busy or dist <= 0:
        return WAIT
    if kind in ("roots", "chasm") and dist + length + MARGIN <= 0.6 * speed:
        return JUMP
    if kind == "branch" and dist + length + MARGIN <= 0.5 * speed:
        return SLIDE
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
                        raise SystemExit(f"{task_id} seed {seed}: the player crashed after {len(actions)} actions")
            print(f"{task_id} seed={seed}: success={info['success']} actions={len(actions)} "
                  f"cleared={state['obstacles_cleared']} turns={state['turns_taken']} score={state['score']}")
            if seed == task["seeds"][0]:
                task["reference"] = {"seed": seed, "actions": actions}
        task["null"] = {"seed": task["seeds"][0], "actions": [{"type": "wait"}] * task["max_actions"]}
    manifest_json.write(MANIFEST, manifest)


if __name__ == "__main__":
    main()
