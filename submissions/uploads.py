"""Reading an uploaded `gameworld.submission/1` file: every problem is reported with the field (and run)
at fault, and nothing is stored unless the whole file is good."""
import hashlib
import json
from dataclasses import dataclass
from datetime import timedelta
from functools import cache
from pathlib import Path

import jsonschema
from django.utils import timezone

from catalogue.models import Task, TaskSet
from catalogue.selectors import default_set_being_checked
from sandbox import InvalidAction
from sandbox import protocol as action_protocol  # `protocol` names a submission's protocol in this module

from .models import Protocol, Submission

SCHEMA_PATH = Path(__file__).parent / "schemas" / "submission-1.schema.json"
FORMAT = "gameworld.submission/1"
MAX_ERRORS = 50
MAX_MESSAGE = 300  # characters of an error message: an offending value is quoted, never echoed whole
MAX_DIGITS = 18    # an integer in a submission (a seed, a count) has at most this many digits


class _Unreadable:
    """A JSON value the format never allows (a huge integer, NaN, Infinity), kept as a marker so that the
    schema names the field it stands in instead of Python failing on it."""

    def __init__(self, text):
        self.text = text

    def __repr__(self):
        return f"{self.text[:12]}... ({len(self.text):,} digits)" if self.text[:1].isdigit() else self.text


def _parse_int(text):
    return int(text) if len(text.lstrip("-")) <= MAX_DIGITS else _Unreadable(text)


# "integer" means a JSON integer: 1.0 is a number, not a seed (the default checker takes it as 1).
_TYPES = jsonschema.Draft202012Validator.TYPE_CHECKER.redefine(
    "integer", lambda checker, value: isinstance(value, int) and not isinstance(value, bool))
Validator = jsonschema.validators.extend(jsonschema.Draft202012Validator, type_checker=_TYPES)


class UploadRejected(Exception):
    """The upload is refused; `errors` lists {"field", "message"} for each problem found."""

    def __init__(self, errors):
        self.errors = errors[:MAX_ERRORS]
        super().__init__("; ".join(f"{e['field']}: {e['message']}" for e in self.errors))


@dataclass
class ParsedRun:
    task: object  # catalogue.models.Task
    seed: int
    actions: list
    claimed_progress: float = None
    claimed_success: bool = None


@dataclass
class ParsedSubmission:
    task_set: TaskSet
    agent: dict
    protocol: str
    runs: list
    content_sha256: str


def content_sha256(*, task_set, protocol, interface, runs):
    """A submission's identity, whatever the bytes it came in (indentation, key or run order, encoding): the
    sha256 of the canonical JSON of its task set (slug), protocol, interface and runs, each run
    {"task": "game/task@version", "seed", "actions"} and the runs sorted. Claims and the agent's description
    are left out: they change no replay. `runs` is any iterable of (task id, seed, actions)."""
    canonical = sorted(({"task": task_id, "seed": seed, "actions": actions} for task_id, seed, actions in runs),
                       key=lambda run: (run["task"], run["seed"]))
    document = {"task_set": task_set, "protocol": protocol, "interface": interface, "runs": canonical}
    text = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@cache
def submission_schema():
    """The upload format's schema: the file, with the action protocol's names and limits filled in from
    sandbox/protocol.py (the file leaves them out, so that they are written once)."""
    schema = json.loads(SCHEMA_PATH.read_text())
    properties = schema["properties"]
    properties["agent"]["properties"]["interface"]["enum"] = list(action_protocol.INTERFACES)
    properties["protocol"]["enum"] = list(action_protocol.PROTOCOLS)
    action = properties["runs"]["items"]["properties"]["actions"]["items"]
    action["properties"][action_protocol.LATENCY_FIELD].update(action_protocol.latency_json_schema())
    return schema


