"""A Game Boy game's state, read from its RAM (and screen) as its manifest declares. No PyBoy import.

The manifest's `gameboy` section declares:

  fields:   name -> a RAM field  {"address": "0xC002", "size": 2, "signed": false, "bcd": false,
                                  "endian": "little", "mask": 255, "map": {"0": "right", ...}}
                    or a screen field {"screen": {"x": 40, "y": 64, "width": 80, "height": 16},
                                  "reference": "refs/game_over.png", "threshold": 8}
            A RAM field is `size` bytes (1-4) from `address`, little-endian unless `endian` is "big",
            binary-coded decimal when `bcd` (two digits a byte), two's complement when `signed`, then
            ANDed with `mask`, then looked up in `map` (values not in the map stay numbers). A screen field
            is true when the mean absolute difference between that region of the current frame (RGB,
            0-255) and the stored reference capture is at most `threshold` (as GameBoyWorlds matches).
  status:     {"field": "mode", "map": {"0": "loading", "1": "playing", "2": "terminal"}, "default": "playing"}
  actionable: a condition; the readiness gate waits for it after every (re)start
  terminal:   {"lose": {"when": condition, "reason": "..."}, "win": {"when": condition, "reason": "..."}}

A condition is {"field": name, <op>: value} with op one of eq ne lt le gt ge in not_in, or
{"all": [conditions]}, {"any": [conditions]}, {"not": condition}; it compares the field's exposed value
(after `map`). `score` must be one of the fields. Nothing in a manifest is executed.
"""
import operator
from dataclasses import dataclass
from pathlib import Path

SCREEN_W, SCREEN_H = 160, 144
OPS = ("eq", "ne", "lt", "le", "gt", "ge", "in", "not_in")


class SpecProblem(Exception):
    """A problem in the gameboy section: `where` is the dotted path inside it."""

    def __init__(self, where, problem):
        self.where, self.problem = where, problem
        super().__init__(f"{where}: {problem}")


def parse_address(value, where):
    if isinstance(value, bool):
        raise SpecProblem(where, "an address is an integer or a string like \"0xC000\"")
    if isinstance(value, str):
        try:
            value = int(value, 16) if value.lower().startswith("0x") else int(value)
        except ValueError:
            raise SpecProblem(where, f"{value!r} is not an address (write it like \"0xC000\")") from None
    if not isinstance(value, int) or not 0 <= value <= 0xFFFF:
        raise SpecProblem(where, f"{value!r} is not an address from 0x0000 to 0xFFFF")
    return value


@dataclass(frozen=True)
class RamField:
    name: str
    address: int
    size: int = 1
    signed: bool = False
    bcd: bool = False
    big_endian: bool = False
    mask: int = None
    mapping: dict = None

    def decode(self, data):
        """`data`: the field's bytes in address order."""
        ordered = list(data) if self.big_endian else list(reversed(data))  # most significant first
        if self.bcd:
            value = 0
            for byte in ordered:
                value = value * 100 + (byte >> 4) * 10 + (byte & 0x0F)
        else:
            value = 0
            for byte in ordered:
                value = value << 8 | byte
            if self.signed and value >= 1 << (8 * self.size - 1):
                value -= 1 << (8 * self.size)
        if self.mask is not None:
            value &= self.mask
        if self.mapping is not None:
            return self.mapping.get(str(value), value)
        return value


@dataclass(frozen=True)
class ScreenField:
    name: str
    x: int
    y: int
    width: int
    height: int
    reference: object  # numpy int16 array (height, width, 3)
    threshold: float

    def distance(self, screen_rgb):
        import numpy

        region = screen_rgb[self.y:self.y + self.height, self.x:self.x + self.width, :3]
        difference = numpy.subtract(region, self.reference, dtype=numpy.int16)
        numpy.abs(difference, out=difference)
        return int(difference.sum()) / difference.size

    def decode(self, screen_rgb):
        return self.distance(screen_rgb) <= self.threshold


