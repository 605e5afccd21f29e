"""The play socket, driven like a browser would: the rules agents face, refusals, resume after a drop."""
import json

import pytest
from asgiref.sync import async_to_sync
from channels.auth import AuthMiddlewareStack
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from gameworld_site.routing import websocket_urlpatterns
from humanplay import services
from humanplay.models import PlayAction, PlaySession
from submissions import verification
from submissions.models import Run
from tests.conftest import FROM_THE_SITE
from tests.factories import load_games, make_user, task

pytestmark = pytest.mark.django_db(transaction=True)
router = URLRouter(websocket_urlpatterns)
WAIT = {"type": "wait"}
JUMP = {"type": "press_key", "key": "Space"}


@pytest.fixture(autouse=True)
def games():
    load_games()


def runner_session(user, mode=PlaySession.Mode.BASELINE):
    return services.start_session(user=user, task=task("runner/clear-17@1"), mode=mode)


class Player:
    """A WebsocketCommunicator with the user in its scope, as the auth middleware would put it."""

    def __init__(self, session, user):
        self.socket = WebsocketCommunicator(router, f"/ws/play/{session.pk}/", headers=FROM_THE_SITE)
        self.socket.scope["user"] = user

    async def connect(self):
        connected, _ = await self.socket.connect(timeout=30)
        assert connected
        return await self.next_step()

    async def next_step(self):
        status = json.loads(await self.socket.receive_from(timeout=30))
        assert status["type"] == "status", status
        frame = await self.socket.receive_output(timeout=30)
        assert frame["bytes"][:3] == b"\xff\xd8\xff"  # a JPEG frame follows each status
        return status

    async def act(self, action, step):
        await self.socket.send_json_to({"type": "action", "step": step, "action": action})
        return await self.next_step()

    async def refused(self, text=None, data=None):
        await self.socket.send_to(text_data=text, bytes_data=data)
        reply = await self.socket.receive_json_from(timeout=10)
        assert reply["type"] == "refused", reply
        return reply["reason"]

    async def finished(self):
        reply = await self.socket.receive_json_from(timeout=30)
        assert reply["type"] == "finished", reply
        return reply


def test_a_full_session_to_the_budget_with_reset_on_fail_and_refusals():
    user = make_user()
    session = runner_session(user)

    async def scenario():
        player = Player(session, user)
        status = await player.connect()
        assert (status["step"], status["actions_left"], status["attempt"]) == (0, 100, 1)
        assert "progress" not in status  # never shown while playing
        assert "not an action of this game: key 'KeyQ'" in await player.refused(
            json.dumps({"type": "action", "step": 0, "action": {"type": "press_key", "key": "KeyQ"}}))
        assert "send one JSON object per message" in await player.refused("jump!")
        assert "binary messages are not read" in await player.refused(data=b"\x00\x01")
        assert "a message of 70,0" in await player.refused(json.dumps({"type": "action", "x": "J" * 70_000}))
        assert "send JSON text" in await player.refused(json.dumps({"type": "chat", "text": "hi"}))
        attempts = set()
        for step in range(100):
            if step == 40:  # two messages sent before the first one's frame came back
                await player.socket.send_json_to({"type": "action", "step": step, "action": WAIT})
                await player.socket.send_json_to({"type": "action", "step": step, "action": JUMP})
                status = await player.next_step()
                reason = json.loads(await player.socket.receive_from(timeout=10))["reason"]
                assert reason.startswith("too fast: that action answers frame 40, but frame 41 is the current one")
                continue
            status = await player.act(WAIT, step)
            attempts.add(status["attempt"])
        assert status["actions_left"] == 0 and status["done"]
        assert len(attempts) > 5  # waiting loses: the game was reset again and again
        result = await player.finished()
        assert result["progress"] < 1 and result["success"] is False and result["frames"] == 101
    async_to_sync(scenario)()
    session.refresh_from_db()
    assert session.status == "finished" and PlayAction.objects.filter(session=session).count() == 100
    run = session.run
    assert (run.kind, run.player, run.seed, len(run.actions)) == ("novice", user, session.seed, 100)
    assert run.actions[40] == WAIT  # the refused message was not applied


