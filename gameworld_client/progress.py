"""Progress for the long commands: tqdm bars on stderr when it is a terminal, plain lines otherwise.

`gameworld run` shows runs done of the total, the steps played, the current task and step, and the mean
progress so far; `gameworld upload` and `gameworld wait` show the runs verified of the total. Results (a line
per run, the verdict table) go to stdout either way, printed above the bar.
"""
from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, TextIO

from tqdm import tqdm

if TYPE_CHECKING:
    from .env import GameWorldEnv


def say(line: str = "") -> None:
    """One line on stdout (above a progress bar, if one is drawn)."""
    tqdm.write(line, file=sys.stdout)
    sys.stdout.flush()


def verification_line(snapshot: dict[str, Any]) -> str:
    done, total = snapshot.get("runs_done", 0), snapshot.get("runs_total", 0)
    status = snapshot.get("status")
    if status == "verifying":
        return f"verifying {done} of {total} runs"
    if status == "verified":
        return f"verified {done} of {total} runs"
    if status == "rejected":
        return f"rejected ({done} of {total} runs finished): {snapshot.get('reason') or 'no reason given'}"
    return f"{status}: {done} of {total} runs verified"


def played_at(run: dict[str, Any]) -> str:
    """Where a run (or a step's info) was played: its seed, or a sealed evaluation's episode number."""
    return f"episode {run['episode_number']}" if "episode_number" in run else f"seed {run['seed']}"


class RunProgress:
    """The bar of `gameworld run` (drawn only on a terminal unless `disable` says otherwise)."""

    def __init__(self, total: int, *, file: TextIO | None = None, disable: bool | None = None):
        self.bar = tqdm(total=total, desc="runs", unit="run", file=file or sys.stderr, disable=disable,
                        dynamic_ncols=True)
        self.steps = 0
        self.progress: list[float] = []

    def on_step(self, env: GameWorldEnv, info: dict[str, Any]) -> None:
        self.steps += 1
        where = played_at(info) if "episode_number" in info else f"seed {env.seed_used}"
        self._show(f"{env.task['task']} {where} step {info.get('step')}")

    def on_run(self, run: dict[str, Any]) -> None:
        self.progress.append(float((run.get("claimed") or {}).get("progress", 0.0)))
        self.bar.update(1)
        self._show(f"{run['task']} {played_at(run)} done")

    def _show(self, current: str) -> None:
        mean = f"{sum(self.progress) / len(self.progress):.3f}" if self.progress else "-"
        self.bar.set_postfix_str(f"{current}, {self.steps} steps, mean progress {mean}")

    def close(self) -> None:
        self.bar.close()


class VerificationProgress:
    """Follows a submission's verification: a bar of the runs verified on a terminal, else one line per change."""

    def __init__(self, *, file: TextIO | None = None, disable: bool | None = None):
        self.bar = tqdm(total=0, desc="queued", unit="run", file=file or sys.stderr, disable=disable,
                        dynamic_ncols=True, bar_format="{desc}: {n}/{total} runs verified |{bar}| {elapsed}")
        self.last_line: str | None = None

    def __call__(self, snapshot: dict[str, Any]) -> None:
        if self.bar.disable:
            line = verification_line(snapshot)
            if line != self.last_line:
                self.last_line = line
                say(line)
            return
        self.bar.total = snapshot.get("runs_total") or 0
        self.bar.n = snapshot.get("runs_done") or 0
        self.bar.set_description_str(str(snapshot.get("status")))

    def close(self) -> None:
        self.bar.close()
