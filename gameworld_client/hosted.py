"""Hosted evaluation: play tasks live on a GameWorld site over its agent WebSocket (/ws/agent/).

    with HostedEvaluation("http://127.0.0.1:8000", token, agent={"name": "my-agent", "model": "m",
                          "interface": "generalist"}, task_set="core-v15", protocol="paused") as hosted:
        for task in hosted.tasks:                         # the task set's tasks, as the site describes them
            env = hosted.env(task, interface="generalist")
            obs, info = env.reset(seed=hosted.tasks[task]["seeds"][0])
            ...
        created = hosted.submit()                         # one submission of every episode, verified by replay
        final = hosted.wait(created)                      # poll until verified (gameworld_client.wait)

The server records every action as it applies it; nothing is uploaded. Each (task, seed) is played once
in an evaluation: a reset of an episode already begun resumes it (info["resumed"]), one already finished is
refused. A dropped connection is reconnected and the episode resumed transparently.

Sealed (`sealed=True`, the evaluation the default board ranks): the site draws each episode's seed from its
secret, so nobody can prepare actions for it. A task has `hosted.tasks[task]["episodes"]` episodes, asked
for by number (`env.reset(options={"episode_number": 1})`); the episode opens with a commitment to its seed
(info["commitment"]), and `submit()` reveals every seed and salt, checked here against the commitments:

    sha256(f"{seed}:{salt}".encode()).hexdigest() == commitment
"""
from __future__ import annotations

import hashlib
import json
import time
from contextlib import ExitStack
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI
from websockets.sync.client import ClientConnection, connect

from .upload import USER_AGENT, ClientError, status_url_for, wait

if TYPE_CHECKING:
    from .env import GameWorldEnv

AGENT_PATH = "/ws/agent/"
# The largest message the client accepts (websockets' max_size): a frame is a JPEG of tens of KiB, a status a
# few KiB. Anything larger fails the connection with close code 1009 and a HostedError saying so.
MAX_MESSAGE_BYTES = 1 << 20
# Close codes after which reconnecting may help: the network dropped (no close frame), the server went away
# or failed. A deliberate close (a revoked token, 4401; a message too big, 1009) is final.
RECONNECTABLE = {1001, 1005, 1006, 1011, 1012, 1013, 1014}


class HostedError(ClientError):
    """The site refused a message (`reason` is its explanation) or the connection could not be kept."""

    def __init__(self, reason: str):
        self.reason = reason
        super().__init__(reason)


class ConnectionLost(HostedError):
    """The site could not be reached, or the connection dropped without a deliberate close (or the site did
    not answer in time): a step reconnects and resumes the episode."""


def websocket_url(site: str, path: str) -> str:
    """`http(s)://host[:port]` + `/ws/...` -> `ws(s)://host[:port]/ws/...`."""
    parts = urlsplit(site.rstrip("/"))
    scheme = {"http": "ws", "https": "wss", "ws": "ws", "wss": "wss"}.get(parts.scheme)
    if scheme is None or not parts.netloc:
        raise HostedError(f"not a site URL: {site!r} (expected http://host:port or https://host)")
    return f"{scheme}://{parts.netloc}{parts.path}{path}"


def closed_code(exc: ConnectionClosed) -> int:
    """The close code that ended the connection: the site's, else ours, else 1006 (no close frame)."""
    close = exc.rcvd or exc.sent
    return close.code if close is not None else 1006


def _closed_error(exc: ConnectionClosed) -> HostedError:
    code = closed_code(exc)
    if exc.sent is not None and exc.sent.code == 1009:
        return HostedError(f"the site sent a message larger than the client's limit of {MAX_MESSAGE_BYTES:,} bytes "
                           f"(a frame or a status is far smaller); the connection was closed: {exc.sent.reason}")
    if code in RECONNECTABLE:
        return ConnectionLost(f"the connection was lost ({exc})")
    reason = exc.rcvd.reason if exc.rcvd is not None else ""
    return HostedError(f"the site closed the connection (code {code}{': ' + reason if reason else ''})")


def commitment_holds(revealed: dict[str, Any]) -> bool:
    """Whether a revealed seed and salt match the commitment shown when the episode opened (the site's
    sandbox/commitment.py defines it; this client stands alone, so it recomputes the one line)."""
    digest = hashlib.sha256(f"{revealed['seed']}:{revealed['salt']}".encode("ascii")).hexdigest()
    return digest == revealed["commitment"]


