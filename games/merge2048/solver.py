"""Scripted players for merge2048; writes the reference trajectories (and tests.fail) into the manifest.

A corner player plays each task through the sandbox, reading the board and the game's drawn target corner
from the state, until the target is reached: it mirrors the board so that the target corner is the
bottom-left one, keeps the biggest tile there (slides that leave it there first), choosing among those by a
depth-2 expectimax (slide, every possible new tile, slide, heuristic), and mirrors the chosen slide back. The `fail` trajectory is
played by an "anti" player that avoids merges until the board locks up.

    .venv/bin/python games/merge2048/solver.py
"""
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from sandbox import make  # noqa: E402
from sandbox import manifest_json  # noqa: E402

MANIFEST = ROOT / "games/merge2048/manifest.json"
KEYS = {"left": "ArrowLeft", "up": "ArrowUp", "right": "ArrowRight", "down": "ArrowDown"}


def lines(direction):
    """Each line's cells, listed from the edge the tiles slide towards (as game.js does)."""
    for i in range(4):
        yield [{"left": (i, j), "right": (i, 3 - j), "up": (j, i), "down": (3 - j, i)}[direction] for j in range(4)]


def slide(board, direction):
    """(new board, points gained) of one slide; the same rules as game.js."""
    out = [[0] * 4 for _ in range(4)]
    gained = 0
    for line in lines(direction):
        tiles = [board[r][c] for r, c in line if board[r][c]]
        k = i = 0
        while i < len(tiles):
            r, c = line[k]
            if i + 1 < len(tiles) and tiles[i] == tiles[i + 1]:
                out[r][c] = 2 * tiles[i]
                gained += 2 * tiles[i]
                i += 2
            else:
                out[r][c] = tiles[i]
                i += 1
            k += 1
    return out, gained


def empties(board):
    return [(r, c) for r in range(4) for c in range(4) if not board[r][c]]


def log2(v):
    return v.bit_length() - 1 if v else 0


def heuristic(board):
    """Empty cells, monotone rows and columns, smooth neighbours, the biggest tile in a corner."""
    L = [[log2(v) for v in row] for row in board]
    cols = [list(c) for c in zip(*L)]
    mono = 0
    for seq in L + cols:
        up = sum(max(0, a - b) for a, b in zip(seq, seq[1:]))
        down = sum(max(0, b - a) for a, b in zip(seq, seq[1:]))
        mono -= min(up, down)
    smooth = -sum(abs(a - b) for seq in L + cols for a, b in zip(seq, seq[1:]) if a and b)
    top = max(map(max, L))
    corner = top if top in (L[0][0], L[0][3], L[3][0], L[3][3]) else 0
    return 2.7 * len(empties(board)) + mono + 0.1 * smooth + corner


def value(board, depth):
    """Best slide's value: heuristic at depth 0, else the mean over every possible new tile."""
    best = None
    for d in KEYS:
        nxt, _ = slide(board, d)
        if nxt == board:
            continue
        v = heuristic(nxt) if depth == 0 else chance(nxt, depth - 1)
        best = v if best is None else max(best, v)
    return heuristic(board) - 1000 if best is None else best


def chance(board, depth):
    cells = empties(board)
    total = 0.0
    for r, c in cells:
        for tile, p in ((2, 0.9), (4, 0.1)):
            board[r][c] = tile
            total += p * value(board, depth)
        board[r][c] = 0
    return total / len(cells)


ANCHORED = 200.0   # the biggest tile in the corner: a streak that breaks is lost whole
STUCK = 150.0      # times the chance that the next new tile leaves no slide that keeps the corner


def keeps_corner(board, nxt):
    return nxt != board and nxt[3][0] == max(map(max, nxt))


def stuck_chance(board):
    """The chance that after the next new tile no slide both changes the board and keeps the biggest tile in
    the bottom-left corner (0 at once when a slide down or left already moves something: those never move it)."""
    if slide(board, "down")[0] != board or slide(board, "left")[0] != board:
        return 0.0
    cells = empties(board)
    if not cells:
        return 1.0
    stuck = 0.0
    for r, c in cells:
        for tile, p in ((2, 0.9), (4, 0.1)):
            board[r][c] = tile
            if not any(keeps_corner(board, slide(board, d)[0]) for d in KEYS):
                stuck += p
        board[r][c] = 0
    return stuck / len(cells)


def corner_heuristic(board):
    """The heuristic above, plus a strong pull towards the biggest tile in the bottom-left corner and the
    bottom row and left column ordered away from it (the corner strategy), less the risk of being forced out
    of the corner by the next new tile."""
    L = [[log2(v) for v in row] for row in board]
    top = max(map(max, L))
    if L[3][0] != top:
        return heuristic(board) - ANCHORED
    edge = sum(L[3][c] * (4 - c) for c in range(4)) * 0.3 + sum(L[r][0] * (r + 1) for r in range(3)) * 0.15
    return heuristic(board) + edge - STUCK * stuck_chance(board)


