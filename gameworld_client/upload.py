"""Upload a `gameworld.submission/1` file to a GameWorld site and follow its verification (over httpx).

    from gameworld_client import upload, wait, write_submission

    write_submission("results.json", agent={"name": "my-agent", "model": "my-model", "interface": "cua"},
                     task_set="core-v15", runs=[{"task": "breakout/rally-5@2", "seed": 1,
                                                "actions": [{"type": "press_key", "key": "Space"}]}])
    created = upload("results.json", site="http://127.0.0.1:8000", token=os.environ["GAMEWORLD_TOKEN"])
    final = wait(created["status_url"], on_progress=lambda s: print(s["status"], s["runs_done"]))
"""
from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, Union

import httpx

from ._version import __version__
from .protocol import INTERFACES, PAUSED, PROTOCOLS, ProtocolError, split_latency

FORMAT = "gameworld.submission/1"
PROTOCOL = PAUSED  # the default
API_PREFIX = "/api/v1/submissions"
USER_AGENT = f"gameworld-client/{__version__}"


class ClientError(Exception):
    """The server could not be reached, or answered something this client does not understand."""


class ConnectionCut(ClientError):
    """The connection dropped after the request may have reached the server (a server process restarted)."""


class UploadError(ClientError):
    """The server refused the upload. `errors` is its list of {"field", "message"}; `status` the HTTP code."""

    def __init__(self, status: int | None, errors: Iterable[dict[str, Any]]):
        self.status = status
        self.errors = list(errors)
        super().__init__(status, self.errors)

    def __str__(self) -> str:
        lines = [f"the server refused the upload (HTTP {self.status}):" if self.status else
                 "the upload was not sent:"]
        lines += [f"  {error.get('field', '?')}: {error.get('message', '')}" for error in self.errors]
        return "\n".join(lines)


class WaitTimeout(ClientError, TimeoutError):
    """The submission did not finish in time; `snapshot` is the last status seen (or None)."""

    def __init__(self, message: str, snapshot: dict[str, Any] | None = None):
        super().__init__(message)
        self.snapshot = snapshot


# Writing a submission file.

# The agent block's fields in the upload format (the site's schema: submissions/schemas/submission-1.schema.json).
AGENT_FIELDS = {"name", "model", "org", "interface", "memory_rounds", "url", "notes", "code_url", "paper_url",
                "weights", "tuned_on_benchmark", "reported"}

def submission(*, agent: Mapping[str, Any], task_set: str, runs: Iterable[Mapping[str, Any]],
               protocol: str = PROTOCOL) -> dict[str, Any]:
    """The submission as a dict, checked for the mistakes the server would refuse it for (ValueError).

    protocol "paused" (the default) or "realtime" (actions may then carry `latency_ms`, from 0 to
    gameworld_client.protocol.MAX_LATENCY_MS)."""
    agent = dict(agent)
    problems = []
    if protocol not in PROTOCOLS:
        problems.append(f"protocol: one of {', '.join(PROTOCOLS)}, got {protocol!r}")
    for name in ("name", "model"):
        if not isinstance(agent.get(name), str) or not agent[name]:
            problems.append(f"agent.{name}: a non-empty string is required")
    if agent.get("interface") not in INTERFACES:
        problems.append(f"agent.interface: one of {', '.join(INTERFACES)}, got {agent.get('interface')!r}")
    unknown = set(agent) - AGENT_FIELDS
    if unknown:
        problems.append(f"agent: unknown fields {', '.join(sorted(unknown))}")
    if not isinstance(task_set, str) or not task_set:
        problems.append("task_set: the slug of a published task set, e.g. core-v15")
    runs = [_run(index, run, problems, protocol) for index, run in enumerate(runs)]
    if not runs:
        problems.append("runs: at least one run is required")
    if problems:
        raise ValueError("not a valid submission:\n  " + "\n  ".join(problems))
    return {"format": FORMAT, "agent": agent, "protocol": protocol, "task_set": task_set, "runs": runs}


