"""A fake OpenAI-compatible chat-completions endpoint on 127.0.0.1, for the runner's tests.

It answers POST /v1/chat/completions with the scripted replies in order: a reply is a message dict
({"content": ..., "tool_calls": [...]}), or ("http", status, headers) for an HTTP error, or
("sleep", seconds) to hang past the client's timeout before answering the next scripted item.
Every request body it received is kept in `requests`.
"""
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def tool_call(name, arguments=None, call_id="call_1"):
    return {"role": "assistant", "content": None, "tool_calls": [
        {"id": call_id, "type": "function", "function": {"name": name, "arguments": json.dumps(arguments or {})}}]}


def text(content):
    return {"role": "assistant", "content": content}


class FakeChat:
    def __init__(self, script=(), *, key="sk-test", default=None, respond=None):
        self.respond = respond  # when given, answers every request: respond(request body) -> a reply as above
        self.script = list(script)
        self.default = default
        self.key = key
        self.requests = []
        self.lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with fake.lock:
                    fake.requests.append({"path": self.path, "auth": self.headers.get("Authorization"), "body": body,
                                          "retry_count": self.headers.get("x-stainless-retry-count")})
                    item = (fake.respond(body) if fake.respond else
                            fake.script.pop(0) if fake.script else fake.default)
                if self.path != "/v1/chat/completions":
                    return self.answer(404, {"error": {"message": "no such route"}})
                if self.headers.get("Authorization") != f"Bearer {fake.key}":
                    return self.answer(401, {"error": {"message": "bad key"}})
                if isinstance(item, tuple) and item[0] == "sleep":
                    time.sleep(item[1])
                    return self.answer(200, completion(text("too late")))
                if isinstance(item, tuple) and item[0] == "http":
                    return self.answer(item[1], {"error": {"message": "try later"}}, item[2] if len(item) > 2 else {})
                if item is None:
                    return self.answer(500, {"error": {"message": "script exhausted"}})
                return self.answer(200, completion(item, prompt_tokens=1000 + len(fake.requests)))

            def answer(self, status, payload, headers=None):
                data = json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    for name, value in (headers or {}).items():
                        self.send_header(name, value)
                    self.end_headers()
                    self.wfile.write(data)
                except OSError:  # the client gave up (a timeout test)
                    pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def base_url(self):
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()


def completion(message, prompt_tokens=1000, completion_tokens=12):
    return {"id": "chatcmpl-fake", "object": "chat.completion", "model": "fake-vlm",
            "choices": [{"index": 0, "message": {"role": "assistant", **message},
                         "finish_reason": "tool_calls" if message.get("tool_calls") else "stop"}],
            "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                      "total_tokens": prompt_tokens + completion_tokens}}
