"""Game bundle manifests: load, validate (schema, then cross-field rules) and expose as specs."""
import hashlib
import json
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import jsonschema

from .actions import DEFAULT_STEP_MS_RANGE, ActionSpace
from .errors import InvalidAction, ManifestError

SCHEMA_PATH = Path(__file__).with_name("manifest.schema.json")


@dataclass(frozen=True)
class Trajectory:
    seed: int
    actions: list

    @classmethod
    def from_dict(cls, data):
        return cls(seed=data["seed"], actions=list(data["actions"]))

    def to_dict(self):
        return {"seed": self.seed, "actions": self.actions}


@dataclass(frozen=True)
class GameSpec:
    slug: str
    title: str
    version: str
    genre: str
    level: int
    backend: str
    bundle_dir: Path
    manifest: dict = field(repr=False, compare=False)

    @cached_property
    def action_space(self):
        viewport = self.manifest["viewport"]
        return ActionSpace(
            keys=tuple(self.manifest["keys"]), pointer=self.manifest["pointer"],
            width=viewport["width"], height=viewport["height"],
            semantic={a["name"]: a for a in self.manifest["semantic_actions"]},
            step_ms_range=tuple(self.manifest.get("step_ms_range", DEFAULT_STEP_MS_RANGE)))

    @property
    def entry(self):
        return self.manifest.get("entry", "index.html")

    @property
    def viewport(self):
        return self.manifest["viewport"]

    @property
    def state_fields(self):
        return self.manifest["state_fields"]

    @property
    def description(self):
        return self.manifest.get("description", "")

    @property
    def fail_trajectory(self):
        fail = self.manifest.get("tests", {}).get("fail")
        return Trajectory.from_dict(fail) if fail else None

    @cached_property
    def tasks(self):
        return {t["slug"]: TaskSpec.from_dict(self, t) for t in self.manifest["tasks"]}


@dataclass(frozen=True)
class TaskSpec:
    game: GameSpec
    slug: str
    version: int
    title: str
    instruction: str
    score_field: str
    start: object  # a number, or "state": read from the first ready frame
    target: float
    max_actions: int
    step_ms: int
    seeds: tuple
    reference: Trajectory
    null: Trajectory

    @classmethod
    def from_dict(cls, game, data):
        return cls(game=game, slug=data["slug"], version=data["version"], title=data["title"],
                   instruction=data["instruction"], score_field=data["score_field"], start=data["start"],
                   target=data["target"], max_actions=data["max_actions"], step_ms=data["step_ms"],
                   seeds=tuple(data["seeds"]), reference=Trajectory.from_dict(data["reference"]),
                   null=Trajectory.from_dict(data["null"]))

    @property
    def id(self):
        return f"{self.game.slug}/{self.slug}@{self.version}"

    def to_dict(self):
        """The task as stored in the database: everything needed to replay it against its game."""
        return {"slug": self.slug, "version": self.version, "title": self.title,
                "instruction": self.instruction, "score_field": self.score_field, "start": self.start,
                "target": self.target, "max_actions": self.max_actions, "step_ms": self.step_ms,
                "seeds": list(self.seeds), "reference": self.reference.to_dict(), "null": self.null.to_dict()}


def load_manifest(bundle_dir):
    """Read and validate `<bundle_dir>/manifest.json`; raise ManifestError naming file and field."""
    bundle_dir = Path(bundle_dir).resolve()
    path = bundle_dir / "manifest.json"
    try:
        raw = path.read_bytes()
        data = json.loads(raw.decode("utf-8"))
    except FileNotFoundError:
        raise ManifestError(path, "(file)", "no manifest.json in this bundle") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ManifestError(path, "(file)", f"not valid JSON: {exc}") from None
    digest = hashlib.sha256(raw).digest()
    if digest not in _SCHEMA_VALID:
        _check_schema(data, path)
        _SCHEMA_VALID.add(digest)
    _check_cross_fields(data, path)
    return GameSpec(slug=data["slug"], title=data["title"], version=data["version"], genre=data["genre"],
                    level=data["level"], backend=data["backend"], bundle_dir=bundle_dir, manifest=data)


# The sha256 of every manifest file this process found valid against the schema (the same bytes are valid again;
# the checks against the bundle's other files run every time).
_SCHEMA_VALID = set()


def _check_schema(data, path):
    error = jsonschema.exceptions.best_match(_validator().iter_errors(data))
    if error is not None:
        where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path).lstrip(".")
        raise ManifestError(path, where or "(top level)", error.message)


