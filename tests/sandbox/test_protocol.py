"""The action protocol (sandbox/protocol.py), as agents, the site and stored runs rely on it: the latency bound,
the invalid record, an action in words, a state field read by its dotted name, an action's limits and its
interface; and the client ships this very file."""
import ast
import sys
from pathlib import Path

import jsonschema
import pytest

from sandbox import protocol
from sandbox.protocol import (ProtocolError, check_latency, clamp_latency, describe_action, interface_mismatch,
                              interface_of, invalid_record, is_invalid_record, read_field, read_latency, refusal,
                              split_latency, with_latency)

ROOT = Path(__file__).resolve().parents[2]
WAIT = {"type": "wait"}
# An action space as ActionSpace.describe() gives it (a pointer game 160x120, one semantic action).
SPACE = {"keys": ["ArrowUp", "ArrowDown", "Space", "KeyA", "KeyB"], "pointer": True,
         "viewport": {"width": 160, "height": 120}, "step_ms_range": [50, 2000],
         "semantic": [{"name": "tap", "description": "tap a column", "args": {"col": {"min": 0, "max": 3}}}]}


# The latency bound.

@pytest.mark.parametrize("latency", [0, 1, 29_999, 30_000])
def test_a_latency_from_0_to_30_seconds_is_taken(latency):
    assert protocol.MAX_LATENCY_MS == 30_000
    assert check_latency(latency) == (latency, None)
    assert read_latency({**WAIT, "latency_ms": latency}) == (WAIT, latency, None)
    assert split_latency({**WAIT, "latency_ms": latency}, protocol="realtime") == (WAIT, latency)


@pytest.mark.parametrize("latency", [-1, 30_001, True, 2.5, "40", None])
def test_any_other_latency_makes_the_step_invalid(latency):
    reason = f"latency_ms must be an integer from 0 to 30000, got {latency!r}"
    assert check_latency(latency) == (None, reason)
    assert read_latency({**WAIT, "latency_ms": latency}) == (WAIT, None, reason)
    with pytest.raises(ProtocolError, match="from 0 to 30000"):
        split_latency({**WAIT, "latency_ms": latency}, protocol="realtime")


def test_a_paused_step_has_no_latency_and_a_paused_run_takes_none():
    action = {"type": "press_key", "key": "Space"}
    assert read_latency(action) == (action, None, None) and read_latency(action)[0] is action
    assert read_latency("not an object") == ("not an object", None, None)
    assert split_latency(action, protocol="paused") == (action, None)
    with pytest.raises(ProtocolError, match="latency_ms belongs to the realtime protocol; this run is paused"):
        split_latency({**action, "latency_ms": 40}, protocol="paused")
    assert issubclass(ProtocolError, ValueError)


def test_a_measured_time_is_charged_in_whole_milliseconds_up_to_the_bound():
    assert [clamp_latency(ms) for ms in (-3, 0, 12.4, 12.6, 30_000, 30_000.4, 45_000)] == [0, 0, 12, 13, 30_000,
                                                                                          30_000, 30_000]
    assert with_latency(WAIT, 40) == {"type": "wait", "latency_ms": 40} and WAIT == {"type": "wait"}
    assert with_latency(WAIT, 0) == {"type": "wait", "latency_ms": 0}
    assert with_latency(WAIT, None) is WAIT


@pytest.mark.parametrize("latency", [-1, 0, 1, 29_999, 30_000, 30_001, 2.5, True, "40", None])
def test_the_upload_schema_s_latency_rule_is_check_latency_s(latency):
    schema_says = jsonschema.Draft202012Validator(protocol.latency_json_schema()).is_valid(latency)
    assert schema_says == (check_latency(latency)[1] is None)


# The invalid record.

