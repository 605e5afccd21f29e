"""Scripted player for Bounce Box (games/bouncebox).

It reads the game's state and plans with a model of the game's physics (a line-by-line port of tick() in
game.js, on the room as the state gives it: `tiles`, mirrored or built from the seed): a beam search over
the semantic actions, ranked by a route of hand-placed waypoints through each fixed room (mirrored with
it; the portal last; in the stars task, the room's star first where it is on the way), or the star and
the portal in the warm-up rooms built from the seed. A plan ends when the cube enters the portal (the next room's spiked balls
start where Math.random puts them) and is made again from the new state.

    .venv/bin/python games/bouncebox/solver.py
"""
import json
import math
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from sandbox import solvers  # noqa: E402

MANIFEST = Path(__file__).resolve().with_name("manifest.json")
SOURCE = (Path(__file__).resolve().parent / "game.js").read_text()
ROOMS = json.loads(re.search(r"/\*ROOMS-BEGIN\*/(.*?)/\*ROOMS-END\*/", SOURCE, re.S).group(1))

TILE, COLS, ROWS, WORLD_H = 16, 30, 20, 320
RUN, JUMP_V, GRAV, MAX_FALL = 4, 7.5, 0.5, 9
CW = CH = 14
JUMP_BUFFER, COYOTE = 6, 5
TICKS = 12  # 200 ms at 60 Hz
SPIKE_BOX = {"^": (2, 7, 12, 9), "v": (2, 0, 12, 9), ">": (0, 2, 9, 12), "<": (7, 2, 9, 12)}
SOLID = "#="

ACTIONS = {"move_right": (False, 1), "jump_right": (True, 1), "wait": (False, 0), "jump": (True, 0),
           "move_left": (False, -1), "jump_left": (True, -1)}

# Waypoints (tile col, row of the cube's centre) on the way to each room's portal, by room name; STAR_WAY
# adds the room's star where the route passes near it.
WAY = {
    "First Hop": [(26, 17)],
    "Stairs": [(9, 15), (16, 15), (21, 14), (26, 17)],
    "Spring Wall": [(11, 12), (14, 11), (26, 17)],
    "Open Floor": [(26, 17)],
    "Pillars": [(6, 15), (12, 14), (18, 13), (23, 15), (27, 17)],
    "Sweeper": [(27, 17)],
    "High Road": [(5, 10), (9, 10), (21, 10), (27, 17)],
    "Chimney": [(8, 10), (12, 11), (19, 8), (27, 5)],
    "Springboard": [(5, 10), (13, 13), (18, 12), (24, 11), (27, 11)],
    "Gauntlet": [(27, 17)],
    "Zigzag": [(9, 10), (15, 10), (8, 7), (5, 2), (12, 3), (15, 3)],
    "Last Leap": [(9, 14), (15, 14), (19, 6), (26, 7)],
}
STAR_WAY = {
    "First Hop": [(11, 15), (26, 17)],
    "Stairs": [(9, 15), (16, 15), (21, 12), (26, 17)],
    "Spring Wall": [(12, 10), (14, 11), (26, 17)],
    "Open Floor": [(17, 14), (26, 17)],
    "Pillars": [(6, 15), (12, 14), (19, 10), (23, 15), (27, 17)],
    "Sweeper": [(12, 13), (27, 17)],
    "High Road": [(5, 10), (9, 10), (17, 7), (21, 10), (27, 17)],
    "Chimney": [(9, 14), (8, 10), (12, 11), (19, 8), (27, 5)],
    "Springboard": [(9, 9), (13, 13), (18, 12), (24, 11), (27, 11)],
    "Gauntlet": [(20, 13), (27, 17)],
}


def overlap(ax, ay, aw, ah, bx, by, bw, bh):
    return ax < bx + bw and ax + aw > bx and ay < by + bh and ay + ah > by


