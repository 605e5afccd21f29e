"""Scripted player for pinspin (Pin Spin); writes the reference trajectories into the manifest.

The game tells, each step, how far the spot where a pin shot now would land is from the nearest pin
(`shot_clearance`, in degrees, with the spin of the pin's flight already counted). A clash needs less than
15 degrees, so the player shoots when the clearance is at least 16 and waits otherwise. It plays each task
through the sandbox until the target is reached.

    .venv/bin/python games/pinspin/solver.py
"""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from sandbox import solvers  # noqa: E402

MANIFEST = Path(__file__).resolve().with_name("manifest.json")
SHOOT = {"type": "semantic", "name": "shoot"}
WAIT = {"type": "semantic", "name": "wait"}
SAFE = 16  # degrees of clearance that make a shot safe (a clash is under 15)


def policy(state):
    clearance = state.get("shot_clearance")
    if state.get("ready_to_shoot") and clearance is not None and clearance >= SAFE:
        return SHOOT
    return WAIT


class Player:
    """The scripted player the baselines use: one action a call, read from the state."""

    def __init__(self, task):
        self.task = task

    def act(self, env, state, info):
        return policy(state)


def main():
    """Play every task on its first seed; store the first seed's run as its reference, 100 waits as its null."""
    solvers.write_references(MANIFEST, Player, every_seed=False, only=sys.argv[1:])


if __name__ == "__main__":
    main()
