"""Scripted player for pulsedash (Pulse Dash); writes the reference trajectories into the manifest.

The player reads the level ahead (`ahead`: the next 24 columns) and the cube from the game's state and replays
the cube's physics in a small Python model of game.js (the same ticks: jump, gravity, landing, walls, pads,
spikes, ceilings). Each step it tries every jump/wait sequence of the next 8 steps, first with a safety margin
around every hazard and then with less, and takes the first move of the first sequence that survives (waiting
is tried first). While the cube is in the air it keeps its own exact copy of the cube (the state's height and
speed are rounded) and checks it against the state.

    .venv/bin/python games/pulsedash/solver.py
"""
import itertools
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from sandbox import solvers  # noqa: E402

MANIFEST = ROOT / "games/pulsedash/manifest.json"
JUMP = {"type": "semantic", "name": "jump"}
WAIT = {"type": "semantic", "name": "wait"}

# the same constants as game.js
TILE, S, SPEED = 30, 28, 5
GRAV, JUMP_V, PAD_V, MAX_FALL, SNAP = 0.625, 9.375, 13.75, 15, 6
SPK_X0, SPK_X1, SPK_H, HB, CEIL = 9, 21, 16, 2, 46
HEIGHT = {".": 0, "_": None, "^": 0, "=": 30, "#": 60, "A": 30, "*": 0, "v": 0}
TICKS = 12
DEPTH = 8
MARGINS = (1.5, 0.5, 0.0)


def tick(st, col, held, margin=0.0):
    """One tick of the cube (st: x, y, vy, g) over columns `col(i)`; the cause of death or None."""
    if held and st["g"]:
        st["vy"], st["g"] = JUMP_V, False
    if not st["g"]:
        st["vy"] = max(st["vy"] - GRAV, -MAX_FALL)
        st["y"] += st["vy"]
    st["x"] += SPEED
    x = st["x"]
    i0, i1 = x // TILE, (x + S - 1) // TILE
    heights = [HEIGHT[col(i)] for i in range(i0, i1 + 1)]
    solid = [h for h in heights if h is not None]
    sup = max(solid) if solid else None
    if any(h > st["y"] + SNAP - margin for h in solid):
        return "wall"
    if st["g"]:
        if sup is None or sup < st["y"]:
            st["g"], st["vy"] = False, 0.0
        elif sup > st["y"]:
            st["y"] = sup
    elif st["vy"] <= 0 and sup is not None and st["y"] <= sup:
        st["y"], st["vy"], st["g"] = sup, 0.0, True
    if st["g"] and st["y"] == 0 and any(col(i) == "*" for i in range(i0, i1 + 1)):
        st["vy"], st["g"] = PAD_V, False
    for i in range(i0, i1 + 1):
        c = col(i)
        if c in "^A":
            h = HEIGHT[c]
            sx0, sx1 = i * TILE + SPK_X0 - margin, i * TILE + SPK_X1 + margin
            if x + HB < sx1 and x + S - HB > sx0 and st["y"] < h + SPK_H + margin and st["y"] + S > h:
                return "spike"
        if c == "v" and x + HB < (i + 1) * TILE + margin and x + S - HB > i * TILE - margin \
                and st["y"] + S > CEIL - margin:
            return "ceiling"
    if st["y"] < -60:
        return "pit"
    return None


def step(st, col, jump, margin=0.0):
    for _ in range(TICKS):
        if tick(st, col, jump, margin):
            return False
    return True


def survives(st, col, plan, margin):
    st = dict(st)
    return all(step(st, col, jump, margin) for jump in plan)


def choose(st, col):
    for margin in MARGINS:
        for plan in itertools.product((False, True), repeat=DEPTH):
            if survives(st, col, plan, margin):
                return plan[0]
    return False


class Player:
    """The scripted player the baselines use (one action a call, read from the state)."""

    def __init__(self, task):
        self.task = task
        self.model = None     # the cube after the last action, as the model has it

    def act(self, env, state, info):
        base = state["cube_x"] // TILE
        ahead = state["ahead"]

        def col(i):
            k = i - base
            return ahead[k] if 0 <= k < len(ahead) else "."

        st = {"x": state["cube_x"], "y": float(state["cube_y"]), "vy": state["cube_vy"] / 60,
              "g": bool(state["on_ground"])}
        m = self.model
        if (m is not None and m["x"] == st["x"] and m["g"] == st["g"] and abs(m["y"] - st["y"]) <= 0.5
                and abs(m["vy"] * 60 - state["cube_vy"]) <= 0.5):
            st = dict(m)      # the exact values behind the rounded ones
        jump = choose(st, col)
        nxt = dict(st)
        self.model = nxt if step(nxt, col, jump) else None
        return JUMP if jump else WAIT


def main():
    """Play every task on each of its seeds; store the first seed's run as its reference, 100 waits as its null."""
    solvers.write_references(MANIFEST, Player, only=sys.argv[1:])


if __name__ == "__main__":
    main()
