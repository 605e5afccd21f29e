"""Scripted player for {{slug}}: reads the game's state and plays well; `calibrate` and the baselines run it.

The demo player walks to the coin. Replace it with one for your game, then write the tasks' reference
trajectories with it:

    .venv/bin/python games/{{slug}}/solver.py
"""
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from sandbox import make, manifest_json  # noqa: E402

MANIFEST = Path(__file__).resolve().with_name("manifest.json")
SLACK = 6  # px: close enough on an axis


class Player:
    """One action a call, chosen from the state (never from pixels)."""

    def __init__(self, task):
        self.task = task

    def act(self, env, state, info):
        dx, dy = state["coin_x"] - state["player_x"], state["coin_y"] - state["player_y"]
        if abs(dx) >= abs(dy) and abs(dx) > SLACK:
            return {"type": "press_key", "key": "ArrowRight" if dx > 0 else "ArrowLeft"}
        if abs(dy) > SLACK:
            return {"type": "press_key", "key": "ArrowDown" if dy > 0 else "ArrowUp"}
        return {"type": "wait"}


def main():
    """Play every task on its first seed and store the run as the task's reference trajectory."""
    manifest = json.loads(MANIFEST.read_text())
    for task in manifest["tasks"]:
        task_id, seed = f"{manifest['slug']}/{task['slug']}", task["seeds"][0]
        with make(task_id, observation="state") as env:
            player = Player(env.task)
            state, info = env.reset(seed=seed)
            actions = []
            while not env.done:
                actions.append(player.act(env, state, info))
                state, info = env.step(actions[-1])
        print(f"{task_id} seed={seed}: success={info['success']} actions={len(actions)}")
        task["reference"] = {"seed": seed, "actions": actions}
    manifest_json.write(MANIFEST, manifest)


if __name__ == "__main__":
    main()
