"""The GameWorld client: write and upload submissions, play tasks as a Gymnasium env (locally or live on a
site), and run chat-model agents.

    from gameworld_client import upload, wait, write_submission        # standard library only
    from gameworld_client import GameWorldEnv, HostedEvaluation          # need gymnasium, numpy, pillow
    from gameworld_client import ChatAgent, RandomAgent, run_tasks

The upload helpers import nothing beyond the standard library; the env, the agents and the runner are
imported on first use (the local transport imports the platform's sandbox only when it is used).
"""
from .upload import (FORMAT, ClientError, UploadError, WaitTimeout, submission, upload, wait,
                     write_submission)

_LAZY = {
    "GameWorldEnv": "env", "LocalTransport": "env", "decode_frame": "env",
    "HostedEvaluation": "hosted", "RemoteTransport": "hosted", "HostedError": "hosted",
    "action_space": "spaces", "to_protocol": "spaces", "from_protocol": "spaces", "check_action": "spaces",
    "ActionError": "spaces",
    "RandomAgent": "agents", "run_episode": "agents", "run_tasks": "agents", "local_task_ids": "agents",
    "ChatAgent": "chat", "ChatModel": "chat", "ChatError": "chat",
}

__all__ = ["FORMAT", "ClientError", "UploadError", "WaitTimeout", "submission", "upload", "wait",
           "write_submission", *_LAZY]


def __getattr__(name):
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
