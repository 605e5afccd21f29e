"""Scripted player for Starhold (games/starhold).

It reads the game's state and plans with a model of the game's physics (a port of tick() in game.js, with each
room's seeded tiles read from the state's `tiles` while the astronaut is in it, and remembered): a beam search over the six actions, ranked by the distance to the current
room's goal (the exit towards the core, or the item or door that room holds while it is still needed), that
stops at the first progress event (a new room, an item, the door, the core) and plans again from the new
state. Drones move on their own, so their positions are precomputed tick by tick for the plan's horizon.

    .venv/bin/python games/starhold/solver.py
"""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from sandbox import solvers  # noqa: E402

BUNDLE = Path(__file__).resolve().parent
MANIFEST = BUNDLE / "manifest.json"
GRID_POS = [(0, 0), (1, 0), (1, 1), (2, 1), (3, 1), (4, 1)]

TILE, COLS, ROWS, VIEW_W, PLAY_H = 16, 30, 20, 480, 320
RUN, JUMP_V, GRAV, MAX_FALL = 3, 6, 0.375, 7
PW, PH, DW, DH = 10, 18, 14, 12
JUMP_BUFFER, COYOTE = 6, 5
TICKS = 15  # 250 ms at 60 Hz
SOLID = set("#=BD")

ACTIONS = {"move_right": (False, 1), "jump_right": (True, 1), "wait": (False, 0), "jump": (True, 0),
           "move_left": (False, -1), "jump_left": (True, -1)}


def room_at(gx, gy):
    try:
        return GRID_POS.index((gx, gy))
    except ValueError:
        return -1


def overlap(ax, ay, aw, ah, bx, by, bw, bh):
    return ax < bx + bw and ax + aw > bx and ay < by + bh and ay + ah > by


def drone_track(drones, n):
    """Drone boxes per room for each of the next n ticks (they move before the hero in each tick)."""
    ds = [dict(d) for d in drones]
    out = []
    for _ in range(n):
        per = {}
        for d in ds:
            key = "x" if d["axis"] == "h" else "y"
            v = d[key] + d["dir"]
            if v <= d["a"]:
                v, d["dir"] = d["a"], 1
            elif v >= d["b"]:
                v, d["dir"] = d["b"], -1
            d[key] = v
            per.setdefault(d["room"], []).append((d["x"], d["y"]))
        out.append(per)
    return out


