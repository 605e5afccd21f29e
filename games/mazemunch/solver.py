"""Scripted player for mazemunch (Maze Munch); writes the reference trajectories into the manifest.

It reads the maze (`pellet_map`), the muncher (`player_x`, `player_y`, `player_dir`, `player_want`), the ghosts
(position, heading, mode, `release_in`), `power_ticks`, `ghost_exit` and `quarter_left` from the state. Each step:

1. it bounds, for every tile, the earliest tick a dangerous ghost could be there (`ghost_times`);
2. it sets what is worth going for (`Player.objective`): rewards on tiles (pellets; for the quarter task those
   of the quarter it clears, chosen by pellets left and distance; for the ghost tasks the pellets by a power
   pellet until the ghosts come near, then the power pellet, then the blue ghosts) and targets to head for;
3. it searches the keys of the next HORIZON steps (`Player.plan`), simulating the muncher's movement exactly
   (2.5 px a tick; a turn waits for the next opening, the opposite key reverses at once), keeping only plans
   in which the muncher is always MARGIN ticks ahead of any ghost, and scores them by the rewards collected
   (sooner is better) and the distance left to the nearest target; the best plan must also leave a way on
   of ESCAPE tiles clear of the ghosts. With no safe plan it relaxes the margin, then takes the plan that
   keeps the ghosts furthest behind. It presses the best plan's first key.

    .venv/bin/python games/mazemunch/solver.py
"""
import heapq
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from sandbox import solvers  # noqa: E402

MANIFEST = Path(__file__).resolve().with_name("manifest.json")
DX, DY = (0, -1, 0, 1), (-1, 0, 1, 0)
KEYS = ("ArrowUp", "ArrowLeft", "ArrowDown", "ArrowRight")
WAIT = {"type": "wait"}
TILE = 20
STEP_TICKS = 12       # ticks (1/60 s) in a 200 ms step
P_PATTERN = (3, 2)    # px the muncher runs each tick, in turn (2.5 px a tick)
MUNCH = 8             # ticks a tile for the muncher
G_SPEED = 2           # px a chasing ghost runs a tick
GHOST_REACH = 600     # px along a ghost's ways searched
MARGIN = 9            # ticks the muncher must be ahead of any ghost on every tile of its path
SWITCH = 4            # how much cheaper (pellets left + tiles away) another quarter must be to switch to it
NEAR = 8              # tiles from the muncher at which a ghost counts as near (to eat a power pellet)
ESCAPE = 5            # tiles it must still be able to run on safely from a goal
INF = 10 ** 9
FAR = 10 ** 6
HORIZON = 5           # steps of keys searched ahead
BEAM = 120            # plans kept a step
DISCOUNT = 0.9        # a pellet now is worth a little more than one later
REWARD_PX = 600       # px of nearness a pellet is worth


def quad(c, r):
    """The quarter of a tile (0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right); the centre column and
    the pen's row belong to none."""
    return -1 if c == 11 or r == 7 else (1 if c > 11 else 0) + (2 if r > 7 else 0)


def wall(grid, c, r):
    return r < 0 or c < 0 or r >= len(grid) or c >= len(grid[0]) or grid[r][c] == "#"


