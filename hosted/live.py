"""The live-session engine under both sockets (human play at /ws/play/<id>/, hosted agents at /ws/agent/).

The server owns the game: the task's sandbox env (the same rule wrappers as every other run) at the
session's seed. Each message carries one action answering the current frame (`step` is that frame's
number); the action is stored as step n of the session's log (an AppliedAction subclass, unique per
session and index) before it is applied, so a dropped connection resumes by replaying the log and never
counts a step twice. What the rules refuse raises Refusal with the reason, and nothing is stored or applied.

Policies differ by socket only through options: a person's action outside the game's action space is
refused (`charge_invalid=False`); an agent's is charged as a step and stored as {"type": "invalid", "raw"}
(`charge_invalid=True`), as in an upload, and so is an action outside the agent's declared `interface` (a key
press in a generalist evaluation), which an upload would refuse. Protocol "realtime" charges each action the time since its frame
was sent, measured here; an action may carry a larger `latency_ms` (the agent's own figure), never a smaller.

Database work goes through `database_sync_to_async`; sandbox calls run off the event loop (a browser round
trip blocks) in a worker thread, never in Django's database thread.
"""
import json
import time

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async

from sandbox import InvalidAction, SandboxError, make
from sandbox.protocol import (LATENCY_FIELD, ProtocolError, clamp_latency, interface_mismatch, invalid_record,
                              split_latency)
from sandbox.rules import as_run_action
from submissions.models import Protocol

from .models import StepTaken

SERVER_ERROR = 4500  # close codes of the sockets
CONFLICT = 4409


class Refusal(Exception):
    """A message the rules refuse: answered with {"type": "refused", "reason"}; nothing changes. `close` is
    the WebSocket close code when the connection cannot go on (None: it can)."""

    def __init__(self, reason, *, close=None):
        super().__init__(reason)
        self.close = close


def in_sandbox(fn):
    """Sandbox calls block (a browser round trip): run them off the event loop, outside Django's DB thread."""
    return sync_to_async(fn, thread_sensitive=False)


now = time.monotonic  # the clock a realtime latency is measured on
MAX_MESSAGE_BYTES = 64 * 1024  # one action is a few hundred bytes; anything far larger is refused unread


def read_message(text_data=None, bytes_data=None):
    """A socket message as a JSON object, or Refusal saying why not (too large, binary, not JSON, too deep)."""
    if bytes_data is not None:
        raise Refusal("send JSON text messages; binary messages are not read")
    size = len(text_data.encode("utf-8", "surrogatepass")) if text_data is not None else 0
    if size > MAX_MESSAGE_BYTES:
        raise Refusal(f"a message of {size:,} bytes; the limit is {MAX_MESSAGE_BYTES:,} (one action is a few "
                      "hundred)")
    try:
        message = json.loads(text_data) if text_data is not None else None
    except (ValueError, RecursionError):  # not JSON, nested too deep, or an integer with thousands of digits
        message = None
    if not isinstance(message, dict):
        raise Refusal("send one JSON object per message")
    return message


