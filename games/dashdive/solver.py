"""Scripted player for Dash & Dive (games/dashdive).

It reads the game's state and plans with a model of the game's physics (a line-by-line port of tick() in
game.js, with the levels read from game.js itself): a beam search over the eight semantic actions, ranked
by the tile distance (through open air) from the hero to the level's coin (when the task wants coins) and
then to its exit door. A plan ends at the next level's start and is made again from the new state.

    .venv/bin/python games/dashdive/solver.py
"""
import json
import re
import sys
from collections import deque
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from sandbox import solvers  # noqa: E402

MANIFEST = Path(__file__).resolve().with_name("manifest.json")
SOURCE = (Path(__file__).resolve().parent / "game.js").read_text()
ROWS_ALL = re.findall(r'^\s+"([ #^vSDc]{30})"[,\]]', SOURCE, re.M)
PLATS_ALL = [json.loads(m) for m in re.findall(r"plats: (\[.*?\]), rows", SOURCE)]
PARS = [int(m) for m in re.findall(r"par: (\d+), plats", SOURCE)]
NLEV = len(PLATS_ALL)
assert len(ROWS_ALL) == 20 * NLEV, len(ROWS_ALL)
LEVELS = [ROWS_ALL[i * 20:(i + 1) * 20] for i in range(NLEV)]

TILE, COLS, ROWS, S, W = 16, 30, 20, 16, 480
PW, PH, PH_LOW = 10, 22, 12
RUN, FRICTION, OVER_DECAY = 48, 12, 2
AIR_ACC, AIR_DRAG, AIR_OVER = 6, 2, 1
GRAV, MAX_FALL, JUMP_V, WALL_SLIDE = 6, 128, 108, 32
WJ_VX, WJ_V, WALL_LOCK = 48, 104, 8
SLIDE_V, SLIDE_MIN, SLIDE_T = 64, 40, 12
DIVE_VX, DIVE_VY = 96, 24
JUMP_BUFFER, COYOTE = 8, 5
TICKS_PER_STEP = 12  # 200 ms at 60 Hz

# semantic action: (jump pressed, direction held, Down pressed)
ACTIONS = {"run_right": (False, 1, False), "jump_right": (True, 1, False), "slide": (False, 0, True),
           "jump": (True, 0, False), "wait": (False, 0, False), "run_left": (False, -1, False),
           "jump_left": (True, -1, False), "dive": (False, 0, True)}
PLAN_ACTIONS = ("run_right", "jump_right", "slide", "jump", "wait", "run_left", "jump_left")


def sign(v):
    return (v > 0) - (v < 0)


def approach(v, target, step):
    if v < target:
        return min(v + step, target)
    if v > target:
        return max(v - step, target)
    return v


class Level:
    def __init__(self, lid, coin, mirrored=False):
        self.lid = lid
        rows = [row[::-1] for row in LEVELS[lid]] if mirrored else LEVELS[lid]
        self.grid = [list(r.replace("S", " ").replace("D", " ").replace("c", " ")) for r in rows]
        self.start = self.door = None
        for r in range(ROWS):
            for c in range(COLS):
                if rows[r][c] == "S":
                    self.start = (c, r)
                elif rows[r][c] == "D":
                    self.door = (c, r)
        self.coin = tuple(coin) if coin else None
        self.plats = []
        self.par = PARS[lid]
        self.dist_cache = {}

    def tile(self, c, r):
        if c < 0 or c >= COLS:
            return "#"
        if r < 0 or r >= ROWS:
            return " "
        return self.grid[r][c]

    def solid_in(self, x, y, w, h, spikes_block):
        c0, c1, r0, r1 = x >> 8, (x + w - 1) >> 8, y >> 8, (y + h - 1) >> 8
        for r in range(r0, r1 + 1):
            for c in range(c0, c1 + 1):
                t = self.tile(c, r)
                if t == "#" or (spikes_block and t == "v"):
                    return True
        return False

    def distances(self, goal):
        """Tile steps from every open tile to the goal tile, moving through air: sideways and down always, up
        only into a tile a jump could reach (at most 4 tiles above a wall top, or beside a wall)."""
        if goal in self.dist_cache:
            return self.dist_cache[goal]

        def open_(c, r):
            return 0 <= c < COLS and 0 <= r < ROWS and self.grid[r][c] == " "

        def supported(c, r):
            if any(self.tile(c, r + k) in "#^" for k in range(1, 6)):
                return True
            for p in self.plats:   # the sweep of a moving platform (and a jump above it)
                lo_x, hi_x = min(p.x0, p.x1) // S, max(p.x0, p.x1) // S + p.w
                lo_y, hi_y = min(p.y0, p.y1) // S - 64, max(p.y0, p.y1) // S
                if lo_x <= c * TILE + 8 < hi_x and lo_y <= r * TILE + 8 < hi_y:
                    return True
            # inside a chimney: walls on both sides at most 5 tiles apart (wall-jumps climb it)
            for rr in range(r, r + 4):   # (or a jump's height above a chimney's top)
                left = next((k for k in range(1, 7) if self.tile(c - k, rr) == "#"), None)
                right = next((k for k in range(1, 7) if self.tile(c + k, rr) == "#"), None)
                if left is not None and right is not None and left + right <= 6:
                    return True
            return False

        dist = {goal: 0}
        q = deque([goal])
        while q:
            c, r = q.popleft()
            for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                u = (c + dc, r + dr)          # a tile from which one move reaches (c, r)
                if not open_(*u) or u in dist:
                    continue
                if dr == 1 and not supported(c, r):   # u is below: the move u -> (c, r) goes up
                    continue
                dist[u] = dist[(c, r)] + 1
                q.append(u)
        self.dist_cache[goal] = dist
        return dist


