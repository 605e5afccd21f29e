"""Hosted evaluation: the agent socket in-process (auth, the rules, invalid actions charged, submit, expiry)."""
import json
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from evaluator.hosted_tasks import expire_idle_hosted_evaluations
from evaluator.models import (ApiToken, HostedAction, HostedEpisode, HostedEvaluation, HostedEvaluationSettings,
                              Submission, TaskSet)
from gameworld_site.routing import websocket_urlpatterns
from sandbox import registry
from tests.evaluator.submissions import as_semantic, load_games, make_user

router = URLRouter(websocket_urlpatterns)
AGENT = {"name": "hosted-test", "model": "scripted", "interface": "generalist"}
TASK = "breakout/rally-5@1"
# The task's reference as semantic actions, with two invalid actions (charged as steps; the game does not move).
_REFERENCE = as_semantic(registry.task(TASK).reference.actions, registry.game("breakout"))
PLAN = [{"type": "press_key", "key": "KeyQ"}, *_REFERENCE[:2], {"type": "invalid", "raw": "no idea"},
        *_REFERENCE[2:]]


def token_for(name):
    return ApiToken.issue(user=make_user(name), name="test")[1]


class Agent:
    def __init__(self, headers=None, path="/ws/agent/"):
        self.socket = WebsocketCommunicator(router, path, headers=headers or [])

    async def connect(self):
        connected, _ = await self.socket.connect(timeout=30)
        assert connected

    async def ask(self, message):
        await self.socket.send_json_to(message)
        return await self.socket.receive_json_from(timeout=30)

    async def step(self, message):
        status = await self.ask(message)
        assert status["type"] == "status", status
        frame = await self.socket.receive_output(timeout=30)
        assert frame["bytes"][:3] == b"\xff\xd8\xff"
        return status


@pytest.mark.django_db(transaction=True)
def test_the_agent_socket_plays_charges_invalid_actions_and_submits(queued_runs):
    load_games()
    key = token_for("hosted-ann")

    async def scenario():
        stranger = Agent(headers=[(b"authorization", b"Token gw_wrong")])
        await stranger.connect()
        refused = await stranger.socket.receive_json_from(timeout=10)
        assert refused["type"] == "refused" and "API token" in refused["reason"]
        assert (await stranger.socket.receive_output(timeout=10))["type"] == "websocket.close"

        agent = Agent(path=f"/ws/agent/?token={key}")  # a query parameter works where headers cannot be set
        await agent.connect()
        assert "agent.interface" in (await agent.ask({"type": "begin", "agent": {"name": "x", "model": "m",
                                                                                 "interface": "robot"}}))["reason"]
        begun = await agent.ask({"type": "begin", "agent": AGENT, "protocol": "paused"})
        assert begun["type"] == "evaluation" and begun["task_set"] == "core-v6" and begun["protocol"] == "paused"
        described = {t["task"]: t for t in begun["tasks"]}[TASK]
        assert described["seeds"] == [1, 2, 3] and described["action_space"]["keys"] == ["ArrowLeft", "ArrowRight", "Space"]
        assert "seed 7 is not one of" in (await agent.ask({"type": "reset", "task": TASK, "seed": 7}))["reason"]
        status = await agent.step({"type": "reset", "task": TASK, "seed": 1})
        assert (status["step"], status["actions_left"], status["resumed"], status["done"]) == (0, 100, False, False)
        assert "progress" not in status  # never shown before the end
        assert "that action answers frame 3, but frame 0 is the current one" in (
            await agent.ask({"type": "action", "step": 3, "action": PLAN[1]}))["reason"]
        assert "realtime" in (await agent.ask({"type": "action", "step": 0,
                                               "action": {**PLAN[1], "latency_ms": 10}}))["reason"]
        statuses = [await agent.step({"type": "action", "step": i, "action": a}) for i, a in enumerate(PLAN)]
        assert statuses[0]["invalid"] and "key 'KeyQ' is not in this game's keys" in statuses[0]["invalid_reason"]
        assert statuses[0]["action"] == {"type": "invalid", "raw": json.dumps(PLAN[0])}  # charged, recorded
        assert statuses[3]["invalid"] and statuses[3]["action"] == PLAN[3]
        last = statuses[-1]
        assert last["done"] and last["terminated"] and last["success"] and len(last["trace_sha256"]) == 64
        assert "already played" in (await agent.ask({"type": "reset", "task": TASK, "seed": 1}))["reason"]
        submitted = await agent.ask({"type": "submit"})
        assert submitted["type"] == "submitted" and submitted["runs"] == 1
        assert "already submitted" in (await agent.ask({"type": "submit"}))["reason"]
        await agent.socket.disconnect()
        return last, submitted

    last, submitted = async_to_sync(scenario)()
    evaluation = HostedEvaluation.objects.get()
    episode = HostedEpisode.objects.get()
    assert (evaluation.status, episode.status, episode.success) == ("submitted", "finished", True)
    assert HostedAction.objects.count() == len(PLAN)
    submission = Submission.objects.get(pk=submitted["submission"])
    assert evaluation.submission == submission and submission.protocol == "paused"
    assert submission.user.username == "hosted-ann" and "hosted" in submission.notes
    run = submission.runs.get()
    assert run.actions[0]["type"] == "invalid" and run.claimed_success is True
    assert queued_runs == [run.pk]  # queued for a worker's replay, like an upload
    from evaluator import verification

    verification.verify_run(run_id=run.pk)
    run.refresh_from_db()
    assert (run.status, run.success, run.invalid_actions, run.mismatch) == ("verified", True, 2, False)
    assert run.trace_sha256 == last["trace_sha256"]