def parse_upload(raw, *, user, limits, latency_measured=False, seeds_drawn_by_server=False):
    """Validate an uploaded file (bytes) completely; return a ParsedSubmission or raise UploadRejected.

    Realtime runs rank on latencies the server measured, so they come only from hosted evaluations
    (`latency_measured`); an uploaded file's latencies are the submitter's word and are refused. A run's seed
    must be one of its task's public seeds, except in a sealed evaluation's runs, whose seeds the server drew
    (`seeds_drawn_by_server`)."""
    if len(raw) > limits.max_file_bytes:
        raise UploadRejected([_error("(file)", f"the file is {len(raw):,} bytes; the limit is "
                                               f"{limits.max_file_bytes:,} bytes")])
    if user is not None:
        since = timezone.now() - timedelta(days=1)
        today = Submission.objects.filter(user=user, created__gte=since).count()
        if today >= limits.max_submissions_per_day:
            raise UploadRejected([_error("(user)", f"you have uploaded {today} submissions in the last 24 hours; "
                                                   f"the limit is {limits.max_submissions_per_day}")])
    data = read_json(raw)
    if not isinstance(data, dict):
        raise UploadRejected([_error("(file)", "a submission is a JSON object")])
    if data.get("format") != FORMAT:
        raise UploadRejected([_error("format", f"expected {FORMAT!r}, got {data.get('format')!r}")])
    schema_errors = sorted(Validator(submission_schema()).iter_errors(data),
                           key=lambda e: list(map(str, e.absolute_path)))
    if schema_errors:
        raise UploadRejected([_error(_path(e.absolute_path), _schema_message(e)) for e in schema_errors])
    if data["protocol"] == Protocol.REALTIME and not latency_measured:
        raise UploadRejected([_error("protocol", "realtime runs are ranked on latencies the site measures itself: "
                                                 "play them as a hosted evaluation (the agent socket, protocol "
                                                 "realtime); an uploaded file may be paused only")])
    unencodable = _first_unencodable(data)
    if unencodable:
        raise UploadRejected([_error(unencodable, "holds a lone surrogate (\\ud800-\\udfff), which is not text")])
    if len(data["runs"]) > limits.max_runs:
        raise UploadRejected([_error("runs", f"{len(data['runs'])} runs; the limit is {limits.max_runs} "
                                             "a submission")])
    task_set = TaskSet.objects.filter(slug=data["task_set"]).first()
    if task_set is None or task_set.status != TaskSet.Status.PUBLISHED:
        raise UploadRejected([_error("task_set", not_published_message(data["task_set"], task_set))])
    tasks = {t.task_id: t for t in task_set.tasks.light().defer("reference", "null")}
    errors, runs, seen = [], [], {}
    for index, run in enumerate(data["runs"]):
        parsed = _check_run(index, run, tasks, task_set, limits, seen, errors, interface=data["agent"]["interface"],
                            public_seeds=not seeds_drawn_by_server)
        if parsed is not None:
            runs.append(parsed)
    if errors:
        raise UploadRejected(errors)
    identity = content_sha256(task_set=task_set.slug, protocol=data["protocol"], interface=data["agent"]["interface"],
                              runs=((run.task.task_id, run.seed, run.actions) for run in runs))
    return ParsedSubmission(task_set=task_set, agent=data["agent"], protocol=data["protocol"], runs=runs,
                            content_sha256=identity)


def read_json(raw):
    """The JSON document of an upload, or UploadRejected saying why it cannot be read."""
    try:
        return json.loads(raw, parse_int=_parse_int, parse_constant=_Unreadable)
    except UnicodeDecodeError:
        raise UploadRejected([_error("(file)", "the file is not UTF-8 text")]) from None
    except json.JSONDecodeError as exc:
        raise UploadRejected([_error("(file)", f"the file is not JSON: {exc.msg} at line {exc.lineno} "
                                               f"column {exc.colno}")]) from None
    except RecursionError:
        raise UploadRejected([_error("(file)", "the JSON is nested too deeply; a submission is a few levels "
                                               "deep")]) from None


def _first_unencodable(data):
    """The path of the first string (or key) that cannot be stored as UTF-8 text, or None. Iterative: a
    document json accepted may still be deeper than Python's recursion allows."""
    pending = [((), data)]
    while pending:
        path, value = pending.pop()
        if isinstance(value, dict):
            for key, item in value.items():
                if not _encodable(key):
                    return _path(path + (key,))
                pending.append((path + (key,), item))
        elif isinstance(value, list):
            pending.extend((path + (index,), item) for index, item in enumerate(value))
        elif isinstance(value, str) and not _encodable(value):
            return _path(path)
    return None


def _encodable(text):
    try:
        text.encode("utf-8")
        return True
    except UnicodeEncodeError:
        return False


