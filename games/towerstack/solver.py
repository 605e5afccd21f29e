"""Scripted player for towerstack (Tower Stack); writes the reference trajectories into the manifest.

A drop lands where the block is when Space goes down, so the player predicts the block's offset from the
tower at the next step boundaries (its speed, direction and the turn 130 px to each side are in the state).
It drops at once when the offset is perfect (8 px or less); it waits when a perfect offset comes within the
next few steps; otherwise it drops at the closest offset the block will pass through, to get a fresh block.

    .venv/bin/python games/towerstack/solver.py
"""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from sandbox import solvers  # noqa: E402

MANIFEST = Path(__file__).resolve().with_name("manifest.json")
DROP = {"type": "semantic", "name": "drop"}
WAIT = {"type": "semantic", "name": "wait"}
PERFECT = 8      # px: a drop this close snaps into place
RANGE = 130      # px: the block turns back this far from the tower
LOOK = 8         # steps of look-ahead


def offsets(state, steps):
    """The block's offset (px) now and at the next `steps - 1` step boundaries."""
    d, direction = float(state["block_offset"]), state["block_direction"]
    per_tick = state["slide_speed"] / 60.0
    out = []
    for _ in range(steps):
        out.append(d)
        for _ in range(12):
            d += direction * per_tick
            if d > RANGE:
                d, direction = 2 * RANGE - d, -1
            if d < -RANGE:
                d, direction = -2 * RANGE - d, 1
    return out


def policy(state):
    if state.get("status") != "playing":
        return WAIT
    offs = [abs(o) for o in offsets(state, LOOK)]
    if abs(state["block_offset"]) <= PERFECT:
        return DROP
    if any(o <= PERFECT - 1 for o in offs[1:]):
        return WAIT
    if offs[0] <= min(offs) + 0.5 and offs[0] < state["block_width"] - 2:
        return DROP
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