class Sim:
    """One room of the game as tick() sees it; step() plays one action (12 ticks)."""

    def __init__(self, state, route):
        c = state["cube"]
        self.grid = [list(row) for row in state["tiles"]]
        for r in range(ROWS):
            for col in range(COLS):
                ch = self.grid[r][col]
                if ch in "SP*":
                    self.grid[r][col] = "."
        for col, r in state["stars_left"]:
            self.grid[r][col] = "*"
        self.portal = (state["portal_x"] - 8, state["portal_y"])
        self.taken = frozenset()
        self.px, self.py, self.vy = c["px"], c["py"], c["vy"]
        self.on_ground, self.jump_buf, self.coyote = c["on_ground"], c["jump_buf"], c["coyote"]
        self.dying = c["dying"]
        self.pad_v = c["pad_v"]
        self.movers = tuple((m["x"] if m["ax"] == "x" else m["y"], m["dir"]) for m in state["movers"])
        self.mover_spec = tuple((m["ax"], m["a"], m["b"], m["sp"], m["y"] if m["ax"] == "x" else m["x"])
                                for m in state["movers"])
        self.stars = state["stars"]
        self.dead = False
        self.cleared = False
        self.route = route
        self.way = 0
        self.advance_way()

    def copy(self):
        other = object.__new__(Sim)
        other.__dict__.update(self.__dict__)
        return other

    def tile(self, c, r):
        if c < 0 or c >= COLS or r < 0:
            return "#"
        if r >= ROWS:
            return "."
        if (c, r) in self.taken:
            return "."
        return self.grid[r][c]

    def step(self, name):
        jump, direction = ACTIONS[name]
        if jump and self.dying == 0:
            self.jump_buf = JUMP_BUFFER
        for _ in range(TICKS):
            if self.dead or self.cleared:
                return self
            self.tick(direction)
        self.advance_way()
        return self

    def advance_way(self):
        cx, cy = self.px + CW / 2, self.py + CH / 2
        while self.way < len(self.route) - 1:
            wc, wr = self.route[self.way]
            if self.grid[wr][wc] == "*":   # a star: taken, or gone already
                done = (wc, wr) in self.taken
            else:
                done = abs(cx - (wc * TILE + 8)) <= 16 and abs(cy - (wr * TILE + 8)) <= 16
            if done:
                self.way += 1
            else:
                break

    def tick(self, direction):
        movers = []
        for (pos, d), (_, a, b, sp, _) in zip(self.movers, self.mover_spec):
            pos += d * sp
            if pos <= a:
                pos, d = a, 1
            elif pos >= b:
                pos, d = b, -1
            movers.append((pos, d))
        self.movers = tuple(movers)
        if self.dying > 0:
            self.dead = True
            return
        vx = direction * RUN
        if self.jump_buf > 0:
            if self.on_ground or self.coyote > 0:
                self.vy, self.on_ground, self.coyote, self.jump_buf = -JUMP_V, False, 0, 0
            else:
                self.jump_buf -= 1
        self.px += vx
        r0, r1 = math.floor(self.py / TILE), math.floor((self.py + CH - 1) / TILE)
        if vx > 0:
            c = math.floor((self.px + CW - 1) / TILE)
            if any(self.tile(c, r) in SOLID for r in range(r0, r1 + 1)):
                self.px = c * TILE - CW
        elif vx < 0:
            c = math.floor(self.px / TILE)
            if any(self.tile(c, r) in SOLID for r in range(r0, r1 + 1)):
                self.px = (c + 1) * TILE
        self.vy = min(self.vy + GRAV, MAX_FALL)
        self.py += self.vy
        c0, c1 = math.floor(self.px / TILE), math.floor((self.px + CW - 1) / TILE)
        self.on_ground = False
        if self.vy > 0:
            r = math.floor((self.py + CH - 0.125) / TILE)
            hit, pad = False, False
            for c in range(c0, c1 + 1):
                ch = self.tile(c, r)
                if ch in SOLID:
                    hit = True
                    if ch == "=":
                        pad = True
            if hit:
                self.py = r * TILE - CH
                if pad:
                    self.vy, self.jump_buf, self.coyote = -self.pad_v, 0, 0
                else:
                    self.vy, self.on_ground = 0, True
        elif self.vy < 0:
            r = math.floor(self.py / TILE)
            if any(self.tile(c, r) in SOLID for c in range(c0, c1 + 1)):
                self.py, self.vy = (r + 1) * TILE, 0
        self.coyote = COYOTE if self.on_ground else max(0, self.coyote - 1)
        r0, r1 = math.floor(self.py / TILE), math.floor((self.py + CH - 1) / TILE)
        c0, c1 = math.floor(self.px / TILE), math.floor((self.px + CW - 1) / TILE)
        for r in range(r0, r1 + 1):
            for c in range(c0, c1 + 1):
                t = self.tile(c, r)
                if t == "*" and overlap(self.px, self.py, CW, CH, c * TILE + 2, r * TILE + 2, 12, 12):
                    self.taken = self.taken | {(c, r)}
                    self.stars += 1
                elif t in SPIKE_BOX:
                    bx = SPIKE_BOX[t]
                    if overlap(self.px, self.py, CW, CH, c * TILE + bx[0], r * TILE + bx[1], bx[2], bx[3]):
                        self.dead = True
                        return
        for (pos, _), (ax, _, _, _, fixed) in zip(self.movers, self.mover_spec):
            x, y = (pos, fixed) if ax == "x" else (fixed, pos)
            if overlap(self.px, self.py, CW, CH, x + 3, y + 3, 10, 10):
                self.dead = True
                return
        if self.py > WORLD_H:
            self.dead = True
            return
        pc, pr = self.portal
        if overlap(self.px, self.py, CW, CH, pc + 2, pr - 14, 12, 30):
            self.cleared = True

    def stars_done(self):
        return all((c, r) in self.taken for c, r in self.route if self.grid[r][c] == "*")

    def key(self):
        return (self.px, self.py, self.vy, self.jump_buf, self.coyote, self.on_ground, self.taken, self.way)

    def value(self):
        if self.cleared:
            return 1e9
        wc, wr = self.route[self.way]
        cx, cy = self.px + CW / 2, self.py + CH / 2
        dist = abs(cx - (wc * TILE + 8)) + abs(cy - (wr * TILE + 8))
        return self.way * 10000 + self.stars * 100000 - dist


