"""Scripted player for tallygrid: deduces line by line from what a player sees (the clues and the board).

Each call it reads `row_clues`, `col_clues` and `board` from the state, runs the line solver to a fixpoint (every
placement of a line's runs that agrees with the cells known so far; a cell filled in all of them is filled, one
empty in all of them is empty), and fills the first undecided cell (row by row) that the deduction says is
filled, with the `fill` semantic action. It never reads the solution and never guesses (the game's puzzles are
all solvable line by line). Run as a script, it writes the tasks' reference and null trajectories and a
`tests.fail` run (a guesser who fills cells in reading order without deducing, until the third mistake):

    .venv/bin/python games/tallygrid/solver.py
"""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from sandbox import solvers  # noqa: E402

MANIFEST = Path(__file__).resolve().with_name("manifest.json")
N = 6


def line_options(clue, known):
    """(can be filled, can be empty) per cell over every placement of `clue` agreeing with `known` (1, 0 or None);
    None when no placement agrees."""
    n = len(known)
    can_fill, can_empty = [False] * n, [False] * n
    found = False
    cur = [0] * n

    def place(j, start):
        nonlocal found
        if j == len(clue):
            if any(known[k] == 1 for k in range(start, n)):
                return
            for k in range(n):
                if k < start and cur[k]:
                    can_fill[k] = True
                else:
                    can_empty[k] = True
            found = True
            return
        length = clue[j]
        for s in range(start, n - length + 1):
            if any(known[k] == 1 for k in range(start, s)):
                break
            if any(known[k] == 0 for k in range(s, s + length)):
                continue
            if s + length < n and known[s + length] == 1:
                continue
            for k in range(start, s):
                cur[k] = 0
            for k in range(s, s + length):
                cur[k] = 1
            if s + length < n:
                cur[s + length] = 0
            place(j + 1, min(n, s + length + 1))

    place(0, 0)
    return (can_fill, can_empty) if found else None


def deduce(rows, cols, board):
    """The board (1 filled, 0 empty, None unknown) after line-by-line deduction to a fixpoint."""
    b = [row[:] for row in board]
    changed = True
    while changed:
        changed = False
        for transpose, clues in ((False, rows), (True, cols)):
            for i, clue in enumerate(clues):
                known = [b[k][i] if transpose else b[i][k] for k in range(N)]
                options = line_options(clue, known)
                if options is None:
                    return b
                for k in range(N):
                    if known[k] is not None:
                        continue
                    fill, empty = options[0][k], options[1][k]
                    if fill != empty:
                        if transpose:
                            b[k][i] = int(fill)
                        else:
                            b[i][k] = int(fill)
                        changed = True
    return b


def read_board(state):
    return [[{"#": 1, "x": 0}.get(ch) for ch in row] for row in state["board"]]


def fill(col, row):
    return {"type": "semantic", "name": "fill", "args": {"col": col, "row": row}}


class Player:
    """One fill a call: the first undecided cell the clues force to be filled."""

    def __init__(self, task):
        self.task = task

    def act(self, env, state, info):
        board = read_board(state)
        solved = deduce(state["row_clues"], state["col_clues"], board)
        for r in range(N):
            for c in range(N):
                if board[r][c] is None and solved[r][c] == 1:
                    return fill(c, r)
        return {"type": "wait"}


def guess(state):
    """A guesser (the fail trajectory): fills the first undecided cell in reading order, without deducing."""
    board = read_board(state)
    r, c = next((r, c) for r in range(N) for c in range(N) if board[r][c] is None)
    return fill(c, r)


def main():
    solvers.write_references(MANIFEST, Player, only=sys.argv[1:],
                             report=lambda s: f"cells={s['cells']} solved={s['puzzles_solved']} lives={s['lives']}")
    if not sys.argv[1:]:
        solvers.write_fail_trajectory(MANIFEST, guess)


if __name__ == "__main__":
    main()
