"""The action protocol: what an agent's action is, for the sandbox, the site and the client alike.

An action is a JSON object with a `type`: a computer-use primitive (`press_key`, `press_keys`, `left_click`,
`mouse_move`, `drag`, `wait`), or `semantic`, one of the game's own actions by name, its arguments integers. In the
realtime protocol it may also carry `latency_ms`, the time the agent took to choose it; the rest is the action's
body. A step with no valid action is recorded as {"type": "invalid", "raw": <what was sent, as text>}.

This file is the only place these rules are written. It imports only the standard library, and nothing of the
sandbox, because the client ships this very file: gameworld_client/protocol.py is a link to it.
"""
import json

# Interfaces: a computer-use agent ("cua") sends primitives, a generalist agent the semantic actions.
INTERFACES = ("cua", "generalist")
SEMANTIC = "semantic"

# Protocols: a paused game waits for the agent; a realtime one runs while the agent thinks.
PAUSED, REALTIME = "paused", "realtime"
PROTOCOLS = (PAUSED, REALTIME)

LATENCY_FIELD = "latency_ms"
MAX_LATENCY_MS = 30_000  # a slower agent is charged this much (clamp_latency)

INVALID = "invalid"  # the type of an invalid record
RAW_LIMIT = 500  # characters of an invalid action's text kept in its record

# The fields each primitive takes besides `type` and `duration_ms`.
PRIMITIVE_FIELDS = {"press_key": ("key",), "press_keys": ("keys",), "left_click": ("x", "y"),
                    "mouse_move": ("x", "y"), "drag": ("x", "y", "to_x", "to_y"), "wait": ()}
PRIMITIVE_TYPES = tuple(PRIMITIVE_FIELDS)
POINTER_TYPES = ("left_click", "mouse_move", "drag")
# A drag presses at (x, y), moves through this many evenly spaced points to (to_x, to_y) and releases there, all at
# the start of its step (then the step's time runs), so a game reads the whole stroke at one instant of its clock.
DRAG_POINTS = 8
SEMANTIC_FIELDS = ("type", "name", "args", "duration_ms")
MAX_KEYS_AT_ONCE = 4  # in one press_keys
DEFAULT_STEP_MS_RANGE = (50, 2000)  # the durations an action may ask for, unless its game says otherwise


class ProtocolError(ValueError):
    """An action breaks the run's protocol: `latency_ms` on a paused run, or a latency out of range."""


# Interfaces.

def interface_of(action):
    """The interface an action belongs to: "generalist" for a semantic action, "cua" for any other type (an
    unknown one included: the action space refuses it anyway); None for an invalid record or a non-object,
    which belong to no interface."""
    if not isinstance(action, dict) or action.get("type") == INVALID:
        return None
    return "generalist" if action.get("type") == SEMANTIC else "cua"


def interface_mismatch(action, interface):
    """Why an action does not belong to the declared interface (the track a submission ranks in is the one
    its actions show, not the one it claims), or None."""
    if interface_of(action) in (None, interface):
        return None
    if interface == "cua":
        return ('a semantic action in a computer-use ("cua") submission: computer-use agents press keys and '
                'click; declare "interface": "generalist" for semantic actions')
    return (f'a {str(action.get("type"))[:40]!r} action in a generalist submission: generalist agents call '
            'the semantic actions; declare "interface": "cua" for key presses and clicks')


# Latency: the realtime part of an action.

def check_latency(value):
    """(latency, None) for a valid realtime latency, else (None, the reason the step is invalid)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_LATENCY_MS:
        return None, f"{LATENCY_FIELD} must be an integer from 0 to {MAX_LATENCY_MS}, got {value!r}"
    return value, None


def latency_json_schema():
    """check_latency's rule as JSON Schema, for the upload format's schema."""
    return {"type": "integer", "minimum": 0, "maximum": MAX_LATENCY_MS}


def action_body(action):
    """The action without its latency (anything that is not an object is its own body)."""
    if not (isinstance(action, dict) and LATENCY_FIELD in action):
        return action
    return {key: value for key, value in action.items() if key != LATENCY_FIELD}


def read_latency(action):
    """(body, latency, problem): latency None for a paused step (no `latency_ms`); when the latency is out of
    range, latency None and the reason in `problem` (the step is charged as invalid)."""
    if not (isinstance(action, dict) and LATENCY_FIELD in action):
        return action, None, None
    latency, problem = check_latency(action[LATENCY_FIELD])
    return action_body(action), latency, problem


def split_latency(action, *, protocol):
    """(body, latency or None) for a run of `protocol`, as live sessions and the client take actions in;
    ProtocolError when the latency does not belong (a paused run) or is out of range."""
    body, latency, problem = read_latency(action)
    if latency is None and problem is None:
        return body, None
    if protocol != REALTIME:
        raise ProtocolError(f"{LATENCY_FIELD} belongs to the {REALTIME} protocol; this run is {protocol}")
    if problem:
        raise ProtocolError(problem)
    return body, latency


def clamp_latency(ms):
    """A measured time as the latency an action carries: whole milliseconds, from 0 to MAX_LATENCY_MS."""
    return min(MAX_LATENCY_MS, max(0, round(ms)))


def with_latency(body, latency):
    """The action as a realtime run records it: its body with `latency_ms` (the body alone when None)."""
    return body if latency is None else {**body, LATENCY_FIELD: latency}


# The invalid record.

def invalid_record(raw):
    """How a step with no valid action is recorded (and replayed as a charged invalid step): what was sent,
    as text (JSON for data), cut to RAW_LIMIT characters."""
    if not isinstance(raw, str):
        try:
            raw = json.dumps(raw, ensure_ascii=False, default=repr)
        except (TypeError, ValueError):
            raw = repr(raw)
    return {"type": INVALID, "raw": raw[:RAW_LIMIT]}


def is_invalid_record(action):
    return isinstance(action, dict) and action.get("type") == INVALID


# The limits of an action in a game's action space, described as ActionSpace.describe() gives it:
# {"keys", "pointer", "viewport": {"width", "height"}, "step_ms_range", "semantic": [{"name", "args"}]}.

def refusal(action, space, default_ms):
    """Why `action` is not an action of `space`, or None. A semantic action is checked as far as its
    description goes (name, fields, arguments, duration); the sandbox then maps it to the primitive that
    its game's manifest gives and checks that primitive too."""
    if not isinstance(action, dict):
        return f"an action must be a JSON object, got {type(action).__name__}"
    kind = action.get("type")
    if kind == SEMANTIC:
        return semantic_refusal(action, space) or _duration_refusal(action.get("duration_ms", default_ms), space)
    if kind in PRIMITIVE_TYPES:  # a tuple: a type may be any JSON value, a list too
        return _primitive_refusal(action, space, default_ms)
    return f"unknown action type {kind!r}; expected one of {', '.join((*PRIMITIVE_TYPES, SEMANTIC))}"


