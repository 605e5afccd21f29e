"""Scripted player for runner (Desert Dash); writes the reference trajectories into the manifest.

The player reads the game's state each step and times its moves by time to contact: it jumps when the
next cactus or low bird is less than `lead` seconds away at the current speed (a jump clears anything
started about 0.3-0.45 s before contact), and ducks while a high bird is close or overhead. It plays
each task through the sandbox until the target is reached, trying a few leads if one crashes.

    .venv/bin/python games/runner/solver.py
"""
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from sandbox import make  # noqa: E402
from sandbox import manifest_json  # noqa: E402

MANIFEST = ROOT / "games/runner/manifest.json"
JUMP = {"type": "semantic", "name": "jump"}
DUCK = {"type": "semantic", "name": "duck"}
WAIT = {"type": "semantic", "name": "wait"}


LEADS = (0.38, 0.35, 0.41, 0.32, 0.44)  # look-ahead (seconds of speed) before a jump; the first is the player's


def policy(state, lead, cleared=False):
    """`cleared`: the runner is in the air over nothing any more (what it jumped is behind it), so it may
    drop fast (ArrowDown in the air) to be on the ground in time for the next jump."""
    d, kind, v = state["next_obstacle_distance"], state["next_obstacle_kind"], state["speed"]
    if kind == "bird_high":
        return DUCK if d < 0.25 * v else WAIT
    if state["player_y"] == 0 and d < lead * v:
        return JUMP
    if state["player_y"] > 0 and cleared and d < (lead + 0.5) * v:
        return DUCK
    return WAIT


class Runner:
    """The policy with the one thing it remembers: how many obstacles were passed when it last jumped."""

    def __init__(self, lead=None):
        self.lead = lead if lead is not None else LEADS[0]
        self.jumped_at = None

    def __call__(self, state):
        passed = state["obstacles_passed"]
        if self.jumped_at is not None and passed < self.jumped_at:
            self.jumped_at = None                     # a new attempt
        cleared = self.jumped_at is not None and passed > self.jumped_at
        action = policy(state, self.lead, cleared)
        if action is JUMP:
            self.jumped_at = passed
        elif state["player_y"] == 0:
            self.jumped_at = None
        return action


def play(task_id, seed, lead):
    """Play one run; return (success, actions) with the actions up to the target."""
    actions = []
    runner = Runner(lead)
    with make(task_id, observation="state") as env:
        state, info = env.reset(seed=seed)
        while not env.done:
            action = runner(state)
            state, info = env.step(action)
            actions.append(action)
            if info["reset"]:  # crashed: this lead does not work here
                return False, actions
        return info["success"], actions


def solve(task_id, seed=1):
    for lead in LEADS:
        ok, actions = play(task_id, seed, lead)
        if ok:
            return actions
    raise SystemExit(f"{task_id}: no lead reached the target")


class Player:
    """The scripted player the baselines use (one action a call, read from the state): obstacle distance and speed."""

    def __init__(self, task):
        self.task = task
        self.runner = Runner()

    def act(self, env, state, info):
        return self.runner(state)


def main():
    manifest = json.loads(MANIFEST.read_text())
    for task in manifest["tasks"]:
        actions = solve(f"runner/{task['slug']}")
        task["reference"] = {"seed": 1, "actions": actions}
        task["null"] = {"seed": 1, "actions": [{"type": "wait"}] * task["max_actions"]}
        print(f"{task['slug']}: target {task['target']} {task['score_field']} in {len(actions)} actions")
    manifest_json.write(MANIFEST, manifest)


if __name__ == "__main__":
    main()
