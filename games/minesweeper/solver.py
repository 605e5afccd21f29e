"""Scripted player for Mine Sweep: plays every task through the sandbox and writes the reference, null and
fail trajectories into the game's manifest.

It reads only what a player sees (the `board` strings: '#' hidden, '0'-'8' numbers) and never the mines.
Each move: enumerate every mine layout of the frontier consistent with the numbers (component by
component, weighted by the ways to place the remaining mines in the unconstrained cells), reveal a cell
that is safe in every layout, or, when none is, the cell least likely to hold a mine.

    .venv/bin/python games/minesweeper/solver.py
"""
import json
import sys
from math import comb
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from sandbox import make  # noqa: E402
from sandbox import manifest_json  # noqa: E402

MANIFEST = ROOT / "games/minesweeper/manifest.json"
COLS = ROWS = 9
MINES = 10
SEED = 1


def neighbours(c, r):
    return [(c + dc, r + dr) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
            if (dc or dr) and 0 <= c + dc < COLS and 0 <= r + dr < ROWS]


def mine_probabilities(board):
    """{hidden cell: (ways it holds a mine, total ways)} over all layouts consistent with the board."""
    hidden = {(c, r) for r in range(ROWS) for c in range(COLS) if board[r][c] in "#F"}
    constraints = []  # (cells, mines among them)
    for r in range(ROWS):
        for c in range(COLS):
            if board[r][c].isdigit():
                cells = [n for n in neighbours(c, r) if n in hidden]
                if cells:
                    constraints.append((cells, int(board[r][c])))
    frontier = {cell for cells, _ in constraints for cell in cells}
    interior = sorted(hidden - frontier)

    # Split the frontier into independent components (cells linked by a shared constraint).
    comps, seen = [], set()
    for start in sorted(frontier):
        if start in seen:
            continue
        comp, todo = [], [start]
        seen.add(start)
        while todo:
            cell = todo.pop()
            comp.append(cell)
            for cells, _ in constraints:
                if cell in cells:
                    for other in cells:
                        if other not in seen:
                            seen.add(other)
                            todo.append(other)
        comps.append(comp)

    # For each component: layouts by mine count k -> (number of layouts, per-cell mine counts).
    dists = []
    for comp in comps:
        index = {cell: i for i, cell in enumerate(comp)}
        cons = [([index[c] for c in cells], n) for cells, n in constraints if cells[0] in index]
        of_cell = [[j for j, (cells, _) in enumerate(cons) if i in cells] for i in range(len(comp))]
        need = [n for _, n in cons]
        free = [len(cells) for cells, _ in cons]
        assign, dist = [0] * len(comp), {}

        def search(i, mines):
            if i == len(comp):
                entry = dist.setdefault(mines, [0, [0] * len(comp)])
                entry[0] += 1
                for j, v in enumerate(assign):
                    entry[1][j] += v
                return
            for v in (0, 1):
                ok = True
                for j in of_cell[i]:
                    need[j] -= v
                    free[j] -= 1
                    if need[j] < 0 or need[j] > free[j]:
                        ok = False
                if ok and mines + v <= MINES:
                    assign[i] = v
                    search(i + 1, mines + v)
                for j in of_cell[i]:
                    need[j] += v
                    free[j] += 1

        search(0, 0)
        dists.append(dist)

    def convolve(parts):
        total = {0: 1}
        for dist in parts:
            nxt = {}
            for a, wa in total.items():
                for k, (count, _) in dist.items():
                    nxt[a + k] = nxt.get(a + k, 0) + wa * count
            total = nxt
        return total

    rest = lambda k: comb(len(interior), MINES - k) if 0 <= MINES - k <= len(interior) else 0  # noqa: E731
    everything = convolve(dists)
    total = sum(w * rest(k) for k, w in everything.items())
    probs = {}
    for ci, (comp, dist) in enumerate(zip(comps, dists)):
        others = convolve(dists[:ci] + dists[ci + 1:])
        for j, cell in enumerate(comp):
            probs[cell] = (sum(per[j] * wo * rest(k + ko) for k, (_, per) in dist.items()
                               for ko, wo in others.items()), total)
    if interior:
        mines_inside = sum(w * rest(k) * (MINES - k) for k, w in everything.items())
        for cell in interior:
            probs[cell] = (mines_inside, total * len(interior))
    return probs


def choose(board):
    """The next cell to reveal: a sure-safe one if any, else the least likely mine."""
    if all(ch == "#" for row in board for ch in row):
        return 4, 4
    probs = mine_probabilities(board)
    p = {cell: num / den for cell, (num, den) in probs.items()}

    def openness(cell):  # prefer cells whose neighbours are all likely safe: they may open a 0 area
        score = 1.0
        for n in neighbours(*cell):
            if n in p:
                score *= 1 - p[n]
        return score

    return min(p, key=lambda cell: (probs[cell][0] != 0, p[cell], -openness(cell), cell[1], cell[0]))


def reveal(cell):
    return {"type": "semantic", "name": "reveal", "args": {"col": cell[0], "row": cell[1]}}


def play(task_id, seed=SEED):
    """Play until the target is reached or the budget is spent; return (actions, info)."""
    actions = []
    with make(task_id, observation="state") as env:
        state, info = env.reset(seed=seed)
        while not env.done:
            action = reveal(choose(state["board"]))
            actions.append(action)
            state, info = env.step(action)
            if info["reset"]:
                print(f"  {task_id}: board lost at action {len(actions)}; attempt {info['attempt']}")
    return actions, info


def replay(task_id, actions, seed=SEED):
    with make(task_id, observation="state") as env:
        _, info = env.reset(seed=seed)
        for action in actions:
            if env.done:
                break
            _, info = env.step(action)
            if info["reset"]:
                return info, True
    return info, False


def fail_trajectory(task_id):
    """Open the board, then reveal the cell most likely to hold a mine until one goes off."""
    actions = [reveal((4, 4))]
    with make(task_id, observation="state") as env:
        state, _ = env.reset(seed=SEED)
        state, info = env.step(actions[0])
        while True:
            probs = mine_probabilities(state["board"])
            cell = max(probs, key=lambda c: (probs[c][0] / probs[c][1], -c[1], -c[0]))
            actions.append(reveal(cell))
            state, info = env.step(actions[-1])
            if info["reset"]:
                return actions


class Player:
    """The scripted player the baselines use (one action a call, read from the state): mine probabilities."""

    def __init__(self, task):
        self.task = task

    def act(self, env, state, info):
        return reveal(choose(state["board"]))


def main():
    manifest = json.loads(MANIFEST.read_text())
    for task in manifest["tasks"]:
        task_id = f"minesweeper/{task['slug']}"
        null = [{"type": "press_key", "key": "KeyF"}] * task["max_actions"]
        actions, info = play(task_id)
        assert info["success"], f"{task_id}: the solver did not reach {task['target']}"
        null_info, _ = replay(task_id, null)
        assert not null_info["success"], f"{task_id}: the null trajectory reaches the target"
        task["reference"] = {"seed": SEED, "actions": actions}
        task["null"] = {"seed": SEED, "actions": null}
        print(f"{task_id}: target {task['target']} reached in {len(actions)} actions "
              f"(attempt {info['attempt']}); null best progress {null_info['progress']:.2f}")
    fail = fail_trajectory(f"minesweeper/{manifest['tasks'][-1]['slug']}")
    manifest["tests"]["fail"] = {"seed": SEED, "actions": fail}
    print(f"tests.fail: first board lost after {len(fail)} actions")
    manifest_json.write(MANIFEST, manifest)


if __name__ == "__main__":
    main()
