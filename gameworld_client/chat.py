"""An agent for any chat model behind an OpenAI-compatible `/v1/chat/completions` endpoint.

    model = ChatModel(base_url="http://127.0.0.1:8080/v1", model="my-vlm", api_key="...")   # or from the env
    agent = ChatAgent(model, interface="generalist", memory_rounds=4, log="steps.jsonl")
    runs = run_tasks(agent, lambda task: GameWorldEnv(task, interface="generalist"), ["breakout/rally-10"])

Each step the model gets the task's instruction, the current frame (a JPEG data URL) and the last
`memory_rounds` rounds (their frames, its replies and what became of them), and is offered the actions as
tools: a generalist agent the game's semantic actions, a computer-use agent the key and click primitives.
Exactly one action is read from each reply (one tool call; without tool calls, one JSON action or one
`name(arg=value)` call in the text); a reply with none, with several, or with one outside the action
space is sent as {"type": "invalid", "raw": <reply>}: it costs a step, as invalid actions do.

Requests go through the `openai` client, so any OpenAI-compatible server works (vLLM, SGLang, Ollama,
llama.cpp, the hosted APIs). Its retries and timeouts apply: 408, 409, 429 and 5xx answers, timeouts and
dropped connections are retried with exponential backoff (honouring Retry-After) and never cost a step;
a refusal (a bad key, an unknown model) stops the run with a ChatError. Every step is logged as one JSON
line: the prompt (images replaced by their size and sha256), the reply, the action, the token counts, the
latency and the retries. Settings: base URL from GAMEWORLD_CHAT_BASE_URL or OPENAI_BASE_URL, model from
GAMEWORLD_CHAT_MODEL or OPENAI_MODEL, key from GAMEWORLD_CHAT_API_KEY or OPENAI_API_KEY (a server that
needs none gets the placeholder key "EMPTY").

In the realtime protocol each action carries the model call's latency (`latency_ms`, the successful
request's time, not the waits between retries), and the game runs that long before the action lands.
"""
from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import openai

from .protocol import (DEFAULT_STEP_MS_RANGE, MAX_KEYS_AT_ONCE, REALTIME, clamp_latency, invalid_record,
                       with_latency)
from .spaces import ActionError, check_action

if TYPE_CHECKING:
    from .env import GameWorldEnv

NO_KEY = "EMPTY"  # what a server without keys is sent (vLLM's convention); the client needs some key


class ChatError(Exception):
    """The endpoint refused the request (bad key, unknown model...) or kept failing after every retry."""


def _env(*names: str) -> str | None:
    for name in names:
        if os.environ.get(name):
            return os.environ[name]
    return None


