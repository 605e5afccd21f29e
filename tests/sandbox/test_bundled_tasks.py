"""Every bundled task ships with proof: its reference trajectory reaches the target and its null one does not,
replayed as a worker replays them (run ahead: sandbox/batch.py). That a run ahead gives the trace of the same run
step by step is checked on every game's random play, at both paces, in test_conformance.py."""
import pytest

from sandbox import oracle, registry, run_trajectory

TASKS = [task for game in registry.games() for task in game.tasks.values()]


def null_groups(game):
    """The game's tasks grouped by what their null run plays: tasks whose null trajectory, step and budget are
    the same play the same game until a target is reached, so one run's trace scores them all."""
    groups = {}
    for task in game.tasks.values():
        key = (task.null.seed, repr(task.null.actions), task.step_ms, task.max_actions)
        groups.setdefault(key, []).append(task)
    return list(groups.values())


@pytest.mark.slow
@pytest.mark.parametrize("slug", registry.slugs())
def test_references_reach_and_nulls_do_not(slug):
    game = registry.game(slug)
    for task in game.tasks.values():
        reference, _ = run_trajectory(task, task.reference)
        assert reference.success, f"{task.id}: the reference reached {reference.best} of {reference.target}"
        assert reference.actions <= task.max_actions
    for tasks in null_groups(game):
        _, trace = run_trajectory(tasks[0], tasks[0].null)
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
