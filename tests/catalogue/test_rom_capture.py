"""A maintainer plays a registered ROM to its start in the play page and saves the start state there."""
import json

import pytest
from asgiref.sync import async_to_sync
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User

from catalogue.models import RegisteredRom
from gameworld_site.routing import websocket_urlpatterns
from sandbox.backends.gameboy.state import read_header
from tests.catalogue.test_roms import SNAKE_ROM, upload
from tests.conftest import FROM_THE_SITE

pytestmark = pytest.mark.django_db(transaction=True)
router = URLRouter(websocket_urlpatterns)


@pytest.fixture(autouse=True)
def data_dir(settings, tmp_path):
    settings.DATA_DIR = tmp_path


def socket_for(rom, user):
    socket = WebsocketCommunicator(router, f"/ws/roms/{rom.pk}/start/", headers=FROM_THE_SITE)
    socket.scope["user"] = user
    return socket


async def next_step(socket):
    status = json.loads(await socket.receive_from(timeout=30))
    assert status["type"] == "status", status
    frame = await socket.receive_output(timeout=30)
    assert frame["bytes"][:3] == b"\xff\xd8\xff"
    return status


def test_play_to_the_start_then_save_it_and_resume(admin_client):
    assert upload(admin_client, SNAKE_ROM).status_code == 302
    rom = RegisteredRom.objects.get()
    admin = User.objects.get(username="admin")
    assert admin_client.get(f"/play/roms/{rom.pk}/start/").status_code == 200
    presses = [{"type": "press_key", "key": "start"}, {"type": "wait"}, {"type": "press_key", "key": "left"}]

    async def play():
        socket = socket_for(rom, admin)
        assert (await socket.connect(timeout=30))[0]
        assert (await next_step(socket))["step"] == 0
        for step, action in enumerate(presses[:2]):
            await socket.send_json_to({"type": "action", "step": step, "action": action})
            assert (await next_step(socket))["step"] == step + 1
        await socket.send_json_to({"type": "action", "step": 2, "action": {"type": "press_key", "key": "Space"}})
        assert "not a Game Boy button action" in (await socket.receive_json_from())["reason"]
        await socket.disconnect()

    async def resume_and_save():
        socket = socket_for(rom, admin)
        await socket.connect(timeout=30)
        assert (await next_step(socket))["step"] == 2  # the stored presses were replayed
        await socket.send_json_to({"type": "action", "step": 2, "action": presses[2]})
        assert (await next_step(socket))["step"] == 3
        await socket.send_json_to({"type": "save"})
        saved = await socket.receive_json_from(timeout=30)
        assert saved["type"] == "finished" and saved["saved"] and saved["actions"] == 3
        await socket.disconnect()

    async_to_sync(play)()
    assert RegisteredRom.objects.get().start_actions == presses[:2]
    async_to_sync(resume_and_save)()
    rom.refresh_from_db()
    assert rom.start_actions == presses and rom.start_state
    header = read_header(bytes(rom.start_state))[0]
    assert header["actions"] == presses and header["rom_sha256"] == rom.sha256


def test_only_maintainers_may_capture(admin_client, client):
    assert upload(admin_client, SNAKE_ROM).status_code == 302
    rom = RegisteredRom.objects.get()
    visitor = User.objects.create_user("vic", password="pw-vic-2026!", is_staff=True)
    client.force_login(visitor)
    assert client.get(f"/play/roms/{rom.pk}/start/").status_code == 403

    async def scenario():
        connected, code = await socket_for(rom, visitor).connect()
        assert not connected and code == 4403
    async_to_sync(scenario)()