@pytest.mark.django_db(transaction=True)
def test_an_idle_evaluation_expires_and_refuses_play_and_submission_but_keeps_its_episodes(queued_runs):
    load_games()
    key = token_for("hosted-idle")
    hours = HostedEvaluationSettings.current().hosted_expiry_hours

    def idle_for(evaluation_id, extra_minutes):
        HostedEvaluation.objects.filter(pk=evaluation_id).update(
            last_active_at=timezone.now() - timedelta(hours=hours, minutes=extra_minutes))

    async def scenario():
        agent = Agent(path=f"/ws/agent/?token={key}")
        await agent.connect()
        evaluation = (await agent.ask({"type": "begin", "agent": AGENT}))["id"]
        await agent.step({"type": "reset", "task": TASK, "seed": 1})
        await agent.step({"type": "action", "step": 0, "action": PLAN[1]})
        await database_sync_to_async(idle_for)(evaluation, 1)  # idle past the limit, not yet swept
        refused = await agent.ask({"type": "action", "step": 1, "action": PLAN[2]})
        assert "no longer open" in refused["reason"]
        assert "expired after" in (await agent.ask({"type": "submit"}))["reason"]
        await agent.socket.disconnect()

        again = Agent(path=f"/ws/agent/?token={key}")
        await again.connect()
        assert f"evaluation {evaluation} expired after {hours} h" in (
            await again.ask({"type": "begin", "evaluation": evaluation}))["reason"]
        await again.socket.disconnect()
        return evaluation

    evaluation = async_to_sync(scenario)()
    fresh = HostedEvaluation.objects.create(user=HostedEvaluation.objects.get(pk=evaluation).user,
                                            task_set=TaskSet.objects.get(slug="core-v6"), agent=AGENT)
    idle_for(fresh.pk, -1)  # a minute short of the limit
    assert expire_idle_hosted_evaluations() == 1  # the sweep marks only the idle one
    assert HostedEvaluation.objects.get(pk=evaluation).status == "expired"
    assert HostedEvaluation.objects.get(pk=fresh.pk).status == "open"
    assert HostedAction.objects.filter(episode__evaluation_id=evaluation).count() == 1  # the refused step not stored
    assert not Submission.objects.exists() and queued_runs == []


@pytest.mark.django_db(transaction=True)
def test_a_token_revoked_while_its_socket_is_open_stops_it_at_the_next_message():
    load_games()
    key = token_for("hosted-rev")

    async def scenario():
        agent = Agent(headers=[(b"authorization", f"Token {key}".encode())])  # no Origin: a plain client
        await agent.connect()
        assert (await agent.ask({"type": "begin", "agent": AGENT}))["type"] == "evaluation"
        await database_sync_to_async(ApiToken.objects.update)(revoked_at=timezone.now())
        refused = await agent.ask({"type": "reset", "task": TASK, "seed": 1})
        assert refused["type"] == "refused" and "revoked" in refused["reason"]
        closed = await agent.socket.receive_output(timeout=10)
        assert closed == {"type": "websocket.close", "code": 4401}

    async_to_sync(scenario)()
    assert not HostedEpisode.objects.exists()  # nothing the revoked token sent was applied


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("message, reason", [
    ({"type": "action", "step": 0, "action": {"type": "semantic", "name": "launch", "junk": "J" * 100_000}},
     "a message of 100,"),
    ("[" * 50_000 + "]" * 50_000, "a message of"),
    ("[" * 5_000 + "]" * 5_000, "send one JSON object per message"),
    ('{"type": "reset", "seed": ' + "9" * 5000 + "}", "send one JSON object per message"),
    (b"\x00binary", "binary messages are not read"),
], ids=["oversize", "deeply-nested", "nested", "huge-number", "binary"])
def test_oversize_deep_and_binary_messages_are_refused_with_a_reason(message, reason):
    load_games()
    key = token_for("hosted-big")

    async def scenario():
        agent = Agent(headers=[(b"authorization", f"Token {key}".encode())])
        await agent.connect()
        if isinstance(message, bytes):
            await agent.socket.send_to(bytes_data=message)
        else:
            await agent.socket.send_to(text_data=message if isinstance(message, str) else json.dumps(message))
        refused = await agent.socket.receive_json_from(timeout=10)
        assert refused["type"] == "refused" and reason in refused["reason"], refused
        assert (await agent.ask({"type": "begin", "agent": AGENT}))["type"] == "evaluation"  # still serving

    async_to_sync(scenario)()
