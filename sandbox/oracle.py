"""The state oracle: pure functions from a recorded state trace to a run's figures. No I/O.

A trace is the list of records a sandbox run writes: one `{"kind": "ready", "attempt", "state"}` when an
attempt becomes actionable, and one `{"kind": "step", "attempt", "action", "invalid", "state"}` per action.
"""
import hashlib
import json
from dataclasses import asdict, dataclass

from .protocol import read_field


@dataclass(frozen=True)
class RunScore:
    start: float
    target: float
    best: float
    progress: float
    success: bool
    actions: int
    attempts: int
    invalid: int
    iar: float
    trace_sha256: str

    def to_dict(self):
        return asdict(self)


def read_score(state, dotted):
    value = read_field(state, dotted)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


def progress(start, target, best):
    """clip((best - start) / (target - start), 0, 1); mirrored when lower is better (target < start)."""
    if target == start:
        return 1.0 if best == target else 0.0
    return min(1.0, max(0.0, (best - start) / (target - start)))


def reached(start, target, score):
    return score >= target if target >= start else score <= target


def better(start, target, a, b):
    """The better of two scores for this task's direction."""
    return max(a, b) if target >= start else min(a, b)


def resolve_start(start, trace, score_field):
    """A task's start is a number, or "state": the score at the first ready frame."""
    if start != "state":
        return float(start)
    for record in trace:
        if record["kind"] == "ready":
            value = read_score(record["state"], score_field)
            if value is not None:
                return value
            break
    raise ValueError(f"start is 'state' but the first ready state has no numeric {score_field!r}")


def score_run(trace, *, score_field, start, target):
    start = resolve_start(start, trace, score_field)
    target = float(target)
    best = start
    for record in trace:
        value = read_score(record["state"], score_field)
        if value is not None:
            best = better(start, target, best, value)
    steps = [r for r in trace if r["kind"] == "step"]
    invalid = sum(1 for r in steps if r["invalid"])
    return RunScore(
        start=start, target=target, best=best, progress=progress(start, target, best),
        success=reached(start, target, best), actions=len(steps),
        attempts=max((r["attempt"] for r in trace), default=0), invalid=invalid,
        iar=invalid / len(steps) if steps else 0.0, trace_sha256=trace_sha256(trace))


def trace_sha256(trace):
    """A hash of the canonical JSON of the trace: equal traces, equal hashes, on any machine."""
    canonical = json.dumps(trace, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False)
    return hashlib.sha256(canonical.encode("ascii")).hexdigest()


def attempt_seed(seed, attempt):
    """The seed of attempt n of a run: the run's seed for the first, then derived deterministically."""
    if attempt == 1:
        return seed
    digest = hashlib.sha256(f"gameworld:{seed}:{attempt}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF
