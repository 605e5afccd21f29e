"""The registry finds a game's scripted player in its folder of games/, and nowhere else."""
import pytest

from sandbox import UnknownTask, registry
from sandbox.registry import Registry


def test_the_scripted_player_of_a_bundled_game_is_its_solvers_player_class():
    solver = registry.solver("breakout")
    assert solver.__file__ == str(registry.games_dir / "breakout" / "solver.py")
    assert callable(solver.Player) and callable(getattr(solver.Player, "act"))
    assert registry.solver("breakout") is solver  # loaded once


def test_a_game_without_a_solver_or_an_unknown_game_is_an_error_naming_it(fixture_games):
    with pytest.raises(UnknownTask, match="no scripted player for 'counter': .*counter/solver.py is missing"):
        fixture_games.solver("counter")
    with pytest.raises(UnknownTask, match="no game 'nothere'; registered games: counter"):
        Registry(fixture_games.games_dir).solver("nothere")
