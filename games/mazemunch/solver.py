"""Scripted player for mazemunch (Maze Munch); writes the reference trajectories into the manifest.

Each step it reads the maze (`pellet_map`), the muncher and the ghosts from the state. Tiles near a
chasing ghost are treated as walls; it then finds, by breadth-first search, the nearest tile worth going to
(a pellet of the quarter being cleared, a power pellet when it wants ghosts, a blue ghost while the power
lasts) from the tile the muncher is running into, or from the one behind it (a reversal), and presses the
arrow of the first move. With no safe path it runs to the reachable tile farthest from the ghosts.

    .venv/bin/python games/mazemunch/solver.py
"""
import json
import sys
from collections import deque
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from sandbox import make  # noqa: E402
from sandbox import manifest_json  # noqa: E402

MANIFEST = Path(__file__).resolve().with_name("manifest.json")
DX, DY = (0, -1, 0, 1), (-1, 0, 1, 0)
KEYS = ("ArrowUp", "ArrowLeft", "ArrowDown", "ArrowRight")
WAIT = {"type": "wait"}
TILE = 20
DANGER = 2   # tiles around a chasing ghost that count as walls


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


class Player:
    """One action a call, chosen from the state (never from pixels)."""

    def __init__(self, task):
        self.task = task
        self.slug = task.slug if hasattr(task, "slug") else task["slug"]

    def targets(self, state, grid):
        ghosts_task = self.slug.startswith("ghosts")
        scared = [(g["col"], g["row"]) for g in state["ghosts"] if g["mode"] == "scared"]
        if ghosts_task and scared and state["power_ticks"] > 20:
            return set(scared)
        pellets = {(c, r) for r, line in enumerate(grid) for c, ch in enumerate(line) if ch in ".o"}
        if ghosts_task:
            power = {t for t in pellets if grid[t[1]][t[0]] == "o"}
            if power and not scared:
                return power
        if self.slug.startswith("clear"):
            left = state["quarter_left"]
            open_quads = [q for q in range(4) if left[q] > 0]
            if open_quads:
                focus = min(open_quads, key=lambda q: left[q])
                inside = {t for t in pellets if quad(*t) == focus}
                if inside:
                    return inside
        return pellets

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
        chasers = [(g["col"], g["row"]) for g in state["ghosts"] if g["mode"] in ("chase", "exit")]
        blocked = set()
        for gc in chasers:
            dist, _ = bfs(grid, gc, set())
            blocked |= {t for t, k in dist.items() if k <= DANGER}
        best = None
        pellets = {(c, r) for r, line in enumerate(grid) for c, ch in enumerate(line) if ch in ".o"}
        for goals in (self.targets(state, grid), pellets):   # the goal, else any pellet safely reached
            for start, reverse in ((ahead, False), (behind, True)):
                if start in blocked and start != here:
                    continue
                dist, first = bfs(grid, start, blocked - {start})
                for t in goals:
                    if t in dist and t != here:
                        cost = dist[t] + (1 if reverse and not centred else 0)
                        if best is None or cost < best[0]:
                            best = (cost, start, reverse, first[t])
            if best is not None:
                break
        if best is None:   # no safe way to a goal: run for the tile farthest from every ghost
            gd = [bfs(grid, gc, set())[0] for gc in chasers]
            for start, reverse in ((ahead, False), (behind, True)):
                dist, first = bfs(grid, start, set())
                for t, k in dist.items():
                    if k > 6:
                        continue
                    score = min([g.get(t, 99) for g in gd] or [99]) * 10 - k
                    if best is None or score > best[0]:
                        best = (score, start, reverse, first[t])
        if best is None:
            return WAIT
        _, start, reverse, move = best
        if reverse and not centred:
            return {"type": "press_key", "key": KEYS[(d + 2) % 4]}
        if move is None:
            return WAIT
        return {"type": "press_key", "key": KEYS[move]}


def main():
    """Play every task on each seed; store the first seed's run as the task's reference trajectory."""
    manifest = json.loads(MANIFEST.read_text())
    only = sys.argv[1:]
    for task in manifest["tasks"]:
        if only and task["slug"] not in only:
            continue
        task_id = f"{manifest['slug']}/{task['slug']}"
        for seed in task["seeds"]:
            with make(task_id, observation="state") as env:
                player = Player(env.task)
                state, info = env.reset(seed=seed)
                actions = []
                while not env.done:
                    actions.append(player.act(env, state, info))
                    state, info = env.step(actions[-1])
            print(f"{task_id} seed={seed}: success={info['success']} actions={len(actions)}", flush=True)
            if seed == task["seeds"][0]:
                task["reference"] = {"seed": seed, "actions": actions}
    manifest_json.write(MANIFEST, manifest)


if __name__ == "__main__":
    main()
