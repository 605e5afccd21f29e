"""One WebSocket per play session. The server owns the game; the page sends one action per message.

Server -> page: a JSON status ({"type": "status", "step", "actions_left", "attempt", ...}) followed by the
frame as a binary message (JPEG); {"type": "refused", "reason"} for a message the rules refuse (nothing
changes); {"type": "finished", ...} at the end. Page -> server: {"type": "action", "step": n, "action": {...}}
where n is the step of the frame the player is answering, so an action sent before the last one's frame
arrived is refused as too fast, never applied twice.
"""
import json

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from sandbox import InvalidAction, SandboxError

from . import frames, services
from .models import PlaySession
from .play import PlayEnv


@database_sync_to_async
def load_session(session_id, user):
    session = PlaySession.objects.select_related("task__game").filter(pk=session_id, user=user).first()
    if session is not None and services.is_expired(session):
        services.expire_abandoned_sessions()
        session.refresh_from_db()
    return session


record_action = database_sync_to_async(services.record_action)
finish_session = database_sync_to_async(services.finish_session)


def in_sandbox(fn):
    """Sandbox calls block (a browser round trip): run them off the event loop, outside Django's DB thread."""
    return sync_to_async(fn, thread_sensitive=False)


class PlayConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        self.env = None
        user = self.scope["user"]
        if not user.is_authenticated:
            await self.close(code=4401)
            return
        self.session = await load_session(self.scope["url_route"]["kwargs"]["pk"], user)
        await self.accept()
        if self.session is None:
            await self.refuse("no such play session for your account", close=4404)
        elif self.session.status == PlaySession.Status.EXPIRED:
            await self.refuse("this session expired after a long pause; start a new one", close=4410)
        elif self.session.status == PlaySession.Status.FINISHED:
            await self.send_finished()
        else:
            await self.resume()

    async def disconnect(self, code):
        if self.env is not None:
            await in_sandbox(self.env.close)()

    async def resume(self):
        """Open the game and replay every stored action: a dropped connection continues where it was."""
        actions = await database_sync_to_async(self.session.action_list)()
        try:
            self.env = await in_sandbox(PlayEnv)(self.session)
            await in_sandbox(self.env.open)(actions)
        except (SandboxError, ValueError) as exc:
            await self.refuse(f"the game could not be started: {exc}", close=4500)
            return
        await self.send_step()
        if self.env.done:
            await self.finish()

    async def receive(self, text_data=None, bytes_data=None):
        try:
            message = json.loads(text_data) if text_data is not None else None
        except json.JSONDecodeError:
            message = None
        if not isinstance(message, dict) or message.get("type") != "action" or "action" not in message:
            await self.refuse('send JSON text: {"type": "action", "step": <n>, "action": {...}}')
            return
        if self.env is None:
            await self.refuse("the game is not running")
            return
        if self.env.done:
            await self.refuse("the run is over: no actions left")
            return
        if message.get("step") != self.env.actions_used:
            await self.refuse(f"too fast: that action answers frame {message.get('step')!r}, but frame "
                              f"{self.env.actions_used} is the current one; wait for each frame")
            return
        try:
            self.env.check(message["action"])
        except InvalidAction as exc:
            await self.refuse(f"not an action of this game: {exc}")
            return
        index = self.env.actions_used
        await in_sandbox(self.env.step)(message["action"])
        try:
            await record_action(session_id=self.session.pk, index=index, action=message["action"])
        except services.SessionConflict as exc:
            await self.refuse(str(exc), close=4409)
            return
        await self.send_step()
        if self.env.done:
            await self.finish()

    async def send_step(self):
        await self.send(text_data=json.dumps({"type": "status", **self.env.status()}))
        await self.send(bytes_data=await in_sandbox(self.env.frame)())

    async def finish(self):
        score = self.env.score()
        self.session = await finish_session(session_id=self.session.pk, progress=score.progress,
                                            success=score.success)
        await self.send_finished()

    async def send_finished(self):
        session = self.session
        await self.send(text_data=json.dumps({
            "type": "finished", "progress": session.progress, "success": session.success,
            "result_url": f"/play/sessions/{session.pk}/", "frames": await database_sync_to_async(frames.count)(session)}))
        await self.close()

    async def refuse(self, reason, close=None):
        await self.send(text_data=json.dumps({"type": "refused", "reason": reason}))
        if close:
            await self.close(code=close)