class LiveSession:
    """One session's server-owned game. `store(index, action)` (synchronous, database) stores an applied
    action and raises StepTaken or Refusal; `frames` (optional) keeps every frame shown: `has(index)`,
    `save(index, jpeg)`."""

    def __init__(self, spec, seed, *, store, protocol=Protocol.PAUSED, charge_invalid=False, interface=None,
                 frames=None, when_over="no actions left"):
        self.spec, self.seed = spec, seed
        self.store = store
        self.protocol = protocol
        self.charge_invalid = charge_invalid
        self.interface = interface
        self.frames = frames
        self.when_over = when_over
        self.env = None
        self.info = {}
        self.reason = None
        self._frame = None
        self._unkept = None  # (step, frame) not yet stored in `frames`
        self._frame_sent_at = None

    # The socket side (async).

    async def open(self, actions):
        """Start the game at the seed and replay the stored actions (a resume after a drop)."""
        try:
            await in_sandbox(self._open)(actions)
        except (SandboxError, ValueError) as exc:
            await self.close()
            raise Refusal(f"the game could not be started: {exc}", close=SERVER_ERROR) from None

    async def play(self, message):
        """Store and apply the action of one {"step": n, "action": ...} message; return it as stored."""
        if self.env is None:
            raise Refusal("the game is not running")
        if self.done:
            raise Refusal(f"the run is over: {self.when_over}")
        if message.get("step") != self.steps:
            raise Refusal(f"too fast: that action answers frame {message.get('step')!r}, but frame {self.steps} "
                          "is the current one; wait for each frame")
        action, latency = self._split_latency(message.get("action"))
        stored, reason = self._as_stored(action, latency)
        try:
            await database_sync_to_async(self.store)(self.steps, stored)
        except StepTaken as exc:
            raise Refusal(str(exc), close=CONFLICT) from None
        try:
            await in_sandbox(self._step)(stored)
        except SandboxError as exc:
            raise Refusal(f"the game failed: {exc}; reconnect to resume", close=SERVER_ERROR) from None
        self.reason = reason
        return stored

    async def frame(self):
        """The current frame (JPEG); the realtime clock of the next action starts now."""
        self._frame_sent_at = now()
        return self._frame

    async def keep_frame(self):
        """Store the last step's frame (`frames`), once it is on its way to the player: the disk is not in the
        step's latency. A frame a dropped connection never kept is stored when the session resumes."""
        if self._unkept is not None:
            (index, jpeg), self._unkept = self._unkept, None
            await in_sandbox(self.frames.save)(index, jpeg)

    async def close(self):
        if self.env is not None:
            env, self.env = self.env, None
            await in_sandbox(env.close)()

    def status(self, *, reveal_score):
        """Where the run stands; with `reveal_score` (an agent's socket) the oracle's figures once it is over
        (never while playing: a person would be coached by them)."""
        info = self.info
        status = {"step": self.steps, "actions_left": info["actions_left"], "max_actions": self.spec.max_actions,
                  "attempt": info["attempt"], "reset": info["reset"], "invalid": info["invalid"],
                  "invalid_reason": self.reason or info["invalid_reason"], "terminated": info["terminated"],
                  "truncated": info["truncated"], "done": self.done}
        status.update({name: info[name] for name in (LATENCY_FIELD, "landed") if name in info})
        if reveal_score and self.done:
            score = self.score()
            status.update(progress=score.progress, success=score.success, trace_sha256=score.trace_sha256)
        return status

    def score(self):
        return self.env.score()

    @property
    def steps(self):
        return self.env.actions_used

    @property
    def done(self):
        return self.env.done

    # Rules of the message (pure).

    def _split_latency(self, action):
        """The action without `latency_ms`, and the latency to charge (None when paused)."""
        try:
            body, latency = split_latency(action, protocol=self.protocol)
        except ProtocolError as exc:
            raise Refusal(str(exc)) from None
        if self.protocol == Protocol.REALTIME:
            # The server measures: the time since the frame was sent. A client may report more (its own
            # inference time, say), never less, so a realtime figure rests on what the site saw.
            waited = now() - self._frame_sent_at if self._frame_sent_at else 0
            latency = clamp_latency(max(latency or 0, waited * 1000))
        return body, latency

    def _as_stored(self, action, latency):
        """The action as stored and applied, and the reason it is invalid (None when valid)."""
        space, step_ms = self.spec.game.action_space, self.spec.step_ms
        if not self.charge_invalid:
            try:
                space.resolve(action, step_ms)
            except InvalidAction as exc:
                raise Refusal(f"not an action of this game: {exc}") from None
        mismatch = interface_mismatch(action, self.interface) if self.interface else None
        if mismatch:
            action = invalid_record(action)
        stored, reason = as_run_action(action, space, step_ms, latency=latency)
        return stored, mismatch or reason

    # The sandbox side (blocking: called through in_sandbox).

    def _open(self, actions):
        self.env = make(self.spec, observation="state")
        _, self.info = self.env.reset(seed=self.seed)
        self._keep_missing_frame()
        for action in actions:
            _, self.info = self.env.step(action)
            self._keep_missing_frame()
        self._frame = self.env.render("jpeg")

    def _step(self, action):
        _, self.info = self.env.step(action)
        self._frame = self.env.render("jpeg")
        if self.frames is not None:
            self._unkept = (self.steps, self._frame)

    def _keep_missing_frame(self):
        """While replaying the log, store a step's frame only if it is missing (the session's replay)."""
        if self.frames is not None and not self.frames.has(self.steps):
            self.frames.save(self.steps, self.env.render("jpeg"))