def test_a_step_with_no_valid_action_is_recorded_as_its_text_cut_to_500_characters():
    assert invalid_record("launch??") == {"type": "invalid", "raw": "launch??"}
    assert invalid_record("x" * 500)["raw"] == "x" * 500
    assert invalid_record("é" * 501)["raw"] == "é" * 500
    assert invalid_record({"type": "jump", "height": 2}) == {"type": "invalid", "raw": '{"type": "jump", "height": 2}'}
    assert invalid_record(["sauté"])["raw"] == '["sauté"]'  # text stays text, not \u escapes
    assert invalid_record({"when": {1, 2}})["raw"] == '{"when": "{1, 2}"}'  # what JSON cannot hold, by its repr
    assert invalid_record(float("nan"))["raw"] == "NaN"
    assert is_invalid_record(invalid_record("?")) and is_invalid_record({"type": "invalid"})
    assert not is_invalid_record({"type": "wait"}) and not is_invalid_record("invalid")


# An action in words (the replay pages, the play page's log, the calibration's policy names).

@pytest.mark.parametrize("action, text", [
    ({"type": "press_key", "key": "ArrowUp"}, "press ArrowUp"),
    ({"type": "press_keys", "keys": ["ArrowUp", "Space"], "duration_ms": 300}, "press ArrowUp+Space for 300 ms"),
    ({"type": "left_click", "x": 120, "y": 88}, "click (120, 88)"),
    ({"type": "mouse_move", "x": 3, "y": 4}, "move (3, 4)"),
    ({"type": "drag", "x": 3, "y": 4, "to_x": 50, "to_y": 9}, "drag (3, 4) to (50, 9)"),
    ({"type": "wait", "duration_ms": 500}, "wait for 500 ms"),
    ({"type": "semantic", "name": "reveal", "args": {"col": 2, "row": 3}}, "reveal(col=2, row=3)"),
    ({"type": "semantic", "name": "launch"}, "launch()"),
    ({"type": "invalid", "raw": "hmm"}, "no valid action"),
    ({"type": "press_key", "key": "Space", "latency_ms": 900}, "press Space"),
    ("ArrowUp", "'ArrowUp'"),
])
def test_actions_read_as_people_say_them(action, text):
    assert describe_action(action) == text


# A state field by its dotted name (a task's score field, a replay's fields).

def test_a_state_field_is_read_by_its_dotted_path_and_an_absent_one_is_none():
    state = {"score": 0, "player": {"pos": {"x": 7}, "alive": False}, "level": None}
    assert read_field(state, "score") == 0
    assert read_field(state, "player.pos.x") == 7 and read_field(state, "player.alive") is False
    assert read_field(state, "player.pos") == {"x": 7}
    assert [read_field(state, path) for path in ("lives", "player.hp", "score.x", "player.pos.x.y")] == [None] * 4


# The interface of an action.

def test_a_semantic_action_is_the_generalist_s_and_every_other_the_computer_use_agent_s():
    assert protocol.INTERFACES == ("cua", "generalist")
    assert interface_of({"type": "semantic", "name": "launch"}) == "generalist"
    assert [interface_of({"type": kind}) for kind in ("press_key", "left_click", "wait", "jump")] == ["cua"] * 4
    assert interface_of(invalid_record("?")) is None and interface_of("press_key") is None


def test_an_action_of_the_other_interface_is_named_a_mismatch():
    semantic, key = {"type": "semantic", "name": "launch"}, {"type": "press_key", "key": "Space"}
    assert interface_mismatch(semantic, "generalist") is None and interface_mismatch(key, "cua") is None
    assert interface_mismatch(semantic, "cua").startswith('a semantic action in a computer-use ("cua") submission')
    assert interface_mismatch(key, "generalist").startswith("a 'press_key' action in a generalist submission")
    assert interface_mismatch(invalid_record("?"), "generalist") is None  # either interface may fail to act


# The limits of an action.

@pytest.mark.parametrize("action", [
    {"type": "press_keys", "keys": ["ArrowUp", "ArrowDown", "Space", "KeyA"]},
    {"type": "left_click", "x": 0, "y": 0}, {"type": "left_click", "x": 159, "y": 119},
    {"type": "drag", "x": 0, "y": 119, "to_x": 159, "to_y": 0},
    {"type": "wait", "duration_ms": 50}, {"type": "wait", "duration_ms": 2000},
    {"type": "semantic", "name": "tap", "args": {"col": 3}, "duration_ms": 2000},
])
def test_an_action_at_its_limits_is_taken(action):
    assert refusal(action, SPACE, 200) is None


