"""Abuse limits at their real defaults (the rest of the suite runs with them raised): sign-in lockout, sign-ups,
campaign sign-up codes, API tokens, uploads, hosted evaluations, open agent sockets and play sessions. Each refusal
says the limit and when it resets."""
import threading
from datetime import date, timedelta

import pytest
from asgiref.sync import async_to_sync
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.conf import settings as site_settings
from django.core.cache import cache

from gameworld_site.routing import websocket_urlpatterns
from hosted import services as hosted_services
from hosted.models import HostedEvaluation
from humanplay import services as play_services
from humanplay.models import Campaign, CampaignMember, PlaySession
from submissions.limits import LimitReached
from submissions.models import ApiToken
from tests.factories import make_user
from tests.leaderboard.factories import mini_task_set

pytestmark = pytest.mark.django_db
AGENT = {"name": "limited", "model": "scripted", "interface": "generalist"}


def real_default(limit):
    return int(site_settings.LIMIT_DEFAULTS[limit][1].split("/")[0])


@pytest.fixture(autouse=True)
def real_limits(settings):
    settings.GAMEWORLD_LIMITS = {name: default for name, (_, default) in settings.LIMIT_DEFAULTS.items()}
    settings.AXES_FAILURE_LIMIT = 10
    settings.GAMEWORLD_MAX_AGENT_SOCKETS = 4
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # many sign-ins, quickly
    cache.clear()  # counters of earlier tests
    yield
    cache.clear()


def test_sign_in_locks_out_after_ten_wrong_passwords_even_with_the_right_one(client):
    make_user("mallory-target")
    tries = [client.post("/accounts/login/", {"username": "mallory-target", "password": "guess"}).status_code
             for _ in range(10)]
    assert tries == [200] * 9 + [429]
    locked = client.post("/accounts/login/", {"username": "mallory-target", "password": "pw-mallory-target-2026!"})
    assert locked.status_code == 429
    assert "10 wrong passwords" in locked.content.decode() and "0:15:00" in locked.content.decode()
    assert "_auth_user_id" not in client.session
    make_user("bystander")  # another account from the same address still signs in
    assert client.post("/accounts/login/", {"username": "bystander", "password": "pw-bystander-2026!"}).status_code == 302


def test_sign_ups_from_one_address_stop_at_the_limit(client):
    def sign_up(n):
        return client.post("/accounts/signup/", {"username": f"newcomer{n}", "password1": "a-long-pass-2026!",
                                                 "password2": "a-long-pass-2026!"})
    assert all(sign_up(n).status_code == 302 for n in range(real_default("signup")))
    refused = sign_up(99)
    assert refused.status_code == 429 and "5 accounts may be made from one address per hour" in refused.content.decode()
    assert "resets in" in refused.content.decode()


def test_wrong_campaign_codes_stop_at_the_limit_and_then_the_right_one_waits():
    task_set = mini_task_set(["breakout/rally-5@2"])
    campaign = Campaign.objects.create(slug="lab", title="Lab", task_set=task_set, signup_code="owl-42",
                                       consent_text="ok", starts_on=date.today(), ends_on=date.today() + timedelta(1))
    guesser = make_user("guesser")
    for n in range(real_default("campaign_code")):
        with pytest.raises(play_services.CampaignError, match="not this campaign's"):
            play_services.join_campaign(campaign=campaign, user=guesser, code=f"guess-{n}")
    with pytest.raises(play_services.CampaignError, match="10 wrong sign-up codes may be tried per hour; it resets in"):
        play_services.join_campaign(campaign=campaign, user=guesser, code="owl-42")
    assert not CampaignMember.objects.filter(user=guesser).exists()
    play_services.join_campaign(campaign=campaign, user=make_user("invited"), code="owl-42")  # others are not held up


def test_token_creation_stops_at_the_limit(client):
    user = make_user("tokens")
    client.force_login(user)
    for n in range(real_default("token") + 2):
        client.post("/account/tokens/", {"name": f"t{n}"})
    assert ApiToken.objects.filter(user=user).count() == 10
    page = client.get("/account/").content.decode()
    assert "No new token: limit reached: 10 API tokens may be created per hour; it resets in" in page


