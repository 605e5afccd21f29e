"""A play session's game: the task's sandbox env plus the frames the player sees. Blocking: call it from a
worker thread, never from the event loop."""
from sandbox import make

from . import frames


class PlayEnv:
    def __init__(self, session):
        self.session_id = session.pk
        self.seed = session.seed
        self.task = session.task.spec()
        self.env = None
        self.last_info = {}

    def open(self, actions):
        """Start the game at the session's seed and replay the stored actions (a resume after a drop)."""
        self.env = make(self.task, observation="state")
        _, self.last_info = self.env.reset(seed=self.seed)
        self._keep_frame(0)
        for index, action in enumerate(actions, start=1):
            _, self.last_info = self.env.step(action)
            self._keep_frame(index)

    def check(self, action):
        """Raise InvalidAction for an action outside the game's action space (refused, never charged)."""
        self.env.action_space.resolve(action, self.task.step_ms)

    def step(self, action):
        _, self.last_info = self.env.step(action)
        self._keep_frame(self.actions_used, fresh=True)

    def _keep_frame(self, index, fresh=False):
        if fresh or not frames.has(self.session_id, index):
            frames.save(self.session_id, index, self.env.render("jpeg"))

    def frame(self):
        return frames.read(self.session_id, self.actions_used)

    @property
    def actions_used(self):
        return self.env.actions_used

    @property
    def done(self):
        return self.env.done

    def status(self):
        """What the player is shown: no progress while playing (it would coach them)."""
        info = self.last_info
        return {"step": self.actions_used, "actions_left": self.env.actions_left, "max_actions": self.task.max_actions,
                "attempt": info.get("attempt", 1), "reset": info.get("reset", False), "done": self.done}

    def score(self):
        return self.env.score()

    def close(self):
        if self.env is not None:
            self.env.close()
