from dataclasses import replace

import pytest

from sandbox import InvalidAction
from sandbox.actions import RandomActions


@pytest.fixture
def space(counter_task):
    return counter_task.game.action_space


def test_primitives_get_the_default_duration(space):
    assert space.resolve({"type": "press_key", "key": "ArrowUp"}, 200) == \
        {"type": "press_key", "key": "ArrowUp", "duration_ms": 200}
    assert space.resolve({"type": "wait", "duration_ms": 300}, 200) == {"type": "wait", "duration_ms": 300}


def test_semantic_actions_map_through_the_manifest(space):
    assert space.resolve({"type": "semantic", "name": "tap", "args": {"col": 2}}, 200) == \
        {"type": "left_click", "x": 100, "y": 60, "duration_ms": 200}
    assert space.resolve({"type": "semantic", "name": "up"}, 250)["key"] == "ArrowUp"


def test_a_semantic_action_may_stand_for_a_drag(space):
    """A stroke's ends are linear in the arguments, as any binding: the same arguments, the same drag."""
    swipe = {"name": "swipe", "description": "Swipe from column a to column b.",
             "args": {"a": {"min": 0, "max": 3}, "b": {"min": 0, "max": 3}},
             "action": {"type": "drag", "x": {"arg": "a", "scale": 40, "offset": 20}, "y": 100,
                        "to_x": {"arg": "b", "scale": 40, "offset": 20}, "to_y": 20}}
    swiping = replace(space, semantic={**space.semantic, "swipe": swipe})
    action = {"type": "semantic", "name": "swipe", "args": {"a": 3, "b": 0}}
    assert swiping.resolve(action, 200) == {"type": "drag", "x": 140, "y": 100, "to_x": 20, "to_y": 20,
                                            "duration_ms": 200}
    assert swiping.resolve(action, 200) == swiping.resolve(dict(action), 200)


@pytest.mark.parametrize("action, message", [
    ({"type": "press_key", "key": "KeyQ"}, "key 'KeyQ' is not in this game's keys"),
    ({"type": "jump"}, "unknown action type 'jump'"),
    ({"type": "left_click", "x": 500, "y": 10}, "x must be an integer from 0 to 159"),
    ({"type": "left_click", "x": 1.5, "y": 10}, "x must be an integer"),
    ({"type": "wait", "duration_ms": 10}, "duration_ms must be an integer from 50 to 2000"),
    ({"type": "press_keys", "keys": ["ArrowUp", "ArrowUp"]}, "lists a key twice"),
    ({"type": "press_key", "key": "ArrowUp", "x": 3}, "press_key does not take x"),
    ({"type": "semantic", "name": "fly"}, "unknown semantic action 'fly'"),
    ({"type": "semantic", "name": "tap", "args": {"col": 9}}, "col must be an integer from 0 to 3"),
    ({"type": "semantic", "name": "tap", "args": {}}, "expects args ['col']"),
    ("ArrowUp", "an action must be a JSON object"),
])
def test_actions_outside_the_space_are_refused_with_a_reason(space, action, message):
    with pytest.raises(InvalidAction, match=message.replace("[", r"\[").replace("(", r"\(")):
        space.resolve(action, 200)


@pytest.mark.parametrize("interface", ["cua", "generalist"])
def test_random_actions_are_valid_reproducible_and_cover_the_action_space(space, interface):
    draw = RandomActions(space, interface, seed=7)
    actions = [draw() for _ in range(400)]
    for action in actions:
        space.resolve(action, 200)  # raises InvalidAction for anything outside the space
    again = RandomActions(space, interface, seed=7)
    assert [again() for _ in range(400)] == actions
    other = RandomActions(space, interface, seed=8)
    assert [other() for _ in range(400)] != actions
    if interface == "cua":
        kinds = {a["type"] for a in actions}
        # the fixture game has two keys and the pointer: every kind of computer-use action is drawn
        assert kinds == {"press_key", "press_keys", "wait", "left_click", "mouse_move", "drag"}
        assert {a["key"] for a in actions if a["type"] == "press_key"} == set(space.keys)
        assert {tuple(sorted(a["keys"])) for a in actions if a["type"] == "press_keys"} == {tuple(sorted(space.keys))}
        xs = [a[axis] for a in actions for axis in ("x", "to_x") if axis in a]
        assert min(xs) < space.width // 4 and max(xs) >= 3 * space.width // 4
    else:
        assert {a["name"] for a in actions} == set(space.semantic)
        assert {a["args"]["col"] for a in actions if a["name"] == "tap"} == {0, 1, 2, 3}


def test_random_actions_refuse_an_unknown_interface_and_a_game_without_semantic_actions(space):
    from dataclasses import replace

    with pytest.raises(ValueError, match="interface is one of cua, generalist, got 'human'"):
        RandomActions(space, "human", seed=1)
    with pytest.raises(ValueError, match="no semantic actions"):
        RandomActions(replace(space, semantic={}), "generalist", seed=1)


def test_the_random_agent_holds_the_combinations_the_semantic_actions_bind():
    """A combo such as "jump and right" is drawn about as often as a single key: half of the two-key draws are
    combinations a semantic action binds, the rest any two keys."""
    from sandbox import registry

    space = registry.game("skyhop").action_space
    assert space.bound_combinations == [("ArrowUp", "ArrowRight"), ("ArrowUp", "ArrowLeft")]
    draw = RandomActions(space, "cua", seed=3)
    actions = [draw() for _ in range(3000)]
    pairs = [tuple(a["keys"]) for a in actions if a["type"] == "press_keys"]
    single = [a for a in actions if a["type"] == "press_key"]
    assert 0.8 < len(pairs) / len(single) < 1.25  # a kind of action each
    bound = sum(pair in space.bound_combinations for pair in pairs)
    assert 0.45 < bound / len(pairs) < 0.6  # half from the bindings (and 1 in 12 of the rest, by chance)