class Plat:
    __slots__ = ("x0", "y0", "x1", "y1", "w", "sp", "ph")

    def __init__(self, spec, ph):
        self.x0, self.y0, self.x1, self.y1 = spec[0] * S, spec[1] * S, spec[2] * S, spec[3] * S
        self.w, self.sp, self.ph = spec[4], spec[5], ph

    def pos(self, t):
        length = max(abs(self.x1 - self.x0), abs(self.y1 - self.y0))
        u = (self.ph * S + t * self.sp) % (2 * length)
        d = u if u < length else 2 * length - u
        return self.x0 + sign(self.x1 - self.x0) * d, self.y0 + sign(self.y1 - self.y0) * d


class Sim:
    """One level's play as tick() sees it (one life: the plan never dies)."""
    FIELDS = ("px", "py", "vx", "vy", "face", "ground", "low", "sliding", "diving", "dived", "slide_t",
              "wall_lock", "jump_buf", "coyote", "plat")

    def __init__(self, state, level):
        h = state["hero"]
        self.level = level
        self.px, self.py, self.vx, self.vy, self.face = h["px"], h["py"], h["vx"], h["vy"], h["face"]
        self.ground, self.low, self.sliding, self.diving, self.dived = \
            h["ground"], h["low"], h["sliding"], h["diving"], h["dived"]
        self.slide_t, self.wall_lock, self.jump_buf, self.coyote, self.plat = \
            h["slide_t"], h["wall_lock"], h["jump_buf"], h["coyote"], h["plat"]
        self.down_press = h["down_press"]
        self.lt = state["level_ticks"]
        self.coin_taken = state["coin"] is None
        self.coins = state["coins"]
        self.lost = False
        self.advanced = False
        self.wall = 0

    def copy(self):
        other = object.__new__(Sim)
        other.__dict__.update(self.__dict__)
        return other

    def hgt(self):
        return (PH_LOW if self.low else PH) * S

    def move_x(self, dx):
        L, hh, nx = self.level, self.hgt(), self.px + dx
        if dx > 0 and L.solid_in(nx, self.py, PW * S, hh, False):
            self.px = (((nx + PW * S - 1) >> 8) << 8) - PW * S
            return True
        if dx < 0 and L.solid_in(nx, self.py, PW * S, hh, False):
            self.px = ((nx >> 8) + 1) << 8
            return True
        self.px = nx
        return False

    def touching(self, side):
        if side < 0:
            return self.level.solid_in(self.px - 1, self.py, 1, self.hgt(), False)
        return self.level.solid_in(self.px + PW * S, self.py, 1, self.hgt(), False)

    def step(self, name):
        jump, direction, down = ACTIONS[name]
        if down:
            self.down_press = True
        if jump:
            self.jump_buf = JUMP_BUFFER
        for _ in range(TICKS_PER_STEP):
            self.tick(direction, down)
            if self.lost or self.advanced:
                return self
        return self

    def tick(self, d, down_held):
        L = self.level
        self.lt += 1
        plats = []
        for p in L.plats:
            ax, ay = p.pos(self.lt - 1)
            bx, by = p.pos(self.lt)
            plats.append((bx, by, bx - ax, by - ay, p.w))
        if self.plat >= 0:
            px_, py_, pdx, pdy, pw = plats[self.plat]
            self.move_x(pdx)
            self.py = py_ - self.hgt()
        if d and not self.sliding and not self.diving and self.wall_lock == 0:
            self.face = d
        if self.down_press:
            self.down_press = False
            if self.ground:
                if not self.sliding:
                    if not self.low:
                        self.low = True
                        self.py += (PH - PH_LOW) * S
                    self.sliding = True
                    self.slide_t = SLIDE_T
                    self.vx = self.face * max(abs(self.vx), SLIDE_V)
                    if sign(self.vx) != self.face:
                        self.vx = self.face * SLIDE_V
            elif not self.dived:
                if not self.low:
                    self.low = True
                    self.py += (PH - PH_LOW) // 2 * S
                self.diving = self.dived = True
                self.sliding = False
                self.wall_lock = 0
                self.vx = self.face * DIVE_VX
                self.vy = max(self.vy, DIVE_VY)
        if self.jump_buf > 0:
            wl, wr = self.touching(-1), self.touching(1)
            if self.ground or self.coyote > 0:
                self.vy, self.ground, self.coyote, self.jump_buf, self.sliding, self.plat = -JUMP_V, False, 0, 0, False, -1
            elif wl or wr:
                away = -1 if wr else 1
                self.vx, self.vy, self.face, self.wall_lock, self.jump_buf = away * WJ_VX, -WJ_V, away, WALL_LOCK, 0
                self.diving = self.dived = False
            else:
                self.jump_buf -= 1
        if self.sliding:
            if abs(self.vx) > SLIDE_MIN:
                self.vx -= sign(self.vx)
            if self.slide_t > 0:
                self.slide_t -= 1
        elif self.diving:
            pass
        elif self.wall_lock > 0:
            self.wall_lock -= 1
        elif self.ground:
            if d:
                self.vx = d * RUN if self.vx * d < RUN else approach(self.vx, d * RUN, OVER_DECAY)
            else:
                self.vx = approach(self.vx, 0, FRICTION)
        else:
            if d:
                self.vx = approach(self.vx, d * RUN, AIR_ACC) if self.vx * d < RUN else approach(self.vx, d * RUN, AIR_OVER)
            else:
                self.vx = approach(self.vx, 0, AIR_DRAG)
        if self.move_x(self.vx):
            self.diving = False
            self.vx = 0
        self.wall = 0
        if not self.ground and d and self.touching(d):
            self.wall = d
        self.vy = min(self.vy + GRAV, MAX_FALL)
        if self.wall and self.vy > WALL_SLIDE and not self.diving:
            self.vy = WALL_SLIDE
        hh = self.hgt()
        old_bottom = self.py + hh
        ny = self.py + self.vy
        was_ground = self.ground
        self.ground = False
        self.plat = -1
        if self.vy > 0:
            if L.solid_in(self.px, ny, PW * S, hh, False):
                ny = (((ny + hh - 1) >> 8) << 8) - hh
                self.vy = 0
                self.ground = True
            else:
                for i, (bx, by, pdx, pdy, pw) in enumerate(plats):
                    if self.px < bx + pw * S and self.px + PW * S > bx and old_bottom <= max(by - pdy, by) and ny + hh >= by:
                        ny = by - hh
                        self.vy = 0
                        self.ground = True
                        self.plat = i
                        break
        elif self.vy < 0:
            if L.solid_in(self.px, ny, PW * S, hh, False):
                ny = ((ny >> 8) + 1) << 8
                self.vy = 0
        self.py = ny
        if self.ground:
            self.coyote = COYOTE
            self.dived = False
            if self.diving:
                self.diving = False
                self.sliding = True
                self.slide_t = SLIDE_T
        else:
            self.coyote = max(0, self.coyote - 1)
            self.sliding = False
        if self.sliding and self.slide_t == 0 and not down_held:
            if not L.solid_in(self.px, self.py - (PH - PH_LOW) * S, PW * S, PH * S, True):
                self.sliding = False
                self.low = False
                self.py -= (PH - PH_LOW) * S
            elif self.vx == 0:
                self.vx = self.face * SLIDE_MIN
        elif self.low and not self.sliding and not self.diving:
            grow = (PH - PH_LOW) * S if self.ground else (PH - PH_LOW) // 2 * S
            if not L.solid_in(self.px, self.py - grow, PW * S, PH * S, True):
                self.low = False
                self.py -= grow
        hh = self.hgt()
        x0 = self.px >> 4
        y0 = self.py >> 4
        x1, y1 = x0 + PW, y0 + (hh >> 4)
        for r in range(y0 >> 4, ((y1 - 1) >> 4) + 1):
            for c in range(x0 >> 4, ((x1 - 1) >> 4) + 1):
                t, bx, by = L.tile(c, r), c * TILE, r * TILE
                if (t == "^" and x0 < bx + 14 and x1 > bx + 2 and y1 > by + 7) or \
                        (t == "v" and x0 < bx + 14 and x1 > bx + 2 and y0 < by + 12):
                    self.lost = True
                    return
        if y0 > ROWS * TILE:
            self.lost = True
            return
        if L.coin and not self.coin_taken:
            cx, cy = L.coin[0] * TILE, L.coin[1] * TILE
            if x0 < cx + 14 and x1 > cx + 2 and y0 < cy + 14 and y1 > cy + 2:
                self.coin_taken = True
                self.coins += 1
        dx, dy = L.door[0] * TILE, L.door[1] * TILE
        if x0 < dx + 12 and x1 > dx + 4 and y0 < dy + 16 and y1 > dy - 8:
            self.advanced = True

    def key(self):
        return (self.px >> 3, self.py >> 3, self.vx, self.vy, self.ground, self.low, self.sliding, self.diving,
                self.dived, self.wall_lock, self.plat, self.coin_taken, self.lt if self.level.plats else 0)


