"""Socket messages under arbitrary input: any text (not JSON, deep nesting, huge integers, odd Unicode, oversize
strings) and JSON objects shaped like the protocol's messages with junk in their fields. The reader answers with
a JSON object or a Refusal, nothing else; the agent socket refuses each bad message with a reason, keeps
serving, and stores nothing for them."""
import json

import pytest
from asgiref.sync import async_to_sync
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hosted.live import MAX_MESSAGE_BYTES, Refusal, read_message
from hosted.models import HostedAction, HostedEpisode
from tests.factories import load_games
from tests.hosted.test_hosted import AGENT, Agent, token_for
from tests.submissions.test_uploads_fuzz import json_values, odd_text

PATHOLOGICAL = st.sampled_from([
    "[" * 100_000 + "]" * 100_000, '{"a":' * 50_000 + "1" + "}" * 50_000, "9" * 5_000,
    '{"type": "action", "step": ' + "9" * 5_000 + "}", json.dumps({"type": "reset", "task": "x" * 70_000}),
    '{"type": "\\ud800"}', "", "null", "[]", "\x00", "NaN", '{"type": "begin", "agent": NaN}'])
PROTOCOL_SHAPED = st.fixed_dictionaries(
    {"type": st.sampled_from(["begin", "reset", "action", "submit", "hello"]) | odd_text},
    optional={"agent": json_values, "task": json_values, "seed": json_values, "step": json_values,
              "action": json_values, "protocol": json_values, "task_set": json_values})
MESSAGES = PATHOLOGICAL | PROTOCOL_SHAPED.map(json.dumps) | json_values.map(json.dumps) | odd_text


@settings(max_examples=300, deadline=None, derandomize=True)
@given(MESSAGES)
def test_the_reader_answers_an_object_or_a_refusal(text):
    try:
        message = read_message(text)
    except Refusal as refusal:
        assert str(refusal) and len(str(refusal)) < 200
        return
    assert isinstance(message, dict) and len(text.encode("utf-8", "surrogatepass")) <= MAX_MESSAGE_BYTES


@pytest.mark.django_db(transaction=True)
@settings(max_examples=3, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.lists(MESSAGES.filter(bool), min_size=12, max_size=12))  # a WebSocket text frame is not empty here
def test_the_agent_socket_refuses_junk_with_a_reason_and_keeps_serving(messages):
    load_games()
    key = token_for("fuzzer")

    async def scenario():
        agent = Agent(headers=[(b"authorization", f"Token {key}".encode())])
        await agent.connect()
        for text in messages:
            await agent.socket.send_to(text_data=text)
            answer = await agent.socket.receive_json_from(timeout=30)
            assert answer["type"] in ("refused", "evaluation"), (text[:200], answer)
            if answer["type"] == "refused":
                assert answer["reason"], text[:200]
        assert (await agent.ask({"type": "begin", "agent": AGENT}))["type"] in ("evaluation", "refused")
        await agent.socket.disconnect()

    async_to_sync(scenario)()
    assert not HostedAction.objects.exists() and not HostedEpisode.objects.exists()
