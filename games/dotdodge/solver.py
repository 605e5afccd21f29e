"""Scripted player for dotdodge (Dot Dodge); writes the tasks' reference trajectories into the manifest.

The game is on a grid: one held arrow moves the square exactly one 24 px cell in a step of 12 ticks, and every
dot runs a fixed loop whose position is a pure function of the level's tick (the state gives the loops, the
tick and the map). The player searches breadth-first over (cell, tick) for the shortest safe run of moves
and waits that picks up every coin of the level left and then stands in the goal zone. A move is
safe when no dot comes within reach of the square during any of its ticks, with a margin of a pixel and a
tick either side. It follows the plan while the game is where the plan said, and plans again otherwise.

    .venv/bin/python games/dotdodge/solver.py
"""
import sys
from collections import deque
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from sandbox import solvers  # noqa: E402

MANIFEST = Path(__file__).resolve().with_name("manifest.json")
CELL, HUD_H, TICKS, SPEED = 24, 40, 12, 2
REACH = 9 + 2   # the square's half size against dots, plus a margin
DOT_R = 6
MAX_DEPTH = 60
MOVES = {
    "move_left": (-1, 0), "move_right": (1, 0), "move_up": (0, -1), "move_down": (0, 1), "wait": (0, 0),
}
ORDER = ("move_right", "move_up", "move_down", "move_left", "wait")


def centre(c, r):
    return c * CELL + CELL // 2, HUD_H + r * CELL + CELL // 2


class Level:
    """The dots of one level as functions of the tick, and a memo of which moves are safe when."""

    def __init__(self, state):
        self.grid = state["grid"]
        self.period = state["period"]
        self.loops = []
        for path in state["dot_paths"]:
            pts = [centre(c, r) for c, r in path["pts"]]
            segs, length = [], 0
            for i, a in enumerate(pts):
                b = pts[(i + 1) % len(pts)]
                n = max(abs(b[0] - a[0]), abs(b[1] - a[1]))
                sign = lambda v: (v > 0) - (v < 0)  # noqa: E731
                segs.append((length, a[0], a[1], sign(b[0] - a[0]), sign(b[1] - a[1])))
                length += n
            self.loops.append((segs, length, path["speed"], path["phase"]))
        self.dots_at = {}
        self.safe_memo = {}

    def dots(self, t):
        t %= self.period
        if t not in self.dots_at:
            out = []
            for segs, length, speed, phase in self.loops:
                d = (phase + speed * t) % length
                for at, x, y, dx, dy in reversed(segs):
                    if d >= at:
                        out.append((x + dx * (d - at), y + dy * (d - at)))
                        break
            self.dots_at[t] = out
        return self.dots_at[t]

    def cell(self, c, r):
        if 0 <= r < len(self.grid) and 0 <= c < len(self.grid[r]):
            return self.grid[r][c]
        return "#"

    def safe(self, c, r, move, t):
        key = (c, r, move, t % self.period)
        if key not in self.safe_memo:
            self.safe_memo[key] = self._safe(c, r, MOVES[move], t)
        return self.safe_memo[key]

    def _safe(self, c, r, d, t):
        x0, y0 = centre(c, r)
        for k in range(0, TICKS + 2):
            px, py = x0 + SPEED * min(k, TICKS) * d[0], y0 + SPEED * min(k, TICKS) * d[1]
            for tt in (t + k - 1, t + k, t + k + 1):
                for dx, dy in self.dots(tt):
                    nx, ny = min(max(dx, px - REACH), px + REACH), min(max(dy, py - REACH), py + REACH)
                    if (nx - dx) ** 2 + (ny - dy) ** 2 < DOT_R * DOT_R:
                        return False
        return True

    def plan(self, c, r, t, coins):
        """The shortest list of moves from cell (c, r) at tick t that picks up every coin of `coins` and then
        stands in the goal zone, or None."""
        coins = [tuple(p) for p in coins]
        full = (1 << len(coins)) - 1
        start = (c, r, 0, t % self.period)
        seen = {start}
        queue = deque([(c, r, 0, t, [])])
        while queue:
            c, r, mask, t, path = queue.popleft()
            if mask == full and self.cell(c, r) == "G":
                return path
            if len(path) >= MAX_DEPTH:
                continue
            for move in ORDER:
                dc, dr = MOVES[move]
                nc, nr = c + dc, r + dr
                if self.cell(nc, nr) == "#" or not self.safe(c, r, move, t):
                    continue
                nmask = mask | (1 << coins.index((nc, nr)) if (nc, nr) in coins else 0)
                key = (nc, nr, nmask, (t + TICKS) % self.period)
                if key in seen:
                    continue
                seen.add(key)
                queue.append((nc, nr, nmask, t + TICKS, path + [move]))
        return None


class Player:
    """One action a call, chosen from the state (the map, the dots' loops and the tick), never from pixels."""

    def __init__(self, task):
        self.task = task
        self.levels = {}
        self.plan = []
        self.expect = None

    def act(self, env, state, info):
        key = (state["level"], tuple(state["grid"]), tuple(p["phase"] for p in state["dot_paths"]))
        level = self.levels.get(key)
        if level is None:
            level = self.levels[key] = Level(state)
        c, r = state["player_col"], state["player_row"]
        here = (state["level"], c, r, state["level_coins_left"], state["deaths"])
        if not self.plan or self.expect is None or self.expect[0] != here:
            self.plan = level.plan(c, r, state["tick"], state["coins_left"]) or []
            self.expect = None
        if not self.plan:
            # no safe way found: stand still if that is safe, else step wherever is safe
            for move in ("wait",) + ORDER:
                dc, dr = MOVES[move]
                if level.cell(c + dc, r + dr) != "#" and level.safe(c, r, move, state["tick"]):
                    return {"type": "semantic", "name": move}
            return {"type": "semantic", "name": "wait"}
        move = self.plan.pop(0)
        dc, dr = MOVES[move]
        coins_left = state["level_coins_left"] - (1 if [c + dc, r + dr] in state["coins_left"] else 0)
        self.expect = ((state["level"], c + dc, r + dr, coins_left, state["deaths"]),)
        return {"type": "semantic", "name": move}


def main():
    """Play every task on each of its seeds; store the first seed's run as its reference."""
    solvers.write_references(MANIFEST, Player, null_action=None, only=sys.argv[1:])


if __name__ == "__main__":
    main()
