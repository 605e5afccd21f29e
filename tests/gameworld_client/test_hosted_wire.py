"""The hosted env's connection (websockets' sync client) against a small scripted agent socket: what the
handshake carries, a message over the client's limit refused with a clear error, a dropped connection
reconnected and resumed, a deliberate close not retried."""
import hashlib
import json
import threading
import time

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.server import serve

from gameworld_client import HostedError, HostedEvaluation
from gameworld_client.hosted import MAX_MESSAGE_BYTES, RemoteTransport

TASK = {"task": "breakout/rally-5@2", "seeds": [1, 2, 3]}
EVALUATION = {"type": "evaluation", "id": 7, "protocol": "paused", "task_set": "core-v15",
              "agent": {"name": "a", "model": "m", "interface": "generalist"}, "tasks": [TASK], "episodes": []}
JPEG = b"\xff\xd8\xff" + b"\0" * 100


class AgentSocket:
    """Answers begin with an evaluation and reset or action with a status and a frame; `frame_bytes` sets the
    size of the frames; `drop_after` closes the TCP connection (no close frame) at that many actions, before
    the next one is applied, or once it is applied but before the answer (`drop_applied`)."""

    def __init__(self, *, frame_bytes=len(JPEG), drop_after=None, drop_applied=False, close_code=None,
                 refuse=None, evaluation=EVALUATION, submitted=None):
        self.evaluation, self.submitted = evaluation, submitted
        self.frame = JPEG + b"\0" * (frame_bytes - len(JPEG))
        self.refuse = refuse
        self.drop_after, self.drop_applied, self.close_code = drop_after, drop_applied, close_code
        self.requests, self.messages, self.closes, self.applied = [], [], [], []
        self.server = serve(self.handle, "127.0.0.1", 0, compression=None)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def site(self):
        return f"http://127.0.0.1:{self.server.socket.getsockname()[1]}"

    def handle(self, connection):
        self.requests.append(connection.request)
        if self.close_code and self.refuse:  # refused on opening, as the agent socket does a bad token
            connection.send(json.dumps({"type": "refused", "reason": self.refuse}))
            connection.close(self.close_code)
            return
        try:
            for data in connection:
                message = json.loads(data)
                self.messages.append(message)
                if message["type"] == "begin":
                    connection.send(json.dumps({"type": "refused", "reason": self.refuse} if self.refuse
                                               else self.evaluation))
                    continue
                if message["type"] == "submit":
                    connection.send(json.dumps(self.submitted))
                    continue
                if message["type"] == "action":
                    if self.close_code:
                        connection.close(self.close_code, "your API token was revoked")
                        return
                    if self.drop_after is not None and len(self.applied) == self.drop_after:
                        self.drop_after = None
                        if self.drop_applied:
                            self.applied.append(message["action"])
                        connection.socket.close()  # the network drops: no close frame
                        return
                    self.applied.append(message["action"])
                connection.send(json.dumps({"type": "status", "step": len(self.applied), "actions": self.applied,
                                            "actions_left": 100 - len(self.applied), "terminated": False,
                                            "truncated": False}))
                connection.send(self.frame)
        except ConnectionClosed as closed:
            self.closes.append(closed.rcvd)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()


def test_the_handshake_carries_the_token_and_no_origin():
    with AgentSocket() as socket:
        with HostedEvaluation(socket.site, "gw_key", agent=EVALUATION["agent"], task_set="core-v15"):
            pass
    [request] = socket.requests
    assert request.path == "/ws/agent/" and request.headers["Authorization"] == "Token gw_key"
    assert "Origin" not in request.headers  # the agent socket checks an Origin only when one is given
    assert request.headers["User-Agent"].startswith("gameworld-client/")
    assert socket.messages == [{"type": "begin", "agent": EVALUATION["agent"], "task_set": "core-v15",
                                "protocol": "paused"}]


def test_a_message_over_the_limit_closes_the_connection_with_a_clear_error():
    with AgentSocket(frame_bytes=MAX_MESSAGE_BYTES + 1) as socket:
        hosted = HostedEvaluation(socket.site, "gw_key", agent=EVALUATION["agent"])
        with pytest.raises(HostedError) as refused:
            hosted.reset(TASK["task"], 1)
        hosted.close()
    assert str(refused.value).startswith("the site sent a message larger than the client's limit of 1,048,576 bytes")
    assert "1048577 bytes" in str(refused.value)  # websockets' own account of the frame
    assert [close.code for close in socket.closes] == [1009]  # the client closed it: message too big


