"""An in-memory game behind the backend session protocol, for testing the rules without a browser."""
from types import SimpleNamespace

from sandbox.actions import ActionSpace

SPACE = ActionSpace(keys=("ArrowRight", "ArrowLeft"), pointer=False, width=10, height=10, semantic={})
RIGHT = {"type": "press_key", "key": "ArrowRight"}  # +1 point
LEFT = {"type": "press_key", "key": "ArrowLeft"}  # loses the game
OUTSIDE = {"type": "press_key", "key": "KeyQ"}  # not in the action space
STEP_MS = 200
TIME_LIMIT_MS = 1000  # the game is lost when its clock reaches this


class CounterSession:
    """A backend session in memory: the score counts ArrowRight presses; ArrowLeft or running out of time
    loses; `applied` logs every primitive the game received, `opened` every seed it started at."""

    def __init__(self):
        self.applied, self.opened, self.closed = [], [], False

    def open(self, seed):
        self.opened.append(seed)
        self.score, self.clock, self.lost = 0, 0, False
        return self.state()

    restart = open

    def apply(self, primitive):
        self.applied.append(primitive)
        self.clock += primitive["duration_ms"]
        self.score += primitive.get("key") == "ArrowRight"
        self.lost = self.lost or primitive.get("key") == "ArrowLeft" or self.clock >= TIME_LIMIT_MS
        return self.state()

    def state(self):
        return {"score": self.score, "clock": self.clock, "seed": self.opened[-1],
                "terminal": {"is_terminal": self.lost, "outcome": "loss" if self.lost else None}}

    def frame(self, fmt):
        return b"frame"

    def close(self):
        self.closed = True


def task(**overrides):
    fields = dict(game=SimpleNamespace(action_space=SPACE), step_ms=STEP_MS, max_actions=100, score_field="score",
                  start=0, target=3, seeds=(7,))
    return SimpleNamespace(**{**fields, **overrides})
