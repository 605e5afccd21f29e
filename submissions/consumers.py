"""The socket of a submission's page: live progress of its verification."""
import asyncio

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from .models import Submission
from .selectors import submission_snapshot

POLL_S = 0.5


@database_sync_to_async
def load_snapshot(submission_id):
    try:
        return submission_snapshot(submission_id)
    except Submission.DoesNotExist:
        return None


class SubmissionProgressConsumer(AsyncJsonWebsocketConsumer):
    """Sends the submission's snapshot whenever it changes, until it is finished.

    The worker may run in another process: with Redis its `submission.changed` message arrives at once;
    with the in-memory layer (embedded default) nothing crosses processes, so the consumer also polls.
    """

    async def connect(self):
        self.submission_id = self.scope["url_route"]["kwargs"]["pk"]
        self.group = f"submission-{self.submission_id}"
        self.last = None
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        self.poller = asyncio.create_task(self.poll())

    async def disconnect(self, code):
        self.poller.cancel()
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content, **kwargs):
        await self.send_json({"error": "this socket only sends progress; it takes no messages"})

    async def submission_changed(self, event):
        await self.push()

    async def poll(self):
        while await self.push():
            await asyncio.sleep(POLL_S)

    async def push(self):
        """Send the snapshot if it changed; return whether to keep watching."""
        snapshot = await load_snapshot(self.submission_id)
        if snapshot is None:
            await self.send_json({"error": f"no submission {self.submission_id}"})
            await self.close(code=4404)
            return False
        if snapshot != self.last:
            self.last = snapshot
            await self.send_json(snapshot)
        return not snapshot["finished"]