@pytest.mark.parametrize("action, reason", [
    ({"type": "press_keys", "keys": ["ArrowUp", "ArrowDown", "Space", "KeyA", "KeyB"]},
     "press_keys needs `keys`, a list of 1 to 4 keys"),
    ({"type": "press_keys", "keys": []}, "press_keys needs `keys`, a list of 1 to 4 keys"),
    ({"type": "press_keys", "keys": ["Space", "Space"]}, "press_keys lists a key twice"),
    ({"type": "press_keys", "keys": ["Space", "KeyQ"]}, "key 'KeyQ' is not in this game's keys"),
    ({"type": "left_click", "x": 160, "y": 0}, "left_click: x must be an integer from 0 to 159, got 160"),
    ({"type": "mouse_move", "x": 0, "y": 120}, "mouse_move: y must be an integer from 0 to 119, got 120"),
    ({"type": "drag", "x": 5, "y": 5, "to_x": 160, "to_y": 0}, "drag: to_x must be an integer from 0 to 159, got 160"),
    ({"type": "drag", "x": 5, "y": 5, "to_x": 1}, "drag: to_y must be an integer from 0 to 119, got None"),
    ({"type": "drag", "x": 5, "y": 5, "to_x": 1, "to_y": 1, "via": []}, "drag does not take via"),
    ({"type": "left_click", "x": -1, "y": 0}, "left_click: x must be an integer from 0 to 159, got -1"),
    ({"type": "left_click", "x": True, "y": 0}, "left_click: x must be an integer from 0 to 159, got True"),
    ({"type": "wait", "duration_ms": 49}, "duration_ms must be an integer from 50 to 2000, got 49"),
    ({"type": "wait", "duration_ms": 2001}, "duration_ms must be an integer from 50 to 2000, got 2001"),
    ({"type": "wait", "latency_ms": 5}, "wait does not take latency_ms"),
    ({"type": "semantic", "name": "tap", "args": {"col": 4}}, "tap: col must be an integer from 0 to 3, got 4"),
    ({"type": "semantic", "name": "tap", "args": {"col": 1}, "duration_ms": 10}, "duration_ms must be an integer"),
    ({"type": "semantic", "name": "fly"}, "unknown semantic action 'fly'; this game has tap"),
    ({"type": ["press_key"]}, "unknown action type ['press_key']"),
    ("Space", "an action must be a JSON object, got str"),
])
def test_an_action_past_its_limits_is_refused_with_the_reason(action, reason):
    assert refusal(action, SPACE, 200).startswith(reason)


def test_a_game_without_the_pointer_or_its_own_durations_keeps_the_defaults():
    keys_only = {**{k: v for k, v in SPACE.items() if k != "step_ms_range"}, "pointer": False}
    assert refusal({"type": "left_click", "x": 1, "y": 1}, keys_only, 200) == \
        "left_click: this game does not use the pointer"
    assert refusal({"type": "drag", "x": 1, "y": 1, "to_x": 2, "to_y": 2}, keys_only, 200) == \
        "drag: this game does not use the pointer"
    assert refusal(WAIT, keys_only, 50) is None and refusal(WAIT, keys_only, 2000) is None
    assert refusal(WAIT, keys_only, 49) == "duration_ms must be an integer from 50 to 2000, got 49"


# One file for the sandbox and the client.

def test_the_client_ships_this_very_file_and_it_needs_nothing_but_the_standard_library():
    source = ROOT / "sandbox" / "protocol.py"
    assert (ROOT / "gameworld_client" / "protocol.py").read_bytes() == source.read_bytes()
    imported = {alias.name.split(".")[0] for node in ast.walk(ast.parse(source.read_text()))
                if isinstance(node, (ast.Import, ast.ImportFrom)) for alias in node.names}
    assert not any(isinstance(node, ast.ImportFrom) and node.level for node in ast.walk(ast.parse(source.read_text())))
    assert imported <= sys.stdlib_module_names, imported