class Sim:
    """The hero as tick() sees it (a plan never loses a pip); step() plays one action of 15 ticks."""

    def __init__(self, state, maps):
        h = state["hero"]
        self.maps = maps   # room -> its 20 rows of tiles, as seen in the state (shared, never changed)
        self.blind = False   # entered a room whose tiles are not known yet: the plan stops there
        self.room = state["room"]
        self.px, self.py, self.vy = h["px"], h["py"], h["vy"]
        self.on_ground, self.jump_buf, self.coyote, self.air_jump = h["on_ground"], h["jump_buf"], h["coyote"], h["air_jump"]
        self.inv = h["inv"]
        self.boots, self.keycard = state["boots"], state["keycard"]
        self.door_open = state["doors"] > 0
        self.visited = tuple(state["visited"])
        self.events = 0
        self.core = False
        self.lost = False
        self.t = 0   # ticks since the plan started (index into the drone track)

    def copy(self):
        other = object.__new__(Sim)
        other.__dict__.update(self.__dict__)
        return other

    def tile(self, c, r):
        if c < 0 or c >= COLS or r < 0 or r >= ROWS:
            return "."
        ch = self.maps[self.room][r][c]
        if ch == "D" and self.door_open:
            return "."
        if ch == "J" and self.boots:
            return "."
        if ch == "K" and self.keycard:
            return "."
        return ch

    def solid(self, c, r):
        return self.tile(c, r) in SOLID

    def step(self, name, track):
        jump, direction = ACTIONS[name]
        if jump:
            self.jump_buf = JUMP_BUFFER
        for _ in range(TICKS):
            if self.lost or self.core or self.blind:
                return self
            self.tick(direction, track)
        return self

    def enter(self, r):
        self.room = r
        if not self.visited[r]:
            v = list(self.visited)
            v[r] = True
            self.visited = tuple(v)
            self.events += 1
        if r not in self.maps:
            self.blind = True

    def tick(self, direction, track):
        drones = track[self.t].get(self.room, ()) if self.t < len(track) else ()
        self.t += 1
        if self.inv > 0:
            self.inv -= 1
        vx = direction * RUN
        if self.jump_buf > 0:
            if self.on_ground or self.coyote > 0:
                self.vy, self.on_ground, self.coyote, self.jump_buf = -JUMP_V, False, 0, 0
                self.air_jump = 1 if self.boots else 0
            elif self.air_jump > 0:
                self.vy, self.air_jump, self.jump_buf = -JUMP_V, 0, 0
            else:
                self.jump_buf -= 1
        self.px += vx
        r0, r1 = int(self.py // TILE), int((self.py + PH - 1) // TILE)
        if vx > 0:
            c = int((self.px + PW - 1) // TILE)
            if any(self.solid(c, r) for r in range(r0, r1 + 1)):
                self.px = c * TILE - PW
        elif vx < 0:
            c = int(self.px // TILE)
            if any(self.solid(c, r) for r in range(r0, r1 + 1)):
                self.px = (c + 1) * TILE
        self.vy = min(self.vy + GRAV, MAX_FALL)
        self.py += self.vy
        c0, c1 = int(self.px // TILE), int((self.px + PW - 1) // TILE)
        self.on_ground = False
        if self.vy > 0:
            r = int((self.py + PH - 0.125) // TILE)
            if any(self.solid(c, r) for c in range(c0, c1 + 1)):
                self.py, self.vy, self.on_ground = r * TILE - PH, 0, True
        elif self.vy < 0:
            r = int(self.py // TILE)
            if any(self.solid(c, r) for c in range(c0, c1 + 1)):
                self.py, self.vy = (r + 1) * TILE, 0
        if self.on_ground:
            self.coyote = COYOTE
            self.air_jump = 1 if self.boots else 0
        else:
            self.coyote = max(0, self.coyote - 1)
        gx, gy = GRID_POS[self.room]
        if self.px + PW / 2 >= VIEW_W:
            nr = room_at(gx + 1, gy)
            if nr >= 0:
                self.px -= VIEW_W
                self.enter(nr)
        elif self.px + PW / 2 < 0:
            nr = room_at(gx - 1, gy)
            if nr >= 0:
                self.px += VIEW_W
                self.enter(nr)
        elif self.py + PH / 2 >= PLAY_H:
            nr = room_at(gx, gy + 1)
            if nr >= 0:
                self.py -= PLAY_H
                self.enter(nr)
        elif self.py + PH / 2 < 0:
            nr = room_at(gx, gy - 1)
            if nr >= 0:
                self.py += PLAY_H
                self.enter(nr)
        if self.blind:
            return
        hazard = False
        r0, r1 = int(self.py // TILE) - 1, int((self.py + PH - 1) // TILE) + 1
        c0, c1 = int(self.px // TILE) - 1, int((self.px + PW - 1) // TILE) + 1
        for r in range(max(0, r0), min(ROWS - 1, r1) + 1):
            for c in range(max(0, c0), min(COLS - 1, c1) + 1):
                ch = self.tile(c, r)
                X, Y = c * TILE, r * TILE
                if ch == "a" and overlap(self.px, self.py, PW, PH, X, Y + 5, TILE, TILE - 5):
                    hazard = True
                elif ch == "^" and overlap(self.px, self.py, PW, PH, X + 2, Y + 7, TILE - 4, TILE - 7):
                    hazard = True
                elif ch == "v" and overlap(self.px, self.py, PW, PH, X + 2, Y, TILE - 4, TILE):
                    hazard = True
                elif ch in "JK" and overlap(self.px, self.py, PW, PH, X + 2, Y + 2, TILE - 4, TILE - 4):
                    if ch == "J":
                        self.boots, self.air_jump = True, 1
                    else:
                        self.keycard = True
                    self.events += 1
                elif ch == "D" and overlap(self.px - 3, self.py, PW + 6, PH, X, Y, TILE, TILE) and self.keycard:
                    self.door_open = True
                    self.events += 1
                elif ch == "Z" and overlap(self.px, self.py, PW, PH, X, Y, TILE, TILE):
                    self.core = True
                    self.events += 1
                    return
        if hazard:
            self.lost = True
            return
        if self.inv == 0:
            for x, y in drones:
                if overlap(self.px, self.py, PW, PH, x + 2, y + 2, DW - 4, DH - 4):
                    self.lost = True
                    return

    def key(self):
        return (self.room, self.px, self.py, self.vy, self.jump_buf, self.coyote, self.air_jump, self.boots,
                self.keycard, self.door_open)


def goal(sim):
    """Where the hero heads in its room (the hero's centre, px)."""
    r = sim.room
    if r == 0:
        return 520, 270
    if r == 1:
        return 12 * TILE + 8, 360
    if r == 2:
        return (3 * TILE + 8, 17 * TILE + 8) if not sim.boots else (520, 200)
    if r == 3:
        return (13 * TILE + 8, 12 * TILE + 8) if not sim.keycard else (520, 270)
    if r == 4:
        return (20 * TILE, 270) if not sim.door_open else (520, 270)
    return 23 * TILE, 17 * TILE


def value(sim):
    gx, gy = goal(sim)
    cx, cy = sim.px + PW / 2, sim.py + PH / 2
    return sim.events * 100000 - ((cx - gx) ** 2 + (cy - gy) ** 2) ** 0.5


def plan(start, drones, width=60, depth=30):
    """Beam search: the first plan that makes a progress event, else the best plan of the last depth."""
    track = drone_track(drones, depth * TICKS + 1)
    beam = [(start, [])]
    best = None
    for _ in range(depth):
        seen, nxt = set(), []
        for sim, actions in beam:
            for name in ACTIONS:
                child = sim.copy().step(name, track)
                if child.lost:
                    continue
                if child.events > 0:
                    return actions + [name]
                k = child.key()
                if k in seen:
                    continue
                seen.add(k)
                nxt.append((child, actions + [name]))
        if not nxt:
            break
        nxt.sort(key=lambda item: -value(item[0]))
        beam = nxt[:width]
        best = beam[0][1]
    if best is None:
        return ["wait"]
    return best[:max(1, len(best) // 2)]


def semantic(name):
    return {"type": "semantic", "name": name}


class Player:
    """The scripted player the baselines use (one action a call, read from the state)."""

    def __init__(self, task, width=60):
        self.task = task
        self.width = width
        self.plan = []
        self.maps = {}

    def act(self, env, state, info):
        if info.get("reset"):
            self.maps = {}
        self.maps[state["room"]] = state["tiles"]
        if info.get("reset") or not self.plan:
            if state["hero"]["dying"] > 0:
                self.plan = []
                return semantic("wait")
            self.plan = plan(Sim(state, self.maps), state["drones"], width=self.width)
        return semantic(self.plan.pop(0))


def main():
    solvers.write_references(MANIFEST, Player, only=sys.argv[1:],
                             report=lambda s: f"rooms={s['rooms']} items={s['items']} doors={s['doors']} "
                                              f"core={s['core']} lives={s['lives']} room={s['room']}")


if __name__ == "__main__":
    main()
