"""Errors the sandbox raises. Each message names what is wrong so a maintainer can act on it.

ProtocolError (a latency that breaks the run's protocol) is sandbox/protocol.py's, a ValueError and no
SandboxError: that module ships alone with the client."""


class SandboxError(Exception):
    """Base class of every sandbox error."""


class ManifestError(SandboxError):
    """A game manifest is malformed: the message names the file and the field."""

    def __init__(self, path, field, problem):
        self.path, self.field, self.problem = str(path), field, problem
        super().__init__(f"{path}: {field}: {problem}")


class UnknownTask(SandboxError):
    """No registered game or task matches the requested id."""


class InvalidAction(SandboxError):
    """An action outside the game's action space. The env records it and charges a step."""


class RunOver(SandboxError):
    """step() was called after the run ended: its action budget spent, its target reached or its game won."""


class GameNotReady(SandboxError):
    """The game did not report `actionable` within the readiness timeout."""


class GameCrashed(SandboxError):
    """The game page raised an error or its state could not be read."""


class RomError(SandboxError):
    """A Game Boy ROM was refused: not a Game Boy ROM, a bad size or header, or not the pinned ROM."""


class StateError(SandboxError):
    """A Game Boy save state was refused: not a GameWorld state, or saved from another ROM or emulator."""
