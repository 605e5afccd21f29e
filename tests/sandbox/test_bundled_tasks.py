"""Every bundled task ships with proof: its reference trajectory reaches the target, its null one does not."""
import pytest

from sandbox import registry, run_trajectory

TASKS = [task for game in registry.games() for task in game.tasks.values()]


@pytest.mark.slow
@pytest.mark.parametrize("task", TASKS, ids=lambda t: t.id)
def test_reference_reaches_the_target_and_null_does_not(task):
    reference, _ = run_trajectory(task, task.reference)
    assert reference.success, f"reference reached {reference.best} of {reference.target}"
    assert reference.actions <= task.max_actions
    null, _ = run_trajectory(task, task.null)
    assert not null.success, f"null trajectory reached {null.best} of {null.target}"


def test_instructions_state_the_target():
    for task in TASKS:
        target = f"{task.target:g}"
        assert target in task.instruction.replace(",", ""), f"{task.id}: instruction does not say {target}"