def _ram_field(name, spec, where):
    allowed = {"address", "size", "signed", "bcd", "endian", "mask", "map"}
    extra = sorted(set(spec) - allowed)
    if extra:
        raise SpecProblem(where, f"unknown key(s) {', '.join(extra)}")
    size = spec.get("size", 1)
    if isinstance(size, bool) or size not in (1, 2, 3, 4):
        raise SpecProblem(f"{where}.size", "a field is 1 to 4 bytes")
    address = parse_address(spec.get("address"), f"{where}.address")
    if address + size - 1 > 0xFFFF:
        raise SpecProblem(f"{where}.address", "the field runs past 0xFFFF")
    endian = spec.get("endian", "little")
    if endian not in ("little", "big"):
        raise SpecProblem(f"{where}.endian", "is \"little\" or \"big\"")
    if spec.get("bcd") and spec.get("signed"):
        raise SpecProblem(where, "a BCD field cannot also be signed")
    mask = spec.get("mask")
    if mask is not None and (isinstance(mask, bool) or not isinstance(mask, int) or mask < 0):
        raise SpecProblem(f"{where}.mask", "is a non-negative integer")
    mapping = spec.get("map")
    if mapping is not None and (not isinstance(mapping, dict) or not all(k.lstrip("-").isdigit() for k in mapping)):
        raise SpecProblem(f"{where}.map", "maps integer values (written as strings) to what the state shows")
    return RamField(name=name, address=address, size=size, signed=bool(spec.get("signed")),
                    bcd=bool(spec.get("bcd")), big_endian=endian == "big", mask=mask, mapping=mapping)


def _screen_field(name, spec, where, bundle_dir):
    import numpy
    from PIL import Image

    region = spec.get("screen")
    if not isinstance(region, dict) or set(region) != {"x", "y", "width", "height"}:
        raise SpecProblem(f"{where}.screen", "is {x, y, width, height} in screen pixels")
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in region.values()):
        raise SpecProblem(f"{where}.screen", "x, y, width and height are integers")
    x, y, w, h = region["x"], region["y"], region["width"], region["height"]
    if x < 0 or y < 0 or w < 1 or h < 1 or x + w > SCREEN_W or y + h > SCREEN_H:
        raise SpecProblem(f"{where}.screen", f"the region must lie inside the {SCREEN_W}x{SCREEN_H} screen")
    threshold = spec.get("threshold")
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float)) or not 0 <= threshold <= 255:
        raise SpecProblem(f"{where}.threshold", "is the largest mean absolute difference (0-255) that matches")
    reference = spec.get("reference")
    path = (Path(bundle_dir) / str(reference)).resolve()
    if not isinstance(reference, str) or not path.is_relative_to(Path(bundle_dir).resolve()) or not path.is_file():
        raise SpecProblem(f"{where}.reference", f"{reference!r} is not an image file inside the bundle")
    with Image.open(path) as image:
        if image.size != (w, h):
            raise SpecProblem(f"{where}.reference", f"the capture is {image.size[0]}x{image.size[1]}, the region "
                                                    f"{w}x{h}")
        pixels = numpy.asarray(image.convert("RGB"), dtype=numpy.int16)
    return ScreenField(name=name, x=x, y=y, width=w, height=h, reference=pixels, threshold=float(threshold))


def _condition(spec, fields, where):
    if not isinstance(spec, dict):
        raise SpecProblem(where, "a condition is an object")
    if set(spec) == {"all"} or set(spec) == {"any"}:
        key = next(iter(spec))
        if not isinstance(spec[key], list) or not spec[key]:
            raise SpecProblem(f"{where}.{key}", "is a non-empty list of conditions")
        return (key, [_condition(c, fields, f"{where}.{key}[{i}]") for i, c in enumerate(spec[key])])
    if set(spec) == {"not"}:
        return ("not", _condition(spec["not"], fields, f"{where}.not"))
    ops = [op for op in spec if op != "field"]
    if "field" not in spec or len(ops) != 1 or ops[0] not in OPS:
        raise SpecProblem(where, f"a condition is {{\"field\": name, op: value}} with one op of {', '.join(OPS)}, "
                                 "or all / any / not")
    if spec["field"] not in fields:
        raise SpecProblem(f"{where}.field", f"{spec['field']!r} is not a declared field")
    op = ops[0]
    if op in ("in", "not_in") and not isinstance(spec[op], list):
        raise SpecProblem(f"{where}.{op}", "is a list of values")
    return ("cmp", spec["field"], op, spec[op])


