"""Scripted player for Bastion Path (`bastion`): reads the game's state every step and plays a tower defence.

Policy:
  * rank the stone pads by how much of the road lies within a tower's range of them (bends covered twice
    count twice), then follow a build order: arrow towers on the two best pads, a frost tower, their
    upgrades, a cannon, more arrows, spending gold as soon as the next item is affordable;
  * call the next wave early (Space, bonus gold) as soon as the road is empty, or when the creeps on it are
    few and far from the gate and the defence is strong;
  * otherwise wait.

Run: .venv/bin/python games/bastion/solver.py [task slugs...]
"""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from sandbox import solvers  # noqa: E402

MANIFEST = Path(__file__).resolve().with_name("manifest.json")
T, TOP = 32, 32
TOOL = {"arrow": 0, "cannon": 1, "frost": 2, "sell": 3}
BUILD = {"arrow": 35, "cannon": 60, "frost": 45}
UPGRADE = {"arrow": [35, 60], "cannon": [50, 90], "frost": [40, 60]}
OVERLAP = 3
EARLY = 2
RANGE = {"arrow": 80, "cannon": 72, "frost": 64}
WAIT = {"type": "wait"}
SPACE = {"type": "press_key", "key": "Space"}


def tile_action(col, row):
    return {"type": "semantic", "name": "click_tile", "args": {"col": col, "row": row}}


def tool_action(kind):
    return {"type": "semantic", "name": "select_tool", "args": {"tool": TOOL[kind]}}


def road_points(road):
    """Points every 4 px along the road (pixel centres of tiles)."""
    pts = []
    for (c0, r0), (c1, r1) in zip(road, road[1:]):
        x0, y0, x1, y1 = c0 * T + 16, TOP + r0 * T + 16, c1 * T + 16, TOP + r1 * T + 16
        n = (abs(x1 - x0) + abs(y1 - y0)) // 4
        for i in range(n):
            pts.append((x0 + (x1 - x0) * i // n, y0 + (y1 - y0) * i // n))
    return pts


def coverage(pad, pts, reach, early=EARLY):
    """Road points within reach of the pad, those near the cave weighing up to `early` times more."""
    x, y = pad[0] * T + 16, TOP + pad[1] * T + 16
    n = len(pts)
    return sum(100 + early * 100 * (n - i) // n for i, (px, py) in enumerate(pts)
               if (px - x) ** 2 + (py - y) ** 2 <= reach * reach)


def plan_for(state):
    """The build order: (kind, pad) to build or ("up", pad) to upgrade."""
    pts = road_points(state["road"])
    pads = [tuple(p) for p in state["pads"]]
    ranked = sorted(pads, key=lambda p: (-coverage(p, pts, 80), p))
    frost_pad = max(ranked[2:5], key=lambda p: (coverage(p, pts, 64), -ranked.index(p)))
    rest = [p for p in ranked if p != frost_pad]
    a1, a2, a3, a4, a5 = rest[:5]
    return [("arrow", a1), ("arrow", a2), ("up", a1), ("arrow", a3), ("up", a2), ("frost", frost_pad),
            ("up", a3), ("up", a1), ("up", a2), ("arrow", a4), ("up", a3), ("up", a4), ("cannon", a5),
            ("up", frost_pad), ("up", a4), ("up", a5), ("up", a5), ("up", frost_pad)]


class Player:
    """One action a call, chosen from the state (never from pixels)."""

    def __init__(self, task):
        self.task = task
        self.plan = None
        self.map = None
        self.overlap = OVERLAP

    def next_item(self, state):
        towers = {(t["col"], t["row"]): t for t in state["tower_list"]}
        levels = {}
        for item in self.plan:
            kind, pad = item
            if kind == "up":
                levels[pad] = levels.get(pad, 1) + 1
                tower = towers.get(pad)
                if tower is None:
                    return None
                if tower["level"] < levels[pad]:
                    return ("up", pad, UPGRADE[tower["kind"]][tower["level"] - 1])
            else:
                levels[pad] = 1
                if pad not in towers:
                    return (kind, pad, BUILD[kind])
        return None

    def act(self, env, state, info):
        if self.plan is None or state["map"] != self.map or (state["wave"] == 0 and not state["tower_list"]):
            self.plan, self.map = plan_for(state), state["map"]
        item = self.next_item(state)
        if item is not None and state["gold"] >= item[2]:
            kind, pad, _ = item
            if kind == "up":
                want = "arrow"
                if state["tool"] == "sell":
                    return tool_action(want)
                return tile_action(*pad)
            if state["tool"] != kind:
                return tool_action(kind)
            return tile_action(*pad)
        strong = len(state["tower_list"]) >= 2
        if state["wave"] == 0 and strong:
            return SPACE
        if strong and state["spawning"] == 0 and state["creeps"] <= self.overlap and state["lead_pct"] < 60:
            return SPACE
        return WAIT


def main():
    """Play every task on each of its seeds; store the first seed's run as its reference, 100 waits as its null."""
    solvers.write_references(MANIFEST, Player, only=sys.argv[1:],
                             report=lambda s: f"clean={s['clean_waves']} kills={s['kills']} wave={s['wave']} "
                                              f"lives={s['lives']} gold={s['gold']} map={s['map']}")


if __name__ == "__main__":
    main()
