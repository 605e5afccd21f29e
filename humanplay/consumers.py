"""One WebSocket per play session, on the live-session engine (hosted/live.py). The server owns the
game; the page sends one action per message.

Server -> page: a JSON status ({"type": "status", "step", "actions_left", "attempt", ...}) followed by the
frame as a binary message (JPEG); {"type": "refused", "reason"} for a message the rules refuse (nothing
changes); {"type": "finished", ...} at the end. Page -> server: {"type": "action", "step": n, "action": {...}}
where n is the step of the frame the player is answering, so an action sent before the last one's frame
arrived is refused as too fast, never applied twice. An action outside the game's action space is refused.
"""
import json

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from hosted.live import LiveSession, Refusal, read_message

from . import frames, services
from .models import PlaySession

PLAYER_STATUS = ("step", "actions_left", "max_actions", "attempt", "reset", "done")  # no progress: it would coach


@database_sync_to_async
def load_session(session_id, user):
    session = PlaySession.objects.select_related("task__game").filter(pk=session_id, user=user).first()
    if session is not None and services.is_expired(session):
        services.expire_abandoned_sessions()
        session.refresh_from_db()
    return session


@database_sync_to_async
def played_so_far(session):
    """The task the session plays and the actions applied so far (its log)."""
    return session.task.spec(), session.action_list()


finish_session = database_sync_to_async(services.finish_session)


class PlayConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        self.live = None
        user = self.scope["user"]
        if not user.is_authenticated:
            await self.close(code=4401)
            return
        self.session = await load_session(self.scope["url_route"]["kwargs"]["pk"], user)
        await self.accept()
        if self.session is None:
            await self.refuse(Refusal("no such play session for your account", close=4404))
        elif self.session.status == PlaySession.Status.EXPIRED:
            await self.refuse(Refusal("this session expired after a long pause; start a new one", close=4410))
        elif self.session.status == PlaySession.Status.FINISHED:
            await self.send_finished()
        else:
            await self.resume()

    async def disconnect(self, code):
        if self.live is not None:
            await self.live.close()

    async def resume(self):
        """Open the game and replay every stored action: a dropped connection continues where it was."""
        spec, actions = await played_so_far(self.session)
        session_id = self.session.pk
        live = LiveSession(spec, self.session.seed, frames=frames.SessionFrames(session_id),
                           store=lambda index, action: services.record_action(
                               session_id=session_id, index=index, action=action))
        try:
            await live.open(actions)
        except Refusal as refusal:
            await self.refuse(refusal)
            return
        self.live = live
        await self.send_step()

    async def receive(self, text_data=None, bytes_data=None):
        try:
            message = read_message(text_data, bytes_data)
            if message.get("type") != "action" or "action" not in message:
                raise Refusal('send JSON text: {"type": "action", "step": <n>, "action": {...}}')
            if self.live is None:
                raise Refusal("the game is not running")
            await self.live.play(message)
        except Refusal as refusal:
            await self.refuse(refusal)
            return
        await self.send_step()

    async def send_step(self):
        status = self.live.status(reveal_score=False)
        await self.send(text_data=json.dumps({"type": "status", **{name: status[name] for name in PLAYER_STATUS}}))
        await self.send(bytes_data=await self.live.frame())
        await self.live.keep_frame()
        if self.live.done:
            score = self.live.score()
            self.session = await finish_session(session_id=self.session.pk, progress=score.progress,
                                                success=score.success)
            await self.send_finished()

    async def send_finished(self):
        session = self.session
        await self.send(text_data=json.dumps({
            "type": "finished", "progress": session.progress, "success": session.success,
            "result_url": f"/play/sessions/{session.pk}/", "frames": await database_sync_to_async(frames.count)(session)}))
        await self.close()

    async def refuse(self, refusal):
        await self.send(text_data=json.dumps({"type": "refused", "reason": str(refusal)}))
        if refusal.close:
            await self.close(code=refusal.close)
