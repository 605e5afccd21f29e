"""Gymnasium spaces for a task, and the conversions between Gym actions and protocol actions (JSON).

A task's action space is described by the site and the sandbox alike (`ActionSpace.describe()`):
{"keys": [...], "pointer": bool, "viewport": {"width", "height"}, "step_ms_range": [lo, hi],
 "semantic": [{"name", "description", "args": {arg: {"min", "max"}}}]}.

Computer-use (`cua`) Gym actions: {"type": Discrete([press_key, ]wait[, left_click, mouse_move, drag]),
"key": Discrete(len(keys))[, "x": Discrete(width), "y": Discrete(height), "to_x": Discrete(width),
"to_y": Discrete(height)]} (a drag goes from (x, y) to (to_x, to_y); the other pointer actions read x and y). Key combinations and custom
durations are not in the Gym space; pass them as protocol JSON (the env takes both).

Generalist Gym actions: {"name": Discrete(len(semantic))[, "args": {"<action>.<arg>": Discrete(max-min+1,
start=min)}]}: only the chosen action's args are read, so every sample is a valid action.
"""
import string

import numpy as np
from gymnasium import spaces

from .protocol import INTERFACES, MAX_KEYS_AT_ONCE, POINTER_TYPES, interface_mismatch, refusal

TEXT_CHARSET = string.printable


class ActionError(ValueError):
    """An action outside the task's action space (the env records it as a charged invalid step)."""


def text_space(*texts, max_length=None):
    """A Text space that holds the given texts (printable ASCII plus any other character they use)."""
    charset = "".join(sorted(set(TEXT_CHARSET) | set("".join(texts))))
    longest = max((len(t) for t in texts), default=0)
    return spaces.Text(max_length=max_length or max(longest, 1), min_length=0, charset=charset)


def cua_types(desc):
    """The primitive kinds a game takes: a key press only where it has keys (a game may be pointer-only)."""
    return (("press_key",) if desc["keys"] else ()) + ("wait",) + (POINTER_TYPES if desc["pointer"] else ())


def action_space(desc, interface):
    """The Gym action space of a task for one interface."""
    if interface == "cua":
        fields = {"type": spaces.Discrete(len(cua_types(desc))), "key": spaces.Discrete(max(1, len(desc["keys"])))}
        if desc["pointer"]:
            for axis, size in _pointer_axes(desc):
                fields[axis] = spaces.Discrete(size)
        return spaces.Dict(fields)
    if interface == "generalist":
        semantic = desc["semantic"]
        if not semantic:
            raise ValueError("this game has no semantic actions: use the cua interface")
        fields = {"name": spaces.Discrete(len(semantic))}
        args = {f"{a['name']}.{arg}": spaces.Discrete(b["max"] - b["min"] + 1, start=b["min"])
                for a in semantic for arg, b in (a.get("args") or {}).items()}
        if args:
            fields["args"] = spaces.Dict(args)
        return spaces.Dict(fields)
    raise ValueError(f"interface is one of {', '.join(INTERFACES)}, got {interface!r}")


def _pointer_axes(desc):
    width, height = desc["viewport"]["width"], desc["viewport"]["height"]
    return (("x", width), ("y", height), ("to_x", width), ("to_y", height))


def is_protocol_action(action):
    return isinstance(action, dict) and isinstance(action.get("type"), str)


