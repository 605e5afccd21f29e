"""The action space of a game: which JSON actions are valid, and how semantic actions map to primitives.

Computer-use actions are applied as they are; a semantic action is mapped, through the game's manifest,
to exactly one computer-use action. Mapping is data-driven (literal values or `offset + scale * arg`);
nothing from a manifest or an upload is ever executed.
"""
import random
from dataclasses import dataclass

from .errors import InvalidAction

INTERFACES = ("cua", "generalist")  # computer-use agents send primitives, generalist agents semantic actions
PRIMITIVE_TYPES = ("press_key", "press_keys", "left_click", "mouse_move", "wait")
SEMANTIC_FIELDS = {"type", "name", "args", "duration_ms"}
POINTER_TYPES = ("left_click", "mouse_move")
DEFAULT_STEP_MS_RANGE = (50, 2000)


@dataclass(frozen=True)
class ActionSpace:
    keys: tuple
    pointer: bool
    width: int
    height: int
    semantic: dict  # name -> {"description", "args", "action"}
    step_ms_range: tuple = DEFAULT_STEP_MS_RANGE

    def resolve(self, action, default_ms):
        """Return the primitive action to apply, with its `duration_ms`, or raise InvalidAction."""
        if not isinstance(action, dict):
            raise InvalidAction(f"an action must be a JSON object, got {type(action).__name__}")
        kind = action.get("type")
        if kind == "semantic":
            extra = sorted(map(str, set(action) - SEMANTIC_FIELDS))
            if extra:
                raise InvalidAction(f"semantic does not take {', '.join(extra)[:200]}")
            primitive = self._bind_semantic(action)
            if "duration_ms" in action:
                primitive["duration_ms"] = action["duration_ms"]
        elif kind in PRIMITIVE_TYPES:
            primitive = dict(action)
        else:
            raise InvalidAction(f"unknown action type {kind!r}; expected one of "
                                f"{', '.join(PRIMITIVE_TYPES + ('semantic',))}")
        return self._check_primitive(primitive, default_ms)

    def _check_primitive(self, action, default_ms):
        kind = action["type"]
        allowed = {"type", "duration_ms"} | {
            "press_key": {"key"}, "press_keys": {"keys"}, "left_click": {"x", "y"},
            "mouse_move": {"x", "y"}, "wait": set()}[kind]
        extra = sorted(map(str, set(action) - allowed))
        if extra:
            raise InvalidAction(f"{kind} does not take {', '.join(extra)[:200]}")
        duration = action.get("duration_ms", default_ms)
        low, high = self.step_ms_range
        if not _is_int(duration) or not low <= duration <= high:
            raise InvalidAction(f"duration_ms must be an integer from {low} to {high}, got {duration!r}")
        out = {"type": kind, "duration_ms": duration}
        if kind == "press_key":
            out["key"] = self._check_key(action.get("key"))
        elif kind == "press_keys":
            keys = action.get("keys")
            if not isinstance(keys, list) or not 1 <= len(keys) <= 4:
                raise InvalidAction("press_keys needs `keys`, a list of 1 to 4 keys")
            if len(set(map(str, keys))) != len(keys):
                raise InvalidAction("press_keys lists a key twice")
            out["keys"] = [self._check_key(k) for k in keys]
        elif kind in POINTER_TYPES:
            if not self.pointer:
                raise InvalidAction(f"{kind}: this game does not use the pointer")
            for axis, size in (("x", self.width), ("y", self.height)):
                value = action.get(axis)
                if not _is_int(value) or not 0 <= value < size:
                    raise InvalidAction(f"{kind}: {axis} must be an integer from 0 to {size - 1}, got {value!r}")
                out[axis] = value
        return out

    def _check_key(self, key):
        if key not in self.keys:
            raise InvalidAction(f"key {key!r} is not in this game's keys ({', '.join(self.keys)})")
        return key

    def _bind_semantic(self, action):
        name = action.get("name")
        spec = self.semantic.get(name) if isinstance(name, str) else None
        if spec is None:
            raise InvalidAction(f"unknown semantic action {name!r}; this game has "
                                f"{', '.join(sorted(self.semantic)) or 'none'}")
        args = action.get("args", {})
        if not isinstance(args, dict):
            raise InvalidAction(f"{name}: args must be an object")
        declared = spec.get("args", {})
        if set(args) != set(declared):
            raise InvalidAction(f"{name}: expects args {sorted(declared)}, got {sorted(args)}")
        for arg, bounds in declared.items():
            value = args[arg]
            if not _is_int(value) or not bounds["min"] <= value <= bounds["max"]:
                raise InvalidAction(f"{name}: {arg} must be an integer from {bounds['min']} to "
                                    f"{bounds['max']}, got {value!r}")
        return {key: _bind_value(value, args) for key, value in spec["action"].items()}

    def describe(self):
        """The action space as data, for agents, the play page and the docs."""
        return {
            "keys": list(self.keys), "pointer": self.pointer,
            "viewport": {"width": self.width, "height": self.height},
            "step_ms_range": list(self.step_ms_range),
            "semantic": [{"name": name, **{k: v for k, v in spec.items() if k != "action"}}
                         for name, spec in self.semantic.items()],
        }


