"""Scripted player for flutter (Flutter); writes the reference trajectories into the manifest.

The player reads the bird (height, speed) and the next two pipes' gaps from the game's state, and replays
the bird's flight in a small Python model of game.js (the same ticks: flap, gravity, scroll, hit tests).
Each step it looks 7 steps ahead over every flap/wait sequence (a depth-first search) and picks the first
move of the sequence that keeps the bird farthest from anything it could touch (the worst clearance over
the whole look-ahead; ties go to the sequence with the most room overall).

    .venv/bin/python games/flutter/solver.py
"""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from sandbox import solvers  # noqa: E402

MANIFEST = ROOT / "games/flutter/manifest.json"
FLAP = {"type": "semantic", "name": "flap"}
WAIT = {"type": "semantic", "name": "wait"}

# the same constants as game.js
GROUND, BX, R = 320, 110, 9
GRAV, FLAP_V, MAX_FALL, SPEED = 0.3, 5.0, 8.0, 2.5
PIPE_W, SPACING = 52, 170
TICKS = 12                 # one 200 ms step
DEPTH = 7                  # look-ahead, in steps
SIDE = 4                   # px of horizontal margin around a pipe (the state's rounding)
ROOM_CAP = 40              # clearance counted toward the tie-break at most


def fly(y, vy, off, flap, pipes):
    """One step of the model from bird (y, vy) with the world scrolled `off` px: (y, vy, off, worst, room)."""
    worst, room = 1e9, 0.0
    for t in range(TICKS):
        if flap and t == 0:
            vy = -FLAP_V
        vy = min(MAX_FALL, vy + GRAV)
        y += vy
        if y < R:
            y, vy = R, 0.0
        off += SPEED
        clear = min(GROUND - (y + R), 50)
        for x, top, bottom in pipes:
            x -= off
            if x < BX + R + SIDE and x + PIPE_W > BX - R - SIDE:
                clear = min(clear, y - R - top, bottom - (y + R))
        worst = min(worst, clear)
        room += min(clear, ROOM_CAP)
    return y, vy, off, worst, room


def search(y, vy, off, depth, pipes):
    """(worst clearance, room) of the best continuation of `depth` steps."""
    if depth == 0:
        return 1e9, 0.0
    best = None
    for flap in (False, True):
        y2, vy2, off2, worst, room = fly(y, vy, off, flap, pipes)
        if worst > 0:
            w2, r2 = search(y2, vy2, off2, depth - 1, pipes)
            score = (min(worst, w2), room + r2)
        else:
            score = (worst, room)
        if best is None or score > best:
            best = score
    return best


def choose(state):
    if state["pipe_dx"] is None:
        return WAIT
    x0 = BX + state["pipe_dx"]
    pipes = [(x0, state["gap_top"], state["gap_bottom"])]
    if state["next_gap_top"] is not None:
        pipes.append((x0 + SPACING, state["next_gap_top"], state["next_gap_bottom"]))
    y, vy = float(state["bird_y"]), state["bird_vy"] / 60
    best, action = None, WAIT
    for flap, act in ((False, WAIT), (True, FLAP)):
        y2, vy2, off2, worst, room = fly(y, vy, 0.0, flap, pipes)
        w2, r2 = search(y2, vy2, off2, DEPTH - 1, pipes) if worst > 0 else (worst, 0.0)
        score = (min(worst, w2), room + r2)
        if best is None or score > best:
            best, action = score, act
    return action


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