class ChatModel:
    """A chat model behind an OpenAI-compatible endpoint, called through the `openai` client.

    `max_retries` transient failures are retried by the client (with its backoff) before a ChatError;
    `timeout` bounds each request."""

    def __init__(self, base_url: str | None = None, model: str | None = None, api_key: str | None = None, *,
                 timeout: float = 120.0, max_retries: int = 6, temperature: float | None = None,
                 max_tokens: int | None = None, extra_body: dict[str, Any] | None = None):
        self.base_url = (base_url or _env("GAMEWORLD_CHAT_BASE_URL", "OPENAI_BASE_URL") or "").rstrip("/")
        self.model = model or _env("GAMEWORLD_CHAT_MODEL", "OPENAI_MODEL")
        if not self.base_url:
            raise ChatError("no endpoint: pass base_url (e.g. http://127.0.0.1:8080/v1) or set GAMEWORLD_CHAT_BASE_URL")
        if not self.model:
            raise ChatError("no model name: pass model or set GAMEWORLD_CHAT_MODEL")
        self.url = self.base_url + "/chat/completions"
        self.timeout = timeout
        self.max_retries = max_retries
        self.options: dict[str, Any] = {name: value for name, value in
                                        (("temperature", temperature), ("max_tokens", max_tokens)) if value is not None}
        self.extra_body = dict(extra_body or {})
        # Each attempt the client makes, as [started, HTTP status or None]: the hooks see the retries that the
        # client makes on its own, for the log and for the latency of the attempt that answered.
        self._attempts: list[list[Any]] = []
        http_client = openai.DefaultHttpxClient(event_hooks={"request": [self._on_request],
                                                             "response": [self._on_response]})
        self.client = openai.OpenAI(base_url=self.base_url,
                                    api_key=api_key or _env("GAMEWORLD_CHAT_API_KEY", "OPENAI_API_KEY") or NO_KEY,
                                    timeout=timeout, max_retries=max_retries, http_client=http_client)

    def _on_request(self, request: Any) -> None:  # an httpx.Request
        self._attempts.append([time.perf_counter(), None])

    def _on_response(self, response: Any) -> None:  # an httpx.Response
        self._attempts[-1][1] = response.status_code

    def _failures(self, attempts: list[list[Any]]) -> list[str]:
        return [f"HTTP {status}" if status else f"no answer (timed out after {self.timeout:g} s or the connection "
                "dropped)" for _, status in attempts]

    def complete(self, messages: list[dict[str, Any]], tools: Sequence[dict[str, Any]] | None = None,
                 tool_choice: str | None = None) -> tuple[dict[str, Any], int, list[str]]:
        """One chat completion; returns (the response as a dict, latency_ms of the request that answered,
        [the transient failures the client retried])."""
        options = dict(self.options)
        if tools:
            options["tools"] = list(tools)
            if tool_choice:
                options["tool_choice"] = tool_choice
        self._attempts = []
        try:
            completion = self.client.chat.completions.create(model=self.model, messages=messages,
                                                             extra_body=self.extra_body or None, **options)
        except openai.APIStatusError as exc:
            errors = self._failures(self._attempts)
            if len(errors) > 1:
                raise ChatError(f"{self.url} kept failing after {len(errors)} attempts: {'; '.join(errors[-3:])}") \
                    from None
            raise ChatError(f"{self.url} answered HTTP {exc.status_code}: {exc.message}") from None
        except openai.APIConnectionError as exc:  # timeouts included, after the last retry
            errors = self._failures(self._attempts)
            raise ChatError(f"{self.url} kept failing after {len(errors)} attempts: {'; '.join(errors[-3:])}; "
                            f"last: {exc}") from None
        latency_ms = round((time.perf_counter() - self._attempts[-1][0]) * 1000)
        reply = completion.model_dump(mode="json", exclude_none=True)
        if not reply.get("choices"):
            raise ChatError(f"{self.url} answered without choices: {json.dumps(reply)[:300]}")
        return reply, latency_ms, self._failures(self._attempts[:-1])


# Tools and replies.

def tools_for(desc: dict[str, Any], interface: str) -> list[dict[str, Any]]:
    """The actions offered to the model as function tools."""
    def tool(name, description, properties=None, required=None):
        return {"type": "function", "function": {
            "name": name, "description": description,
            "parameters": {"type": "object", "properties": properties or {}, "required": required or [],
                           "additionalProperties": False}}}

    if interface == "generalist":
        return [tool(a["name"], a.get("description") or a["name"],
                     {arg: {"type": "integer", "minimum": b["min"], "maximum": b["max"]}
                      for arg, b in (a.get("args") or {}).items()}, list(a.get("args") or {}))
                for a in desc["semantic"]]
    low, high = desc.get("step_ms_range", DEFAULT_STEP_MS_RANGE)
    duration = {"duration_ms": {"type": "integer", "minimum": low, "maximum": high,
                                "description": "how long the action lasts (default: the task's step)"}}
    tools = []
    if desc["keys"]:  # a pointer-only game offers no key tools (an empty enum is no valid schema)
        key = {"type": "string", "enum": list(desc["keys"])}
        tools += [tool("press_key", "Press and hold one key for the step, then release it.", {"key": key, **duration},
                       ["key"]),
                  tool("press_keys", "Hold several keys together for the step.",
                       {"keys": {"type": "array", "items": key, "minItems": 1, "maxItems": MAX_KEYS_AT_ONCE},
                        **duration}, ["keys"])]
    if desc["pointer"]:
        w, h = desc["viewport"]["width"], desc["viewport"]["height"]
        point = {"x": {"type": "integer", "minimum": 0, "maximum": w - 1},
                 "y": {"type": "integer", "minimum": 0, "maximum": h - 1}}
        tools += [tool("left_click", f"Click at (x, y) on the {w}x{h} frame.", {**point, **duration}, ["x", "y"]),
                  tool("mouse_move", "Move the pointer to (x, y).", {**point, **duration}, ["x", "y"]),
                  tool("drag", "Press at (x, y), move to (to_x, to_y) and release there.",
                       {**point, "to_x": point["x"], "to_y": point["y"], **duration}, ["x", "y", "to_x", "to_y"])]
    tools.append(tool("wait", "Do nothing for the step.", duration))
    return tools


