"""The authoring kit: a scaffolded game loads and plays by the platform rules at once, and `doctor` names what
a game still lacks, with how to fix it."""
import importlib.util
import json

import pytest

from sandbox import SandboxError, authoring, make, run_trajectory
from sandbox.__main__ import main
from sandbox.frames import frame_facts, frame_problems
from sandbox.registry import Registry


@pytest.fixture(scope="module")
def scaffolded(tmp_path_factory):
    games_dir = tmp_path_factory.mktemp("games")
    authoring.scaffold("coin-dash", title="Coin Dash", genre="arcade", level=2, games_dir=games_dir)
    return Registry(games_dir)


def solver_module(game):
    spec = importlib.util.spec_from_file_location("scaffolded_solver", game.bundle_dir / "solver.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_scaffold_loads_with_six_state_fields_and_five_tasks(scaffolded):
    game = scaffolded.game("coin-dash")
    assert (game.title, game.genre, game.level, game.viewport) == ("Coin Dash", "arcade", 2, authoring.VIEWPORT)
    assert len(game.state_fields) == 6 and len(game.tasks) == 5
    assert sorted(p.name for p in game.bundle_dir.iterdir()) == ["game.js", "index.html", "manifest.json",
                                                                "solver.py"]
    assert '<canvas id="game" width="480" height="360">' in (game.bundle_dir / "index.html").read_text()
    assert "{{" not in (game.bundle_dir / "game.js").read_text()


def test_a_scaffold_is_actionable_with_its_fields_and_drawn_frames(scaffolded):
    game = scaffolded.game("coin-dash")
    task = game.tasks["coins-2"]
    with make(task, observation="state") as env:
        state, _ = env.reset(seed=1)
        assert state["actionable"] is True
        assert set(authoring.REQUIRED_STATE) | set(game.state_fields) <= set(state)
    assert frame_problems(task.id, frame_facts(game)) == []


def test_the_scaffold_solver_plays_the_first_task_deterministically(scaffolded):
    game = scaffolded.game("coin-dash")
    task = game.tasks["coins-2"]
    player = solver_module(game).Player(task)

    def play():
        with make(task, observation="state") as env:
            state, info = env.reset(seed=2)
            while not env.done:
                state, info = env.step(player.act(env, state, info))
            return env.score()

    first, second = play(), play()
    assert first.success and first.actions < task.max_actions
    assert first.trace_sha256 == second.trace_sha256


def test_scaffold_refuses_bad_input_and_an_existing_folder(scaffolded):
    with pytest.raises(SandboxError, match="already exists"):
        authoring.scaffold("coin-dash", title="Again", genre="arcade", level=1, games_dir=scaffolded.games_dir)
    with pytest.raises(SandboxError, match="not a game slug"):
        authoring.scaffold("Coin Dash", title="x", genre="arcade", level=1, games_dir=scaffolded.games_dir)
    with pytest.raises(SandboxError, match="genre 'shooter'"):
        authoring.scaffold("x", title="x", genre="shooter", level=1, games_dir=scaffolded.games_dir)
    with pytest.raises(SandboxError, match="level 6"):
        authoring.scaffold("x", title="x", genre="arcade", level=6, games_dir=scaffolded.games_dir)
    assert not (scaffolded.games_dir / "x").exists()


@pytest.mark.slow
def test_doctor_names_what_a_fresh_scaffold_lacks_and_exits_non_zero(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(authoring, "registry", Registry(tmp_path))
    assert main(["new", "coin-dash", "--title", "Coin Dash", "--genre", "arcade", "--level", "1"]) == 0
    assert main(["doctor", "coin-dash"]) == 1
    output = capsys.readouterr().out
    for passed in ("manifest", "what each interface is told", "the measured figure on screen",
                   "conformance (actionable, state fields, determinism)", "frames"):
        assert f"ok   {passed}\n" in output
    assert "FAIL reference and null trajectories\n" in output
    assert "coin-dash/coins-2@1: the reference trajectory (seed 1, 0 actions) does not reach the target" in output
    assert "ok   solver on every seed\n" in output  # the scaffold's solver already plays its game
    assert "FAIL calibration gate\n     coin-dash: no calibration.json (the game is not calibrated)" in output
    assert output.count("     fix: ") == 2


def test_doctor_names_a_manifest_it_cannot_load(tmp_path, capsys):
    authoring.scaffold("coin-dash", title="Coin Dash", genre="arcade", level=1, games_dir=tmp_path)
    path = tmp_path / "coin-dash" / "manifest.json"
    manifest = json.loads(path.read_text())
    manifest["tasks"][0]["score_field"] = "coins"
    path.write_text(json.dumps(manifest))
    failures = authoring.doctor("coin-dash", games=Registry(tmp_path))
    assert len(failures) == 1 and "tasks[0].score_field" in failures[0] and "'coins'" in failures[0]
    assert "FAIL manifest" in capsys.readouterr().out


def test_the_scaffold_solver_script_writes_references_that_reach_every_target(tmp_path):
    authoring.scaffold("coin-dash", title="Coin Dash", genre="arcade", level=1, games_dir=tmp_path)
    games = Registry(tmp_path)
    solver_module(games.game("coin-dash")).solvers.write_references(
        tmp_path / "coin-dash" / "manifest.json", solver_module(games.game("coin-dash")).Player,
        every_seed=False, only=["coins-2", "coins-4"])
    manifest = json.loads((tmp_path / "coin-dash" / "manifest.json").read_text())
    written = {task["slug"]: task for task in manifest["tasks"]}
    for slug in ("coins-2", "coins-4"):
        task = Registry(tmp_path).task(f"coin-dash/{slug}")
        assert run_trajectory(task, task.reference)[0].success
        assert written[slug]["null"]["actions"] == [{"type": "wait"}] * 100
    assert written["coins-7"]["reference"]["actions"] == []  # not asked for: left as it was


def test_a_careless_player_written_as_the_fail_trajectory_loses_and_one_that_never_loses_is_refused(tmp_path):
    from sandbox import solvers
    from tests.conftest import tally_copy

    games = tally_copy(tmp_path)
    path = games / "tally" / "manifest.json"
    wrong = {"ArrowUp": "ArrowDown", "ArrowDown": "ArrowUp"}
    solvers.write_fail_trajectory(path, lambda state: {"type": "press_key", "key": wrong[state["want"]]}, seed=4)
    written = json.loads(path.read_text())["tests"]["fail"]
    assert written["seed"] == 4 and len(written["actions"]) == 1  # the first wrong arrow loses
    game = Registry(games).game("tally")
    assert game.fail_trajectory.actions == written["actions"]
    with pytest.raises(SandboxError, match="tally: the careless player did not lose on seed 1"):
        solvers.write_fail_trajectory(path, lambda state: {"type": "wait"})
    assert json.loads(path.read_text())["tests"]["fail"] == written  # nothing written for a player that never lost
