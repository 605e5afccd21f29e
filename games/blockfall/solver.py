"""Scripted player for blockfall: reads the game's state and plays well; `calibrate` and the baselines run it.

A classic placement search: for the falling piece, every orientation and column it can reach from where it
is (turns first, with the game's wall kicks, then slides, then a hard drop) is dropped on a copy of the
board, the rows it fills are cleared, and the result is scored on lines, holes, height, bumpiness and the
keys it costs; the best placement after the next piece's best answer (one piece of look-ahead) is chosen,
and its key sequence is played one key a step (the plan is re-made whenever the piece is not where it
should be). For the DOUBLE and TRIPLE tasks the player keeps the right-most column empty as a well and stacks the
other nine clean (`well_value`: the El-Tetris player's features on those columns, and the rows ready for an
upright I) until one piece can fill that many rows at once; it looks at the placements of the piece and the next
one together.

    .venv/bin/python games/blockfall/solver.py
"""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from sandbox import solvers  # noqa: E402

MANIFEST = Path(__file__).resolve().with_name("manifest.json")
COLS, ROWS = 10, 20
SHAPES = {
    "I": (4, [(0, 1), (1, 1), (2, 1), (3, 1)]),
    "O": (4, [(1, 0), (2, 0), (1, 1), (2, 1)]),
    "T": (3, [(1, 0), (0, 1), (1, 1), (2, 1)]),
    "S": (3, [(1, 0), (2, 0), (0, 1), (1, 1)]),
    "Z": (3, [(0, 0), (1, 0), (1, 1), (2, 1)]),
    "J": (3, [(0, 0), (0, 1), (1, 1), (2, 1)]),
    "L": (3, [(2, 0), (0, 1), (1, 1), (2, 1)]),
}
KICKS = [(0, 0), (-1, 0), (1, 0), (-2, 0), (2, 0), (0, -1)]
KEY = {"left": "ArrowLeft", "right": "ArrowRight", "cw": "ArrowUp", "ccw": "KeyZ", "drop": "Space"}


def _rotations():
    out = {}
    for k, (n, cells) in SHAPES.items():
        states = [cells]
        for _ in range(3):
            states.append(cells if k == "O" else [(n - 1 - y, x) for x, y in states[-1]])
        out[k] = states
    return out


ROT = _rotations()


def fits(board, kind, rot, x, y):
    for cx, cy in ROT[kind][rot]:
        cx += x
        cy += y
        if cx < 0 or cx >= COLS or cy >= ROWS:
            return False
        if cy >= 0 and board[cy][cx]:
            return False
    return True


def rotate(board, kind, rot, x, y, d):
    nr = (rot + d) % 4
    for kx, ky in KICKS:
        if fits(board, kind, nr, x + kx, y + ky):
            return nr, x + kx, y + ky
    return None


def place(board, kind, rot, x, y):
    """Drop and lock; (new board, lines cleared) or None when a cell locks above the top."""
    while fits(board, kind, rot, x, y + 1):
        y += 1
    new = [row[:] for row in board]
    for cx, cy in ROT[kind][rot]:
        if cy + y < 0:
            return None
        new[cy + y][cx + x] = 1
    kept = [row for row in new if not all(row)]
    cleared = ROWS - len(kept)
    return [[0] * COLS for _ in range(cleared)] + kept, cleared


def placements(board, kind, rot, x, y):
    """Every (keys, final rot, final x) reachable: turns first (cw, cw cw, ccw), then slides."""
    out = []
    seen = set()
    for turns in ([], ["cw"], ["cw", "cw"], ["ccw"]):
        r, px, py = rot, x, y
        ok = True
        for t in turns:
            res = rotate(board, kind, r, px, py, 1 if t == "cw" else -1)
            if res is None:
                ok = False
                break
            r, px, py = res
        if not ok:
            continue
        for direction, dx in (("left", -1), ("right", 1)):
            keys, cx = list(turns), px
            while True:
                if (r, cx) not in seen:
                    seen.add((r, cx))
                    out.append((keys + ["drop"], r, cx, py))
                if not fits(board, kind, r, cx + dx, py):
                    break
                cx += dx
                keys = keys + [direction]
    return out