def call_to_action(name: str, args: Any, interface: str) -> dict[str, Any]:
    """A tool call (name, arguments dict) -> the protocol action it asks for."""
    if not isinstance(args, dict):
        raise ActionError(f"the arguments of {name} are not an object")
    if interface == "generalist":
        action = {"type": "semantic", "name": name}
        if args:
            action["args"] = args
        return action
    return {"type": name, **args}


CALL = re.compile(r"\b([A-Za-z_][A-Za-z0-9_]*)\s*\(([^()]*)\)")


def parse_reply(message: dict[str, Any], desc: dict[str, Any], interface: str, step_ms: int
                ) -> tuple[dict[str, Any] | None, str | None]:
    """(action, None) for a reply with exactly one valid action, else (None, why not)."""
    calls = message.get("tool_calls") or []
    names = {t["function"]["name"] for t in tools_for(desc, interface)}
    if len(calls) > 1:
        return None, f"{len(calls)} tool calls in one reply; exactly one action per step"
    if calls:
        function = calls[0].get("function") or {}
        try:
            args = json.loads(function.get("arguments") or "{}")
        except json.JSONDecodeError as exc:
            return None, f"the arguments of {function.get('name')!r} are not JSON: {exc.msg}"
        try:
            action = call_to_action(function.get("name"), args, interface)
        except ActionError as exc:
            return None, str(exc)
    else:
        text = _text(message.get("content"))
        candidates = _json_actions(text) or _written_calls(text, names, interface)
        if not candidates:
            return None, "the reply names no action"
        distinct = {json.dumps(c, sort_keys=True) for c in candidates}
        if len(distinct) > 1:
            return None, f"the reply names {len(distinct)} different actions; exactly one per step"
        action = candidates[0]
    try:
        check_action(action, desc, step_ms, interface=interface)
    except ActionError as exc:
        return None, str(exc)
    return action, None


def _text(content):
    if isinstance(content, list):  # content parts
        return "\n".join(p.get("text", "") for p in content if isinstance(p, dict))
    return content or ""


def _json_actions(text):
    found = []
    decoder = json.JSONDecoder()
    for match in re.finditer(r"\{", text):
        try:
            value, _ = decoder.raw_decode(text[match.start():])
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict) and isinstance(value.get("type"), str):
            found.append(value)
    return found


def _written_calls(text, names, interface):
    found = []
    for match in CALL.finditer(text):
        if match.group(1) not in names:
            continue
        args = {}
        for part in filter(None, (p.strip() for p in match.group(2).split(","))):
            key, sep, value = part.partition("=")
            if not sep:
                args = None
                break
            value = value.strip().strip("\"'")
            args[key.strip()] = int(value) if re.fullmatch(r"-?\d+", value) else value
        if args is not None:
            found.append(call_to_action(match.group(1), args, interface))
    return found