def _check_cross_fields(data, path):
    bundle_dir = path.parent
    if data["slug"] != bundle_dir.name:
        raise ManifestError(path, "slug", f"{data['slug']!r} differs from the bundle folder {bundle_dir.name!r}")
    if data["backend"] == "gameboy":
        _check_gameboy(data, path)
    else:
        entry = data.get("entry", "index.html")
        if not _inside(bundle_dir, entry) or not (bundle_dir / entry).is_file():
            raise ManifestError(path, "entry", f"{entry!r} is not a file inside the bundle")
    low, high = data.get("step_ms_range", DEFAULT_STEP_MS_RANGE)
    if low > high:
        raise ManifestError(path, "step_ms_range", "the minimum is above the maximum")
    space = GameSpec(slug="", title="", version="", genre="", level=1, backend="", bundle_dir=bundle_dir,
                     manifest=data).action_space
    for i, semantic in enumerate(data["semantic_actions"]):
        for arg, bounds in semantic.get("args", {}).items():
            if bounds["min"] > bounds["max"]:
                raise ManifestError(path, f"semantic_actions[{i}].args.{arg}", "min is above max")
        corners = [{a: b[end] for a, b in semantic.get("args", {}).items()} for end in ("min", "max")]
        for args in corners:
            _check_action(space, {"type": "semantic", "name": semantic["name"], "args": args},
                          data["step_ms"], path, f"semantic_actions[{i}].action")
    seen = set()
    for i, task in enumerate(data["tasks"]):
        where = f"tasks[{i}]"
        if task["slug"] in seen:
            raise ManifestError(path, f"{where}.slug", f"task {task['slug']!r} appears twice")
        seen.add(task["slug"])
        root = task["score_field"].split(".")[0]
        if root not in data["state_fields"]:
            raise ManifestError(path, f"{where}.score_field",
                                f"{task['score_field']!r} is not a state field this game exposes "
                                f"({', '.join(data['state_fields'])})")
        if task["start"] != "state" and task["start"] == task["target"]:
            raise ManifestError(path, f"{where}.target", "equals the start: nothing to measure")
        for name in ("reference", "null"):
            actions = task[name]["actions"]
            if len(actions) > task["max_actions"]:
                raise ManifestError(path, f"{where}.{name}.actions",
                                    f"{len(actions)} actions exceed max_actions {task['max_actions']}")
            for j, action in enumerate(actions):
                _check_action(space, action, task["step_ms"], path, f"{where}.{name}.actions[{j}]")


def _check_gameboy(data, path):
    """A Game Boy bundle: the screen, the buttons, files inside the bundle, fields, and steps in frames."""
    from .backends.gameboy import BUTTONS, DEFAULT_PRESS_FRAMES, DEFAULT_RELEASE_FRAMES, FRAME_MS, frames_for
    from .backends.gameboy.fields import SpecProblem, StateSpec

    bundle_dir = path.parent
    section = data["gameboy"]
    if data["viewport"] != {"width": 160, "height": 144}:
        raise ManifestError(path, "viewport", "a Game Boy screen is 160x144")
    if data["pointer"]:
        raise ManifestError(path, "pointer", "a Game Boy has no pointer")
    unknown = [key for key in data["keys"] if key not in BUTTONS]
    if unknown:
        raise ManifestError(path, "keys", f"{unknown[0]!r} is not a Game Boy button ({', '.join(BUTTONS)})")
    files = [("gameboy.rom", section["rom"])] + [
        (f"gameboy.start_states[{i}]", entry["file"] if isinstance(entry, dict) else entry)
        for i, entry in enumerate(section["start_states"])]
    for where, name in files:
        if not _inside(bundle_dir, name):
            raise ManifestError(path, where, f"{name!r} is not inside the bundle")
    try:
        spec = StateSpec(section, bundle_dir)
    except SpecProblem as exc:
        raise ManifestError(path, f"gameboy.{exc.where}", exc.problem) from None
    undeclared = [name for name in data["state_fields"] if name not in spec.names]
    if undeclared:
        raise ManifestError(path, f"state_fields.{undeclared[0]}",
                            f"is not one of gameboy.fields ({', '.join(spec.names)}): say where it is in RAM")
    frames = section.get("press_frames", DEFAULT_PRESS_FRAMES) + section.get("release_frames", DEFAULT_RELEASE_FRAMES)
    for where, step_ms in [("step_ms", data["step_ms"])] + [
            (f"tasks[{i}].step_ms", task["step_ms"]) for i, task in enumerate(data["tasks"])]:
        if frames_for(step_ms) != frames:
            raise ManifestError(path, where, f"{step_ms} ms is {frames_for(step_ms)} frames; a Game Boy step is "
                                             f"press_frames + release_frames = {frames} frames "
                                             f"({round(frames * FRAME_MS)} ms)")


def _check_action(space, action, step_ms, path, where):
    try:
        space.resolve(action, step_ms)
    except InvalidAction as exc:
        raise ManifestError(path, where, str(exc)) from None


def _inside(root, relative):
    return (root / relative).resolve().is_relative_to(root.resolve())


_VALIDATOR = None


def _validator():
    global _VALIDATOR
    if _VALIDATOR is None:
        schema = json.loads(SCHEMA_PATH.read_text())
        _VALIDATOR = jsonschema.Draft202012Validator(schema)
    return _VALIDATOR
