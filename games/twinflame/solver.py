"""Scripted player for twinflame (Twin Flame); writes the reference trajectories into the manifest.

Each attempt builds its levels from the seed, so the player plans from the state: it reads the current
level's map (`level_map`), simulates each twin's
movement with the game's own physics (the same float operations, tick by tick), and searches breadth-first
for the shortest list of one-step inputs that takes the twin (collecting its gems first when the task
counts gems) to its door without touching a deadly pool. The two twins move independently, so one
step presses both twins' keys at once (`press_keys`). It re-plans whenever the state shows a new level
or a new attempt, and waits while the level-clear pause runs.

    .venv/bin/python games/twinflame/solver.py
"""
import heapq
import math
import sys
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
                    self.gems["ember" if ch == "r" else "ripple"].append((c * T + T / 2, r * T + T / 2))
        # one extra row and column of stone, which index 15, 20 and -1 all read (the game reads outside as stone)
        self.solid_grid = [[self.solid(c, r) for c in range(21)] for r in range(16)]
        self.deadly = {kind: [[self.tile(c, r) in bad for c in range(21)] for r in range(16)]
                       for kind, bad in (("ember", "VG"), ("ripple", "LG"))}

    def tile(self, c, r):
        if r < 0 or r >= 15 or c < 0 or c >= 20:
            return "#"
        return self.rows[r][c]

    def solid(self, c, r):
        return self.tile(c, r) in "#LVG"


def floor(v):
    return int(v // 1)


def sim_step(lv, kind, st, inp):
    """One step of one twin from st = (x, y, vy, ground, mask); None if it dies. Mirrors game.js (positions
    are never negative, so int() is Math.floor)."""
    x, y, vy, ground, mask = st
    d, jump = inp
    buf = JUMP_BUFFER if jump else 0
    gems = lv.gems[kind]
    door_cx, door_r = lv.door[kind][0] * T + T / 2, lv.door[kind][1]
    solid = lv.solid_grid
    deadly = lv.deadly[kind]
    at_door = False
    dx = d * SPEED
    for _ in range(TICKS):
        if buf > 0:
            if ground:
                vy, ground, buf = -JUMP_V, False, 0
            else:
                buf -= 1
        # collideX
        x += dx
        top, bot = int(y / T), int((y + CH - 0.01) / T)
        if dx > 0:
            c = int((x + CW - 0.01) / T)
            for r in range(top, bot + 1):
                if solid[r][c]:
                    x = c * T - CW
                    break
        elif dx < 0:
            c = int(x / T)
            for r in range(top, bot + 1):
                if solid[r][c]:
                    x = (c + 1) * T
                    break
        # collideY
        vy = min(MAX_FALL, vy + GRAV)
        y += vy
        left, right = int(x / T), int((x + CW - 0.01) / T)
        ground = False
        if vy > 0:
            r = int((y + CH) / T)
            for c in range(left, right + 1):
                if solid[r][c]:
                    y, vy, ground = r * T - CH, 0, True
                    break
        elif vy < 0:
            r = int(y / T)
            for c in range(left, right + 1):
                if solid[r][c]:
                    y, vy = (r + 1) * T, 0
                    break
        if ground:
            r = int((y + CH) / T)
            if deadly[r][int((x + 3) / T)] or deadly[r][int((x + CW - 3) / T)]:
                return None, False
        cx, cy = x + CW / 2, y + CH / 2
        for i, (gx, gy) in enumerate(gems):
            if not mask >> i & 1 and abs(gx - cx) < CW / 2 + 7 and abs(gy - cy) < CH / 2 + 7:
                mask |= 1 << i
        at_door = ground and abs(cx - door_cx) <= 8 and int((y + CH - 1) / T) == door_r
    return (x, y, vy, ground, mask), at_door


def key(st):
    """States closer than a pixel (and half a px/tick of speed) are one search node: the search stays small."""
    x, y, vy, ground, mask = st
    return round(x), round(y), round(vy * 2), ground, mask


STEP_PX = SPEED * TICKS


def plan_twin(lv, kind, want_gems, max_depth=40):
    """A* over one-step inputs; the bound (horizontal px still to cover over a step's walk) never overestimates,
    so the plan is a shortest one."""
    c, r = lv.start[kind]
    start = (c * T + (T - CW) / 2, (r + 1) * T - CH, 0, True, 0)
    gems = lv.gems[kind] if want_gems else []
    full = (1 << len(gems)) - 1
    door_cx = lv.door[kind][0] * T + T / 2

    def bound(st):
        cx = st[0] + CW / 2
        far = max(abs(door_cx - cx) - 8, 0)
        for i, (gx, gy) in enumerate(gems):
            if not st[4] >> i & 1:
                far = max(far, abs(gx - cx) - (CW / 2 + 7) + abs(door_cx - gx) - 8)
        return math.ceil(far / STEP_PX - 1e-9)

    seen = {key(start): 0}
    heap = [(bound(start), 0, 0, start, ())]
    tie = 1
    while heap:
        _, n, _, st, path = heapq.heappop(heap)
        if n >= max_depth:
            continue
        for inp in INPUTS:
            nxt, at_door = sim_step(lv, kind, st, inp)
            if nxt is None:
                continue
            if at_door and nxt[4] & full == full and nxt[3] and nxt[2] == 0:
                return list(path) + [inp]
            k = key(nxt)
            if seen.get(k, 99) > n + 1:
                seen[k] = n + 1
                heapq.heappush(heap, (n + 1 + bound(nxt), n + 1, tie, nxt, path + (inp,)))
                tie += 1
    raise RuntimeError(f"no plan for {kind}")


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


PLANS = {}


def level_plan(rows, want_gems):
    key = (tuple(rows), want_gems)
    if key not in PLANS:
        lv = Level(rows)
        PLANS[key] = combine(twin_plan(lv, "ember", want_gems), twin_plan(lv, "ripple", want_gems))
    return PLANS[key]


def twin_plan(lv, kind, want_gems):
    """The twin's plan; when its gems cannot all be taken within the search's depth, a deeper search, and failing
    that the way to the door alone."""
    try:
        return plan_twin(lv, kind, want_gems)
    except RuntimeError:
        if not want_gems:
            raise
    try:
        return plan_twin(lv, kind, want_gems, max_depth=70)
    except RuntimeError:
        return plan_twin(lv, kind, False)


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
        key = (state["level"], tuple(state["level_map"]))
        if key != self.key or info.get("reset"):
            self.key, self.i = key, 0
        plan = level_plan(state["level_map"], self.want_gems)
        action = plan[self.i] if self.i < len(plan) else {"type": "wait"}
        self.i += 1
        return action


def main():
    """Play every task on its first seed; store the first seed's run as its reference, 100 waits as its null."""
    solvers.write_references(MANIFEST, Player, every_seed=False, only=sys.argv[1:])


if __name__ == "__main__":
    main()
