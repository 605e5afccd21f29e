"""Scripted player for mazemunch (Maze Munch); writes the reference trajectories into the manifest.

Each step it reads the maze (`pellet_map`), the muncher and the ghosts from the state. Tiles near a
chasing ghost are treated as walls; it then finds, by breadth-first search, the nearest tile worth going to
(a pellet of the quarter being cleared, a power pellet when it wants ghosts, a blue ghost while the power
lasts) from the tile the muncher is running into, or from the one behind it (a reversal), and presses the
arrow of the first move. With no safe path it runs to the reachable tile farthest from the ghosts.

    .venv/bin/python games/mazemunch/solver.py
"""
import sys
from collections import deque
from pathlib import Path

RATIO = 2.5 / 2.0   # muncher speed / ghost speed
MARGIN = 1.5
SWITCH = True
ESCAPE = 5           # tiles the muncher must still be able to run on safely from where it goes
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from sandbox import solvers  # noqa: E402

MANIFEST = Path(__file__).resolve().with_name("manifest.json")
DX, DY = (0, -1, 0, 1), (-1, 0, 1, 0)
KEYS = ("ArrowUp", "ArrowLeft", "ArrowDown", "ArrowRight")
WAIT = {"type": "wait"}
TILE = 20
THREAT = 5   # a chasing ghost this many tiles away makes a power pellet worth eating
AHEAD = 3    # tiles ahead of a chasing ghost that count as walls


def quad(c, r):
    return -1 if c == 11 else (1 if c > 11 else 0) + (2 if r > 7 else 0)


def bfs(grid, start, blocked):
    """Distances and first moves from start over open tiles not in blocked."""
    dist, first = {start: 0}, {start: None}
    queue = deque([start])
    while queue:
        c, r = queue.popleft()
        for d in range(4):
            n = (c + DX[d], r + DY[d])
            if n in dist or grid[n[1]][n[0]] == "#" or n in blocked:
                continue
            dist[n] = dist[(c, r)] + 1
            first[n] = d if first[(c, r)] is None else first[(c, r)]
            queue.append(n)
    return dist, first


def danger(grid, ghost):
    """Tiles a chasing ghost may reach soon: its own and neighbouring tiles, and AHEAD tiles along the
    ways it can go without reversing (ghosts never turn back)."""
    c, r = ghost["col"], ghost["row"]
    out = {(c, r)}
    for d in range(4):
        if grid[r + DY[d]][c + DX[d]] != "#":
            out.add((c + DX[d], r + DY[d]))
    frontier = [((c, r), ghost["dir"])]
    for _ in range(AHEAD):
        nxt = []
        for (tc, tr), td in frontier:
            for d in range(4):
                if d == (td + 2) % 4:
                    continue
                n = (tc + DX[d], tr + DY[d])
                if grid[n[1]][n[0]] != "#":
                    out.add(n)
                    nxt.append((n, d))
        frontier = nxt
    return out


def ghost_times(grid, ghosts, power_ticks):
    """For each tile, the fewest tiles a chasing ghost needs to reach it (ghosts never turn back)."""
    times = {}
    for g in ghosts:
        mode = g["mode"]
        if mode == "scared" and power_ticks >= 45 or mode == "pen":
            continue
        if mode == "exit":
            frontier, base = [((11, 7), d) for d in range(4)], 2
        else:
            frontier, base = [((g["col"], g["row"]), g["dir"])], 0
        seen = {}
        for (t, d) in frontier:
            seen[(t, d)] = base
        k = base
        while frontier and k < 40:
            for (t, d) in frontier:
                times[t] = min(times.get(t, 99), k)
            nxt = []
            for (t, d) in frontier:
                for nd in range(4):
                    if nd == (d + 2) % 4 and k > base:
                        continue
                    n = (t[0] + DX[nd], t[1] + DY[nd])
                    if grid[n[1]][n[0]] == "#" or (n, nd) in seen:
                        continue
                    seen[(n, nd)] = k + 1
                    nxt.append((n, nd))
            frontier, k = nxt, k + 1
    return times


def safe_bfs(grid, start, start_cost, times, blocked, MARGIN=MARGIN):
    """Like bfs, but a tile is entered only if the muncher gets there clearly before any ghost."""
    if times.get(start, 99) * RATIO - MARGIN <= start_cost:
        return {}, {}
    dist, first = {start: start_cost}, {start: None}
    queue = deque([start])
    while queue:
        c, r = queue.popleft()
        for d in range(4):
            n = (c + DX[d], r + DY[d])
            k = dist[(c, r)] + 1
            if n in dist or grid[n[1]][n[0]] == "#" or n in blocked or times.get(n, 99) * RATIO - MARGIN <= k:
                continue
            dist[n] = k
            first[n] = d if first[(c, r)] is None else first[(c, r)]
            queue.append(n)
    return dist, first


class RiskySet(frozenset):
    """Goals worth a smaller lead over the ghosts (a lost life costs little when clearing the maze)."""