def features(board):
    heights = []
    holes = 0
    for x in range(COLS):
        h = 0
        for y in range(ROWS):
            if board[y][x]:
                h = ROWS - y
                break
        heights.append(h)
        top = ROWS - h
        holes += sum(1 for y in range(top, ROWS) if not board[y][x])
    return heights, holes


def evaluate(board, cleared, cost, cost_weight=1.0):
    """Aggregate height, holes and bumpiness (weights after the well-known tuned linear player), lines, keys."""
    heights, holes = features(board)
    bump = sum(abs(a - b) for a, b in zip(heights, heights[1:]))
    score = -5.1 * sum(heights) - 6.0 * holes - 1.8 * bump + 7.6 * cleared
    return score - cost_weight * cost


# weights of the well player: the El-Tetris features, the rows ready for the well, a smaller clear, a key
W_LAND, W_ROWT, W_COLT, W_HOLE, W_WELLS, W_READY, W_CLEAR, W_KEY = 4.5, 3.2, 9.3, 7.9, 3.4, 30.0, 15.0, 1.0


def well_value(board, cleared, need, keys, land, well=COLS - 1):
    """How good a board is on the way to clearing `need` rows with one piece dropped into the well column:
    the features of the El-Tetris player (landing height, row and column transitions, holes, wells) on the
    columns but the well, the rows ready (full but for the well, where an upright I would land) and the keys
    spent to get here (`land`: the row the last piece landed on, 0 at the bottom). A clear of `need` rows or
    more wins outright; a smaller clear wastes ready rows."""
    if cleared >= need:
        return 1e6 - keys
    body = [x for x in range(COLS) if x != well]
    row_t = 0
    for y in range(ROWS):
        row = board[y]
        prev = 1
        for x in body:
            if row[x] != prev:
                row_t += 1
            prev = row[x]
        if prev == 0:
            row_t += 1
    col_t = holes = 0
    heights = []
    for x in range(COLS):
        prev, roof, h = 0, False, 0
        for y in range(ROWS):
            c = board[y][x]
            if c != prev:
                col_t += 1
            prev = c
            if c:
                if not roof:
                    h = ROWS - y
                roof = True
            elif roof:
                holes += 1
        if not prev:
            col_t += 1
        heights.append(h)
    wells = 0
    for i, x in enumerate(body):
        left = heights[body[i - 1]] if i > 0 else ROWS
        right = heights[body[i + 1]] if i + 1 < len(body) else ROWS
        depth = min(left, right) - heights[x]
        if depth > 0:
            wells += depth * (depth + 1) // 2
    floor = ROWS - heights[well]          # the well's bottom: an upright I lands on the rows above it
    ready = sum(1 for y in range(max(0, floor - 4), floor) if all(board[y][x] for x in body))
    score = (-W_LAND * land - W_ROWT * row_t - W_COLT * col_t - W_HOLE * holes - W_WELLS * wells
             + W_READY * min(ready, need) - W_CLEAR * cleared)
    if max(heights) > 14:
        score -= 500.0
    return score - W_KEY * keys


def landing(board, kind, rot, x, y):
    """The row (counted from the bottom) of the lowest cell of the piece dropped from (x, y)."""
    while fits(board, kind, rot, x, y + 1):
        y += 1
    return ROWS - 1 - max(y + cy for _, cy in ROT[kind][rot])