def segment(x, y, d):
    """The tile centres around a position: (here, None) at a centre, else (behind, ahead, px to ahead)."""
    if (x - 10) % TILE == 0 and (y - 10) % TILE == 0:
        return (x // TILE, y // TILE), None, 0
    bx, by = (x - 10) // TILE, (y - 10) // TILE
    a, b = (bx, by), (bx + (1 if DX[d] else 0), by + (1 if DY[d] else 0))
    ahead, behind = (b, a) if DX[d] > 0 or DY[d] > 0 else (a, b)
    px = abs(ahead[0] * TILE + 10 - x) + abs(ahead[1] * TILE + 10 - y)
    return behind, ahead, px


def ghost_times(grid, state):
    """The earliest tick each tile may hold a dangerous ghost. Ghosts never turn back, so a search over (tile,
    heading) from each ghost bounds where it can be: a penned ghost from its release (out through the door at
    1 px a tick, then heading right, or left for pinky and tumble), a blue one from the end of the power (it
    runs 1 px a tick until then)."""
    times = {}
    power = state["power_ticks"]
    ex, ey = state["ghost_exit"]
    for kind, g in enumerate(state["ghosts"]):
        mode, x, y, d = g["mode"], g["x"], g["y"], g["dir"]
        delay = 0
        if mode in ("pen", "exit"):
            delay = (g["release_in"] if mode == "pen" else 0) + abs(x - (ex * TILE + 10)) + abs(y - (ey * TILE + 10))
            start, heading, px0 = (ex, ey), 1 if kind % 2 else 3, 0
        else:
            here, ahead, px0 = segment(x, y, d)
            start, heading = ahead or here, d
            if ahead is not None:   # the tile it is leaving: never run into a ghost's back
                times[here] = min(times.get(here, INF), power if mode == "scared" else 0)
        scared = mode == "scared"

        def when(px):
            """The tick at which the ghost, px along its way, may be there and dangerous."""
            if not scared:
                return delay + px / G_SPEED
            return power if px <= power else power + (px - power) / G_SPEED

        seen = set()
        heap = [(px0, start, heading)]
        while heap:
            px, tile, hd = heapq.heappop(heap)
            if (tile, hd) in seen:
                continue
            seen.add((tile, hd))
            times[tile] = min(times.get(tile, INF), when(px))
            if px > GHOST_REACH:
                continue
            c, r = tile
            for nd in range(4):
                n = (c + DX[nd], r + DY[nd])
                if nd != (hd + 2) % 4 and not wall(grid, *n) and (n, nd) not in seen:
                    heapq.heappush(heap, (px + TILE, n, nd))
    return times


def search(grid, starts, times, blocked, margin):
    """Earliest arrival ticks of the muncher (MUNCH ticks a tile) from `starts` [(tile, tick)], over tiles it
    reaches `margin` ticks before any ghost could."""
    arrival, heap = {}, []
    for tile, t in starts:
        if times.get(tile, INF) > t + margin and tile not in blocked:
            heapq.heappush(heap, (t, tile))
    while heap:
        t, tile = heapq.heappop(heap)
        if tile in arrival:
            continue
        arrival[tile] = t
        c, r = tile
        for d in range(4):
            n = (c + DX[d], r + DY[d])
            nt = t + MUNCH
            if n in arrival or wall(grid, *n) or n in blocked or times.get(n, INF) <= nt + margin:
                continue
            heapq.heappush(heap, (nt, n))
    return arrival


def step_muncher(grid, x, y, d, want, key):
    """The muncher after one step pressing `key` (None: no key), as the game moves it (2 and 3 px a tick in
    turn; a turn waits for an opening, the opposite key reverses at once): its (x, y, dir, want) and its
    positions px by px (x, y, tick of the step), with its place at each tick's end."""
    if key is not None:
        want = key
        if key == (d + 2) % 4:
            d = key
    out = []
    for tick in range(STEP_TICKS):
        for _ in range(P_PATTERN[tick % len(P_PATTERN)]):
            if (x - 10) % TILE == 0 and (y - 10) % TILE == 0:
                c, r = x // TILE, y // TILE
                if want != d and not wall(grid, c + DX[want], r + DY[want]):
                    d = want
                if wall(grid, c + DX[d], r + DY[d]):
                    break
            x += DX[d]
            y += DY[d]
            out.append((x, y, tick))
        out.append((x, y, tick))
    return (x, y, d, want), out


class Player:
    """One action a call, chosen from the state (never from pixels)."""

    def __init__(self, task):
        self.field = task.score_field if hasattr(task, "score_field") else task["score_field"]
        self.focus = None
        self.bait = None
        self.steps = 0

    # ------------------------------------------------------------------ what to go for
    def objective(self, state, grid, pellets, power, times):
        """(rewards {tile: value}, targets (tiles to head for when no reward is near), blocked tiles (never
        entered), whether the plan must leave a safe way on)."""
        here = (state["player_x"] // TILE, state["player_y"] // TILE)
        if self.field == "ghosts_eaten":
            scared = set()
            for g in state["ghosts"]:
                if g["mode"] == "scared":
                    tile, ahead, _ = segment(g["x"], g["y"], g["dir"])
                    scared |= {tile} | ({ahead} if ahead else set())
            if scared and state["power_ticks"] > 20:
                self.bait = None
                return {t: 3.0 for t in scared}, scared, set(), False
            if power:
                x, y, d = state["player_x"], state["player_y"], state["player_dir"]
                arrival = search(grid, starts_at(x, y, d, 0), times, frozenset(), MARGIN)
                best = min(power, key=lambda t: arrival.get(t, INF))
                if self.bait not in power or arrival.get(best, INF) < arrival.get(self.bait, INF) - SWITCH * MUNCH:
                    self.bait = best   # the power pellet reached soonest clear of the ghosts
                pp = self.bait
                chasers = [g for g in state["ghosts"] if g["mode"] == "chase"]
                around = maze_distances(grid, here, limit=NEAR)
                near = sum(1 for g in chasers if (g["col"], g["row"]) in around)
                if chasers and (near >= min(2, len(chasers)) or near and self.steps > 40 or self.steps > 65):
                    return {pp: 5.0}, {pp}, set(), False
                rewards = {t: 1.0 for t in pellets - power if abs(t[0] - pp[0]) + abs(t[1] - pp[1]) <= 4}
                ring = {t for t, k in maze_distances(grid, pp, limit=2).items() if k == 2}
                return rewards, ring or {pp}, set(power), True
            return {t: 1.0 for t in pellets}, pellets, set(), True
        if self.field == "quarters_cleared":
            left = state["quarter_left"]
            open_quads = [q for q in range(4) if left[q] > 0]
            x, y, d = state["player_x"], state["player_y"], state["player_dir"]
            arrival = search(grid, starts_at(x, y, d, 0), times, frozenset(), MARGIN)

            def cost(q):
                """Pellets left and the ticks to the nearest one reached safely, in tiles."""
                near = min([arrival[t] for t in pellets if quad(*t) == q and t in arrival] + [INF // 2])
                return left[q] * 1.6 + near / MUNCH
            if open_quads:
                best = min(open_quads, key=cost)
                if self.focus not in open_quads or cost(best) < cost(self.focus) - SWITCH:
                    self.focus = best
            else:
                self.focus = None
            rewards, targets = {}, set()
            for t in pellets:
                q = quad(*t)
                if q == self.focus:
                    rewards[t] = 1.0
                    targets.add(t)
                elif q in open_quads:
                    rewards[t] = 0.03
                else:
                    rewards[t] = 0.01
            return rewards, targets or pellets, set(), True
        return {t: 1.0 for t in pellets}, pellets, set(), True

    # ------------------------------------------------------------------ acting
    def act(self, env, state, info):
        self.steps += 1
        if state["dying"] or state["status"] == "terminal":
            return WAIT
        grid = state["pellet_map"]
        x, y, d, want = state["player_x"], state["player_y"], state["player_dir"], state["player_want"]
        times = ghost_times(grid, state)
        pellets = {(c, r) for r, line in enumerate(grid) for c, ch in enumerate(line) if ch in ".o"}
        power = {t for t in pellets if grid[t[1]][t[0]] == "o"}
        rewards, targets, blocked, escape = self.objective(state, grid, pellets, power, times)
        key = None
        for margin, needs_escape in ((MARGIN, escape), (MARGIN, False), (3, False)):
            key = self.plan(grid, (x, y, d, want), times, rewards, targets, blocked, margin, needs_escape)
            if key is not None:
                break
        if key is None:   # nothing is safe: the way that keeps the ghosts furthest behind
            key = self.plan(grid, (x, y, d, want), times, {}, set(), set(), None, False)
        if key is None:
            return WAIT
        return {"type": "press_key", "key": KEYS[key]}

    def plan(self, grid, start, times, rewards, targets, blocked, margin, escape):
        """The first key of the best plan of HORIZON steps: every tick the muncher stays clearly ahead of the
        ghosts (by `margin` ticks; None: the plan keeping the largest lead), never on a blocked tile; best by
        rewards collected, then by nearness to a target at the end."""
        maps = [(t, maze_distances(grid, t, blocked=blocked)) for t in targets if t not in blocked]
        order = {}

        def nearest(tile, eaten):
            """Tiles from a tile to the nearest target not eaten (FAR if it reaches none), None if all are eaten."""
            if tile not in order:
                order[tile] = sorted((m.get(tile, FAR), t) for t, m in maps)
            for k, t in order[tile]:
                if t not in eaten:
                    return k
            return None

        def nearness(x, y, eaten):
            """Px from a position to the nearest target not yet eaten on the way (by the maze)."""
            bx, by = (x - 10) // TILE, (y - 10) // TILE
            a = (bx, by)
            b = (bx + (1 if (x - 10) % TILE else 0), by + (1 if (y - 10) % TILE else 0))
            fa = abs(x - (a[0] * TILE + 10)) + abs(y - (a[1] * TILE + 10))
            fb = abs(x - (b[0] * TILE + 10)) + abs(y - (b[1] * TILE + 10))
            ka = nearest(a, eaten)
            if ka is None:
                return 0
            return min(FAR, ka * TILE + fa, nearest(b, eaten) * TILE + fb)

        def value(item):
            """Sort key of a plan (best first): rewards (as px), less the px left to a target."""
            (x, y, _, _), (gain, _, eaten, _) = item
            return -(gain * REWARD_PX - nearness(x, y, eaten))

        layer = {start: (0.0, None, frozenset(), INF)}
        depth_reached = 0
        for depth in range(HORIZON):
            nxt = {}
            for s, (gain, first, eaten, lead) in layer.items():
                for key in range(4):
                    ns, positions = step_muncher(grid, *s, key)
                    ok, g, e, ld = True, gain, eaten, lead
                    for px, py, i in positions:
                        tick = depth * STEP_TICKS + i + 1
                        tile = (px // TILE, py // TILE)
                        slack = times.get(tile, INF) - tick
                        if margin is not None and slack <= margin:
                            ok = False
                            break
                        ld = min(ld, slack)
                        if (px - 10) % TILE == 0 and (py - 10) % TILE == 0:
                            if tile in blocked:
                                ok = False
                                break
                            if tile in rewards and tile not in e:
                                g += rewards[tile] * (DISCOUNT ** depth)
                                e = e | {tile}
                    if not ok:
                        continue
                    k1 = key if first is None else first
                    old = nxt.get(ns)
                    if old is None or (g, ld) > (old[0], old[3]):
                        nxt[ns] = (g, k1, e, ld)
            if not nxt:
                break
            if len(nxt) > BEAM:
                nxt = dict(sorted(nxt.items(), key=value)[:BEAM])
            layer, depth_reached = nxt, depth + 1
        if depth_reached == 0:
            return None
        if margin is None:
            return max(layer.values(), key=lambda v: (min(v[3], 60), v[0]))[1]
        ranked = sorted(layer.items(), key=value)
        if depth_reached < HORIZON:
            escape = False
        for (sx, sy, sd, sw), (g, k1, e, ld) in ranked[:8]:
            if not escape or self.escapes(grid, sx, sy, sd, depth_reached * STEP_TICKS, times, blocked, margin):
                return k1
        return None

    @staticmethod
    def escapes(grid, x, y, d, t0, times, blocked, margin):
        """Whether from this position (at tick t0) the muncher can still run ESCAPE tiles clear of the ghosts."""
        arrival = search(grid, starts_at(x, y, d, t0), times, blocked, margin)
        return any(v - t0 >= ESCAPE * MUNCH for v in arrival.values())


def starts_at(x, y, d, t0):
    """The tiles the muncher can run to first from a position (ahead, or back by a reversal) and the ticks."""
    here, ahead, px = segment(x, y, d)
    if ahead is None:
        return [(here, t0)]
    return [(ahead, t0 + px / (TILE / MUNCH)), (here, t0 + (TILE - px) / (TILE / MUNCH))]


_DISTANCES = {}   # maze_distances' answers: a maze's walls never change within a game


def maze_distances(grid, start, limit=None, blocked=()):
    """Tiles from a tile by the maze (not through blocked tiles); remembered for the maze's walls (read only)."""
    walls = tuple(line.replace(".", " ").replace("o", " ") for line in grid)
    memo = (walls, start, limit, frozenset(blocked))
    if memo not in _DISTANCES:
        if len(_DISTANCES) > 20000:
            _DISTANCES.clear()
        _DISTANCES[memo] = _maze_distances(grid, start, limit, blocked)
    return _DISTANCES[memo]


def _maze_distances(grid, start, limit, blocked):
    dist = {start: 0}
    frontier = [start]
    k = 0
    while frontier and (limit is None or k < limit):
        k += 1
        nxt = []
        for c, r in frontier:
            for d in range(4):
                n = (c + DX[d], r + DY[d])
                if n not in dist and not wall(grid, *n) and n not in blocked:
                    dist[n] = k
                    nxt.append(n)
        frontier = nxt
    return dist


def main():
    """Play every task on each of its seeds; store the first seed's run as its reference."""
    solvers.write_references(MANIFEST, Player, null_action=None, only=sys.argv[1:])


if __name__ == "__main__":
    main()
