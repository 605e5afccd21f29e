"""Rounds evaluations over the agent socket, in-process: round 0 cold, a round restricted to its curriculum's tasks
and episodes at sealed seeds, the artifact carried into the next round (bounded, refused when out of turn), the
held-out round, and a finished entry that plays no more."""
import pytest
from asgiref.sync import async_to_sync

from hosted.models import HostedEvaluation
from rounds.models import Entry
from submissions.models import Submission
from tests.hosted.test_hosted import Agent, token_for
from tests.rounds.factories import counter_curriculum

AGENT = {"name": "rounds-test", "model": "scripted", "interface": "generalist"}
UP = {"type": "semantic", "name": "up"}


@pytest.mark.django_db(transaction=True)
def test_an_entry_plays_cold_carries_its_text_and_ends_with_the_held_out_tasks(queued_runs):
    curriculum = counter_curriculum(rounds=1, episodes=2, artifact_max_chars=20)
    key = token_for("rounds-ann")

    async def play_round(agent, begin):
        begun = await agent.ask({"type": "begin", **begin})
        assert begun["type"] == "evaluation", begun
        task = begun["tasks"][0]["task"]
        status = await agent.step({"type": "reset", "task": task, "episode_number": 2})
        assert "seed" not in status and len(status["commitment"]) == 64
        await agent.step({"type": "action", "step": 0, "action": UP})
        submitted = await agent.ask({"type": "submit"})
        assert submitted["type"] == "submitted" and submitted["provenance"] == "round", submitted
        return begun, submitted

    async def scenario():
        agent = Agent(path=f"/ws/agent/?token={key}")
        await agent.connect()
        assert "no published curriculum 'nope'" in (await agent.ask(
            {"type": "begin", "curriculum": "nope", "agent": AGENT}))["reason"]
        assert "round 0 is played cold" in (await agent.ask(
            {"type": "begin", "curriculum": curriculum.slug, "agent": AGENT, "artifact": "cheat sheet"}))["reason"]
        begun = await agent.ask({"type": "begin", "curriculum": curriculum.slug, "agent": AGENT})
        # Round 0 plays every task cold, the held-out one too (the transfer compares the same tasks).
        assert [t["task"] for t in begun["tasks"]] == ["counter/score-2@1", "counter/score-3@1"]
        assert begun["tasks"][0]["episodes"] == 2
        assert begun["sealed"] and begun["round"]["index"] == 0 and begun["round"]["artifact"] == ""
        entry = begun["round"]["entry"]
        assert "not a task of this round" in (await agent.ask(
            {"type": "reset", "task": "counter/score-5@1", "episode_number": 1}))["reason"]
        assert "has episodes 1 to 2" in (await agent.ask(
            {"type": "reset", "task": "counter/score-3@1", "episode_number": 3}))["reason"]
        await agent.step({"type": "reset", "task": "counter/score-3@1", "episode_number": 1})
        await agent.step({"type": "action", "step": 0, "action": UP})
        submitted = await agent.ask({"type": "submit"})
        assert submitted["round"] == {"entry": entry, "submitted": "round 0", "next": "round 1",
                                      "url": f"/rounds/entries/{entry}/"}

        too_long = await agent.ask({"type": "begin", "rounds_entry": entry, "artifact": "x" * 21})
        assert "21 characters" in too_long["reason"] and "at most 20" in too_long["reason"]
        assert "send the text you carry" in (await agent.ask({"type": "begin", "rounds_entry": entry}))["reason"]
        begun, submitted = await play_round(agent, {"rounds_entry": entry, "artifact": "press up, thrice"})
        assert begun["round"]["index"] == 1 and begun["round"]["artifact"] == "press up, thrice"
        assert [t["task"] for t in begun["tasks"]] == ["counter/score-3@1"]
        assert submitted["round"]["next"] == "held-out"

        begun, submitted = await play_round(agent, {"rounds_entry": entry, "artifact": "press up, thrice"})
        assert begun["round"]["held_out"] and [t["task"] for t in begun["tasks"]] == ["counter/score-2@1"]
        assert submitted["round"]["next"] is None
        assert "is finished" in (await agent.ask({"type": "begin", "rounds_entry": entry, "artifact": ""}))["reason"]
        await agent.socket.disconnect()

        other = Agent(path=f"/ws/agent/?token={token_for('rounds-bo')}")
        await other.connect()
        assert f"no rounds entry {entry}" in (await other.ask(
            {"type": "begin", "rounds_entry": entry, "artifact": ""}))["reason"]
        await other.socket.disconnect()
        return entry

    entry = Entry.objects.get(pk=async_to_sync(scenario)())
    assert [(r.index, r.artifact, r.evaluation.status) for r in entry.rounds.all()] == [
        (0, "", "submitted"), (1, "press up, thrice", "submitted"), (2, "press up, thrice", "submitted")]
    assert entry.stage() == "finished"
    evaluations = HostedEvaluation.objects.filter(round__entry=entry)
    assert {e.kind for e in evaluations} == {"round"} and all(e.sealed for e in evaluations)
    assert set(Submission.objects.values_list("provenance", flat=True)) == {"round"}
    assert len(queued_runs) == 3  # each round's run queued for a worker's replay, like any submission


@pytest.mark.django_db(transaction=True)
def test_an_open_round_is_continued_not_skipped():
    curriculum = counter_curriculum()
    key = token_for("rounds-cy")

    async def scenario():
        agent = Agent(path=f"/ws/agent/?token={key}")
        await agent.connect()
        begun = await agent.ask({"type": "begin", "curriculum": curriculum.slug, "agent": AGENT})
        await agent.socket.disconnect()
        again = Agent(path=f"/ws/agent/?token={key}")
        await again.connect()
        entry = begun["round"]["entry"]
        skipped = await again.ask({"type": "begin", "rounds_entry": entry, "artifact": "new notes"})
        assert "round 0 of entry" in skipped["reason"] and "still open" in skipped["reason"]
        continued = await again.ask({"type": "begin", "rounds_entry": entry})
        assert continued["id"] == begun["id"] and continued["round"]["index"] == 0
        await again.socket.disconnect()

    async_to_sync(scenario)()
