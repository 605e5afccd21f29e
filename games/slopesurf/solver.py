"""Scripted player for slopesurf (Slope Surf); writes the reference trajectories into the manifest.

The player rebuilds the trail ahead from the game's state (the centre of the trail at the surfer's row, the
next gates' centres 144 px apart; the trail runs straight from gate to gate) and replays the board in a
small Python model of game.js (heading -3..3 moves that many px sideways per 3 px down). Each step it tries
every turn-left / turn-right / keep sequence of the next 5 steps and picks the first move of a sequence that
stays on the trail, preferring the one that ends nearest the centre line with the heading of the trail.

    .venv/bin/python games/slopesurf/solver.py
"""
import itertools
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from sandbox import solvers  # noqa: E402

MANIFEST = ROOT / "games/slopesurf/manifest.json"
LEFT = {"type": "semantic", "name": "turn_left"}
RIGHT = {"type": "semantic", "name": "turn_right"}
KEEP = {"type": "semantic", "name": "keep"}

SPD, NMAX, SEG, HALF, HW = 3, 3, 144, 36, 6   # the same constants as game.js
TICKS = 12
DEPTH = 5
TURN = {KEEP["name"]: 0, LEFT["name"]: -1, RIGHT["name"]: 1}


def trail(state):
    """[(y0, x0, k)] segments ahead in world px: from (y0, x0) the centre moves k px sideways per 3 px down."""
    y, gy = state["distance"], state["distance"] + state["bend_dy"]
    gates = state["bends_ahead"]
    k = round(3 * (gates[0] - state["trail_x"]) / state["bend_dy"])
    segs = [(gy - SEG, gates[0] - 48 * k, k)]
    for a, b in zip(gates, gates[1:]):
        segs.append((gy, a, (b - a) // 48))
        gy += SEG
    segs.append((gy, gates[-1], 0))
    return segs


def centre(segs, y):
    for y0, x0, k in reversed(segs):
        if y >= y0:
            return x0 + k * (y - y0) / 3
    y0, x0, k = segs[0]
    return x0 + k * (y - y0) / 3


def slope(segs, y):
    for y0, _, k in reversed(segs):
        if y >= y0:
            return k
    return segs[0][2]


def ride(segs, x, y, n, turns):
    """Follow `turns` (one per step); None on a crash, else (x, y, n)."""
    for turn in turns:
        n = max(-NMAX, min(NMAX, n + turn))
        for _ in range(TICKS):
            x += n
            y += SPD
            if abs(x - centre(segs, y)) > HALF - HW:
                return None
    return x, y, n


def choose(state):
    segs = trail(state)
    x, y, n = state["surfer_x"], state["distance"], state["heading"]
    best, move = None, KEEP
    for first in (KEEP, LEFT, RIGHT):
        for rest in itertools.product((0, -1, 1), repeat=DEPTH - 1):
            end = ride(segs, x, y, n, (TURN[first["name"]],) + rest)
            if end is None:
                continue
            ex, ey, en = end
            cost = abs(ex - centre(segs, ey)) + 8 * abs(en - slope(segs, ey))
            if best is None or cost < best:
                best, move = cost, first
    return move


class Player:
    """The scripted player the baselines use (one action a call, read from the state)."""

    def __init__(self, task):
        self.task = task

    def act(self, env, state, info):
        return choose(state)


def main():
    """Play every task on each of its seeds; store the first seed's run as its reference, 100 waits as its null."""
    solvers.write_references(MANIFEST, Player, only=sys.argv[1:])


if __name__ == "__main__":
    main()
