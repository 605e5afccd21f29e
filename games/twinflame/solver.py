"""Scripted player for twinflame (Twin Flame); writes the reference trajectories into the manifest.

The levels are fixed, so the player plans: it reads the level maps from game.js, simulates each twin's
movement with the game's own physics (the same float operations, tick by tick), and searches breadth-first
for the shortest list of one-step inputs that takes the twin (collecting its gems first when the task
counts gems) to its door without touching a deadly pool. The two twins move independently, so one
step presses both twins' keys at once (`press_keys`). It re-plans whenever the state shows a new level
or a new attempt, and waits while the level-clear pause runs.

    .venv/bin/python games/twinflame/solver.py
"""
import re
import sys
from collections import deque
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from sandbox import solvers  # noqa: E402

HERE = Path(__file__).resolve().parent
MANIFEST = HERE / "manifest.json"
T, CW, CH = 24, 14, 20
SPEED, GRAV, JUMP_V, MAX_FALL, JUMP_BUFFER = 2.4, 0.5, 8, 10, 8
TICKS = 15                                   # one 250 ms step
KEYS = {"ember": ("ArrowLeft", "ArrowRight", "ArrowUp"), "ripple": ("KeyA", "KeyD", "KeyW")}
INPUTS = [(0, False), (1, False), (-1, False), (1, True), (-1, True), (0, True)]


def load_levels():
    text = (HERE / "game.js").read_text()
    block = text[text.index("var LEVELS"):text.index("];", text.index("var LEVELS"))]
    return [re.findall(r'"([^"]{20})"', part) for part in block.split("map: [")[1:]]


class Level:
    def __init__(self, rows):
        self.rows = rows
        self.start, self.door, self.gems = {}, {}, {"ember": [], "ripple": []}
        for r, row in enumerate(rows):
            for c, ch in enumerate(row):
                if ch == "1":
                    self.start["ember"] = (c, r)
                elif ch == "2":
                    self.start["ripple"] = (c, r)
                elif ch == "F":
                    self.door["ember"] = (c, r)
                elif ch == "D":
                    self.door["ripple"] = (c, r)
                elif ch in "rb":
                    self.gems["ember" if ch == "r" else "ripple"].append((c, r))

    def tile(self, c, r):
        if r < 0 or r >= 15 or c < 0 or c >= 20:
            return "#"
        return self.rows[r][c]

    def solid(self, c, r):
        return self.tile(c, r) in "#LVG"


def floor(v):
    return int(v // 1)


def sim_step(lv, kind, st, inp):
    """One step of one twin from st = (x, y, vy, ground, mask); None if it dies. Mirrors game.js."""
    x, y, vy, ground, mask = st
    d, jump = inp
    buf = JUMP_BUFFER if jump else 0
    gems = lv.gems[kind]
    door = lv.door[kind]
    at_door = False
    for _ in range(TICKS):
        if buf > 0:
            if ground:
                vy, ground, buf = -JUMP_V, False, 0
            else:
                buf -= 1
        # collideX
        dx = d * SPEED
        x += dx
        top, bot = floor(y / T), floor((y + CH - 0.01) / T)
        if dx > 0:
            c = floor((x + CW - 0.01) / T)
            for r in range(top, bot + 1):
                if lv.solid(c, r):
                    x = c * T - CW
                    break
        elif dx < 0:
            c = floor(x / T)
            for r in range(top, bot + 1):
                if lv.solid(c, r):
                    x = (c + 1) * T
                    break
        # collideY
        vy = min(MAX_FALL, vy + GRAV)
        y += vy
        left, right = floor(x / T), floor((x + CW - 0.01) / T)
        ground = False
        if vy > 0:
            r = floor((y + CH) / T)
            for c in range(left, right + 1):
                if lv.solid(c, r):
                    y, vy, ground = r * T - CH, 0, True
                    break
        elif vy < 0:
            r = floor(y / T)
            for c in range(left, right + 1):
                if lv.solid(c, r):
                    y, vy = (r + 1) * T, 0
                    break
        if ground:
            r = floor((y + CH) / T)
            a, b = lv.tile(floor((x + 3) / T), r), lv.tile(floor((x + CW - 3) / T), r)
            bad = "V" if kind == "ember" else "L"
            if "G" in (a, b) or bad in (a, b):
                return None, False
        cx, cy = x + CW / 2, y + CH / 2
        for i, (gc, gr) in enumerate(gems):
            if not mask >> i & 1 and abs(gc * T + T / 2 - cx) < CW / 2 + 7 and abs(gr * T + T / 2 - cy) < CH / 2 + 7:
                mask |= 1 << i
        at_door = ground and abs(cx - (door[0] * T + T / 2)) <= 8 and floor((y + CH - 1) / T) == door[1]
    return (x, y, vy, ground, mask), at_door


def plan_twin(lv, kind, want_gems, max_depth=30):
    c, r = lv.start[kind]
    start = (c * T + (T - CW) / 2, (r + 1) * T - CH, 0, True, 0)
    full = (1 << len(lv.gems[kind])) - 1 if want_gems else 0
    seen = {start}
    queue = deque([(start, [])])
    while queue:
        st, path = queue.popleft()
        if len(path) >= max_depth:
            continue
        for inp in INPUTS:
            nxt, at_door = sim_step(lv, kind, st, inp)
            if nxt is None:
                continue
            if at_door and nxt[4] & full == full and nxt[3] and nxt[2] == 0:
                return path + [inp]
            if nxt not in seen:
                seen.add(nxt)
                queue.append((nxt, path + [inp]))
    raise SystemExit(f"no plan for {kind}")


def combine(plan_e, plan_r):
    out = []
    for i in range(max(len(plan_e), len(plan_r))):
        keys = []
        for kind, plan in (("ember", plan_e), ("ripple", plan_r)):
            d, jump = plan[i] if i < len(plan) else (0, False)
            left, right, up = KEYS[kind]
            if jump:
                keys.append(up)
            if d:
                keys.append(right if d > 0 else left)
        out.append({"type": "press_keys", "keys": keys} if keys else {"type": "wait"})
    return out


LEVELS = [Level(rows) for rows in load_levels()]
PLANS = {}


def level_plan(index, want_gems):
    key = (index, want_gems)
    if key not in PLANS:
        lv = LEVELS[index]
        PLANS[key] = combine(plan_twin(lv, "ember", want_gems), plan_twin(lv, "ripple", want_gems))
    return PLANS[key]


class Player:
    """Plays the plan of the level the state shows; re-plans on a new level or a new attempt."""

    def __init__(self, task):
        self.task = task
        slug = task.slug if hasattr(task, "slug") else task["slug"]
        self.want_gems = slug.startswith("gems")
        self.key, self.i = None, 0

    def act(self, env, state, info):
        if state.get("changing_level"):
            return {"type": "wait"}
        if state["level"] != self.key or info.get("reset"):
            self.key, self.i = state["level"], 0
        plan = level_plan(state["level"] - 1, self.want_gems)
        action = plan[self.i] if self.i < len(plan) else {"type": "wait"}
        self.i += 1
        return action


def main():
    """Play every task on its first seed; store the first seed's run as its reference, 100 waits as its null."""
    solvers.write_references(MANIFEST, Player, every_seed=False, only=sys.argv[1:])


if __name__ == "__main__":
    for i in range(len(LEVELS)):
        for g in (False, True):
            p = level_plan(i, g)
            print("level", i + 1, "gems" if g else "fast", len(p))
    main()
