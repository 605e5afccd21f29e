"""Scripted player for Clay Shot (`clayshot`): reads where the clays and doves are and shoots the clay that would
leave the field first.

Policy: a click lands at the start of the step, when the clays are where the state says they are now; so among
the clays on the field, take the one with the fewest ticks left before it leaves, and click the cell of the
`shoot` grid (16 px) nearest to it whose centre is within the shot's 13 px of the clay and more than 13 px from
every dove. While the gun reloads, wait; with one shell in the gun and no clay on the field, reload (R) so that a
double finds two shells; otherwise wait.

Run: .venv/bin/python games/clayshot/solver.py [task slugs...]
"""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from sandbox import solvers  # noqa: E402

MANIFEST = Path(__file__).resolve().with_name("manifest.json")
W, H, HUD_H = 480, 360, 24
CELL, COLS, ROWS = 16, 30, 22
HIT_R = 13
FP = 16
WAIT = {"type": "wait"}
RELOAD = {"type": "semantic", "name": "reload"}


def ticks_left(clay):
    """Ticks until the clay leaves the field (past a side or below the bottom), at its speed and gravity."""
    x, y, vx, vy = clay["x"] * FP, clay["y"] * FP, clay["vx"], clay["vy"]
    for t in range(1, 400):
        vy += 1
        x += vx
        y += vy
        if x < 0 or x >= W * FP or y >= H * FP:
            return t
    return 400


def cell_for(clay, doves):
    """The (col, row) to click for a clay, or None when no cell near it is clear of the doves."""
    best = None
    c0, r0 = round((clay["x"] - 8) / CELL), round((clay["y"] - 8) / CELL)
    for col in range(c0 - 1, c0 + 2):
        for row in range(r0 - 1, r0 + 2):
            if not (0 <= col < COLS and 0 <= row < ROWS):
                continue
            cx, cy = 8 + CELL * col, 8 + CELL * row
            d = (cx - clay["x"]) ** 2 + (cy - clay["y"]) ** 2
            if d > (HIT_R - 1) ** 2:
                continue
            if any((cx - dv["x"]) ** 2 + (cy - dv["y"]) ** 2 <= (HIT_R + 2) ** 2 for dv in doves):
                continue
            if best is None or d < best[0]:
                best = (d, col, row)
    return best and best[1:]


class Player:
    """One action a call, chosen from the state (never from pixels)."""

    def __init__(self, task):
        self.task = task

    def act(self, env, state, info):
        if state.get("phase") != "play":
            if state["shells_in_gun"] < 2 and state["shells_in_box"] > 0 and not state["reloading"]:
                return RELOAD
            return WAIT
        if state["reloading"] or state["shells_in_gun"] == 0:
            return WAIT
        targets = []
        for clay in state["clays"]:
            if 0 <= clay["x"] < W and HUD_H <= clay["y"] < H:
                cell = cell_for(clay, state["doves"])
                if cell:
                    targets.append((ticks_left(clay), cell))
        if targets:
            col, row = min(targets)[1]
            return {"type": "semantic", "name": "shoot", "args": {"col": col, "row": row}}
        if state["shells_in_gun"] < 2 and state["shells_in_box"] > 0 and not state["clays"]:
            return RELOAD
        return WAIT


def main():
    """Play every task on each of its seeds; store the first seed's run as its reference, 100 waits as its null."""
    solvers.write_references(MANIFEST, Player, only=sys.argv[1:],
                             report=lambda s: f"broken={s['clays_broken']} round={s['round']} lives={s['lives']} "
                                              f"box={s['shells_in_box']}")


if __name__ == "__main__":
    main()