@pytest.mark.parametrize("applied", [False, True], ids=["lost-before-applied", "lost-after-applied"])
def test_a_dropped_connection_is_reconnected_and_the_action_applied_once(applied):
    launch = {"type": "semantic", "name": "launch"}
    with AgentSocket(drop_after=1, drop_applied=applied) as socket:
        with HostedEvaluation(socket.site, "gw_key", agent=EVALUATION["agent"]) as hosted:
            hosted.reset(TASK["task"], 1)
            hosted.step(0, {"type": "wait"})
            frame, status = hosted.step(1, launch)  # the connection drops: reconnected, the episode resumed
    assert status["step"] == 2 and frame.startswith(JPEG) and socket.applied == [{"type": "wait"}, launch]
    assert len(socket.requests) == 2 and socket.messages[4:6] == [{"type": "begin", "evaluation": 7},
                                                                   {"type": "reset", "task": TASK["task"], "seed": 1}]
    # Sent again only when the site had not applied it before the connection dropped.
    assert [m["type"] for m in socket.messages[6:]] == ([] if applied else ["action"])
    if applied:
        assert status["action"] == launch


def test_a_deliberate_close_is_reported_and_not_retried():
    with AgentSocket(close_code=4401) as socket:
        with HostedEvaluation(socket.site, "gw_key", agent=EVALUATION["agent"]) as hosted:
            hosted.reset(TASK["task"], 1)
            with pytest.raises(HostedError, match=r"the site closed the connection \(code 4401: your API token was "
                                                  r"revoked\)"):
                hosted.step(0, {"type": "wait"})
    assert len(socket.requests) == 1


def test_the_hosted_command_tells_an_unreachable_site_from_a_refusal(capsys):
    from gameworld_client.__main__ import main

    hosted = ["run", "--hosted", "--agent", "random", "--token", "gw_key"]
    assert main([*hosted, "--site", "http://127.0.0.1:9"]) == 3  # nothing listens there
    assert "error: could not open ws://127.0.0.1:9/ws/agent/" in capsys.readouterr().out
    with AgentSocket(refuse="no open evaluation 12 of yours") as socket:
        assert main([*hosted, "--site", socket.site, "--evaluation", "12"]) == 2
    assert capsys.readouterr().out == "error: no open evaluation 12 of yours\n"


@pytest.mark.parametrize("late", [False, True], ids=["before-the-close", "after-the-close"])
def test_a_refusal_on_opening_is_reported_with_the_sites_reason(late, monkeypatch):
    """The agent socket refuses a bad token as it opens: the refusal, then the close (4401). The client's
    first message may go before the close arrives, or after (its send then fails): the reason is the same."""
    if late:
        connect = HostedEvaluation._connect

        def connect_then_dawdle(self):
            connect(self)
            time.sleep(0.5)  # the refusal and the close arrive before the first message is sent

        monkeypatch.setattr(HostedEvaluation, "_connect", connect_then_dawdle)
    with AgentSocket(refuse="send an active API token", close_code=4401) as socket:
        with pytest.raises(HostedError) as refused:
            HostedEvaluation(socket.site, "gw_not-a-key", agent=EVALUATION["agent"])
    assert str(refused.value) == "send an active API token"


SEALED = {**EVALUATION, "sealed": True, "tasks": [{"task": TASK["task"], "episodes": 3}]}


@pytest.mark.parametrize("honest", [True, False], ids=["commitment-checks", "tampered"])
def test_a_sealed_evaluation_asks_for_episode_numbers_and_checks_the_revealed_seeds(honest):
    salt = "ab" * 16
    committed = hashlib.sha256(f"987654:{salt}".encode()).hexdigest()
    revealed = {"task": TASK["task"], "episode_number": 1, "commitment": committed, "seed": 987654 if honest else 1,
                "salt": salt}
    submitted = {"type": "submitted", "submission": 5, "url": "/submissions/5/", "status_url": "/api/v1/submissions/5",
                 "runs": 1, "provenance": "sealed", "revealed": [revealed]}
    with AgentSocket(evaluation=SEALED, submitted=submitted) as socket:
        with HostedEvaluation(socket.site, "gw_key", agent=EVALUATION["agent"], sealed=True) as hosted:
            with pytest.raises(HostedError, match="is sealed: the site draws every seed"):
                RemoteTransport(hosted, TASK["task"]).reset(1)
            hosted.reset(TASK["task"], episode_number=2)
            if honest:
                assert hosted.submit()["revealed"] == [revealed]
            else:
                with pytest.raises(HostedError, match="do not match their commitments"):
                    hosted.submit()
    assert socket.messages[0]["sealed"] is True
    assert socket.messages[1] == {"type": "reset", "task": TASK["task"], "episode_number": 2}
