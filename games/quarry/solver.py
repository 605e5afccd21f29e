"""Scripted player for Quarry Nights (`quarry`): reads the world from the state every step and plans.

Its jobs, in order, for each task:
  gather-wood-5   walk beside the nearest log (trunks are walked through) and chop it (X toward the trunk, from a
                  jump when the log is one row up) until 5 logs were chopped;
  craft-pickaxe   chop 2 logs, craft 4 planks (Digit1 twice) and the wooden pickaxe (Digit2);
  mine-stone-8    the wooden pickaxe, then dig straight down through grass and dirt into the stone;
  stone-pickaxe   3 logs, the wooden pickaxe, dig down as for mine-stone-8 until 3 stone are carried, then 2 more
                  planks (Digit1) and the stone pickaxe (Digit3);
  mine-iron-3     3 logs, the wooden pickaxe, walk to the column beside the nearest iron ore, dig down to its
                  row (crafting the stone pickaxe from the first 3 stone), then tunnel sideways into the ore.
Whatever the job, when night is 4 steps away and the miner, with a pickaxe, is not sheltered, it digs down into the
stone (shade-bats seep through grass and dirt) until stone is on both sides and below and puts a stone roof over its
head (ArrowUp+C) first.

Run: .venv/bin/python games/quarry/solver.py [task-slug ...]
"""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from sandbox import solvers  # noqa: E402

MANIFEST = Path(__file__).resolve().with_name("manifest.json")
OPEN = ".~"
HARD = "scipw#"
WAIT = {"type": "wait"}


def key(k):
    return {"type": "press_key", "key": k}


def keys(*k):
    return {"type": "press_keys", "keys": list(k)}


SIDE = {-1: "ArrowLeft", 1: "ArrowRight"}


def mine(dx, dy):
    if dy > 0:
        return key("ArrowDown")
    if dy < 0:
        return keys("ArrowUp", "KeyX")
    return keys(SIDE[dx], "KeyX")


class World:
    def __init__(self, s):
        self.rows = s["tiles"]
        self.x, self.y = s["x"], s["y"]

    def at(self, x, y):
        if x < 0 or x >= 40 or y >= 24:
            return "#"
        if y < 0:
            return "."
        return self.rows[y][x]

    def solid(self, x, y):
        return self.at(x, y) not in OPEN

    def firm(self, x, y):
        """Blocks the miner: tree trunks stand in the background and are walked (and fallen) through."""
        return self.at(x, y) not in OPEN + "w"

    def trunks(self):
        """Columns with a log, and the rows of their logs."""
        out = {}
        for y, row in enumerate(self.rows):
            for x, c in enumerate(row):
                if c == "w":
                    out.setdefault(x, []).append(y)
        return out