def test_uploads_stop_at_the_limit_with_retry_after(client):
    key = ApiToken.issue(user=make_user("uploader"), name="t")[1]
    post = lambda: client.post("/api/v1/submissions", b"{}", content_type="application/json",  # noqa: E731
                               HTTP_AUTHORIZATION=f"Token {key}")
    assert {post().status_code for _ in range(real_default("upload"))} == {400}  # counted, however bad the file
    refused = post()
    assert refused.status_code == 429 and 0 < int(refused["Retry-After"]) <= 3600
    assert "30 submissions may be uploaded per hour" in refused.json()["errors"][0]["message"]


def test_hosted_evaluations_begun_stop_at_the_limit_with_the_reason():
    task_set = mini_task_set(["breakout/rally-5@2"])
    user = make_user("busy-agent")
    for _ in range(real_default("hosted_evaluation")):
        hosted_services.begin(user, {"agent": AGENT, "task_set": task_set.slug})
    with pytest.raises(hosted_services.Refusal, match="20 hosted evaluations may be begun per hour; it resets in"):
        hosted_services.begin(user, {"agent": AGENT, "task_set": task_set.slug})
    evaluation = HostedEvaluation.objects.filter(user=user).first()
    assert hosted_services.begin(user, {"evaluation": evaluation.pk}) == evaluation  # continuing one is not counted


def test_play_sessions_started_stop_at_the_limit():
    task_set = mini_task_set(["breakout/rally-5@2"])
    task = task_set.tasks.get()
    player = make_user("eager")
    for _ in range(real_default("play_session")):
        session = play_services.start_session(user=player, task=task, mode=PlaySession.Mode.PRACTICE)
        PlaySession.objects.filter(pk=session.pk).update(status=PlaySession.Status.FINISHED)
    with pytest.raises(LimitReached, match="60 play sessions may be started per hour"):
        play_services.start_session(user=player, task=task, mode=PlaySession.Mode.PRACTICE)


router = URLRouter(websocket_urlpatterns)


@pytest.mark.django_db(transaction=True)
def test_open_agent_sockets_stop_at_four_per_account_and_a_closed_one_frees_its_place():
    key = ApiToken.issue(user=make_user("many-sockets"), name="t")[1]

    async def scenario():
        sockets = [WebsocketCommunicator(router, f"/ws/agent/?token={key}") for _ in range(5)]
        for socket in sockets[:4]:
            assert (await socket.connect(timeout=10))[0]
        assert (await sockets[4].connect(timeout=10))[0]
        refused = await sockets[4].receive_json_from(timeout=10)
        assert refused["type"] == "refused"
        assert "4 agent sockets may be open at once per account" in refused["reason"]
        assert (await sockets[4].receive_output(timeout=10)) == {"type": "websocket.close", "code": 4429}
        await sockets[0].disconnect()
        again = WebsocketCommunicator(router, f"/ws/agent/?token={key}")
        assert (await again.connect(timeout=10))[0]
        await again.send_json_to({"type": "submit"})
        assert "begin first" in (await again.receive_json_from(timeout=10))["reason"]  # playing, not refused
        for socket in [*sockets[1:4], again]:
            await socket.disconnect()

    async_to_sync(scenario)()


@pytest.mark.django_db(transaction=True)
def test_the_agent_socket_answers_the_handshake_before_any_database_work(monkeypatch):
    """Under load the server drops a handshake not accepted within its timeout, without an answer."""
    lookup_may_finish = threading.Event()
    real_lookup = hosted_services.token_for

    def slow_lookup(key):
        lookup_may_finish.wait(timeout=30)
        return real_lookup(key)
    monkeypatch.setattr(hosted_services, "token_for", slow_lookup)

    async def scenario():
        agent = WebsocketCommunicator(router, "/ws/agent/?token=gw_nothing")
        connected, _ = await agent.connect(timeout=5)
        lookup_may_finish.set()
        assert connected
        assert "API token" in (await agent.receive_json_from(timeout=10))["reason"]

    try:
        async_to_sync(scenario)()
    finally:
        lookup_may_finish.set()