def to_protocol(action, desc, interface):
    """A Gym action (a sample of `action_space`) -> the protocol action JSON it stands for."""
    if is_protocol_action(action):
        return dict(action)
    if not isinstance(action, dict):
        raise ActionError(f"a Gym action of this env is a dict, got {type(action).__name__}")
    if interface == "cua":
        types = cua_types(desc)
        kind = types[_index(action, "type", len(types))]
        if kind == "press_key":
            return {"type": "press_key", "key": desc["keys"][_index(action, "key", len(desc["keys"]))]}
        if kind == "wait":
            return {"type": "wait"}
        axes = _pointer_axes(desc) if kind == "drag" else _pointer_axes(desc)[:2]
        return {"type": kind, **{axis: _index(action, axis, size) for axis, size in axes}}
    semantic = desc["semantic"]
    chosen = semantic[_index(action, "name", len(semantic))]
    out = {"type": "semantic", "name": chosen["name"]}
    declared = chosen.get("args") or {}
    if declared:
        given = action.get("args") or {}
        out["args"] = {}
        for arg in declared:
            key = f"{chosen['name']}.{arg}"
            if key not in given:
                raise ActionError(f"{chosen['name']} needs args[{key!r}]")
            out["args"][arg] = int(given[key])
    return out


def from_protocol(action, desc, interface):
    """A protocol action -> the Gym action for it, or None when the Gym space cannot express it."""
    if not is_protocol_action(action):
        return None
    if interface == "cua":
        types = cua_types(desc)
        kind = action["type"]
        if kind not in types:
            return None
        out = {"type": np.int64(types.index(kind)), "key": np.int64(0)}
        if desc["pointer"]:
            out.update({axis: np.int64(action.get(axis, 0)) for axis, _ in _pointer_axes(desc)})
        if kind == "press_key":
            if action.get("key") not in desc["keys"]:
                return None
            out["key"] = np.int64(desc["keys"].index(action["key"]))
        return out
    names = [a["name"] for a in desc["semantic"]]
    if action["type"] != "semantic" or action.get("name") not in names:
        return None
    out = {"name": np.int64(names.index(action["name"]))}
    args = {f"{a['name']}.{arg}": np.int64(b["min"]) for a in desc["semantic"]
            for arg, b in (a.get("args") or {}).items()}
    for arg, value in (action.get("args") or {}).items():
        args[f"{action['name']}.{arg}"] = np.int64(value)
    if args:
        out["args"] = args
    return out


def _index(action, field, size):
    value = action.get(field)
    try:
        index = int(value)
    except (TypeError, ValueError):
        raise ActionError(f"{field} must be an integer, got {value!r}") from None
    if not 0 <= index < size:
        raise ActionError(f"{field} must be from 0 to {size - 1}, got {index}")
    return index


def check_action(action, desc, step_ms, *, interface=None):
    """Raise ActionError unless `action` is in the task's action space: the sandbox's own rules (protocol.py
    is the sandbox's file), so that a client can tell an invalid reply before sending it; the server's check
    is the one that counts, and it also maps a semantic action through the game's manifest.

    `interface` restricts the kinds: a generalist agent sends semantic actions, a computer-use agent
    primitives. `latency_ms` is not an action field: strip it first.
    """
    problem = (interface_mismatch(action, interface) if interface else None) or refusal(action, desc, step_ms)
    if problem:
        raise ActionError(problem)


def describe_actions(desc, interface):
    """The allowed actions as text, one a line: what an agent (or a person) is told it may do."""
    lines = []
    if interface == "generalist":
        for action in desc["semantic"]:
            args = ", ".join(f"{arg}: {b['min']}..{b['max']}" for arg, b in (action.get("args") or {}).items())
            lines.append(f"{action['name']}({args}): {action.get('description', '')}".rstrip(": "))
    else:
        if desc["keys"]:
            keys = ", ".join(desc["keys"])
            lines.append(f"press_key(key): press and hold one key for the step; keys: {keys}")
            lines.append(f"press_keys(keys): hold up to {MAX_KEYS_AT_ONCE} keys together")
        if desc["pointer"]:
            w, h = desc["viewport"]["width"], desc["viewport"]["height"]
            lines.append(f"left_click(x, y): click at a point of the {w}x{h} frame (x 0..{w - 1}, y 0..{h - 1})")
            lines.append("mouse_move(x, y): move the pointer there")
            lines.append("drag(x, y, to_x, to_y): press at (x, y), move to (to_x, to_y) and release, at the start "
                         "of the step")
        lines.append("wait(): do nothing for the step")
    return "\n".join(lines)
