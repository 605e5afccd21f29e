"""Scripted player for coil: reads the game's state and plays well; `calibrate` and the baselines run it.

The demo player walks to the coin. Replace it with one for your game, then write the tasks' reference
trajectories with it:

    .venv/bin/python games/coil/solver.py
"""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from sandbox import solvers  # noqa: E402

MANIFEST = Path(__file__).resolve().with_name("manifest.json")
SLACK = 6  # px: close enough on an axis


class Player:
    """One action a call, chosen from the state (never from pixels)."""

    def __init__(self, task):
        self.task = task

    def act(self, env, state, info):
        dx, dy = state["coin_x"] - state["player_x"], state["coin_y"] - state["player_y"]
        if abs(dx) >= abs(dy) and abs(dx) > SLACK:
            return {"type": "press_key", "key": "ArrowRight" if dx > 0 else "ArrowLeft"}
        if abs(dy) > SLACK:
            return {"type": "press_key", "key": "ArrowDown" if dy > 0 else "ArrowUp"}
        return {"type": "wait"}


def main():
    """Play every task on each of its seeds; store the first seed's run as its reference, 100 waits as its null."""
    solvers.write_references(MANIFEST, Player, only=sys.argv[1:],
                             report=lambda state: f"score={state['score']} lives={state['lives']}")


if __name__ == "__main__":
    main()
