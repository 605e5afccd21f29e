"""The GameWorld client: write and upload submissions, play tasks as a Gymnasium env (locally or live on a
site), and run chat-model agents.

    from gameworld_client import upload, wait, write_submission        # submissions (httpx)
    from gameworld_client import GameWorldEnv, HostedEvaluation          # the env (gymnasium; websockets)
    from gameworld_client import ChatAgent, RandomAgent, run_tasks       # agents (openai)

The env, the agents and the runner are imported on first use, so `gameworld upload` starts fast; the local
transport needs the platform's `sandbox` (a checkout on the path) and says so when it is missing.
"""
from typing import TYPE_CHECKING

from ._version import __version__
from .upload import FORMAT, ClientError, UploadError, WaitTimeout, submission, upload, wait, write_submission

if TYPE_CHECKING:  # what type checkers see of the names imported on first use (py.typed)
    from .agents import RandomAgent, local_task_ids, run_episode, run_tasks
    from .chat import ChatAgent, ChatError, ChatModel
    from .env import GameWorldEnv, LocalTransport, SandboxMissing, decode_frame
    from .hosted import HostedError, HostedEvaluation, RemoteTransport
    from .spaces import ActionError, action_space, check_action, from_protocol, to_protocol

_LAZY = {
    "GameWorldEnv": "env", "LocalTransport": "env", "decode_frame": "env", "SandboxMissing": "env",
    "HostedEvaluation": "hosted", "RemoteTransport": "hosted", "HostedError": "hosted",
    "action_space": "spaces", "to_protocol": "spaces", "from_protocol": "spaces", "check_action": "spaces",
    "ActionError": "spaces",
    "RandomAgent": "agents", "run_episode": "agents", "run_tasks": "agents", "local_task_ids": "agents",
    "ChatAgent": "chat", "ChatModel": "chat", "ChatError": "chat",
}

__all__ = ["__version__", "FORMAT", "ClientError", "UploadError", "WaitTimeout", "submission", "upload", "wait",
           "write_submission", *_LAZY]


def __getattr__(name: str) -> object:
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
