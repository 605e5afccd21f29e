"""The registry of bundled games: manifests are found on disk and loaded lazily, once each."""
import importlib.util
import re
from pathlib import Path

from .errors import UnknownTask
from .manifest import load_manifest

GAMES_DIR = Path(__file__).resolve().parent.parent / "games"
TASK_ID = re.compile(r"^(?P<game>[a-z0-9-]+)/(?P<task>[a-z0-9-]+)(@(?P<version>\d+))?$")


class Registry:
    """Games found in a folder. Registries are made by code (the repository's games/, test fixtures), never
    for a folder of uploaded bundles, so the solvers of a registry's games are the repository's own."""

    _by_folder = {}  # every registry's resolved games folder -> the registry

    def __init__(self, games_dir=GAMES_DIR):
        self.games_dir = Path(games_dir)
        self._loaded = {}
        self._solvers = {}
        Registry._by_folder[self.games_dir.resolve()] = self

    @classmethod
    def owning(cls, bundle_dir):
        """The registry whose games folder holds this bundle folder, or None (an imported or stored bundle)."""
        bundle_dir = Path(bundle_dir).resolve()
        return cls._by_folder.get(bundle_dir.parent)

    def slugs(self):
        return sorted(p.parent.name for p in self.games_dir.glob("*/manifest.json"))

    def game(self, slug):
        if slug not in self._loaded:
            if not (self.games_dir / slug / "manifest.json").is_file():
                raise UnknownTask(f"no game {slug!r}; registered games: {', '.join(self.slugs())}")
            self._loaded[slug] = load_manifest(self.games_dir / slug)
        return self._loaded[slug]

    def games(self):
        return [self.game(slug) for slug in self.slugs()]

    def solver(self, slug):
        """The scripted player of a bundled game: the module games/<slug>/solver.py, whose `Player(task)` has
        `act(env, state, info)`. For the repository's own tools (the baselines): only this registry's folder
        is searched, never the bundle store, so the Python of an imported bundle is never run."""
        self.game(slug)  # an unknown game is an UnknownTask naming the registered ones
        path = self.games_dir / slug / "solver.py"
        if not path.is_file():
            raise UnknownTask(f"no scripted player for {slug!r}: {path} is missing")
        if slug not in self._solvers:
            spec = importlib.util.spec_from_file_location(f"gameworld_solver_{slug}", path)
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            self._solvers[slug] = module
        return self._solvers[slug]

    def task(self, task_id):
        """`game/task` or `game/task@version` -> TaskSpec."""
        match = TASK_ID.match(task_id or "")
        if not match:
            raise UnknownTask(f"{task_id!r} is not a task id of the form game/task or game/task@version")
        game = self.game(match["game"])
        task = game.tasks.get(match["task"])
        if task is None:
            raise UnknownTask(f"game {game.slug!r} has no task {match['task']!r}; it has "
                              f"{', '.join(game.tasks)}")
        if match["version"] and int(match["version"]) != task.version:
            raise UnknownTask(f"{task_id}: the bundled task is version {task.version}")
        return task


registry = Registry()