def redacted(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The prompt as logged: each image replaced by its size and sha256."""
    out = []
    for message in messages:
        content = message.get("content")
        if isinstance(content, list):
            parts = []
            for part in content:
                if part.get("type") == "image_url":
                    url = part["image_url"]["url"]
                    data = base64.b64decode(url.split(",", 1)[1]) if url.startswith("data:") else url.encode()
                    parts.append({"type": "image_url", "image_url": {
                        "url": f"<{url.split(';', 1)[0][5:] or 'image'} {len(data)} bytes "
                               f"sha256={hashlib.sha256(data).hexdigest()[:16]}>"}})
                else:
                    parts.append(part)
            message = {**message, "content": parts}
        out.append(message)
    return out


class ChatAgent:
    """A chat model as a GameWorld agent (see the module's docstring)."""

    def __init__(self, model: ChatModel, *, interface: str, memory_rounds: int = 4,
                 log: str | os.PathLike | None = None, tool_choice: str = "auto", use_tools: bool = True,
                 system_prompt: str | None = None):
        self.model = model
        self.interface = interface
        self.memory_rounds = memory_rounds
        self.tool_choice = tool_choice
        self.use_tools = use_tools
        self.system_prompt = system_prompt
        self.log_path = Path(log) if log else None
        self.usage = {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0}
        self.steps = 0
        self.invalid = 0
        self.retries = 0
        self.seconds = 0.0  # in the model calls that answered
        self._pending = None
        self.notes = ""  # a rounds evaluation's carried text: shown in the system prompt of every step

    # Rounds evaluations: the notes carried into a round, and the reflection that rewrites them between rounds.
    def begin_round(self, index: int, artifact: str) -> None:
        self.notes = artifact

    def reflect(self, summaries: str, *, notes: str, max_chars: int, round_index: int) -> str:
        """The notes rewritten by the same model from its own round's summaries (text only, no tools)."""
        messages = [
            {"role": "system", "content": "You play video games in GameWorld, round after round, and keep short "
                                          "notes that you will read at every step of the next round. Between "
                                          "rounds you rewrite them from what happened."},
            {"role": "user", "content": f"Your notes for round {round_index}:\n<<<\n{notes or '(none yet)'}\n>>>\n\n"
                                        f"What happened in round {round_index}:\n{summaries}\n\n"
                                        f"Rewrite your notes for the next round: what to do and what to avoid in "
                                        f"each game. At most {max_chars} characters. Reply with the notes only."}]
        reply, _latency_ms, errors = self.model.complete(messages, None, None)
        self.retries += len(errors)
        usage = reply.get("usage") or {}
        for name in self.usage:
            self.usage[name] += int(usage.get(name) or 0)
        text = _text((reply["choices"][0].get("message") or {}).get("content")).strip()
        return text[:max_chars]

    # The agent protocol.
    def reset(self, env: GameWorldEnv) -> None:
        self.env = env
        self.rounds = []  # (user content, assistant text, outcome text)
        self.tools = tools_for(env.desc, self.interface)

    def act(self, observation: dict[str, Any], info: dict[str, Any], env: GameWorldEnv) -> dict[str, Any]:
        messages = self.prompt(observation, info, env)
        reply, latency_ms, errors = self.model.complete(messages, self.tools if self.use_tools else None,
                                                        self.tool_choice if self.use_tools else None)
        self.retries += len(errors)
        choice = reply["choices"][0]
        message = choice.get("message") or {}
        action, problem = parse_reply(message, env.desc, self.interface, env.task["step_ms"])
        raw = _raw_reply(message)
        if action is None:
            action = invalid_record(raw)
            self.invalid += 1
        if env.protocol == REALTIME:
            action = with_latency(action, clamp_latency(latency_ms))
        usage = reply.get("usage") or {}
        for name in self.usage:
            self.usage[name] += int(usage.get(name) or 0)
        self.steps += 1
        self.seconds += latency_ms / 1000
        self._pending = {
            "task": env.task["task"], "seed": env.seed_used, "step": info.get("step", 0) + 1,
            "request": {"model": self.model.model, "messages": redacted(messages),
                        "tools": [t["function"]["name"] for t in self.tools] if self.use_tools else []},
            "reply": message, "finish_reason": choice.get("finish_reason"), "raw": raw, "action": action,
            "valid": problem is None, "problem": problem, "usage": usage, "latency_ms": latency_ms,
            "retries": len(errors), "errors": errors}
        self.rounds.append([messages[-1]["content"], raw or "(empty reply)", None])
        return action

    def reported(self) -> dict[str, float]:
        """Tokens and seconds per step so far, for the submission's `agent.reported` (the board shows them as
        the submitter's word); {} before the first step."""
        if not self.steps:
            return {}
        return {"tokens_per_step": round(self.usage["total_tokens"] / self.steps, 1),
                "seconds_per_step": round(self.seconds / self.steps, 3)}

    def after_step(self, info: dict[str, Any]) -> None:
        outcome = "invalid: " + str(info.get("invalid_reason")) if info.get("invalid") else "done"
        if info.get("reset"):
            outcome += "; the game was lost and restarted (the best attempt counts)"
        if self.rounds:
            self.rounds[-1][2] = outcome
        if self._pending is not None:
            record, self._pending = self._pending, None
            record["result"] = {k: info.get(k) for k in ("invalid", "invalid_reason", "reset", "attempt",
                                                         "actions_left", "terminated", "truncated")}
            for name in ("progress", "success", "latency_ms", "landed"):
                if name in info:
                    record["result"][name] = info[name]
            record["action"] = info.get("action", record["action"])
            self._log(record)

    # The prompt.
    def prompt(self, observation: dict[str, Any], info: dict[str, Any], env: GameWorldEnv) -> list[dict[str, Any]]:
        task, desc = env.task, env.desc
        viewport = desc["viewport"]
        clock = ("The game keeps running while you think: the time you take passes in the game before your "
                 "action lands." if env.protocol == "realtime" else
                 "The game is paused while you think: time moves only when your action is applied.")
        system = self.system_prompt or (
            f"You are playing {task.get('game', {}).get('title', 'a game')} in GameWorld.\n"
            f"Task: {task['instruction']}\n\n"
            f"Each turn you see the current frame ({viewport['width']}x{viewport['height']} pixels) and choose "
            f"exactly one action{' by calling one of the tools' if self.use_tools else ' (write it as a call, e.g. name(arg=1))'}. "
            f"An action lasts {task['step_ms']} ms of game time. {clock} You have {task['max_actions']} actions "
            "in all; an invalid action costs one and does nothing. A lost game restarts and your best attempt "
            "counts.\n\nAllowed actions:\n" + observation["actions"])
        if self.notes:
            system += f"\n\nYour notes from earlier rounds:\n{self.notes}"
        messages = [{"role": "system", "content": system}]
        for content, said, outcome in self.rounds[-self.memory_rounds:] if self.memory_rounds else []:
            messages.append({"role": "user", "content": content})
            messages.append({"role": "assistant", "content": f"{said}\n[result: {outcome or 'pending'}]"})
        note = ""
        if info.get("step"):
            note = " Your last action was invalid: " + str(info.get("invalid_reason")) + "." if info.get("invalid") else ""
            if info.get("reset"):
                note += " The game was lost and has restarted."
        text = (f"Step {info.get('step', 0) + 1} of {task['max_actions']}; {observation['actions_left']} actions "
                f"left; attempt {info.get('attempt', 1)}.{note} Choose your next action.")
        image = "data:image/jpeg;base64," + base64.b64encode(env.last_jpeg).decode()
        messages.append({"role": "user", "content": [{"type": "text", "text": text},
                                                     {"type": "image_url", "image_url": {"url": image}}]})
        return messages

    def _log(self, record):
        if self.log_path is None:
            return
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        with self.log_path.open("a", encoding="utf-8") as out:
            out.write(json.dumps(record, ensure_ascii=False, default=repr) + "\n")


def _raw_reply(message):
    """The reply as text: its content and its tool calls (what an invalid record keeps)."""
    parts = []
    text = _text(message.get("content"))
    if text:
        parts.append(text)
    for call in message.get("tool_calls") or []:
        function = call.get("function") or {}
        parts.append(f"{function.get('name')}({function.get('arguments', '')})")
    return "\n".join(parts)
