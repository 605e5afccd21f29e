"""The action space of a game: which JSON actions are valid, and how semantic actions map to primitives.

Computer-use actions are applied as they are; a semantic action is mapped, through the game's manifest,
to exactly one computer-use action. Mapping is data-driven (literal values or `offset + scale * arg`);
nothing from a manifest or an upload is ever executed. What makes an action valid is written once, in
sandbox/protocol.py, which the client shares.
"""
import random
from dataclasses import dataclass
from functools import cached_property

from .errors import InvalidAction
from .protocol import (DEFAULT_STEP_MS_RANGE, INTERFACES, POINTER_TYPES, PRIMITIVE_FIELDS, SEMANTIC, refusal,
                       semantic_refusal)


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
        if isinstance(action, dict) and action.get("type") == SEMANTIC:
            problem = semantic_refusal(action, self.described)
            if problem:
                raise InvalidAction(problem)
            action = self._bind_semantic(action)
        problem = refusal(action, self.described, default_ms)  # a bound action too: a manifest may be wrong
        if problem:
            raise InvalidAction(problem)
        kind = action["type"]
        return {"type": kind, "duration_ms": action.get("duration_ms", default_ms),
                **{field: action[field] for field in PRIMITIVE_FIELDS[kind]}}

    def _bind_semantic(self, action):
        """The primitive a valid semantic action stands for, through the manifest (its duration, if given)."""
        args = action.get("args", {})
        primitive = {key: _bind_value(value, args) for key, value in self.semantic[action["name"]]["action"].items()}
        if "duration_ms" in action:
            primitive["duration_ms"] = action["duration_ms"]
        return primitive

    @cached_property
    def bound_combinations(self):
        """The key combinations (two keys or more) the game's semantic actions stand for, in manifest order."""
        combos = []
        for spec in self.semantic.values():
            keys = spec["action"].get("keys") if spec["action"].get("type") == "press_keys" else None
            if isinstance(keys, list) and len(keys) > 1 and tuple(keys) not in combos:
                combos.append(tuple(keys))
        return combos

    @cached_property
    def described(self):
        """describe(), kept: every step's action is checked against it."""
        return self.describe()

    def describe(self):
        """The action space as data, for agents, the play page and the docs."""
        return {
            "keys": list(self.keys), "pointer": self.pointer,
            "viewport": {"width": self.width, "height": self.height},
            "step_ms_range": list(self.step_ms_range),
            "semantic": [{"name": name, **{k: v for k, v in spec.items() if k != "action"}}
                         for name, spec in self.semantic.items()],
        }


RANDOM_FLOOR = 2  # the random agent of every kind of action alike (key pairs, the pointer, drags); 1 was the first


def random_action(space, rng, interface="cua"):
    """One uniform draw from a game's action space for an interface: the random floor every task is
    calibrated against (docs/game-authors.md, "The calibration gate") and the random baselines.

    `cua`: first a kind of action, each as likely: press one key, press two keys together (half the time a
    combination one of the game's semantic actions binds, such as jump and right, else any two of its keys),
    wait, and where the game takes the pointer a click, a pointer move and a drag at uniform points; then the
    action of that kind. So a combo is drawn about as often as any single key is: a random agent also holds
    "jump and right". `generalist`: one of the game's semantic actions, each as likely, its arguments uniform
    in their declared bounds. A pure function of the space and `rng` (a `random.Random`), so a run is replayed
    from its seed.
    """
    if interface == "cua":
        kind = rng.choice(_cua_kinds(space))
        if kind == "press_key":
            return {"type": "press_key", "key": rng.choice(space.keys)}
        if kind == "press_keys":
            bound = space.bound_combinations
            keys = rng.choice(bound) if bound and rng.random() < 0.5 else rng.sample(space.keys, 2)
            return {"type": "press_keys", "keys": list(keys)}
        if kind == "wait":
            return {"type": "wait"}
        point = {"x": rng.randrange(space.width), "y": rng.randrange(space.height)}
        if kind == "drag":
            point.update(to_x=rng.randrange(space.width), to_y=rng.randrange(space.height))
        return {"type": kind, **point}
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


def _cua_kinds(space):
    kinds = ["press_key"] if space.keys else []
    if len(space.keys) > 1:
        kinds.append("press_keys")
    kinds.append("wait")
    if space.pointer:
        kinds += POINTER_TYPES
    return kinds


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
