import pytest

from sandbox import oracle


def ready(attempt, score):
    return {"kind": "ready", "attempt": attempt, "state": {"score": score}}


def step(attempt, score, invalid=False):
    return {"kind": "step", "attempt": attempt, "action": {"type": "wait"}, "invalid": invalid,
            "state": {"score": score}}


def test_progress_is_clipped_fraction_of_the_way_to_the_target():
    assert oracle.progress(0, 50, 20) == pytest.approx(0.4)
    assert oracle.progress(0, 50, 80) == 1.0
    assert oracle.progress(10, 50, 0) == 0.0


def test_lower_is_better_when_the_target_is_below_the_start():
    assert oracle.progress(100, 20, 60) == pytest.approx(0.5)
    assert oracle.reached(100, 20, 20) and not oracle.reached(100, 20, 21)
    assert oracle.better(100, 20, 50, 30) == 30


def test_score_run_keeps_the_best_attempt_and_counts_invalid_actions():
    trace = [ready(1, 0), step(1, 10), step(1, 30), step(1, 0, invalid=True),
             ready(2, 0), step(2, 20), step(2, 20, invalid=True)]
    score = oracle.score_run(trace, score_field="score", start=0, target=40)
    assert (score.best, score.progress, score.success) == (30, 0.75, False)
    assert (score.actions, score.attempts, score.invalid) == (5, 2, 2)
    assert score.iar == pytest.approx(0.4)


def test_start_from_state_reads_the_first_ready_frame():
    trace = [ready(1, 7), step(1, 12)]
    score = oracle.score_run(trace, score_field="score", start="state", target=17)
    assert score.start == 7 and score.progress == pytest.approx(0.5)


def test_missing_or_non_numeric_fields_do_not_count():
    assert oracle.read_score({"a": {"b": 3}}, "a.b") == 3
    assert oracle.read_score({"a": {"b": True}}, "a.b") is None
    assert oracle.read_score({"a": 1}, "a.b") is None


def test_trace_hash_is_canonical_and_sensitive():
    a = [{"kind": "ready", "attempt": 1, "state": {"x": 1, "y": 2}}]
    b = [{"state": {"y": 2, "x": 1}, "attempt": 1, "kind": "ready"}]
    c = [{"kind": "ready", "attempt": 1, "state": {"x": 1, "y": 3}}]
    assert oracle.trace_sha256(a) == oracle.trace_sha256(b) != oracle.trace_sha256(c)


def test_attempt_seeds_are_derived_deterministically_and_differ():
    assert oracle.attempt_seed(5, 1) == 5
    seeds = [oracle.attempt_seed(5, n) for n in range(2, 6)]
    assert seeds == [oracle.attempt_seed(5, n) for n in range(2, 6)]
    assert len(set(seeds)) == 4 and all(0 <= s < 2**31 for s in seeds)
