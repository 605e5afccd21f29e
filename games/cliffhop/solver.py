"""Scripted player for cliffhop (Cliff Hop, Game Boy); writes the reference trajectories into the manifest.

It plays through the sandbox and looks ahead in the emulator itself: before each step it saves the machine's
state, tries every sequence of two actions (walk right, jump, wait) and a wait after them, reads the game's RAM after each (hero,
lives, the hurt pause, coins, stomps, distance) and restores the state. A sequence in which the hero gets hurt
is worst; among the others it keeps the one that scores best for the task (distance tasks: the hero's x;
coins: coins first, then x; stomps: stomps first, then x) and plays its first action.

    .venv/bin/python games/cliffhop/solver.py      # plays every task on every seed, writes references
"""
import io
import itertools
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from sandbox.solvers import write_references  # noqa: E402

MANIFEST = ROOT / "games/cliffhop/manifest.json"
WAIT = {"type": "wait"}
KEY = {k: {"type": "press_key", "key": k} for k in ("left", "right", "a")}
CHOICES = (("right", KEY["right"]), ("a", KEY["a"]), (None, WAIT))
DEPTH = 2
HOLD, REST = 5, 14


class Player:
    """Two-step look-ahead (and a wait) in the emulator, scored for the task's field."""

    def __init__(self, task):
        self.field = task.score_field

    def value(self, ram):
        lives, x, dying = ram[0x01], ram[0x0A] | ram[0x0B] << 8, ram[0x11]
        coins, stomps, distance = ram[0x06], ram[0x07], ram[0x04] | ram[0x05] << 8
        if dying or lives < self.lives:
            return -1_000_000
        if self.field == "coins":
            return coins * 400 + x
        if self.field == "stomps":
            return stomps * 2000 - self.beetle_gap(ram, x) * 4 + x
        return distance * 8 + x

    @staticmethod
    def beetle_gap(ram, x):
        """Pixels to the nearest walking beetle ahead of the hero (or just behind it); 200 if none."""
        gaps = [ram[0x20 + 2 * i] | ram[0x21 + 2 * i] << 8 for i in range(ram[0x1D]) if ram[0x38 + i] == 1]
        gaps = [g - x for g in gaps if g - x > -24]
        return min([abs(g) for g in gaps] + [200])

    def step(self, pyboy, button):
        if button:
            pyboy.button_press(button)
            pyboy.tick(HOLD, False)
            pyboy.button_release(button)
            pyboy.tick(REST, False)
        else:
            pyboy.tick(HOLD + REST, False)

    def act(self, env, state, info):
        if state["mode"] != 2:
            return WAIT
        pyboy = env.session.machine.pyboy
        self.lives = state["lives"]
        root = io.BytesIO()
        pyboy.save_state(root)
        best, best_action = None, WAIT
        for plan in itertools.product(CHOICES, repeat=DEPTH):
            root.seek(0)
            pyboy.load_state(root)
            value = None
            for button, _ in plan + ((None, WAIT),):
                self.step(pyboy, button)
                value = self.value(bytes(pyboy.memory[0xC000:0xC048]))
                if value <= -1_000_000:
                    break
            if best is None or value > best:
                best, best_action = value, plan[0][1]
        root.seek(0)
        pyboy.load_state(root)
        return best_action


def report(state):
    return (f"distance={state['distance']} coins={state['coins']} stomps={state['stomps']} "
            f"lives={state['lives']} checkpoint={state['checkpoint']} level={state['level']}")


if __name__ == "__main__":
    write_references(MANIFEST, Player, report=report)
