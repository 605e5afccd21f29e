"""Scripted player for cratepush: reads the room from the state (`grid`) and plans with a breadth-first search.

The search runs over positions (the worker's cell and the crates' cells), one worker step an edge, and prunes
every push that leaves a crate where it can never reach a spot (the same dead cells and frozen 2x2 blocks the
game ends a run on), so its first solution is a shortest one and never loses. The plan is kept while the game
follows it and made again whenever the state is not the one it expected (a new room, or a step it did not
choose). Run as a script, it writes the tasks' reference and null trajectories and the `tests.fail` run:

    .venv/bin/python games/cratepush/solver.py
"""
import json
import sys
from collections import deque
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from sandbox import make, manifest_json, solvers  # noqa: E402

MANIFEST = Path(__file__).resolve().with_name("manifest.json")
KEYS = ["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight"]


class Room:
    def __init__(self, grid):
        self.H, self.W = len(grid), len(grid[0])
        cells = "".join(grid)
        self.wall = [c == "#" for c in cells]
        self.spot = [c in ".*+" for c in cells]
        self.worker = next(i for i, c in enumerate(cells) if c in "@+")
        self.crates = tuple(sorted(i for i, c in enumerate(cells) if c in "$*"))
        self.steps = [-self.W, self.W, -1, 1]
        self.live = self._live()

    def _live(self):
        n = self.W * self.H
        live = [False] * n
        queue = deque(i for i in range(n) if self.spot[i])
        for i in queue:
            live[i] = True
        while queue:
            q = queue.popleft()
            for s in self.steps:
                a, b = q - s, q - 2 * s
                if 0 <= b < n and 0 <= a < n and not self.wall[a] and not self.wall[b] and not live[a]:
                    live[a] = True
                    queue.append(a)
        return live

    def frozen(self, crates, c):
        W = self.W
        for tl in (c, c - 1, c - W, c - W - 1):
            solid, off = True, False
            for x in (tl, tl + 1, tl + W, tl + W + 1):
                if self.wall[x]:
                    continue
                if x in crates:
                    off = off or not self.spot[x]
                    continue
                solid = False
                break
            if solid and off:
                return True
        return False

    def stuck(self, crates, moved):
        if self.spot[moved]:
            # a crate on a spot can still freeze a neighbour that is off its spot
            return any(self.frozen(crates, c) for c in crates if not self.spot[c])
        return not self.live[moved] or any(self.frozen(crates, c) for c in crates if not self.spot[c])

    def solved(self, crates):
        return all(self.spot[c] for c in crates)

    def plan(self, worker, crates, limit=60):
        """The shortest list of directions (0 up, 1 down, 2 left, 3 right) that solves the room, or None."""
        start = (worker, crates)
        if self.solved(crates):
            return []
        parent = {start: None}
        frontier = [start]
        for _ in range(limit):
            nxt = []
            for pos in frontier:
                w, cs = pos
                for d, s in enumerate(self.steps):
                    nw = w + s
                    if self.wall[nw]:
                        continue
                    ncs = cs
                    if nw in cs:
                        nc = nw + s
                        if self.wall[nc] or nc in cs:
                            continue
                        ncs = tuple(sorted(nc if c == nw else c for c in cs))
                        if self.stuck(ncs, nc):
                            continue
                    new = (nw, ncs)
                    if new in parent:
                        continue
                    parent[new] = (pos, d)
                    if ncs is not cs and self.solved(ncs):
                        path = []
                        while parent[new] is not None:
                            new, d = parent[new]
                            path.append(d)
                        return path[::-1]
                    nxt.append(new)
            frontier = nxt
            if not frontier:
                break
        return None

    def after(self, worker, crates, d):
        s = self.steps[d]
        nw = worker + s
        if self.wall[nw]:
            return worker, crates
        if nw in crates:
            nc = nw + s
            if self.wall[nc] or nc in crates:
                return worker, crates
            crates = tuple(sorted(nc if c == nw else c for c in crates))
        return nw, crates


class Player:
    """One arrow a call: the next step of a shortest solution of the room in the state."""

    def __init__(self, task):
        self.task = task
        self.expect = None   # (grid rows, ) the state the plan expects next
        self.queue = []

    def act(self, env, state, info):
        grid = tuple(state["grid"])
        if self.expect != grid or not self.queue:
            room = Room(grid)
            self.room = room
            path = room.plan(room.worker, room.crates)
            self.queue = path if path else [self._safe(room)]
            self.pos = (room.worker, room.crates)
        d = self.queue.pop(0)
        self.pos = self.room.after(*self.pos, d)
        self.expect = self._render(self.pos) if self.queue else None
        return {"type": "press_key", "key": KEYS[d]}

    def _render(self, pos):
        room, (w, cs) = self.room, pos
        rows = []
        for y in range(room.H):
            r = ""
            for x in range(room.W):
                i = y * room.W + x
                if room.wall[i]:
                    r += "#"
                elif i == w:
                    r += "+" if room.spot[i] else "@"
                elif i in cs:
                    r += "*" if room.spot[i] else "$"
                else:
                    r += "." if room.spot[i] else "-"
            rows.append(r)
        return tuple(rows)

    @staticmethod
    def _safe(room):
        """No solution left: a step that at least does not push a crate somewhere dead."""
        for d in range(4):
            w, cs = room.after(room.worker, room.crates, d)
            if w != room.worker and (cs == room.crates or not any(room.stuck(cs, c) for c in cs)):
                return d
        return 0


def fail_run(manifest):
    """A first attempt that pushes room 1's crate into a dead cell (a plausible careless push), then loses."""
    task_id = f"cratepush/{manifest['tasks'][0]['slug']}"
    for seed in range(1, 50):
        with make(task_id, observation="state") as env:
            state, info = env.reset(seed=seed)
            room = Room(state["grid"])
            # walk (without pushing) next to the crate, then push it towards a dead cell
            c = room.crates[0]
            for d, s in enumerate(room.steps):
                target = c + s
                stand = c - s
                if room.wall[target] or room.wall[stand] or room.live[target] or room.spot[target]:
                    continue
                path = walk(room, room.worker, stand, set(room.crates))
                if path is None:
                    continue
                actions = [{"type": "press_key", "key": KEYS[x]} for x in path + [d]]
                for a in actions:
                    state, info = env.step(a)
                if info["reset"] and len(actions) >= 3:
                    return {"seed": seed, "actions": actions}
                break
    raise SystemExit("no fail run found")


def walk(room, start, goal, blocked):
    parent = {start: None}
    queue = deque([start])
    while queue:
        q = queue.popleft()
        if q == goal:
            path = []
            while parent[q] is not None:
                q, d = parent[q]
                path.append(d)
            return path[::-1]
        for d, s in enumerate(room.steps):
            n = q + s
            if not room.wall[n] and n not in blocked and n not in parent:
                parent[n] = (q, d)
                queue.append(n)
    return None


def main():
    solvers.write_references(MANIFEST, Player, only=sys.argv[1:],
                             report=lambda s: f"crates={s['crates_placed']} rooms={s['levels_solved']}")
    if not sys.argv[1:]:
        manifest = json.loads(MANIFEST.read_text())
        manifest["tests"] = {"fail": fail_run(manifest)}
        manifest_json.write(MANIFEST, manifest)


if __name__ == "__main__":
    main()
