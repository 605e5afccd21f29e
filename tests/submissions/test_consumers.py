"""The submission page's WebSocket: pushes the snapshot when it changes, closes the loop when finished."""
import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from gameworld_site.routing import websocket_urlpatterns
from submissions import services, verification
from submissions.uploads import parse_upload
from tests.conftest import FROM_THE_SITE
from tests.factories import limits, load_games, make_user, payload, run_entry

pytestmark = pytest.mark.django_db(transaction=True)
application = URLRouter(websocket_urlpatterns)


@pytest.fixture
def submission():
    load_games()
    user = make_user()
    parsed = parse_upload(payload([run_entry("breakout/rally-5@2"), run_entry("minesweeper/clear-2-boards@2")]),
                          user=user, limits=limits())
    return services.create_submission(user=user, parsed=parsed)


def test_progress_is_pushed_until_the_submission_is_verified(submission):
    run_ids = list(submission.runs.order_by("pk").values_list("pk", flat=True))

    async def scenario():
        socket = WebsocketCommunicator(application, f"/ws/submissions/{submission.pk}/", headers=FROM_THE_SITE)
        connected, _ = await socket.connect()
        assert connected
        first = await socket.receive_json_from(timeout=5)
        assert (first["runs_done"], first["runs_total"], first["finished"]) == (0, 2, False)
        seen = [first]
        for run_id in run_ids:
            await sync_to_async(verification.verify_run)(run_id=run_id)
            while seen[-1]["runs_done"] < run_ids.index(run_id) + 1:
                seen.append(await socket.receive_json_from(timeout=10))
        assert seen[-1]["status"] == "verified" and seen[-1]["finished"]
        assert [r["status"] for r in seen[-1]["runs"]] == ["verified", "verified"]
        assert await socket.receive_nothing(timeout=1.2)  # finished: no more pushes
        await socket.send_json_to({"hello": 1})
        assert "takes no messages" in (await socket.receive_json_from())["error"]
        await socket.disconnect()
    async_to_sync(scenario)()


def test_an_unknown_submission_is_refused():
    async def scenario():
        socket = WebsocketCommunicator(application, "/ws/submissions/999/", headers=FROM_THE_SITE)
        connected, _ = await socket.connect()
        assert connected
        assert (await socket.receive_json_from())["error"] == "no submission 999"
        assert (await socket.receive_output())["type"] == "websocket.close"
    async_to_sync(scenario)()
