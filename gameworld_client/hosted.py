"""Hosted evaluation: play tasks live on a GameWorld site over its agent WebSocket (/ws/agent/).

    with HostedEvaluation("http://127.0.0.1:8000", token, agent={"name": "my-agent", "model": "m",
                          "interface": "generalist"}, task_set="core-v2", protocol="paused") as hosted:
        for task in hosted.tasks:                         # the task set's tasks, as the site describes them
            env = hosted.env(task, interface="generalist")
            obs, info = env.reset(seed=hosted.tasks[task]["seeds"][0])
            ...
        created = hosted.submit()                         # one submission of every episode, verified by replay
        final = hosted.wait(created)                      # poll until verified (gameworld_client.wait)

The server records every action as it applies it; nothing is uploaded. Each (task, seed) is played once
in an evaluation: a reset of an episode already begun resumes it (info["resumed"]), one already finished is
refused. A dropped connection is reconnected and the episode resumed transparently.
"""
import json
import time

from .upload import ClientError, status_url_for, wait
from .ws import ConnectionClosed, WebSocket, WebSocketError, websocket_url

AGENT_PATH = "/ws/agent/"


class HostedError(ClientError):
    """The site refused a message (`reason` is its explanation) or the connection could not be kept."""

    def __init__(self, reason):
        self.reason = reason
        super().__init__(reason)


class HostedEvaluation:
    def __init__(self, site, token, *, agent=None, task_set=None, protocol="paused", evaluation=None,
                 timeout=120, reconnects=3):
        if not token:
            raise HostedError("no API token: create one on your account page (GAMEWORLD_TOKEN)")
        self.site = site.rstrip("/")
        self.url = websocket_url(self.site, AGENT_PATH)
        self.token = token
        self.timeout = timeout
        self.reconnects = reconnects
        self._sock = None
        self._episode = None  # (task, seed) open on the server
        begin = {"type": "begin", "evaluation": evaluation} if evaluation is not None else {
            "type": "begin", "agent": agent, "task_set": task_set, "protocol": protocol}
        if evaluation is None and not agent:
            raise HostedError("give the agent block ({'name', 'model', 'interface', ...}) or an evaluation id")
        self._connect()
        reply = self._request(begin)
        self._take_evaluation(reply)

    # The evaluation.
    def _take_evaluation(self, reply):
        self.id = reply["id"]
        self.protocol = reply["protocol"]
        self.task_set = reply["task_set"]
        self.agent = reply["agent"]
        self.tasks = {t["task"]: t for t in reply["tasks"]}
        self.episodes = reply["episodes"]

    def env(self, task, *, interface=None, **options):
        """A GameWorldEnv for one task of this evaluation (the interface defaults to the agent's)."""
        from .env import GameWorldEnv

        return GameWorldEnv(transport=RemoteTransport(self, self.task_id(task)),
                            interface=interface or self.agent.get("interface", "cua"), **options)

    def task_id(self, task):
        if task in self.tasks:
            return task
        matches = [t for t in self.tasks if t.split("@")[0] == task]
        if len(matches) != 1:
            raise HostedError(f"{task!r} is not a task of task set {self.task_set}")
        return matches[0]

    def submit(self):
        """Turn every episode played into one submission; returns {"submission", "url", "status_url", "runs"}
        with absolute URLs."""
        reply = self._request({"type": "submit"}, expect="submitted")
        reply["url"] = self.site + reply["url"]
        reply["status_url"] = status_url_for(self.site, reply["submission"])
        self._episode = None
        return reply

    def wait(self, submitted, **options):
        """Poll the submission until it is verified or rejected (see gameworld_client.wait)."""
        return wait(submitted["status_url"], **options)

    # Episodes (used by RemoteTransport).
    def reset(self, task, seed):
        reply, frame = self._request_step({"type": "reset", "task": task, "seed": seed})
        self._episode = (task, seed)
        return frame, reply

    def step(self, step, action):
        message = {"type": "action", "step": step, "action": action}
        for attempt in range(self.reconnects + 1):
            try:
                return self._request_step(message, reconnecting=False)[::-1]
            except (ConnectionClosed, OSError) as exc:
                if attempt == self.reconnects or self._episode is None:
                    raise HostedError(f"the connection to {self.url} was lost: {exc}") from None
                time.sleep(min(5, 0.5 * 2 ** attempt))
                status, frame = self._resume()
                if status["step"] > step:  # the action was applied before the connection dropped
                    status["action"] = status["actions"][step]
                    return frame, status

    def _resume(self):
        self._connect()
        self._take_evaluation(self._request({"type": "begin", "evaluation": self.id}))
        task, seed = self._episode
        return self._request_step({"type": "reset", "task": task, "seed": seed}, reconnecting=False)

    # The wire.
    def _connect(self):
        self.close_socket()
        try:
            self._sock = WebSocket.connect(self.url, headers={"Authorization": f"Token {self.token}"},
                                           timeout=self.timeout)
        except (OSError, WebSocketError) as exc:
            raise HostedError(f"could not open {self.url}: {exc}") from None

    def _send(self, message):
        self._sock.send_text(json.dumps(message))

    def _recv_json(self):
        kind, data = self._sock.recv()
        if kind != "text":
            raise HostedError("the site sent a frame where a status was expected")
        reply = json.loads(data)
        if reply.get("type") == "refused":
            raise HostedError(reply.get("reason", "refused"))
        return reply

    def _request(self, message, expect="evaluation"):
        try:
            self._send(message)
            reply = self._recv_json()
        except ConnectionClosed as exc:
            raise HostedError(f"the site closed the connection ({exc.code}{': ' + exc.reason if exc.reason else ''})") \
                from None
        if reply.get("type") != expect:
            raise HostedError(f"expected a {expect} message, got {reply.get('type')!r}")
        return reply

    def _request_step(self, message, reconnecting=True):
        self._send(message)
        try:
            status = self._recv_json()
        except ConnectionClosed as exc:
            if exc.code in (1006, 1005) and not reconnecting:
                raise
            raise HostedError(f"the site closed the connection ({exc.code}{': ' + exc.reason if exc.reason else ''})") \
                from None
        if status.get("type") != "status":
            raise HostedError(f"expected a status message, got {status.get('type')!r}")
        kind, frame = self._sock.recv()
        if kind != "binary":
            raise HostedError("the site sent text where a frame was expected")
        return status, frame

    def close_socket(self):
        if self._sock is not None:
            sock, self._sock = self._sock, None
            sock.close()

    def close(self):
        self.close_socket()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class RemoteTransport:
    """One task of a hosted evaluation, as a transport for GameWorldEnv."""

    remote = True

    def __init__(self, hosted, task):
        self.hosted = hosted
        self.task = task
        self.protocol = hosted.protocol
        self._step = 0

    def describe(self):
        return self.hosted.tasks[self.task]

    def reset(self, seed):
        if seed not in self.hosted.tasks[self.task]["seeds"]:
            raise HostedError(f"seed {seed} is not one of {self.task}'s seeds "
                              f"({', '.join(map(str, self.hosted.tasks[self.task]['seeds']))}): a hosted run "
                              "plays the task set's seeds")
        frame, status = self.hosted.reset(self.task, seed)
        self._step = status["step"]
        return frame, status

    def step(self, action):
        frame, status = self.hosted.step(self._step, action)
        self._step = status["step"]
        return frame, status

    def close(self):
        pass  # the socket belongs to the evaluation
