"""Scripted player for springjump (Spring Jump); writes the reference trajectories into the manifest.

Each step the player reads the hopper and the platforms from the state and looks ahead: it simulates the
game's physics (the same rules as game.js, tick by tick) for every sequence of left / none / right over
the next few steps, drops the sequences that fall off the screen or touch a beetle from the side, and
takes the first input of the sequence that lands on the highest-numbered platform, breaking ties by the
highest platform it bounces on, then by keeping to its last plan, then by how close it ends under the next
unclimbed platform.

    .venv/bin/python games/springjump/solver.py
"""
import itertools
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from sandbox import solvers  # noqa: E402

MANIFEST = Path(__file__).resolve().with_name("manifest.json")
W, H = 360, 480
PW, PH, PLAT_W = 18, 22, 52
GRAV, BOUNCE_V, SPRING_V, STEER, MAX_FALL = 0.35, 10.5, 16.5, 3.6, 12
SPRING_W, MON_W, MON_H = 16, 34, 22
TICKS = 12                                  # one 200 ms step
DEPTH = 6
KEYS = {-1: {"type": "press_key", "key": "ArrowLeft"}, 1: {"type": "press_key", "key": "ArrowRight"},
        0: {"type": "wait"}}
SEQS = list(itertools.product((-1, 0, 1), repeat=DEPTH))


def overlap(ax, aw, bx, bw):
    return ax < bx + bw and ax + aw > bx


def simulate(state, seq):
    """Return (alive, best platform number landed, highest top landed on, final x, final y)."""
    x, y, vy = state["player_x"], state["player_y"], state["player_vy"] / 100
    cam = state["camera_y"]
    plats = [[p[0], p[1], p[2], p[3], p[4] / 100, p[5], p[6]] for p in state["platforms"] if p[2] != 2]
    beetle = list(state["beetle"]) if state.get("beetle") else None
    if beetle:
        beetle[2] /= 100
    best = state["climbed"]
    top = 1e9                                   # the highest platform top landed on in the sequence
    for d in seq:
        for _ in range(TICKS):
            x += d * STEER
            if x + PW / 2 < 0:
                x += W
            if x + PW / 2 >= W:
                x -= W
            prev = y + PH
            vy = min(MAX_FALL, vy + GRAV)
            y += vy
            for p in plats:
                if p[2] == 1:
                    p[0] += p[4]
                    if p[0] < 2:
                        p[0], p[4] = 2, -p[4]
                    if p[0] > W - PLAT_W - 2:
                        p[0], p[4] = W - PLAT_W - 2, -p[4]
            if vy > 0:
                for p in plats:
                    if prev > p[1] or y + PH < p[1] or not overlap(x + 3, PW - 6, p[0], p[6]):
                        continue
                    y = p[1] - PH
                    spring = p[3] >= 0 and overlap(x + 3, PW - 6, p[0] + p[3], SPRING_W)
                    vy = -SPRING_V if spring else -BOUNCE_V
                    best = max(best, p[5])
                    top = min(top, p[1])
                    break
            if beetle:
                beetle[0] += beetle[2]
                if beetle[0] < 4 or beetle[0] > W - MON_W - 4:
                    beetle[2] = -beetle[2]
                if overlap(x + 2, PW - 4, beetle[0], MON_W) and y + PH > beetle[1] + 2 - 6 and y < beetle[1] + MON_H + 4:
                    if vy > 0 and prev <= beetle[1] + 8:
                        vy, beetle = -BOUNCE_V, None
                    else:
                        return False, best, top, x, y
            cam = min(cam, y - H * 0.42)
            if y > cam + H - 30:
                return False, best, top, x, y
    return True, best, top, x, y


def choose(state, rest=()):
    """The best sequence from here: the highest platform landed on, then the highest top; among equals, the one
    that carries on the last step's plan (`rest`, its moves still to come), so that ties broken by the end
    position cannot flip the plan back and forth (a player bouncing on one platform for ever)."""
    target = None
    for p in sorted(state["platforms"], key=lambda p: -p[1]):
        if p[2] != 2 and p[5] > state["climbed"]:
            target = p
            break
    best_key, best_seq = None, (0,) * DEPTH
    for seq in SEQS:
        alive, landed, top, x, y = simulate(state, seq)
        if not alive:
            continue
        if target:
            cx = target[0] + target[6] / 2 - (x + PW / 2)
            cx = min(abs(cx), W - abs(cx))
        else:
            cx = 0
        key = (landed, -top, seq[:len(rest)] == rest, -cx, -sum(1 for d in seq if d))
        if best_key is None or key > best_key:
            best_key, best_seq = key, seq
    return best_seq


class Player:
    """One action a call, chosen by looking ahead from the state."""

    def __init__(self, task):
        self.task = task
        self.rest = ()

    def act(self, env, state, info):
        seq = choose(state, self.rest)
        self.rest = seq[1:]
        return KEYS[seq[0]]


def main():
    """Play every task on its first seed; store the first seed's run as its reference, 100 waits as its null."""
    solvers.write_references(MANIFEST, Player, every_seed=False, only=sys.argv[1:])


if __name__ == "__main__":
    main()