def _run(index: int, run: Mapping[str, Any], problems: list[str], protocol: str = PROTOCOL) -> dict[str, Any]:
    where = f"runs[{index}]"
    out = {"task": run.get("task"), "seed": run.get("seed"), "actions": list(run.get("actions") or [])}
    if not isinstance(out["task"], str) or "/" not in out["task"] or "@" not in out["task"]:
        problems.append(f"{where}.task: game/task@version, got {out['task']!r}")
    if not isinstance(out["seed"], int) or isinstance(out["seed"], bool) or out["seed"] < 0:
        problems.append(f"{where}.seed: must be a non-negative integer, got {out['seed']!r}")
    for step, action in enumerate(out["actions"]):
        if not isinstance(action, dict) or "type" not in action:
            problems.append(f"{where}.actions[{step}]: an object with a \"type\"")
            continue
        try:
            split_latency(action, protocol=protocol)
        except ProtocolError as exc:
            problems.append(f"{where}.actions[{step}]: {exc}")
    if run.get("claimed") is not None:
        claimed = {key: value for key, value in run["claimed"].items() if value is not None}
        if set(claimed) - {"progress", "success"}:
            problems.append(f"{where}.claimed: only progress and success")
        if "progress" in claimed and not (isinstance(claimed["progress"], (int, float))
                                          and not isinstance(claimed["progress"], bool)
                                          and 0 <= claimed["progress"] <= 1):
            problems.append(f"{where}.claimed.progress: a number from 0 to 1")
        if "success" in claimed and not isinstance(claimed["success"], bool):
            problems.append(f"{where}.claimed.success: true or false")
        if claimed:
            out["claimed"] = claimed
    unknown = set(run) - {"task", "seed", "actions", "claimed"}
    if unknown:
        problems.append(f"{where}: unknown fields {', '.join(sorted(unknown))}")
    return out


def write_submission(path: str | os.PathLike, *, agent: Mapping[str, Any], task_set: str,
                     runs: Iterable[Mapping[str, Any]], protocol: str = PROTOCOL) -> dict[str, Any]:
    """Write a `gameworld.submission/1` file (protocol "paused" unless told "realtime"); return the dict.

    agent: {"name", "model", "interface": "cua" | "generalist", optional "org", "memory_rounds", "url",
    "notes"}; runs: [{"task": "game/task@version", "seed": int, "actions": [...], optional
    "claimed": {"progress": 0..1, "success": bool}}].
    """
    data = submission(agent=agent, task_set=task_set, runs=runs, protocol=protocol)
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(tmp, path)
    return data


# Talking to the site.

def _request(client: httpx.Client, method: str, url: str, *, token: str | None = None,
             body: bytes | None = None) -> httpx.Response:
    headers = {"Accept": "application/json"}
    if token:
        headers["Authorization"] = f"Token {token}"
    if body is not None:
        headers["Content-Type"] = "application/json"
    try:
        return client.request(method, url, content=body, headers=headers)
    except (httpx.ReadError, httpx.RemoteProtocolError) as exc:
        raise ConnectionCut(f"the connection to {url} was cut: {exc or type(exc).__name__}") from None
    except (httpx.HTTPError, httpx.InvalidURL) as exc:
        raise ClientError(f"could not reach {url}: {exc or type(exc).__name__}") from None


def _client(timeout: float) -> httpx.Client:
    return httpx.Client(timeout=timeout, headers={"User-Agent": USER_AGENT})


def _json(raw: bytes) -> Any:
    try:
        return json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        return None


SubmissionSource = Union[str, os.PathLike, Mapping[str, Any], bytes]


def _payload(path_or_dict: SubmissionSource) -> bytes:
    if isinstance(path_or_dict, Mapping):
        return json.dumps(dict(path_or_dict), ensure_ascii=False).encode("utf-8")
    if isinstance(path_or_dict, (bytes, bytearray)):
        return bytes(path_or_dict)
    return Path(path_or_dict).read_bytes()


def submissions_url(site: str) -> str:
    return site.rstrip("/") + API_PREFIX


def status_url_for(site: str, submission_id: int | str) -> str:
    return f"{submissions_url(site)}/{int(submission_id)}"