def test_resume_after_a_disconnect_ends_like_an_uninterrupted_session():
    actions = [JUMP if i % 7 == 3 else WAIT for i in range(100)]
    interrupted, steady = make_user("ann"), make_user("ben")
    first, second = runner_session(interrupted), runner_session(steady)
    # Recorded attempts are sealed, each at its own drawn seed: the steady player gets the first one's seal.
    PlaySession.objects.filter(pk=second.pk).update(seed=first.seed, salt=first.salt, commitment=first.commitment)
    second.refresh_from_db()

    async def play(session, user, plan, drop_at=None):
        player = Player(session, user)
        status = await player.connect()
        while status["step"] < len(plan):
            if status["step"] == drop_at:
                await player.socket.disconnect()
                player = Player(session, user)  # the tab reconnects
                status = await player.connect()
                assert status["step"] == drop_at  # nothing lost, nothing counted twice
                drop_at = None
                continue
            status = await player.act(plan[status["step"]], status["step"])
        return await player.finished()

    result_a = async_to_sync(play)(first, interrupted, actions, drop_at=37)
    result_b = async_to_sync(play)(second, steady, actions)
    assert (result_a["progress"], result_a["success"]) == (result_b["progress"], result_b["success"])
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.action_list() == second.action_list() == actions
    for run in (first.run, second.run):
        verification.verify_run(run_id=run.pk)
    a, b = Run.objects.get(pk=first.run.pk), Run.objects.get(pk=second.run.pk)
    assert a.status == b.status == "verified" and a.trace_sha256 == b.trace_sha256
    assert a.progress == pytest.approx(first.progress)


def test_strangers_and_finished_sessions():
    owner, stranger = make_user("owner"), make_user("stranger")
    session = runner_session(owner, mode=PlaySession.Mode.PRACTICE)

    async def scenario():
        anonymous = WebsocketCommunicator(router, f"/ws/play/{session.pk}/", headers=FROM_THE_SITE)
        anonymous.scope["user"] = AnonymousUser()
        connected, code = await anonymous.connect()
        assert not connected and code == 4401
        other = Player(session, stranger)
        connected, _ = await other.socket.connect()
        assert (await other.socket.receive_json_from())["reason"] == "no such play session for your account"
    async_to_sync(scenario)()
    services.finish_session(session_id=session.pk, progress=0.2, success=False)

    async def revisit():
        player = Player(session, owner)
        await player.socket.connect()
        assert (await player.finished())["progress"] == 0.2
    async_to_sync(revisit)()
    assert PlaySession.objects.get(pk=session.pk).run is None  # practice is never a baseline run


def test_auth_middleware_passes_the_signed_in_user(client):
    """The real stack (session cookie -> scope user) is what the browser uses."""
    user = make_user("cookie")
    client.force_login(user)
    session = runner_session(user, mode=PlaySession.Mode.PRACTICE)
    application = AuthMiddlewareStack(router)

    async def scenario():
        socket = WebsocketCommunicator(application, f"/ws/play/{session.pk}/",
                                       headers=[*FROM_THE_SITE, (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode())])
        connected, _ = await socket.connect(timeout=30)
        assert connected
        assert json.loads(await socket.receive_from(timeout=30))["type"] == "status"
        await socket.disconnect()
    async_to_sync(scenario)()


def test_game_boy_games_play_over_the_same_socket():
    user = make_user("gb")
    session = services.start_session(user=user, task=task("snake/apples-3@2"), mode=PlaySession.Mode.PRACTICE)

    async def scenario():
        player = Player(session, user)
        status = await player.connect()
        assert status["actions_left"] == 100
        status = await player.act({"type": "press_key", "key": "left"}, 0)
        assert status["step"] == 1
        assert "not an action of this game" in await player.refused(
            json.dumps({"type": "action", "step": 1, "action": {"type": "press_key", "key": "Space"}}))
        await player.socket.disconnect()
    async_to_sync(scenario)()
    assert session.action_list() == [{"type": "press_key", "key": "left"}]


def test_a_play_socket_from_another_origin_or_none_is_refused():
    user = make_user("elsewhere")
    session = runner_session(user, mode=PlaySession.Mode.PRACTICE)

    async def scenario():
        for headers in ([], [(b"origin", b"https://evil.example")]):
            socket = WebsocketCommunicator(router, f"/ws/play/{session.pk}/", headers=headers)
            socket.scope["user"] = user
            connected, _ = await socket.connect(timeout=30)
            assert not connected  # a page elsewhere cannot ride on the player's session cookie
    async_to_sync(scenario)()