def corner_chance(board):
    cells = empties(board)
    total = 0.0
    for r, c in cells:
        for tile, p in ((2, 0.9), (4, 0.1)):
            board[r][c] = tile
            best = None
            for d in KEYS:
                nxt, _ = slide(board, d)
                if nxt != board:
                    v = corner_heuristic(nxt)
                    best = v if best is None else max(best, v)
            total += p * (corner_heuristic(board) - 1000 if best is None else best)
        board[r][c] = 0
    return total / len(cells)


def corner_move(board):
    """Keep the biggest tile in the bottom-left corner: among the slides that change the board, those that
    leave the biggest tile there first, then a depth-2 expectimax on the corner heuristic."""
    options = []
    for d in KEYS:
        nxt, _ = slide(board, d)
        if nxt == board:
            continue
        keeps = nxt[3][0] == max(map(max, nxt))
        options.append((keeps, corner_chance(nxt), d))
    return max(options)[2]


# Mirror the board so that a target corner becomes the bottom-left one: (flip rows, flip columns), and the
# slide in mirrored play that stands for each real slide.
FLIPS = {"bottom-left": (False, False), "bottom-right": (False, True), "top-left": (True, False),
         "top-right": (True, True)}


def mirror(board, corner):
    rows, cols = FLIPS[corner]
    out = [list(row) for row in board]
    if rows:
        out = out[::-1]
    if cols:
        out = [row[::-1] for row in out]
    return out


def unmirror_move(direction, corner):
    rows, cols = FLIPS[corner]
    if rows:
        direction = {"up": "down", "down": "up"}.get(direction, direction)
    if cols:
        direction = {"left": "right", "right": "left"}.get(direction, direction)
    return direction


def target_move(state):
    """The corner player's slide for the game's drawn target corner (state["corner"])."""
    corner = state["corner"]
    return unmirror_move(corner_move(mirror(state["board"], corner)), corner)


def expectimax_move(board):
    options = [(chance(nxt, 0), d) for d in KEYS if (nxt := slide(board, d)[0]) != board]
    return max(options)[1]


def anti_move(board):
    """The changing slide with the fewest points, then the fewest equal neighbours expected after the spawn."""
    def pairs(b):
        return sum(b[r][c] and b[r][c] == b[r2][c2] for r in range(4) for c in range(4)
                   for r2, c2 in ((r, c + 1), (r + 1, c)) if r2 < 4 and c2 < 4)

    def cost(d):
        nxt, gained = slide(board, d)
        cells = empties(nxt)
        expected = 0.0
        for r, c in cells:
            for tile, p in ((2, 0.9), (4, 0.1)):
                nxt[r][c] = tile
                expected += p * pairs(nxt)
            nxt[r][c] = 0
        return gained, expected / max(1, len(cells)), -len(cells)

    return min((d for d in KEYS if slide(board, d)[0] != board), key=cost)


def play(task_id, seed, policy, stop):
    """Play one run (`policy(state)` gives a slide); return (actions, last info, state trace). `stop(info)`
    ends it early."""
    actions = []
    with make(task_id, observation="state") as env:
        state, info = env.reset(seed=seed)
        while not env.done:
            action = {"type": "press_key", "key": KEYS[policy(state)]}
            state, info = env.step(action)
            actions.append(action)
            if stop(info):
                break
        return actions, info, list(env.trace)


def reaches_a_target(manifest, states):
    return any(state[t["score_field"]] >= t["target"] for t in manifest["tasks"] for state in states)


class Player:
    """The scripted player the baselines use (one action a call, read from the state): the corner player."""

    def __init__(self, task):
        self.task = task

    def act(self, env, state, info):
        return {"type": "press_key", "key": KEYS[target_move(state)]}


def main():
    manifest = json.loads(MANIFEST.read_text())
    for task in manifest["tasks"]:
        task_id = f"merge2048/{task['slug']}"
        for seed in task["seeds"]:
            actions, info, _ = play(task_id, seed, target_move, lambda info: False)
            print(f"{task_id} seed={seed}: success={info['success']} actions={len(actions)} "
                  f"corner_streak={info['state']['corner_streak']} max_tile={info['state']['max_tile']}")
            if info["success"]:
                task["reference"] = {"seed": seed, "actions": actions}
                break
        else:
            raise SystemExit(f"{task_id}: the scripted player did not reach the target on any seed")
    # tests.fail: a first attempt that ends in a loss (the sandbox then resets the game) before reaching
    # any task's target, so that it tests reset-on-fail whichever task it is replayed on.
    for seed in range(1, 100):
        actions, info, trace = play(f"merge2048/{manifest['tasks'][0]['slug']}", seed,
                                    lambda state: anti_move(state["board"]),
                                    lambda info: info["reset"])
        first = [r["state"] for r in trace if r["attempt"] == 1]
        if info["reset"] and not reaches_a_target(manifest, first):
            print(f"tests.fail: seed={seed}, lost after {len(actions)} actions")
            manifest["tests"] = {"fail": {"seed": seed, "actions": actions}}
            break
    else:
        raise SystemExit("the anti player found no quick loss")
    manifest_json.write(MANIFEST, manifest)


if __name__ == "__main__":
    main()
