"""A maintainer plays a registered ROM from power-on to the moment its tasks should start, then saves that
moment as the ROM's start state. Each button press is stored (as the ROM's start actions) as it is applied, so
the capture can be made again and a dropped connection resumes. Same page protocol as play sessions."""
import json

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from sandbox import SandboxError
from sandbox.backends.gameboy import Machine
from sandbox.backends.gameboy.capture import apply_button_action

from . import roms
from .models import RegisteredRom

PERMISSION = "catalogue.validate_task"


class RomPlayer:
    """The ROM booted from power-on with the start actions so far applied. Blocking: call off the event loop."""

    def __init__(self, rom, actions):
        self.rom = rom
        self.machine = Machine(rom.rom_path.read_bytes(), name=rom.slug, pinned_sha256=rom.sha256)
        self.machine.tick(rom.boot_frames, True)
        for action in actions:
            self.apply(action)

    def apply(self, action):
        apply_button_action(self.machine, action, self.rom.press_frames, self.rom.release_frames)

    def frame(self):
        return self.machine.image("jpeg", scale=3)

    def close(self):
        self.machine.close()


@database_sync_to_async
def load_rom(rom_id):
    return RegisteredRom.objects.filter(pk=rom_id).first()


@database_sync_to_async
def store_actions(rom_id, actions):
    RegisteredRom.objects.filter(pk=rom_id).update(start_actions=actions)


@database_sync_to_async
def save_start_state(rom_id):
    return roms.capture_rom_start_state(rom=RegisteredRom.objects.get(pk=rom_id))


def in_emulator(fn):
    return sync_to_async(fn, thread_sensitive=False)


class RomCaptureConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        self.player = None
        user = self.scope["user"]
        if not user.is_authenticated or not await database_sync_to_async(user.has_perm)(PERMISSION):
            await self.close(code=4403)
            return
        self.rom = await load_rom(self.scope["url_route"]["kwargs"]["pk"])
        await self.accept()
        if self.rom is None:
            await self.refuse("no such registered ROM", close=4404)
            return
        self.actions = list(self.rom.start_actions or [])
        await self.restart(self.actions)

    async def disconnect(self, code):
        if self.player is not None:
            await in_emulator(self.player.close)()

    async def restart(self, actions):
        if self.player is not None:
            await in_emulator(self.player.close)()
        try:
            self.player = await in_emulator(RomPlayer)(self.rom, actions)
        except (SandboxError, OSError) as exc:
            await self.refuse(f"the ROM could not be started: {exc}", close=4500)
            return
        await self.send_step()

    async def receive(self, text_data=None, bytes_data=None):
        try:
            message = json.loads(text_data) if text_data is not None else None
        except json.JSONDecodeError:
            message = None
        kind = message.get("type") if isinstance(message, dict) else None
        if kind == "save":
            try:
                header = await save_start_state(self.rom.pk)
            except (SandboxError, OSError) as exc:
                await self.refuse(f"the start state could not be saved: {exc}")
                return
            await self.send(text_data=json.dumps({"type": "finished", "saved": True, "frames": header["frames"],
                                                  "actions": len(self.actions)}))
        elif kind == "restart":
            self.actions = []
            await store_actions(self.rom.pk, self.actions)
            await self.restart(self.actions)
        elif kind == "action" and "action" in message:
            if message.get("step") != len(self.actions):
                await self.refuse(f"too fast: that action answers frame {message.get('step')!r}, but frame "
                                  f"{len(self.actions)} is the current one; wait for each frame")
                return
            try:
                await in_emulator(self.player.apply)(message["action"])
            except SandboxError as exc:
                await self.refuse(f"not a Game Boy button action: {exc}")
                return
            self.actions.append(message["action"])
            await store_actions(self.rom.pk, self.actions)
            await self.send_step()
        else:
            await self.refuse('send JSON text: {"type": "action", "step": <n>, "action": {...}}, '
                              '{"type": "save"} or {"type": "restart"}')

    async def send_step(self):
        await self.send(text_data=json.dumps({"type": "status", "step": len(self.actions), "actions_left": "–",
                                              "attempt": "–", "reset": False, "done": False}))
        await self.send(bytes_data=await in_emulator(self.player.frame)())

    async def refuse(self, reason, close=None):
        await self.send(text_data=json.dumps({"type": "refused", "reason": reason}))
        if close:
            await self.close(code=close)