class Player:
    """One action a call, chosen from the state (never from pixels)."""

    def __init__(self, task):
        self.task = task
        slug = getattr(task, "slug", "") or ""
        # multi-row tasks: keep the right-most column as a well until a piece can clear this many rows
        self.well = {"double": 2, "triple": 3, "quad": 4}.get(slug, 0)
        self.cost = 1.0   # score given up for each key a placement costs
        self.plan = None      # (pieces placed when planned, keys left, expected (rot, x) before each key)

    def choose(self, state):
        board = [[1 if c != "." else 0 for c in row] for row in state["board"]]
        kind, rot, x, y = state["piece"], state["rotation"], state["piece_x"], state["piece_y"]
        nxt = state["next"]
        if self.well:
            return self.choose_well(board, kind, rot, x, y, nxt)
        best = None
        for keys, r, px, py in placements(board, kind, rot, x, y):
            res = place(board, kind, r, px, py)
            if res is None:
                continue
            b1, c1 = res
            s1 = evaluate(b1, c1, len(keys), self.cost)
            # one piece of look-ahead: the next piece's best answer from its spawn
            sy = -1 if nxt == "I" else 0
            if fits(b1, nxt, 0, 3, sy):
                follow = max((evaluate(*res2, len(k2), self.cost)
                              for k2, r2, x2, y2 in placements(b1, nxt, 0, 3, sy)
                              if (res2 := place(b1, nxt, r2, x2, y2)) is not None), default=-1e6)
            else:
                follow = -1e6
            total = s1 + follow
            if best is None or total > best[0]:
                best = (total, keys, r, px)
        return best

    def choose_well(self, board, kind, rot, x, y, nxt):
        """The placement of this piece whose best answer with the next piece leaves the best board."""
        best = None
        sy = -1 if nxt == "I" else 0
        for keys, r, px, py in placements(board, kind, rot, x, y):
            res = place(board, kind, r, px, py)
            if res is None:
                continue
            b1, c1 = res
            land1 = landing(board, kind, r, px, py)
            if c1 >= self.well:
                value = 1e6 - len(keys)
            elif not fits(b1, nxt, 0, 3, sy):
                value = -1e6
            else:
                value = -1e6
                for k2, r2, x2, y2 in placements(b1, nxt, 0, 3, sy):
                    res2 = place(b1, nxt, r2, x2, y2)
                    if res2 is None:
                        continue
                    v = well_value(res2[0], res2[1], self.well, len(keys) + len(k2),
                                   land1 + landing(b1, nxt, r2, x2, y2)) - W_CLEAR * c1
                    value = max(value, v)
            if best is None or value > best[0]:
                best = (value, keys, r, px)
        return best

    def act(self, env, state, info):
        if state.get("piece") is None or state.get("status") == "terminal":
            return {"type": "wait"}
        here = (state["pieces"], state["piece"], state["rotation"], state["piece_x"])
        if self.plan is None or self.plan[0] != here:
            best = self.choose(state)
            if best is None:
                return {"type": "press_key", "key": "Space"}
            self.plan = (here, best[1])
        keys = self.plan[1]
        key = keys[0]
        # where the piece should be after this key (turns and slides as planned; gravity moves only y)
        board = [[1 if c != "." else 0 for c in row] for row in state["board"]]
        kind, rot, x, y = state["piece"], state["rotation"], state["piece_x"], state["piece_y"]
        if key in ("cw", "ccw"):
            res = rotate(board, kind, rot, x, y, 1 if key == "cw" else -1)
            if res:
                rot, x = res[0], res[1]
        elif key in ("left", "right"):
            if fits(board, kind, rot, x + (1 if key == "right" else -1), y):
                x += 1 if key == "right" else -1
        self.plan = ((state["pieces"], kind, rot, x), keys[1:]) if key != "drop" else None
        return {"type": "press_key", "key": KEY[key]}


def main():
    """Play every task on each of its seeds; store the first seed's run as its reference, 100 waits as its null."""
    solvers.write_references(MANIFEST, Player, only=sys.argv[1:],
                             report=lambda state: f"lines={state['lines']} best={state['best_clear']} "
                                                  f"score={state['score']} pieces={state['pieces']}")


if __name__ == "__main__":
    main()