def semantic_refusal(action, space):
    """Why a semantic action is not one of `space`'s (its fields, its name, its arguments), or None."""
    problem = _extra_fields_refusal(action, SEMANTIC, SEMANTIC_FIELDS)
    if problem:
        return problem
    name = action.get("name")
    spec = next((known for known in space["semantic"] if known["name"] == name), None)
    if spec is None:
        return (f"unknown semantic action {name!r}; this game has "
                f"{', '.join(sorted(known['name'] for known in space['semantic'])) or 'none'}")
    args = action.get("args", {})
    if not isinstance(args, dict):
        return f"{name}: args must be an object"
    declared = spec.get("args") or {}
    if set(args) != set(declared):
        return f"{name}: expects args {sorted(declared)}, got {sorted(args)}"
    for arg, bounds in declared.items():
        value = args[arg]
        if not _is_int(value) or not bounds["min"] <= value <= bounds["max"]:
            return f"{name}: {arg} must be an integer from {bounds['min']} to {bounds['max']}, got {value!r}"
    return None


def _primitive_refusal(action, space, default_ms):
    kind = action["type"]
    problem = (_extra_fields_refusal(action, kind, ("type", "duration_ms", *PRIMITIVE_FIELDS[kind]))
               or _duration_refusal(action.get("duration_ms", default_ms), space))
    if problem:
        return problem
    if kind == "press_key":
        return _key_refusal(action.get("key"), space)
    if kind == "press_keys":
        keys = action.get("keys")
        if not isinstance(keys, list) or not 1 <= len(keys) <= MAX_KEYS_AT_ONCE:
            return f"press_keys needs `keys`, a list of 1 to {MAX_KEYS_AT_ONCE} keys"
        if len(set(map(str, keys))) != len(keys):
            return "press_keys lists a key twice"
        return next(filter(None, (_key_refusal(key, space) for key in keys)), None)
    if kind in POINTER_TYPES:
        if not space["pointer"]:
            return f"{kind}: this game does not use the pointer"
        width, height = space["viewport"]["width"], space["viewport"]["height"]
        axes = (("x", width), ("y", height)) + ((("to_x", width), ("to_y", height)) if kind == "drag" else ())
        for axis, size in axes:
            value = action.get(axis)
            if not _is_int(value) or not 0 <= value < size:
                return f"{kind}: {axis} must be an integer from 0 to {size - 1}, got {value!r}"
    return None


def _extra_fields_refusal(action, kind, allowed):
    extra = sorted(map(str, set(action) - set(allowed)))
    return f"{kind} does not take {', '.join(extra)[:200]}" if extra else None


def _duration_refusal(duration, space):
    low, high = space.get("step_ms_range", DEFAULT_STEP_MS_RANGE)
    if not _is_int(duration) or not low <= duration <= high:
        return f"duration_ms must be an integer from {low} to {high}, got {duration!r}"
    return None


def _key_refusal(key, space):
    if key not in space["keys"]:
        return f"key {key!r} is not in this game's keys ({', '.join(space['keys'])})"
    return None


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


# Words and state.

def describe_action(action):
    """An action as people say it, e.g. `press ArrowUp`, `click (120, 88)`, `reveal(col=2, row=3)`."""
    if not isinstance(action, dict):
        return repr(action)
    kind = action.get("type")
    if kind == "press_key":
        text = f"press {action.get('key')}"
    elif kind == "press_keys":
        text = "press " + "+".join(map(str, action.get("keys") or []))
    elif kind == "drag":
        text = f"drag ({action.get('x')}, {action.get('y')}) to ({action.get('to_x')}, {action.get('to_y')})"
    elif kind in POINTER_TYPES:
        text = f"{'click' if kind == 'left_click' else 'move'} ({action.get('x')}, {action.get('y')})"
    elif kind == SEMANTIC:
        args = action.get("args") or {}
        text = f"{action.get('name')}({', '.join(f'{k}={v}' for k, v in args.items())})"
    elif kind == INVALID:
        text = "no valid action"
    else:
        text = str(kind)
    if "duration_ms" in action:
        text += f" for {action['duration_ms']} ms"
    return text


def read_field(state, dotted):
    """The value at a dotted path of a state dict, or None when the path is absent."""
    value = state
    for part in dotted.split("."):
        if not isinstance(value, dict) or part not in value:
            return None
        value = value[part]
    return value
