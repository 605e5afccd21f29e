"""The agent socket: hosted agent evaluation on the live-session engine."""
import asyncio
import json
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from submissions.limits import AgentSocketSlot

from . import services
from .live import LiveSession, Refusal, read_message
from .models import HostedEvaluation

LIMIT_REACHED = 4429  # the agent socket's close code when the account has every socket it may have open


class AgentConsumer(AsyncWebsocketConsumer):
    """Hosted agent evaluation: an agent plays tasks live on the site (hosted/services.py, hosted/live.py).

    Connect to /ws/agent/ with `Authorization: Token <key>` (or `?token=<key>` where headers cannot be set).
    Client -> server (JSON text), server -> client:

      {"type": "begin", "agent": {...}, "task_set": "core-v15", "protocol": "paused" | "realtime", "sealed": bool}
      {"type": "begin", "evaluation": 12}                          (continue an open evaluation of yours)
          -> {"type": "evaluation", "id", "protocol", "sealed", "task_set", "agent", "tasks": [...], "episodes": [...]}
      {"type": "reset", "task": "breakout/rally-10@1", "seed": 1}              (public seeds)
      {"type": "reset", "task": "breakout/rally-10@1", "episode_number": 1}    (sealed: the site draws the seed)
          -> {"type": "status", "step": 0, ..., "resumed": bool, "actions": [...]} then the frame (binary JPEG);
             a sealed episode's status has "episode_number" and "commitment" where another's has "seed"
      {"type": "action", "step": n, "action": {...}}               (realtime: the action may carry latency_ms)
          -> {"type": "status", "step": n + 1, "action": <as recorded>, "invalid", ...} then the frame
             (when the run is over the status also has progress, success and trace_sha256)
      {"type": "submit"}
          -> {"type": "submitted", "submission", "url", "status_url", "runs", "provenance", "revealed"}
             (revealed: a sealed evaluation's {"task", "episode_number", "commitment", "seed", "salt"} each)

    The site serves it extended with rounds evaluations (rounds.consumers.AgentConsumer).
      anything the rules refuse -> {"type": "refused", "reason"} (nothing changes)

    An account has at most GAMEWORLD_MAX_AGENT_SOCKETS sockets open at once: one more is refused with the reason
    and closed with code 4429; `begin` of a new evaluation past the hourly limit is refused with when it resets.
    """

    async def connect(self):
        self.evaluation = self.episode = self.live = self.slot = self.renewing = None
        self.user = None
        # Accepted before any database work: a busy site answers the handshake at once (the server drops one
        # not accepted within its handshake timeout, with no answer at all), and says anything else in a message.
        await self.accept()
        token = await database_sync_to_async(services.token_for)(self._token())
        if token is None:
            await self.refuse(Refusal("send an active API token: the `Authorization: Token <key>` header of the "
                                      "handshake, or ?token=<key> (create one on your account page)", close=4401))
            return
        slot = AgentSocketSlot(token.user_id, owner=self.channel_name)
        if not await database_sync_to_async(slot.take)():
            await self.refuse(Refusal(slot.refusal(), close=LIMIT_REACHED))
            return
        self.slot, self.renewing = slot, asyncio.create_task(self.renew_slot())
        self.user, self.token_id = token.user, token.pk

    async def renew_slot(self):
        while True:
            await asyncio.sleep(AgentSocketSlot.LEASE_S / 3)
            await database_sync_to_async(self.slot.renew)()

    def _token(self):
        for name, value in self.scope.get("headers", []):
            if name == b"authorization":
                scheme, _, key = value.decode("latin-1").partition(" ")
                if scheme in ("Token", "Bearer") and key.strip():
                    return key.strip()
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        return (query.get("token") or [""])[0].strip()

    async def disconnect(self, code):
        if self.renewing is not None:
            self.renewing.cancel()
            await database_sync_to_async(self.slot.give_back)()
        await self.close_live()

    async def close_live(self):
        if self.live is not None:
            live, self.live = self.live, None
            await live.close()

    async def receive(self, text_data=None, bytes_data=None):
        if self.user is None:
            return
        try:
            if not await database_sync_to_async(services.token_still_active)(self.token_id):
                raise Refusal("your API token was revoked: this socket plays no more (create a new token on your "
                              "account page)", close=4401)
            message = read_message(text_data, bytes_data)
            handler = {"begin": self.on_begin, "reset": self.on_reset, "action": self.on_action,
                       "submit": self.on_submit}.get(message.get("type"))
            if handler is None:
                raise Refusal('send JSON text: {"type": "begin" | "reset" | "action" | "submit", ...}')
            await handler(message)
        except Refusal as refusal:
            await self.refuse(refusal)

    async def on_begin(self, message):
        if self.evaluation is not None:
            raise Refusal(f"evaluation {self.evaluation.pk} is already begun on this connection")
        self.evaluation = await database_sync_to_async(self.begin)(message)
        await self.send(text_data=json.dumps(await database_sync_to_async(self.evaluation_message)(self.evaluation)))

    # What a begin opens and what the agent is told of it and of its submission: hooks that the rounds socket
    # (rounds.consumers) extends. Each runs in a worker thread (database access).
    def begin(self, message):
        return services.begin(self.user, message)

    def evaluation_message(self, evaluation):
        return services.evaluation_message(evaluation)

    def submitted(self, evaluation):
        """Extra fields of the submitted message."""
        return {}

    async def on_reset(self, message):
        if self.evaluation is None:
            raise Refusal('begin first: {"type": "begin", "agent": {...}} or {"type": "begin", "evaluation": <id>}')
        episode, spec, actions = await database_sync_to_async(services.open_episode)(self.evaluation.pk, message)
        await self.close_live()
        evaluation_id = self.evaluation.pk
        live = LiveSession(spec, episode.seed, protocol=self.evaluation.protocol, charge_invalid=True,
                           interface=self.evaluation.agent["interface"],
                           when_over="no actions left; reset another task or submit",
                           store=lambda index, action: services.record_action(
                               evaluation_id=evaluation_id, episode_id=episode.pk, index=index, action=action))
        await live.open(actions)
        self.live, self.episode = live, episode
        await self.send_step(resumed=bool(actions), actions=actions)

    async def on_action(self, message):
        if self.live is None:
            raise Refusal('no episode is open: send {"type": "reset", "task": ..., "seed": ...} first '
                          '("episode_number" instead of "seed" in a sealed evaluation)')
        stored = await self.live.play(message)
        await self.send_step(action=stored)

    async def on_submit(self, message):
        if self.evaluation is None:
            raise Refusal("begin first: there is no evaluation on this connection")
        submission, runs, revealed = await database_sync_to_async(services.submit)(self.evaluation.pk, self.user)
        await self.close_live()
        self.evaluation.status = HostedEvaluation.Status.SUBMITTED
        extra = await database_sync_to_async(self.submitted)(self.evaluation)
        await self.send(text_data=json.dumps({
            "type": "submitted", "submission": submission.pk, "runs": runs, "provenance": submission.provenance,
            "revealed": revealed, "url": f"/submissions/{submission.pk}/",
            "status_url": f"/api/v1/submissions/{submission.pk}", **extra}))

    async def send_step(self, **extra):
        live = self.live
        status = {"type": "status", "episode": self.episode.pk, "task": live.spec.id,
                  **services.episode_reference(self.episode), **live.status(reveal_score=True), **extra}
        await self.send(text_data=json.dumps(status))
        await self.send(bytes_data=await live.frame())
        if live.done:
            await database_sync_to_async(services.finish_episode)(self.episode.pk, live.score())

    async def refuse(self, refusal):
        await self.send(text_data=json.dumps({"type": "refused", "reason": str(refusal)}))
        if refusal.close:
            await self.close(code=refusal.close)