def plan(start, width, depth):
    """Beam search: the first plan that enters the portal, else the best partial plan."""
    beam = [(start, [])]
    best = None
    for _ in range(depth):
        seen, nxt = set(), []
        for sim, actions in beam:
            for name in ACTIONS:
                child = sim.copy().step(name)
                if child.dead:
                    continue
                if child.cleared:
                    if child.stars_done():
                        return actions + [name]
                    continue   # through the portal before the route's star: not this way
                k = child.key()
                if k in seen:
                    continue
                seen.add(k)
                nxt.append((child, actions + [name]))
        if not nxt:
            break
        nxt.sort(key=lambda item: -item[0].value())
        beam = nxt[:width]
        best = beam[0][1]
    return best


def room_route(state, stars):
    """The waypoints through the current room: hand-placed for the fixed rooms (mirrored with the room), the
    star (in the stars task) and the portal for the rooms built from the seed."""
    room = ROOMS[state["room_id"]]
    portal = ((state["portal_x"] - 8) // TILE, state["portal_y"] // TILE)
    if room.get("gen"):
        return ([tuple(state["stars_left"][0])] if stars and state["stars_left"] else []) + [portal]
    name = room["name"]
    route = STAR_WAY.get(name, WAY[name]) if stars and state["stars_left"] else WAY[name]
    if state.get("mirrored"):
        route = [(COLS - 1 - c, r) for c, r in route]
    return route


def semantic(name):
    return {"type": "semantic", "name": name}


class Player:
    """The scripted player the baselines use (one action a call, read from the state)."""

    def __init__(self, task, width=150):
        self.task = task
        self.width = width
        self.plan = []
        self.room = None

    def act(self, env, state, info):
        if state["cube"]["dying"] > 0:
            self.plan = []
            return semantic("wait")
        key = (state["room"], state["deaths"])
        if info.get("reset") or not self.plan or key != self.room:
            self.room = key
            route = room_route(state, "star" in getattr(self.task, "slug", ""))
            used = getattr(env, "actions_used", 0)
            self.plan = plan(Sim(state, route), self.width, max(1, min(40, 100 - used))) or ["wait"]
        return semantic(self.plan.pop(0))


def main():
    solvers.write_references(MANIFEST, Player, only=sys.argv[1:],
                             report=lambda s: f"rooms={s['rooms_cleared']} stars={s['stars']} deaths={s['deaths']}")


if __name__ == "__main__":
    main()