class Player:
    """One action a call, from the state."""

    def __init__(self, task):
        self.task = task
        self.slug = getattr(task, "slug", "") or ""
        self.goal = None

    def act(self, env, state, info):
        return self.decide(state)

    # ------------------------------------------------------------ moves
    def walk_to(self, w, tx):
        """One action toward column tx along the ground (climbing, jumping, or mining what is in the way)."""
        dx = 1 if tx > w.x else -1
        nx = w.x + dx
        if not w.firm(nx, w.y):
            return key(SIDE[dx])
        if not w.firm(w.x, w.y - 1) and not w.firm(nx, w.y - 1):
            return key(SIDE[dx])                            # a 1-block ledge: walked up
        if not w.firm(w.x, w.y - 1) and not w.firm(w.x, w.y - 2) and not w.firm(nx, w.y - 2):
            return keys("ArrowUp", SIDE[dx])                # a 2-block ledge: jump onto it
        if w.firm(w.x, w.y - 1):
            return mine(0, -1)
        return mine(dx, 0)

    def chop(self, s, w):
        """One action toward chopping the nearest log: from beside it, or from on top of its trunk."""
        best = None
        for tx, ys in w.trunks().items():
            for side in (-1, 1):
                sx = tx + side
                for ty in ys:
                    if w.firm(sx, ty):
                        continue
                    if w.firm(sx, ty + 1):
                        stand, hop = ty, False                  # chopped standing beside the log
                    elif w.firm(sx, ty + 2):
                        stand, hop = ty + 1, True               # chopped from a jump beside it
                    else:
                        continue
                    cost = abs(sx - w.x) + 2 * abs(stand - w.y) + (2 if hop else 0)
                    if best is None or cost < best[0]:
                        best = (cost, sx, ty, stand, hop, -side)
        if best is None:
            return WAIT
        _, sx, ty, stand, hop, d = best
        if w.x == sx and w.y == ty:
            return mine(d, 0)
        if w.x == sx and w.y == stand:
            return key("ArrowUp")
        if w.x == sx:
            return mine(0, 1) if stand > w.y else key("ArrowUp")
        return self.walk_to(w, sx)

    def shelter(self, s, w):
        """One action toward being walled in by hard blocks (shade-bats seep through grass and dirt): dig down
        until stone is below, then close every open or soft side (above, left, right): an open one with a stone
        (or planks) block, a soft one by digging further down."""
        hard = s["stone"] + s["planks"]
        below = w.at(w.x, w.y + 1)
        diggable = below != "#" and not (below == "i" and s["pickaxe"] < 2)
        if below not in HARD and diggable:
            return mine(0, 1)
        around = ((0, -1), (-1, 0), (1, 0))
        if any(w.at(w.x + dx, w.y + dy) not in HARD and w.at(w.x + dx, w.y + dy) not in OPEN for dx, dy in around) \
                and diggable:
            return mine(0, 1)                                # grass or dirt beside us: deeper into the stone
        for dx, dy in around:
            if w.at(w.x + dx, w.y + dy) in OPEN:
                if hard:
                    return keys("ArrowUp" if dy else SIDE[dx], "KeyC")
                if diggable:
                    return mine(0, 1)                        # a stone to build with, one row deeper
                for sx in (-1, 1):
                    if w.at(w.x + sx, w.y) == "s":
                        return mine(sx, 0)
        return WAIT

    # ------------------------------------------------------------ plan
    def decide(self, s):
        w = World(s)
        if s.get("falling"):
            return WAIT
        night_soon = s["is_night"] or s["steps_to_night"] <= 4
        if night_soon and not s["sheltered"] and s["pickaxe"] >= 1:
            return self.shelter(s, w)
        slug = self.slug
        if slug.startswith("gather-wood"):
            return self.chop(s, w)
        logs_needed = {"craft-pickaxe": 2, "mine-stone-8": 2, "mine-iron-3": 3, "stone-pickaxe": 3}.get(slug, 2)
        planks_total = s["planks"] + 2 * s["wood"] + (4 if s["pickaxe"] >= 1 else 0) + (2 if s["pickaxe"] >= 2 else 0)
        if planks_total < 2 * logs_needed:
            return self.chop(s, w)
        if s["pickaxe"] < 1:
            if s["planks"] < 4:
                return key("Digit1")
            return key("Digit2")
        if slug in ("mine-iron-3", "stone-pickaxe") and s["pickaxe"] < 2 and s["stone"] >= 3:
            if s["planks"] < 2:
                return key("Digit1")
            return key("Digit3")
        if slug in ("mine-stone-8", "stone-pickaxe"):
            return self.dig_stone(s, w)
        return self.dig_iron(s, w)

    def dig_stone(self, s, w):
        below = w.at(w.x, w.y + 1)
        if below in "gdsc":
            return mine(0, 1)
        for dx in (-1, 1):
            if w.at(w.x + dx, w.y) == "s":
                return mine(dx, 0)
        for dx in (-1, 1):
            if w.at(w.x + dx, w.y) in "c":
                return mine(dx, 0)
        for dx in (-1, 1):
            if not w.firm(w.x + dx, w.y):
                return key(SIDE[dx])
        return mine(0, 1)

    def dig_iron(self, s, w):
        iron = [(x, y) for y, row in enumerate(w.rows) for x, c in enumerate(row) if c == "i"]
        if self.goal and w.at(self.goal[1], self.goal[2]) == "i":
            return self.dig_to(s, w, *self.goal[1:])
        best = None
        for ix, iy in iron:
            for side in (-1, 1):
                cx = ix + side
                if w.at(cx, iy) == "i":
                    continue
                col_iron = any(w.at(cx, yy) == "i" for yy in range(0, iy))
                run = 1
                for step in (-1, 1):
                    k = ix + step
                    while w.at(k, iy) == "i":
                        run, k = run + 1, k + step
                need = 3 - s["iron_mined"]
                cost = abs(cx - w.x) * 2 + abs(iy - w.y) * 3 + (50 if col_iron else 0) - 15 * (min(run, need) - 1)
                if best is None or cost < best[0]:
                    best = (cost, ix, iy, cx)
        self.goal = best
        return self.dig_to(s, w, *best[1:])

    def dig_to(self, s, w, ix, iy, cx):
        if w.x != cx and w.y < iy:
            if self.on_surface(w):
                return self.walk_to(w, cx)
            return self.tunnel(w, 1 if cx > w.x else -1)
        dx = 1 if ix > w.x else -1
        if w.y < iy:
            if s["pickaxe"] < 2 and s["stone"] < 3 and iy - w.y <= 2:
                for side in (-dx, dx):
                    if w.at(w.x + side, w.y) == "s":
                        return mine(side, 0)                # stone for the stone pickaxe, without moving
            return mine(0, 1)
        if w.at(w.x + dx, w.y) == "i" and s["pickaxe"] < 2:
            return mine(0, 1) if w.at(w.x, w.y + 1) in "sc" else mine(-dx, 0)   # more stone for the stone pickaxe
        return self.tunnel(w, dx)

    @staticmethod
    def tunnel(w, dx):
        return mine(dx, 0) if w.firm(w.x + dx, w.y) else key(SIDE[dx])

    @staticmethod
    def on_surface(w):
        return all(not w.solid(w.x, yy) or w.at(w.x, yy) == "w" for yy in range(0, w.y))


def main():
    """Play every task on each of its seeds; store the first seed's run as its reference, 100 waits as its null."""
    solvers.write_references(MANIFEST, Player, only=sys.argv[1:],
                             report=lambda s: f"wood={s['wood_gathered']} pick={s['pickaxe']} stone={s['stone_mined']} "
                                              f"iron={s['iron_mined']} nights={s['nights_survived']} hp={s['health']} "
                                              f"t={s['day_time']}")


if __name__ == "__main__":
    main()