def random_action(space, rng, interface="cua"):
    """One uniform draw from a game's action space for an interface: the random floor every task is
    calibrated against (docs/game-authors.md, "The calibration gate") and the random baselines.

    `cua`: press one of the game's keys, wait, or (where the game uses the pointer) left-click at a uniform
    point. `generalist`: one of the game's semantic actions, its arguments uniform in their declared bounds.
    A pure function of the space and `rng` (a `random.Random`), so a run is replayed from its seed.
    """
    if interface == "cua":
        choices = [{"type": "press_key", "key": key} for key in space.keys] + [{"type": "wait"}]
        if space.pointer:
            choices.append("click")
        action = rng.choice(choices)
        if action == "click":
            return {"type": "left_click", "x": rng.randrange(space.width), "y": rng.randrange(space.height)}
        return action
    if interface == "generalist":
        if not space.semantic:
            raise ValueError("this game has no semantic actions: the generalist interface cannot play it")
        name = rng.choice(list(space.semantic))
        declared = space.semantic[name].get("args", {})
        action = {"type": "semantic", "name": name}
        if declared:
            action["args"] = {arg: rng.randint(bounds["min"], bounds["max"]) for arg, bounds in declared.items()}
        return action
    raise ValueError(f"unknown interface {interface!r}; expected one of {', '.join(INTERFACES)}")


class RandomActions:
    """A uniform random agent of one interface: `random_action` drawn from its own seeded generator."""

    def __init__(self, space, interface, seed):
        if interface not in INTERFACES:
            raise ValueError(f"interface is one of {', '.join(INTERFACES)}, got {interface!r}")
        if interface == "generalist" and not space.semantic:
            raise ValueError("this game has no semantic actions: use the cua interface")
        self.space, self.interface, self.rng = space, interface, random.Random(seed)

    def __call__(self):
        return random_action(self.space, self.rng, self.interface)


def _bind_value(value, args):
    if isinstance(value, dict) and "arg" in value:
        return value.get("offset", 0) + value.get("scale", 1) * args[value["arg"]]
    return value


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def describe(action):
    """A short human reading of an action, e.g. `press ArrowUp`, `click (120, 88)`, `reveal(col=2, row=3)`."""
    if not isinstance(action, dict):
        return repr(action)
    kind = action.get("type")
    if kind == "press_key":
        text = f"press {action.get('key')}"
    elif kind == "press_keys":
        text = "press " + "+".join(map(str, action.get("keys") or []))
    elif kind in POINTER_TYPES:
        text = f"{'click' if kind == 'left_click' else 'move'} ({action.get('x')}, {action.get('y')})"
    elif kind == "semantic":
        args = action.get("args") or {}
        text = f"{action.get('name')}({', '.join(f'{k}={v}' for k, v in args.items())})"
    elif kind == "invalid":
        text = "no valid action"
    else:
        text = str(kind)
    if "duration_ms" in action:
        text += f" for {action['duration_ms']} ms"
    return text