def _check_run(index, run, tasks, task_set, limits, seen, errors, interface="cua", public_seeds=True):
    where = f"runs[{index}]"
    if run.get("privileged_state"):
        errors.append(_error(f"{where}.privileged_state", "this run's agent was given the game's state "
                                                          "(GameWorldEnv(privileged_state=True)); the benchmark "
                                                          "compares agents that see frames: play it again without"))
        return None
    task = tasks.get(run["task"])
    if task is None:
        errors.append(_error(f"{where}.task", _unknown_task_message(run["task"], task_set)))
        return None
    if public_seeds and run["seed"] not in task.seeds:
        errors.append(_error(f"{where}.seed", f"{run['seed']} is not one of {task.task_id}'s seeds "
                                              f"({', '.join(map(str, task.seeds))})"))
    key = (task.task_id, run["seed"])
    if key in seen:
        errors.append(_error(where, f"duplicates runs[{seen[key]}] (same task {task.task_id} and seed {run['seed']})"))
    seen.setdefault(key, index)
    actions = run["actions"]
    budget = min(task.max_actions, limits.max_actions_per_run)
    if len(actions) > budget:
        which = "the task's budget" if budget == task.max_actions else "the upload limit"
        errors.append(_error(f"{where}.actions", f"{len(actions)} actions exceed {which} of {budget}"))
        return None
    space = task.game.spec.action_space
    for step, action in enumerate(actions):
        if action_protocol.is_invalid_record(action):
            continue
        mismatch = action_protocol.interface_mismatch(action, interface)
        if mismatch:
            errors.append(_error(f"{where}.actions[{step}]", mismatch))
            return None
        try:  # the schema bounded latency_ms and allows it in realtime runs only; the rest is an ordinary action
            space.resolve(action_protocol.action_body(action), task.step_ms)
        except InvalidAction as exc:
            errors.append(_error(f"{where}.actions[{step}]", f"{exc} (record a reply with no valid action as "
                                                             '{"type": "invalid"})'))
            if len(errors) >= MAX_ERRORS:
                return None
    claimed = run.get("claimed", {})
    return ParsedRun(task=task, seed=run["seed"], actions=actions, claimed_progress=claimed.get("progress"),
                     claimed_success=claimed.get("success"))


def not_published_message(slug, task_set):
    """Why a task set takes no runs: a new site still checking its default set says how far it is."""
    being_checked = default_set_being_checked()
    if being_checked:
        return being_checked
    published = ", ".join(TaskSet.objects.filter(status=TaskSet.Status.PUBLISHED).values_list("slug", flat=True))
    state = {None: "unknown", TaskSet.Status.DRAFT: "a draft, not published",
             TaskSet.Status.RETIRED: "retired and takes no new submissions"}[task_set and task_set.status]
    return f"{slug!r} is {state}; published task sets: {published or 'none'}"


def _unknown_task_message(task_id, task_set):
    slug, _, version = task_id.partition("@")
    game, _, task = slug.partition("/")
    versions = list(Task.objects.filter(game__slug=game, slug=task).values_list("version", flat=True))
    if not versions:
        return f"unknown task {slug!r}"
    if int(version) not in versions:
        return f"{slug} has no version {version} (versions: {', '.join(map(str, sorted(versions)))})"
    return f"{task_id} is not in task set {task_set.slug}"


def _error(field, message):
    if len(message) > MAX_MESSAGE:
        message = message[:MAX_MESSAGE - 1] + "…"
    return {"field": field, "message": message}


def _path(parts):
    text = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in parts).lstrip(".") or "(top level)"
    return text.encode("utf-8", "backslashreplace").decode()[:MAX_MESSAGE]


def _schema_message(error):
    latency = action_protocol.LATENCY_FIELD
    if error.validator == "not" and isinstance(error.instance, dict) and latency in error.instance:
        return (f"{latency} belongs to the {Protocol.REALTIME} protocol; this submission's protocol is "
                f'{Protocol.PAUSED} (set "protocol": "{Protocol.REALTIME}" or leave {latency} out)')
    if error.validator == "minimum" and error.absolute_path and error.absolute_path[-1] == "seed":
        return f"must be a non-negative integer, got {error.instance!r}"
    if error.validator == "type" and error.absolute_path and error.absolute_path[-1] == "seed":
        return f"must be a non-negative integer, got {error.instance!r}"
    return error.message