class Player:
    """One action a call, chosen from the state (never from pixels)."""

    def __init__(self, task):
        self.task = task
        self.goal = None
        self.focus = None
        self.used = None
        self.slug = task.slug if hasattr(task, "slug") else task["slug"]

    def goal_sets(self, state, grid, pellets, threatened):
        """What to go for, best first; each a set of tiles."""
        power = {t for t in pellets if grid[t[1]][t[0]] == "o"}
        scared = {(g["col"], g["row"]) for g in state["ghosts"] if g["mode"] == "scared"}
        sets = []
        if self.slug.startswith("ghosts"):
            if scared and state["power_ticks"] > 20:
                sets.append(scared)
            elif threatened and power:
                sets.append(power)
            sets.append(pellets - power)
            return sets + [power]
        if threatened and power and state["power_ticks"] == 0:
            sets.append(power)
        if self.slug.startswith("clear"):
            left = state["quarter_left"]
            if self.focus is None or left[self.focus] == 0:
                open_quads = [q for q in range(4) if left[q] > 0]
                self.focus = min(open_quads, key=lambda q: left[q]) if open_quads else None
            for q in sorted((q for q in range(4) if left[q] > 0), key=lambda q: (q != self.focus, left[q])):
                sets.append({t for t in pellets if quad(*t) == q})
                if q == self.focus:
                    if state["power_ticks"] == 0 and power:
                        sets.append(power)   # the quarter is out of reach: a power pellet clears the way
                    sets.append(RiskySet(sets[-2] if sets[-1] is power else sets[-1]))
        return sets + [pellets]

    def act(self, env, state, info):
        if state["dying"] or state["status"] == "terminal":
            return WAIT
        grid = state["pellet_map"]
        x, y, d = state["player_x"], state["player_y"], state["player_dir"]
        here = (x // TILE, y // TILE)
        centred = (x - 10) % TILE == 0 and (y - 10) % TILE == 0
        if centred:
            ahead, behind = here, here
        else:
            ox, oy = (x - 10) / TILE, (y - 10) / TILE
            fwd = (int(ox) + (1 if DX[d] > 0 else 0), int(oy) + (1 if DY[d] > 0 else 0))
            back = (int(ox) + (1 if DX[d] < 0 else 0), int(oy) + (1 if DY[d] < 0 else 0))
            ahead, behind = fwd, back
            rev = (d + 2) % 4                           # after a reversal the muncher runs on past `back`
            beyond = (back[0] + DX[rev], back[1] + DY[rev])
            if grid[beyond[1]][beyond[0]] != "#":
                behind = beyond
        # the ahead option may not turn back (that key would be a reversal); the reversal option may not
        # turn forward again at once
        no_back = {} if centred else {ahead: {back}, behind: {back} if behind != back else {fwd}}
        chasers = [(g["col"], g["row"]) for g in state["ghosts"] if g["mode"] == "chase"]
        blocked = set()
        times = ghost_times(grid, state["ghosts"], state["power_ticks"])
        best = None
        pellets = {(c, r) for r, line in enumerate(grid) for c, ch in enumerate(line) if ch in ".o"}
        power = {t for t in pellets if grid[t[1]][t[0]] == "o"}
        near = bfs(grid, here, set())[0]
        threatened = any(near.get(gc, 99) <= THREAT for gc in chasers)
        focus_left = {t for t in pellets if self.focus is not None and quad(*t) == self.focus}
        if not threatened and state["power_ticks"] == 0 and not (focus_left and focus_left <= power):
            blocked |= power        # save the power pellets for when a ghost comes close
        sets = self.goal_sets(state, grid, pellets, threatened)
        kept = self.goal if self.goal in sets[0] and self.goal not in blocked else None
        choices = ([{kept}] if kept else []) + sets
        starts = [(ahead, False), (behind, True)]
        trees, free_trees, risky_trees = {}, {}, {}
        for start, reverse in starts:
            cost0 = 2 if reverse and not centred else (0 if centred else 1)
            trees[start] = safe_bfs(grid, start, cost0, times, (blocked - {start}) | no_back.get(start, set()))
            free_trees[start] = safe_bfs(grid, start, cost0, times, (blocked - power) | no_back.get(start, set()))
            risky_trees[start] = safe_bfs(grid, start, cost0, times, blocked | no_back.get(start, set()), MARGIN=0.3)

        def escapes(t, k, came):
            dist, _ = safe_bfs(grid, t, k, times, blocked | {came} if came else blocked)
            return any(v - k >= ESCAPE for v in dist.values())

        def search(goals):
            cands = []
            for start, reverse in starts:
                risky = isinstance(goals, RiskySet)
                dist, first = (risky_trees if risky else free_trees if goals <= power else trees)[start]
                for t in goals:
                    if t in dist and t != here:
                        cands.append((dist[t], not reverse, start, reverse, first[t], t))
            cands.sort(key=lambda c: (c[0], not c[1]))
            for k, _, start, reverse, move, t in cands[:12]:
                if isinstance(goals, RiskySet) or escapes(t, k, None):
                    return (k, start, reverse, move, t)
            return None

        for i, goals in enumerate(choices):   # the pellet aimed at, else the goals in order
            best = search(goals)
            if best is not None:
                self.used = i - (1 if kept else 0)
                if SWITCH and self.slug.startswith("clear") and not isinstance(goals, RiskySet) \
                        and not goals <= power and goals is not choices[-1] and quad(*best[4]) >= 0:
                    self.focus = quad(*best[4])   # the quarter it can work on safely becomes the one to clear
                break
        self.goal = best[4] if best is not None and best[4] in pellets else None
        if best is None:   # nothing worth it is safe: run where the ghosts are furthest behind
            for start, reverse in starts:
                dist, first = safe_bfs(grid, start, 2 if reverse and not centred else (0 if centred else 1),
                                       times, no_back.get(start, set()), MARGIN=0)
                for t, k in dist.items():
                    score = min(times.get(t, 99) * RATIO - k, 8) * 10 + k
                    if t != here and (best is None or score > best[0]):
                        best = (score, start, reverse, first[t], t)
        if best is None:
            return WAIT
        _, start, reverse, move, _ = best
        if reverse and not centred:
            return {"type": "press_key", "key": KEYS[(d + 2) % 4]}
        if move is None:
            return WAIT
        return {"type": "press_key", "key": KEYS[move]}


def main():
    """Play every task on each of its seeds; store the first seed's run as its reference."""
    solvers.write_references(MANIFEST, Player, null_action=None, only=sys.argv[1:])


if __name__ == "__main__":
    main()