def mirror_plat(spec):
    """A platform of a level mirrored left to right, as loadLevel() in game.js places it."""
    x0, y0, x1, y1, width, speed = spec
    return [W - width - x0, y0, W - width - x1, y1, width, speed]


def make_level(state):
    mirrored = state["mirrored"]
    level = Level(state["level_id"], state["coin"], mirrored)
    level.plats = [Plat(mirror_plat(spec) if mirrored else spec, p["ph"])
                   for spec, p in zip(PLATS_ALL[state["level_id"]], state["platforms"])]
    return level


def value(sim, want_coin):
    L = sim.level
    c = (sim.px >> 4) + PW // 2
    c = c >> 4
    r = ((sim.py >> 4) + (sim.hgt() >> 4) - 1) >> 4
    r2 = (sim.py >> 4) >> 4
    score = 0
    if want_coin and L.coin and not sim.coin_taken:
        dist = L.distances(L.coin)
    else:
        dist = L.distances(L.door)
        score += 500 if want_coin else 0
    d = min(dist.get((c, r), 99), dist.get((c, r2), 99))
    return score - d * 10 + (5 if sim.ground else 0)


_CACHE = {}


def plan(state, want_coin, width=60, depth=40):
    level = make_level(state)
    start = Sim(state, level)
    ckey = (state["level_id"], state["mirrored"], tuple(state["coin"] or ()), tuple(p["ph"] for p in state["platforms"]),
            want_coin, tuple(sorted(state["hero"].items())), state["level_ticks"])
    if ckey in _CACHE:
        return list(_CACHE[ckey])
    beam = [(start, [])]
    best = ["wait"]
    for _ in range(depth):
        seen, nxt = set(), []
        for sim, actions in beam:
            for name in PLAN_ACTIONS:
                child = sim.copy().step(name)
                if child.lost:
                    continue
                if child.advanced and (not want_coin or child.coin_taken or not level.coin):
                    _CACHE[ckey] = actions + [name]
                    return actions + [name]
                if child.advanced:
                    continue
                k = child.key()
                if k in seen:
                    continue
                seen.add(k)
                nxt.append((child, actions + [name]))
        if not nxt:
            break
        nxt.sort(key=lambda item: -value(item[0], want_coin))
        beam = nxt[:width]
        best = beam[0][1]
    _CACHE[ckey] = best
    return list(best)


def semantic(name):
    return {"type": "semantic", "name": name}


class Player:
    """The scripted player the baselines use (one action a call, read from the state)."""

    def __init__(self, task):
        self.task = task
        self.want_coin = getattr(task, "score_field", "") == "coins"
        self.plan = []
        self.level_key = None

    def act(self, env, state, info):
        key = (state["level"], state["lives"], state["deaths"])
        if info.get("reset") or not self.plan or key != self.level_key:
            self.level_key = key
            if state["hero"]["dying"] > 0:
                self.plan = []
                return semantic("wait")
            self.plan = plan(state, self.want_coin)
        return semantic(self.plan.pop(0))


def main():
    solvers.write_references(MANIFEST, Player, only=sys.argv[1:],
                             report=lambda s: f"cleared={s['levels_cleared']} coins={s['coins']} "
                                              f"par={s['par_clears']} deaths={s['deaths']}")


if __name__ == "__main__":
    main()