_COMPARE = {"eq": operator.eq, "ne": operator.ne, "lt": operator.lt, "le": operator.le, "gt": operator.gt,
            "ge": operator.ge, "in": lambda value, target: value in target,
            "not_in": lambda value, target: value not in target}


def evaluate(condition, values):
    kind = condition[0]
    if kind == "all":
        return all(evaluate(c, values) for c in condition[1])
    if kind == "any":
        return any(evaluate(c, values) for c in condition[1])
    if kind == "not":
        return not evaluate(condition[1], values)
    _, field, op, target = condition
    try:
        return bool(_COMPARE[op](values[field], target))
    except TypeError:  # comparing a mapped name with a number: not true
        return False


class StateSpec:
    """The compiled `gameboy` section: turns RAM bytes and the screen into the game's state dict."""

    def __init__(self, section, bundle_dir):
        fields = section.get("fields")
        if not isinstance(fields, dict) or not fields:
            raise SpecProblem("fields", "declare at least the game's `score`")
        self.ram, self.screen = [], []
        for name, spec in fields.items():
            where = f"fields.{name}"
            if name in ("status", "actionable", "terminal"):
                raise SpecProblem(where, f"{name!r} is made by the sandbox; give the field another name")
            if not isinstance(spec, dict):
                raise SpecProblem(where, "a field is an object")
            if "screen" in spec:
                self.screen.append(_screen_field(name, spec, where, bundle_dir))
            else:
                self.ram.append(_ram_field(name, spec, where))
        if "score" not in fields:
            raise SpecProblem("fields", "declare the `score` field (every state has a score)")
        self.names = list(fields)
        status = section.get("status", {})
        if not isinstance(status, dict) or (status and status.get("field") not in fields):
            raise SpecProblem("status.field", "names a declared field")
        self.status_field = status.get("field")
        self.status_map = status.get("map", {})
        self.status_default = status.get("default", "playing")
        if "actionable" not in section:
            raise SpecProblem("actionable", "a condition is needed: the readiness gate waits for it")
        self.actionable = _condition(section["actionable"], fields, "actionable")
        terminal = section.get("terminal", {})
        self.lose = self.win = None
        for outcome in ("lose", "win"):
            if outcome in terminal:
                spec = terminal[outcome]
                if not isinstance(spec, dict) or "when" not in spec:
                    raise SpecProblem(f"terminal.{outcome}", "is {\"when\": condition, \"reason\": text}")
                setattr(self, outcome, (_condition(spec["when"], fields, f"terminal.{outcome}.when"),
                                        str(spec.get("reason", f"the game was {'won' if outcome == 'win' else 'lost'}"))))
        self.needs_screen = bool(self.screen)
        self.spans = _spans(self.ram)

    def read(self, memory, screen_rgb=None):
        """`memory(address, size) -> bytes`; `screen_rgb`: the frame as a (144, 160, >=3) array."""
        values = {}
        for start, size, fields in self.spans:  # one read per run of nearby fields
            data = memory(start, size)
            for field in fields:
                offset = field.address - start
                values[field.name] = field.decode(data[offset:offset + field.size])
        for field in self.screen:
            values[field.name] = field.decode(screen_rgb)
        terminal = {"is_terminal": False, "outcome": None, "reason": None}
        for outcome, spec in (("lose", self.lose), ("win", self.win)):
            if spec is not None and evaluate(spec[0], values):
                terminal = {"is_terminal": True, "outcome": outcome, "reason": spec[1]}
                break
        if self.status_field is not None:
            raw = values[self.status_field]
            status = self.status_map.get(str(raw), self.status_default)
        else:
            status = self.status_default
        if terminal["is_terminal"]:
            status = "terminal"
        actionable = evaluate(self.actionable, values) and not terminal["is_terminal"]
        state = {"status": status, "actionable": actionable, "terminal": terminal, "score": values["score"]}
        for name in self.names:
            state[name] = values[name]
        return state


def _spans(fields, gap=32):
    """Group RAM fields into (start, size, fields) runs that one memory read covers."""
    spans = []
    for field in sorted(fields, key=lambda f: f.address):
        end = field.address + field.size
        if spans and field.address - (spans[-1][0] + spans[-1][1]) <= gap:
            start, size, members = spans[-1]
            spans[-1] = (start, max(size, end - start), members + [field])
        else:
            spans.append((field.address, field.size, [field]))
    return spans
