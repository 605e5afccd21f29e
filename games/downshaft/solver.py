"""Scripted player for downshaft (Down Shaft); writes the reference trajectories into the manifest.

The player reads the platforms on screen, itself and the target (the safe platform of the next row) from
the game's state and replays the next steps in a small Python model of game.js (platforms rising, walking,
gravity, landing, spikes, the ceiling). Each step it tries every left / right / stay sequence of the next
4 steps and takes the first move of the best one: alive first, then landed on the target, then health,
then close to the target (it waits on its platform while the target is still low on the screen).

    .venv/bin/python games/downshaft/solver.py
"""
import itertools
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from sandbox import solvers  # noqa: E402

MANIFEST = ROOT / "games/downshaft/manifest.json"
LEFT = {"type": "semantic", "name": "left"}
RIGHT = {"type": "semantic", "name": "right"}
STAY = {"type": "semantic", "name": "stay"}
MOVES = ((STAY, 0), (LEFT, -1), (RIGHT, 1))

# the same constants as game.js
H, L, R, TOP = 360, 16, 464, 46
PW, PH, MOVE, GRAV, MAX_FALL, RISE = 20, 24, 3, 0.25, 5, 1.5
SLAB, SPIKE_DMG, CEIL_DMG = 10, 4, 3
TICKS, DEPTH = 12, 4
LOW = 300          # the target is "still low" while its top is below this: do not drop yet


def simulate(start, plats, target, moves):
    """Run `moves` (-1/0/1 per step) from `start`; (alive, landed on target, hp, x, y)."""
    x, y, vy, hp, on = start
    plats = [list(p) for p in plats]
    for move in moves:
        for _ in range(TICKS):
            for p in plats:
                p[1] -= RISE
            x = max(L, min(R - PW, x + MOVE * move))
            if on is not None:
                p = plats[on]
                if x + PW > p[0] and x < p[0] + p[2]:
                    y = p[1] - PH
                else:
                    on, vy = None, 0.0
            if on is None:
                oy = y
                vy = min(MAX_FALL, vy + GRAV)
                y += vy
                for i, p in enumerate(plats):
                    if x + PW > p[0] and x < p[0] + p[2] and oy + PH <= p[1] + RISE + 0.5 and y + PH >= p[1] - 0.5:
                        y, vy, on = p[1] - PH, 0.0, i
                        if p[3]:
                            hp -= SPIKE_DMG
                        elif i == target:
                            return True, True, hp, x, y
                        break
            if y < TOP:
                hp -= CEIL_DMG
                on, vy, y = None, 1.0, TOP + SLAB + 2
            if hp <= 0 or y > H - 4:
                return False, False, hp, x, y
    return True, False, hp, x, y


def choose(state):
    plats = [tuple(p) for p in state["platforms"]]
    target = None
    if state["target_x"] is not None:
        for i, p in enumerate(plats):
            if p[0] == state["target_x"] and p[1] == state["target_y"] and not p[3]:
                target = i
    x, y = float(state["player_x"]), float(state["player_y"])
    on = None
    if state["on_platform"] != "none":
        for i, p in enumerate(plats):
            if x + PW > p[0] and x < p[0] + p[2] and abs(p[1] - PH - y) <= 1.5:
                on = i
    start = (x, y, state["player_vy"] / 60, state["hp"], on)
    tx = plats[target][0] + plats[target][2] / 2 if target is not None else x
    low = target is not None and plats[target][1] > LOW
    best, choice = None, STAY
    for first, move in MOVES:
        for rest in itertools.product((0, -1, 1), repeat=DEPTH - 1):
            alive, landed, hp, ex, ey = simulate(start, plats, target, (move,) + rest)
            if not alive:
                score = (0, 0, hp, 0)
            elif landed:
                score = (1, 1, hp, 0)
            else:
                near = -abs(ex + PW / 2 - tx)
                if low:   # wait for the target to come up: stay on the platform, near its edge
                    near = -abs(ex + PW / 2 - tx) if on is None else -max(0, abs(ex + PW / 2 - tx) - 60)
                score = (1, 0, hp, near)
            if best is None or score > best:
                best, choice = score, first
    return choice


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