class HostedEvaluation:
    def __init__(self, site: str, token: str, *, agent: dict[str, Any] | None = None, task_set: str | None = None,
                 protocol: str = "paused", sealed: bool = False, evaluation: int | None = None,
                 begin: dict[str, Any] | None = None, timeout: float = 120, reconnects: int = 3):
        if not token:
            raise HostedError("no API token: create one on your account page (GAMEWORLD_TOKEN)")
        if evaluation is None and not agent and begin is None:
            raise HostedError("give the agent block ({'name', 'model', 'interface', ...}) or an evaluation id")
        self.site = site.rstrip("/")
        self.url = websocket_url(self.site, AGENT_PATH)
        self.token = token
        self.timeout = timeout
        self.reconnects = reconnects
        self._sock: ClientConnection | None = None
        self._connection: ExitStack | None = None  # the open connection's context (connect() is one)
        self._episode: tuple[str, dict[str, int]] | None = None  # (task, {"seed" | "episode_number": n}) open
        if begin is not None:  # a round of a rounds evaluation (gameworld_client.rounds)
            begin = {"type": "begin", **begin}
        elif evaluation is not None:
            begin = {"type": "begin", "evaluation": evaluation}
        else:
            begin = {"type": "begin", "agent": agent, "task_set": task_set, "protocol": protocol,
                     **({"sealed": True} if sealed else {})}
        self._connect()
        self._take_evaluation(self._call(begin, "evaluation")[0])

    # The evaluation.
    def _take_evaluation(self, reply: dict[str, Any]) -> None:
        self.id: int = reply["id"]
        self.protocol: str = reply["protocol"]
        self.sealed: bool = reply.get("sealed", False)
        self.task_set: str = reply["task_set"]
        self.agent: dict[str, Any] = reply["agent"]
        self.tasks: dict[str, dict[str, Any]] = {t["task"]: t for t in reply["tasks"]}
        self.episodes: list[dict[str, Any]] = reply["episodes"]
        self.round: dict[str, Any] | None = reply.get("round")  # a rounds evaluation's round, else None

    def env(self, task: str, *, interface: str | None = None, **options: Any) -> GameWorldEnv:
        """A GameWorldEnv for one task of this evaluation (the interface defaults to the agent's)."""
        from .env import GameWorldEnv

        return GameWorldEnv(transport=RemoteTransport(self, self.task_id(task)),
                            interface=interface or self.agent.get("interface", "cua"), **options)

    def task_id(self, task: str) -> str:
        if task in self.tasks:
            return task
        matches = [t for t in self.tasks if t.split("@")[0] == task]
        if len(matches) != 1:
            raise HostedError(f"{task!r} is not a task of task set {self.task_set}")
        return matches[0]

    def submit(self) -> dict[str, Any]:
        """Turn every episode played into one submission; returns {"submission", "url", "status_url", "runs",
        "provenance", "revealed"} with absolute URLs. A sealed evaluation's revealed seeds are checked against the
        commitments its episodes opened with (HostedError if one does not match)."""
        reply = self._call({"type": "submit"}, "submitted")[0]
        broken = [r for r in reply.get("revealed", []) if not commitment_holds(r)]
        if broken:
            raise HostedError(f"the site revealed seeds that do not match their commitments: {broken}")
        reply["url"] = self.site + reply["url"]
        reply["status_url"] = status_url_for(self.site, reply["submission"])
        self._episode = None
        return reply

    def wait(self, submitted: dict[str, Any], **options: Any) -> dict[str, Any]:
        """Poll the submission until it is verified or rejected (see gameworld_client.wait)."""
        return wait(submitted["status_url"], **options)

    # Episodes (used by RemoteTransport): at a seed, or a sealed evaluation's episode number.
    def reset(self, task: str, seed: int | None = None, *, episode_number: int | None = None
              ) -> tuple[bytes, dict[str, Any]]:
        which = {"episode_number": episode_number} if episode_number is not None else {"seed": seed}
        status, frame = self._call({"type": "reset", "task": task, **which}, "status")
        self._episode = (task, which)
        return frame, status

    def step(self, step: int, action: dict[str, Any]) -> tuple[bytes, dict[str, Any]]:
        message = {"type": "action", "step": step, "action": action}
        attempt = 0
        while True:
            try:
                status, frame = self._call(message, "status")
                return frame, status
            except ConnectionLost as exc:
                if attempt == self.reconnects or self._episode is None:
                    raise HostedError(f"the connection to {self.url} was lost: {exc}") from None
                time.sleep(min(5, 0.5 * 2 ** attempt))
                attempt += 1
                status, frame = self._resume()
                if status["step"] > step:  # the action was applied before the connection dropped
                    status["action"] = status["actions"][step]
                    return frame, status

    def _resume(self) -> tuple[dict[str, Any], bytes]:
        self._connect()
        self._take_evaluation(self._call({"type": "begin", "evaluation": self.id}, "evaluation")[0])
        task, which = self._episode
        return self._call({"type": "reset", "task": task, **which}, "status")

    # The wire: websockets' sync client. It sends no Origin header (the agent socket checks one only when
    # given), answers pings in the background, and refuses a message over MAX_MESSAGE_BYTES.
    def _connect(self) -> None:
        self.close_socket()
        stack = ExitStack()
        try:
            self._sock = stack.enter_context(connect(
                self.url, additional_headers={"Authorization": f"Token {self.token}"}, user_agent_header=USER_AGENT,
                open_timeout=self.timeout, close_timeout=2, compression=None, max_size=MAX_MESSAGE_BYTES))
        except (OSError, InvalidHandshake, InvalidURI) as exc:
            raise ConnectionLost(f"could not open {self.url}: {exc}") from None
        self._connection = stack

    def _call(self, message: dict[str, Any], expect: str) -> tuple[dict[str, Any], bytes | None]:
        """Send one message and read the reply of the type expected; a status is followed by its frame."""
        try:
            self._sock.send(json.dumps(message))
            data = self._sock.recv(timeout=self.timeout)
            if not isinstance(data, str):
                raise HostedError("the site sent a frame where a message was expected")
            reply = json.loads(data)
            if reply.get("type") == "refused":
                raise HostedError(reply.get("reason", "refused"))
            if reply.get("type") != expect:
                raise HostedError(f"expected a {expect} message, got {reply.get('type')!r}")
            frame = None
            if expect == "status":
                frame = self._sock.recv(timeout=self.timeout)
                if not isinstance(frame, bytes):
                    raise HostedError("the site sent text where a frame was expected")
        except ConnectionClosed as exc:
            raise self._last_word(exc) from None
        except TimeoutError:
            raise ConnectionLost(f"no answer from {self.url} within {self.timeout:g} s") from None
        return reply, frame

    def _last_word(self, closed: ConnectionClosed) -> HostedError:
        """The error for a connection the site closed: its refusal if one arrived before the close (a bad
        token is refused as the socket opens, maybe before this client's first message), else the close."""
        try:
            while True:
                reply = json.loads(self._sock.recv(timeout=0))
                if isinstance(reply, dict) and reply.get("type") == "refused":
                    return HostedError(reply.get("reason", "refused"))
        except (ConnectionClosed, TimeoutError, ValueError):
            return _closed_error(closed)

    def close_socket(self) -> None:
        """Close the connection (the evaluation stays open on the site: it can be continued later)."""
        if self._connection is not None:
            connection, self._connection, self._sock = self._connection, None, None
            connection.close()

    def close(self) -> None:
        self.close_socket()

    def __enter__(self) -> HostedEvaluation:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class RemoteTransport:
    """One task of a hosted evaluation, as a transport for GameWorldEnv."""

    remote = True
    privileged_state = False  # the site sends frames and the run's status, never the game's state

    def __init__(self, hosted: HostedEvaluation, task: str):
        self.hosted = hosted
        self.task = task
        self.protocol = hosted.protocol
        self._step = 0

    def describe(self) -> dict[str, Any]:
        return self.hosted.tasks[self.task]

    def reset(self, seed: int) -> tuple[bytes, dict[str, Any]]:
        if self.hosted.sealed:
            raise HostedError(f"evaluation {self.hosted.id} is sealed: the site draws every seed; ask for an "
                              "episode number (env.reset(options={'episode_number': n}))")
        if seed not in self.hosted.tasks[self.task]["seeds"]:
            raise HostedError(f"seed {seed} is not one of {self.task}'s seeds "
                              f"({', '.join(map(str, self.hosted.tasks[self.task]['seeds']))}): a hosted run "
                              "plays the task set's seeds")
        return self._opened(*self.hosted.reset(self.task, seed=seed))

    def reset_episode(self, number: int) -> tuple[bytes, dict[str, Any]]:
        """A sealed evaluation's episode `number` of this task, at the seed the site drew for it."""
        return self._opened(*self.hosted.reset(self.task, episode_number=number))

    def _opened(self, frame: bytes, status: dict[str, Any]) -> tuple[bytes, dict[str, Any]]:
        self._step = status["step"]
        return frame, status

    def step(self, action: dict[str, Any]) -> tuple[bytes, dict[str, Any]]:
        frame, status = self.hosted.step(self._step, action)
        self._step = status["step"]
        return frame, status

    def close(self) -> None:
        pass  # the socket belongs to the evaluation
