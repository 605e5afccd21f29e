"""Both interfaces are told the same facts, and the figure each task measures is on the screen: over every
bundled game's manifest (sandbox/briefing.py, also run by `python -m sandbox doctor`)."""
import copy

import pytest

from sandbox import registry
from sandbox.briefing import hud_problems, parity_problems, semantic_facts
from sandbox.manifest import GameSpec

def with_manifest(game, change):
    manifest = copy.deepcopy(game.manifest)
    change(manifest)
    return GameSpec(slug=game.slug, title=game.title, version=game.version, genre=game.genre, level=game.level,
                    backend=game.backend, bundle_dir=game.bundle_dir, manifest=manifest)


@pytest.mark.parametrize("slug", registry.slugs())
def test_every_fact_a_generalist_is_told_is_in_every_instruction(slug):
    assert parity_problems(registry.game(slug)) == []


def test_the_facts_are_durations_distances_and_steps_not_argument_indices():
    assert semantic_facts(registry.game("bouncebox")) == [
        ("move_left", "48"), ("move_right", "48"), ("jump", "56"), ("jump", "2.5")]
    assert semantic_facts(registry.game("galley")) == [("use_station", "0.3"), ("wait", "250")]  # not "0 bun"
    assert sum(len(semantic_facts(registry.game(slug))) for slug in registry.slugs()) >= 150


def test_an_instruction_that_drops_a_fact_is_named():
    def drop_air_time(manifest):
        for task in manifest["tasks"]:
            task["instruction"] = task["instruction"].replace("2.5 steps", "a while")
    problems = parity_problems(with_manifest(registry.game("bouncebox"), drop_air_time))
    assert len(problems) == 5
    assert problems[0] == ("bouncebox/clear-2-rooms@1: the instruction a computer-use agent reads lacks what the "
                           "semantic actions tell a generalist: 2.5 (jump)")


@pytest.mark.parametrize("slug", registry.slugs())
def test_every_task_figure_is_declared_on_the_hud(slug):
    assert hud_problems(registry.game(slug)) == []


def test_a_figure_missing_from_the_hud_declaration_is_named():
    game = with_manifest(registry.game("breakout"), lambda manifest: manifest["hud"].pop("rally"))
    assert hud_problems(game)[0].startswith("breakout/rally-5@2: score_field 'rally' is not in the manifest's \"hud\"")
