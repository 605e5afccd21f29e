"""Every bundled task ships with proof: its reference trajectory reaches the target, its null one does not; and
a game's trajectories replay to the same trace run ahead (sandbox/batch.py) as step by step: its longest
reference and its null runs (the whole budget, resets included) are replayed both ways, the others run ahead (as
a worker replays them)."""
import pytest

from sandbox import oracle, registry, run_trajectory

from .test_run_ahead import both_ways

TASKS = [task for game in registry.games() for task in game.tasks.values()]


def null_groups(game):
    """The game's tasks grouped by what their null run plays: tasks whose null trajectory, step and budget are
    the same play the same game until a target is reached, so one run's trace scores them all."""
    groups = {}
    for task in game.tasks.values():
        key = (task.null.seed, repr(task.null.actions), task.step_ms, task.max_actions)
        groups.setdefault(key, []).append(task)
    return list(groups.values())


def replayed(task, trajectory, what, *, both_ways_too):
    """The run-ahead replay's (score, trace); when `both_ways_too`, checked against the step-by-step replay."""
    if not both_ways_too:
        return run_trajectory(task, trajectory)
    (stepwise, step_trace), (ahead, ahead_trace) = both_ways(task, trajectory)
    assert ahead_trace == step_trace, f"{task.id} {what}: run ahead, the trace differs"
    assert ahead == stepwise and ahead.trace_sha256 == oracle.trace_sha256(step_trace)
    return ahead, ahead_trace


@pytest.mark.slow
@pytest.mark.parametrize("slug", registry.slugs())
def test_references_reach_nulls_do_not_and_replay_the_same_both_ways(slug):
    game = registry.game(slug)
    longest = max(game.tasks.values(), key=lambda task: len(task.reference.actions))
    for task in game.tasks.values():
        ahead, _ = replayed(task, task.reference, "reference", both_ways_too=task is longest)
        assert ahead.success, f"{task.id}: the reference reached {ahead.best} of {ahead.target}"
        assert ahead.actions <= task.max_actions
    for tasks in null_groups(game):
        _, trace = replayed(tasks[0], tasks[0].null, "null", both_ways_too=True)
        for task in tasks:
            null = oracle.score_run(trace, score_field=task.score_field, start=task.start, target=task.target)
            assert not null.success, f"{task.id}: the null trajectory reached {null.best} of {null.target}"


def test_tasks_sharing_a_null_run_are_scored_from_one_trace_as_their_own_runs_would_be():
    """What the grouping above relies on: a null run's trace scored for another task of the group gives that
    task's own run's figures (here a game whose tasks share one null)."""
    game = next(g for g in registry.games() if any(len(group) > 1 for group in null_groups(g)))
    first, other = next(group for group in null_groups(game) if len(group) > 1)[:2]
    trace = run_trajectory(first, first.null)[1]
    own = run_trajectory(other, other.null)[0]
    assert oracle.score_run(trace, score_field=other.score_field, start=other.start, target=other.target) == own


def test_instructions_state_the_target():
    for task in TASKS:
        target = f"{task.target:g}"
        assert target in task.instruction.replace(",", ""), f"{task.id}: instruction does not say {target}"