def upload(path_or_dict: SubmissionSource, *, site: str, token: str, timeout: float = 120) -> dict[str, Any]:
    """POST a submission (a file path, a dict or bytes) to `{site}/api/v1/submissions`.

    Returns the server's answer: {"id", "status", "runs_done", "runs_total", "finished", "created", "url",
    "status_url", ...}; `created` is false when this account had sent the same runs before (the answer is that
    submission: a submission is its runs, so sending it again never stores it twice, and an upload whose
    connection was cut is sent once more). Raises UploadError (with the server's `errors`; `status` None when
    the token is malformed and nothing was sent) when it is refused, ClientError when the server cannot be
    reached or fails.
    """
    url = submissions_url(site)
    token = (token or "").strip()
    if not token or any(char.isspace() or not char.isprintable() for char in token):
        raise UploadError(None, [{"field": "Authorization", "message": "the API token must be one word "
                                  "(create one on your account page)" if token else "no API token given"}])
    body = _payload(path_or_dict)
    with _client(timeout) as client:
        try:
            response = _request(client, "POST", url, token=token, body=body)
        except ConnectionCut:
            response = _request(client, "POST", url, token=token, body=body)
    data = _json(response.content)
    if response.status_code in (200, 201) and isinstance(data, dict) and "id" in data:
        data.setdefault("status_url", status_url_for(site, data["id"]))
        return data
    if response.is_client_error:
        errors = data.get("errors") if isinstance(data, dict) else None
        if not isinstance(errors, list) or not errors:
            errors = [_http_error(response)]
        raise UploadError(response.status_code, [e if isinstance(e, dict) else {"field": "(server)", "message": str(e)}
                                                 for e in errors])
    raise ClientError(f"HTTP {response.status_code} {response.reason_phrase} from {url}: {_snippet(response.content)}")


def _http_error(response: httpx.Response) -> dict[str, str]:
    if response.status_code == 413:
        return {"field": "(file)", "message": "the server refused the file as too large (HTTP 413)"}
    if response.status_code == 401:
        return {"field": "Authorization", "message": "the token was not accepted (HTTP 401)"}
    return {"field": "(http)", "message": f"HTTP {response.status_code} {response.reason_phrase} "
                                          "(the server gave no details)"}


def _snippet(raw: bytes, limit: int = 300) -> str:
    text = raw.decode("utf-8", "replace").strip()
    return text[:limit] + ("…" if len(text) > limit else "")


def get_status(status_url: str, *, timeout: float = 30, client: httpx.Client | None = None) -> dict[str, Any]:
    """One look at a submission: GET /api/v1/submissions/<id> (public, no token needed)."""
    if client is None:
        with _client(timeout) as own:
            return get_status(status_url, client=own)
    response = _request(client, "GET", status_url)
    data = _json(response.content)
    if response.status_code == 200 and isinstance(data, dict) and "status" in data:
        return data
    if response.status_code == 404:
        raise ClientError(f"no such submission: {status_url}")
    raise ClientError(f"HTTP {response.status_code} {response.reason_phrase} from {status_url}: "
                      f"{_snippet(response.content)}")


def wait(status_url: str, *, interval: float = 1.0, timeout: float = 600,
         on_progress: Callable[[dict[str, Any]], object] | None = None, max_failures: int = 5) -> dict[str, Any]:
    """Poll the submission until it is finished (verified or rejected); return its last snapshot.

    on_progress(snapshot) is called with the first snapshot and then whenever its status or its count of
    finished runs changes. Raises WaitTimeout after `timeout` seconds, ClientError after `max_failures`
    failed polls in a row.
    """
    deadline = time.monotonic() + timeout
    last_key, snapshot, failures = None, None, 0
    with _client(min(30.0, timeout)) as client:  # one connection, kept alive between polls
        while True:
            try:
                snapshot = get_status(status_url, client=client)
                failures = 0
            except ClientError:
                failures += 1
                if failures >= max_failures:
                    raise
            else:
                key = (snapshot.get("status"), snapshot.get("runs_done"), snapshot.get("runs_total"))
                if key != last_key:
                    last_key = key
                    if on_progress is not None:
                        on_progress(snapshot)
                if snapshot.get("finished"):
                    return snapshot
            left = deadline - time.monotonic()
            if left <= 0:
                raise WaitTimeout(f"the submission did not finish within {timeout:g} s ({status_url})", snapshot)
            time.sleep(min(interval, left))
