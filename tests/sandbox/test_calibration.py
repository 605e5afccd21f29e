"""The calibration gate: a task ships only if its solver and reference reach the target (the solver on fresh seeds
too), the null does not, random play of both interfaces rarely does, a memorised sequence and a trivial policy
do not, and its frames are drawn."""
import hashlib
import random
import re
from dataclasses import replace

import pytest

from sandbox import SandboxError, Trajectory, calibration, registry
from sandbox.frames import frame_facts
from sandbox.actions import random_action
from sandbox.protocol import INTERFACES
from sandbox.registry import Registry
from tests.conftest import tally_copy


@pytest.fixture(scope="module")
def tally(fixture_games):
    return fixture_games.game("tally")


# A whole calibration at a smaller scale, for speed (the gate reads its counts from the module): 10 fresh seeds and
# 12 random runs an interface, not 30 of each.
SMALL_SCALE = {"FRESH_SEEDS": 10, "MIN_RANDOM_RUNS": 12, "NOISE_RUNS": 4}


@pytest.fixture
def small_scale(monkeypatch):
    for name, value in SMALL_SCALE.items():
        monkeypatch.setattr(calibration, name, value)


@pytest.fixture(scope="module")
def tally_calibration(tmp_path_factory):
    """The calibration of the two tally tasks the tests read (one needs intent, random play reaches the other), at
    the small scale."""
    games = tally_copy(tmp_path_factory.mktemp("games"), tasks=("point-1", "points-8"))
    with pytest.MonkeyPatch.context() as patch:
        for name, value in SMALL_SCALE.items():
            patch.setattr(calibration, name, value)
        return calibration.calibrate(Registry(games).game("tally"), out=lambda line: None)


def flawed_copy(tmp_path, flaw):
    """The tally fixture with a broken rule (its canvas's data-flaw), in a games folder of its own."""
    return Registry(tally_copy(tmp_path, flaw=flaw)).game("tally")


def draws(space, interface, seed=7, count=400):
    rng = random.Random(seed)
    return [random_action(space, rng, interface) for _ in range(count)]


def test_random_actions_stay_in_their_interface_and_cover_it(fixture_games):
    space = fixture_games.game("counter").action_space  # keys, a pointer, and a semantic action with an arg
    cua = draws(space, "cua")
    assert {a["type"] for a in cua} == {"press_key", "press_keys", "wait", "left_click", "mouse_move", "drag"}
    assert {a["key"] for a in cua if a["type"] == "press_key"} == set(space.keys)
    clicks = [a for a in cua if a["type"] == "left_click"]
    assert all(0 <= a["x"] < space.width and 0 <= a["y"] < space.height for a in clicks)
    assert len({(a["x"], a["y"]) for a in clicks}) > len(clicks) // 2  # uniform points, not one spot
    generalist = draws(space, "generalist")
    assert {a["type"] for a in generalist} == {"semantic"}
    assert {a["name"] for a in generalist} == set(space.semantic)
    assert {a["args"]["col"] for a in generalist if a["name"] == "tap"} == {0, 1, 2, 3}
    for action in cua + generalist:
        space.resolve(action, 200)  # every draw is a valid action
    assert draws(space, "generalist") == generalist and draws(space, "generalist", seed=8) != generalist
    with pytest.raises(ValueError, match="interface 'pixels'"):
        random_action(space, random.Random(7), "pixels")


@pytest.mark.slow
def test_a_task_that_needs_intent_passes_and_a_random_solvable_one_is_refused(tally, tally_calibration, small_scale):
    cards = tally_calibration["tasks"]
    hard, easy = cards["tally/points-8@1"], cards["tally/point-1@1"]
    for card in (hard, easy):
        for interface in INTERFACES:
            measured = card["random"][interface]
            assert measured["runs"] == len(measured["results"]) >= calibration.MIN_RANDOM_RUNS
            assert len({(r["seed"], r["action_seed"]) for r in measured["results"]}) == measured["runs"]
        assert [r["seed"] for r in card["solver"]["results"]] == [1, 2, 3]
    assert hard["verdict"] == "pass" and hard["reasons"] == []
    assert calibration.gate(tally.tasks["points-8"], hard) == []
    assert hard["random"]["cua"]["success_rate"] <= 0.1 and hard["solver"]["success_rate"] == 1.0
    reasons = calibration.gate(tally.tasks["point-1"], easy)
    assert easy["verdict"] == "fail" and easy["reasons"] == reasons
    assert any(r.startswith("tally/point-1@1: random cua play reaches the target") for r in reasons), reasons
    assert any(r.startswith("tally/point-1@1: random generalist play reaches the target") for r in reasons)
    # the arms on fresh seeds: the solver plays every seed, a memorised sequence and a held key do not
    assert hard["fresh_solver"]["success_rate"] == 1.0
    assert len(hard["fresh_solver"]["results"]) == len(hard["open_loop"]["results"]) == SMALL_SCALE["FRESH_SEEDS"]
    assert hard["open_loop"]["success_rate"] <= 0.1 and hard["trivial"]["success_rate"] == 0.0
    assert hard["trivial"]["seeds"] == calibration.fresh_seeds(tally)[:calibration.TRIVIAL_SEEDS]
    assert {entry["policy"] for entry in hard["trivial"]["results"]} == set(calibration.trivial_policies(
        tally.action_space))
    assert any(r.startswith("tally/point-1@1: the trivial policy 'press ArrowUp' reaches the target on fresh seed")
               for r in reasons), reasons
    # the noisy solver's ladder: measured on the first fresh seeds, and harder to climb as the noise grows
    ladder = {level["rate"]: level for level in hard["noise"]}
    assert sorted(ladder) == list(calibration.NOISE_LEVELS)
    assert all([e["seed"] for e in level["results"]] == calibration.fresh_seeds(tally)[:SMALL_SCALE["NOISE_RUNS"]]
               for level in ladder.values())
    assert ladder[0.1]["mean_progress"] > ladder[0.6]["mean_progress"]
    assert hard["ladder"] == easy["ladder"] == [{"task": card["task"], "success_rate": ladder_sr(card)}
                                                 for card in (easy, hard)]


@pytest.mark.slow
def test_a_shared_random_run_scores_each_task_as_its_own_run_would(tally, tally_calibration):
    """The calibration plays one full-budget run for all tasks; a task's own run stops at its target. Replaying
    stored runs as the task's own run gives the same figures and trace hash, resets included."""
    task = tally.tasks["point-1"]
    results = tally_calibration["tasks"][task.id]["random"]["generalist"]["results"]
    early = next(r for r in results if r["success"] and r["actions"] < task.max_actions)
    reset = next(r for r in results if r["attempts"] > 1)
    for stored in (early, reset):
        score = calibration.replay_random(task, "generalist", stored["seed"], stored["action_seed"])
        assert (score.success, round(score.progress, 4), score.actions, score.attempts, score.trace_sha256) == (
            stored["success"], stored["progress"], stored["actions"], stored["attempts"], stored["trace_sha256"])


def ladder_sr(card):
    return next(level["success_rate"] for level in card["noise"] if level["rate"] == calibration.LADDER_NOISE)


def card_for(task, *, frames, random_success=(), solver_success=(True, True, True), fresh_success=(),
             open_loop_success=(), trivial_success=(), solver_actions=8, noise=((0.1, 0.9, 0.95), (0.3, 0.5, 0.8),
                                                                                  (0.6, 0.1, 0.4))):
    """A calibration card with the given figures: 30 random runs of each interface, the first
    `len(random_success)` of them with those outcomes and the rest failing; the arms on fresh seeds likewise
    (the solver succeeding in `solver_actions`, open-loop replays and trivial policies failing, unless told
    otherwise); the noisy solver's (rate, success rate, mean progress) on 10 of the fresh seeds; the ladder of
    this task alone, and no other task reached by its runs."""
    counters = {"actions": 10, "attempts": 1, "trace_sha256": "0" * 64}

    def entries(outcomes, default, count=30, **fields):
        outcomes = list(outcomes) + [default] * (count - len(outcomes))
        return [{"seed": 100 + k, **fields, "success": hit, "progress": 1.0 if hit else 0.1, **counters}
                for k, hit in enumerate(outcomes)]

    random_runs = [{**entry, "seed": 1, "action_seed": k} for k, entry in enumerate(entries(random_success, False))]
    solved = {**counters, "actions": solver_actions}
    solver = [{"seed": seed, "success": hit, "progress": 1.0 if hit else 0.5, **solved,
               "trace_sha256": hashlib.sha256(f"{task.id}:{seed}".encode()).hexdigest()}  # a run of its own
              for seed, hit in zip(task.seeds, solver_success)]
    fresh = [{**entry, "actions": solver_actions} for entry in entries(fresh_success, True)]
    open_loop = entries(open_loop_success, False, source="reference", made_on=1)
    trivial = entries(trivial_success, False, count=10, policy="press ArrowUp")
    ladder = [{"rate": rate, "runs": 10, "success_rate": sr, "mean_progress": pg,
               "results": [{"seed": 100 + k, "success": k < 10 * sr, "progress": pg, **counters} for k in range(10)]}
              for rate, sr, pg in noise]
    return {"task": task.id, "game_version": task.game.version, "task_sha256": calibration.task_sha256(task),
            "random_floor": calibration.RANDOM_FLOOR,
            "random": {i: {**calibration.summarize(random_runs), "results": random_runs} for i in INTERFACES},
            "solver": {**calibration.summarize(solver), "results": solver},
            "reference": {"seed": 1, "success": True, "progress": 1.0, "replays_identical": True, **counters},
            "null": {"seed": 1, "success": False, "progress": 0.0, **counters}, "frames": frames,
            "fresh_solver": {**calibration.summarize(fresh), "results": fresh},
            "open_loop": {**calibration.summarize(open_loop), "results": open_loop},
            "trivial": {**calibration.summarize(trivial), "seeds": [100, 101], "results": trivial},
            "noise": ladder, "ladder": [{"task": task.id, "success_rate": noise[1][1]}], "same_run_as": []}


CLEAN_FRAMES = {"first_frame_flat": {"1": False}, "fail_trajectory": True,
                "post_reset": {"seed": 1, "attempt": 2, "attempt_seed": 5, "differing_share": 0.0, "stale": False}}


def test_the_gate_names_the_task_in_each_reason(tally):
    task = tally.tasks["points-8"]
    assert calibration.gate(task, card_for(task, frames=CLEAN_FRAMES)) == []
    assert calibration.gate(task, card_for(task, frames=CLEAN_FRAMES, random_success=[True] * 3)) == []
    assert calibration.gate(task, card_for(task, frames=CLEAN_FRAMES, random_success=[True] * 4,
                                           solver_success=(True, False, True))) == [
        "tally/points-8@1: the solver does not reach the target on seed 2 (progress 0.50)",
        "tally/points-8@1: random cua play reaches the target in 13% of 30 runs (at most 10%): make the target "
        "need intent",
        "tally/points-8@1: random generalist play reaches the target in 13% of 30 runs (at most 10%): make the "
        "target need intent"]


def test_a_blank_first_frame_is_refused(tmp_path):
    game = flawed_copy(tmp_path, "blank-first-frame")
    task = game.tasks["points-8"]
    reasons = calibration.gate(task, card_for(task, frames=frame_facts(game)))
    assert [reason for reason in reasons if "flat colour" in reason] == [
        f"tally/points-8@1: the first frame after the readiness gate on seed {seed} is one flat colour (blank): "
        "draw a frame before reporting actionable" for seed in (1, 2, 3)]


def test_a_stale_frame_after_a_reset_is_refused(tmp_path):
    game = flawed_copy(tmp_path, "stale-reset")
    task = game.tasks["points-8"]
    reasons = calibration.gate(task, card_for(task, frames=frame_facts(game)))
    assert len(reasons) == 1 and reasons[0].startswith(
        "tally/points-8@1: the frame after the reset to attempt 2 (seed 1) differs from a fresh reset's first "
        "frame at that attempt's seed"), reasons
    assert re.search(r"in \d+ pixels? \(\d+\.\d% of its pixels\): redraw on reset$", reasons[0]), reasons


def test_the_frames_of_a_sound_game_pass(tally):
    facts = frame_facts(tally)
    assert facts["first_frame_flat"] == {"1": False, "2": False, "3": False}
    assert facts["post_reset"]["stale"] is False and facts["post_reset"]["attempt"] == 2


def test_a_card_measured_for_another_task_definition_is_stale(tally):
    task = tally.tasks["points-8"]
    harder = replace(task, target=9)
    assert calibration.gate(harder, card_for(task, frames=CLEAN_FRAMES)) == [
        "tally/points-8@1: the calibration is stale (the task's definition changed): "
        "run `python -m sandbox calibrate tally`"]
    assert calibration.gate(task, None) == ["tally/points-8@1: not calibrated: run `python -m sandbox calibrate tally`"]


def test_the_task_set_gate_bounds_random_play_and_the_solver(tally):
    task = tally.tasks["points-8"]
    sound = card_for(task, frames=CLEAN_FRAMES, random_success=[True])
    assert calibration.gate_task_set([sound, sound]) == []
    assert calibration.gate_task_set([sound, card_for(task, frames=CLEAN_FRAMES, random_success=[True] * 3)]) == [
        "the task set: random cua play reaches the target in 6.7% of 60 runs (at most 5%)",
        "the task set: random generalist play reaches the target in 6.7% of 60 runs (at most 5%)"]
    idle = {**sound, "random": {i: {"results": [{"success": False, "progress": 0.25}] * 30} for i in INTERFACES}}
    assert calibration.gate_task_set([idle]) == [
        "the task set: random cua play makes 25.0% mean progress (at most 20%)",
        "the task set: random generalist play makes 25.0% mean progress (at most 20%)"]
    unsolved = card_for(task, frames=CLEAN_FRAMES, solver_success=(True, False, False))
    assert calibration.gate_task_set([sound] * 5 + [unsolved]) == [
        "the task set: the solvers reach the target in 88.9% of 18 runs (at least 90%)"]
    leaky = card_for(task, frames=CLEAN_FRAMES, open_loop_success=[True] * 2)  # 6.7 %: passes alone
    assert calibration.gate(task, leaky) == []
    assert calibration.gate_task_set([leaky]) == [
        "the task set: sequences memorised on one seed reach the target on 6.7% of 30 fresh seeds (at most 5%)"]
    assert calibration.gate_task_set([sound, leaky]) == []  # 3.3 % over the set
    assert calibration.gate_task_set([]) == ["the task set is empty"]


def test_the_calibration_file_round_trips(tmp_path):
    game = flawed_copy(tmp_path, "")
    calibration.card_path(game).unlink()
    assert calibration.load_calibration(game) is None
    document = {"game": "tally", "game_version": game.version,
                "tasks": {task.id: card_for(task, frames=CLEAN_FRAMES) for task in game.tasks.values()}}
    calibration.write_calibration(game, document)
    assert calibration.load_calibration(game) == document
    calibration.card_path(game).write_text("{")
    with pytest.raises(SandboxError, match="calibration.json: not valid JSON"):
        calibration.load_calibration(game)
    del document["tasks"]["tally/points-8@1"]["solver"]["results"][1]["progress"]
    calibration.write_calibration(game, document)
    with pytest.raises(SandboxError, match="calibration.json: tasks/tally/points-8@1/solver/results/1: 'progress' "
                                           "is a required property: run `python -m sandbox calibrate tally`"):
        calibration.load_calibration(game)


def test_a_card_without_the_solver_on_every_seed_is_refused(tally):
    task = tally.tasks["points-8"]
    card = card_for(task, frames=CLEAN_FRAMES, solver_success=(True, True))  # seed 3 never played
    assert calibration.gate(task, card) == ["tally/points-8@1: the solver was not run on seed 3"]


def test_the_gate_reads_the_runs_not_a_stored_summary(tally):
    task = tally.tasks["points-8"]
    card = card_for(task, frames=CLEAN_FRAMES, random_success=[True] * 6)
    card["random"]["cua"]["success_rate"] = 0.0  # a summary that disagrees with its runs
    assert any("random cua play reaches the target in 20% of 30 runs" in r for r in calibration.gate(task, card))


def test_a_reworded_task_keeps_its_card_and_a_changed_target_makes_it_stale(tally):
    task = tally.tasks["points-8"]
    card = card_for(task, frames=CLEAN_FRAMES)
    assert calibration.gate(replace(task, instruction="Eight points, please."), card) == []
    assert calibration.gate(replace(task, target=8.0), card) == []  # the same number, written as a float
    assert "the calibration is stale" in calibration.gate(replace(task, target=9), card)[0]


def test_kept_arms_are_those_of_cards_that_are_not_stale_and_random_runs_of_this_floor(tally):
    tasks = list(tally.tasks.values())
    earlier = {"tasks": {task.id: card_for(task, frames=CLEAN_FRAMES, random_success=[k % 2 == 0])
                         for k, task in enumerate(tasks)}}
    changed, older_floor = tasks[1], tasks[2]
    earlier["tasks"][changed.id]["task_sha256"] = calibration.task_sha256(replace(changed, target=changed.target + 1))
    earlier["tasks"][older_floor.id]["random_floor"] = calibration.RANDOM_FLOOR - 1
    kept = calibration.kept_arms(tally, earlier)
    assert sorted(kept) == sorted(task.id for task in tasks if task is not changed)
    for task_id, arms in kept.items():
        card = earlier["tasks"][task_id]
        assert {arm: arms[arm] for arm in calibration.ARMS} == {arm: card[arm] for arm in calibration.ARMS}
        if task_id == older_floor.id:
            assert "random" not in arms  # drawn by an older random agent: measured again
        else:
            assert arms["random"] == {i: card["random"][i]["results"] for i in INTERFACES}


def test_a_card_of_an_earlier_random_agent_is_measured_again_not_replayed(tally):
    """A card drawn by the first random agent (one key, a wait or a click a step; written without a floor, or with
    floor 1) was measured under fewer rules: the gate and the sample check both send it back to calibration."""
    task = tally.tasks["points-8"]
    current = card_for(task, frames=CLEAN_FRAMES)
    assert calibration.gate(task, current) == []
    reason = ("tally/points-8@1: the card was drawn by an earlier random agent (floor 1, not 2) and measured under "
              "fewer rules: run `python -m sandbox calibrate tally`")
    unnamed = {key: value for key, value in current.items() if key != "random_floor"}
    for earlier in ({**current, "random_floor": 1}, unnamed):
        assert calibration.gate(task, earlier) == [reason]
        assert calibration.verify_task_sample(task, earlier, out=lambda line: None) == [reason]  # nothing replayed


def test_the_budget_leaves_slack_and_asks_for_more_than_a_few_actions(tally):
    task = replace(tally.tasks["points-8"], max_actions=100)
    assert calibration.solver_action_bounds(task) == (10, 85)
    assert calibration.solver_action_bounds(tally.tasks["points-15"]) == (2, 15)  # a budget of 18
    for actions in (10, 85):
        assert calibration.budget_problems(task, card_for(task, frames=CLEAN_FRAMES, solver_actions=actions)) == []
    assert calibration.budget_problems(task, card_for(task, frames=CLEAN_FRAMES, solver_actions=86)) == [
        "tally/points-8@1: the solver needs 86 actions on seeds 1, 2, 3 (at most 85 of 100): leave room for a "
        "mistake, with a lower target",
        "tally/points-8@1: the solver reaches the target within 85 actions on 0% of 30 fresh seeds (at least 90%): "
        "leave room for a mistake, with a lower target"]
    assert calibration.budget_problems(task, card_for(task, frames=CLEAN_FRAMES, solver_actions=9)) == [
        "tally/points-8@1: the solver reaches the target in 9 actions (at least 10): ask for more, so that the task "
        "is not over in a few presses"]
    slow_on_four = card_for(task, frames=CLEAN_FRAMES, solver_actions=40)
    for entry in slow_on_four["fresh_solver"]["results"][:4]:
        entry["actions"] = 90  # reached, but with no room to spare: 26 of 30 in time
    assert calibration.budget_problems(task, slow_on_four) == [
        "tally/points-8@1: the solver reaches the target within 85 actions on 87% of 30 fresh seeds (at least 90%): "
        "leave room for a mistake, with a lower target"]
    assert calibration.gate(task, slow_on_four) == calibration.budget_problems(task, slow_on_four)


def test_the_noisy_solver_must_feel_the_noise_without_a_cliff(tally):
    task = tally.tasks["points-8"]
    assert calibration.noise_problems(task, card_for(task, frames=CLEAN_FRAMES)) == []
    deaf = card_for(task, frames=CLEAN_FRAMES, noise=((0.1, 1, 1), (0.3, 1, 1), (0.6, 0.9, 0.95)))
    assert calibration.gate(task, deaf) == [
        "tally/points-8@1: the solver with 30% of its actions random still reaches the target every time: make the "
        "target need good play throughout"]
    cliff = card_for(task, frames=CLEAN_FRAMES, noise=((0.1, 0.1, 0.33), (0.3, 0, 0.1), (0.6, 0, 0)))
    assert calibration.gate(task, cliff) == [
        "tally/points-8@1: with 10% of its actions random the solver makes 33% mean progress, under a third of its "
        "100% without: one slip should cost some, not all"]
    assert calibration.noise_problems(task, card_for(task, frames=CLEAN_FRAMES, noise=(
        (0.1, 0.2, 0.34), (0.3, 0, 0.1), (0.6, 0, 0)))) == []  # a third: at the bound


def test_a_game_s_tasks_must_rise_for_the_noisy_solver_and_be_rungs_of_their_own(tally):
    easy, hard = tally.tasks["points-8"], tally.tasks["points-15"]
    cards = {task.id: card_for(task, frames=CLEAN_FRAMES) for task in (easy, hard)}
    cards[easy.id]["noise"][1]["success_rate"], cards[hard.id]["noise"][1]["success_rate"] = 0.4, 0.5
    shared = {"seed": 2, "success": True, "progress": 1.0, "actions": 8, "attempts": 1, "trace_sha256": "a" * 64}
    cards[easy.id]["solver"]["results"][1] = cards[hard.id]["solver"]["results"][1] = shared
    calibration.add_game_facts(cards)
    assert cards[easy.id]["ladder"] == cards[hard.id]["ladder"] == [
        {"task": easy.id, "success_rate": 0.4}, {"task": hard.id, "success_rate": 0.5}]
    assert cards[easy.id]["same_run_as"] == [{"task": hard.id, "seeds": [2]}]
    assert calibration.noise_problems(easy, cards[easy.id]) == [
        "tally/points-8@1: the same run reaches tally/points-15@1 on seed 2, at the same action: make each task a "
        "rung of its own"]
    assert calibration.noise_problems(hard, cards[hard.id]) == [
        "tally/points-15@1: at noise 0.3 the solver reaches it in 50% of runs, more than the easier tally/points-8@1 "
        "(40%): the tasks must rise in difficulty",
        "tally/points-15@1: the same run reaches tally/points-8@1 on seed 2, at the same action: make each task a "
        "rung of its own"]
    cards[hard.id]["noise"][1]["success_rate"] = 0.4
    calibration.add_game_facts(cards)
    assert not any("rise" in reason for reason in calibration.noise_problems(hard, cards[hard.id]))  # a tie


def test_a_game_that_cannot_be_lost_is_refused(tally):
    task = tally.tasks["points-8"]
    card = card_for(task, frames={**CLEAN_FRAMES, "fail_trajectory": False, "post_reset": None})
    assert calibration.gate(task, card) == [
        "tally/points-8@1: the game has no fail trajectory (tests.fail): every game must be losable within its "
        "budget by a plausible mistake; add a run that loses, so the reset is checked"]


def test_the_noisy_solver_replays_from_its_seed_and_slips_more_as_the_noise_grows(tally):
    from sandbox.solvers import play_solver

    task = tally.tasks["points-15"]
    clean = play_solver(task, 5)
    assert play_solver(task, 5, noise=0.0, noise_seed=9).actions == clean.actions
    noisy = play_solver(task, 5, noise=0.3, noise_seed=9)
    assert play_solver(task, 5, noise=0.3, noise_seed=9).score.trace_sha256 == noisy.score.trace_sha256
    assert play_solver(task, 5, noise=0.3, noise_seed=10).actions != noisy.actions
    assert all(action["type"] == "press_key" for action in clean.actions) and clean.score.success
    assert any(action["type"] != "press_key" for action in noisy.actions)  # a random action of the whole space


@pytest.mark.parametrize("slug", registry.slugs())
def test_stored_random_runs_of_a_bundled_game_reproduce(slug):
    """A sample of the committed calibration's random runs (one task of each game, picked by a hash of its
    slug; one run per interface), replayed as the task's own runs, gives the stored figures and trace hashes;
    every card is current and its stored rates are those of its stored runs."""
    game = registry.game(slug)
    document = calibration.load_calibration(game)
    assert document is not None, f"games/{slug}/calibration.json is missing"
    assert document["game_version"] == game.version
    tasks = sorted(game.tasks.values(), key=lambda t: t.id)
    sampled = tasks[int(hashlib.sha256(slug.encode()).hexdigest(), 16) % len(tasks)]
    assert calibration.verify_task_sample(sampled, document["tasks"][sampled.id], out=lambda line: None) == []
    for task in game.tasks.values():
        card = document["tasks"][task.id]
        assert card["task_sha256"] == calibration.task_sha256(task)
        for interface in INTERFACES:
            measured = card["random"][interface]
            assert measured == {**calibration.summarize(measured["results"]), "results": measured["results"]}
            assert measured["runs"] >= calibration.MIN_RANDOM_RUNS


def test_fresh_seeds_are_the_calibrations_own(tally, fixture_games):
    seeds = calibration.fresh_seeds(tally)
    assert seeds == calibration.fresh_seeds(tally)  # the same stream on every run and machine
    assert len(set(seeds)) == len(seeds) == calibration.FRESH_SEEDS
    assert all(0 <= seed < 2 ** 31 for seed in seeds)
    assert not set(seeds) & {seed for task in tally.tasks.values() for seed in task.seeds}
    assert set(seeds).isdisjoint(calibration.fresh_seeds(fixture_games.game("counter")))  # a stream per game


def test_trivial_policies_hold_every_action_of_both_interfaces_and_cycle_through_them(fixture_games):
    space = fixture_games.game("counter").action_space  # keys, a pointer, and a semantic action with an arg
    policies = calibration.trivial_policies(space)
    singles = {name: actions[0] for name, actions in policies.items() if len(actions) == 1}
    keys = [{"type": "press_key", "key": key} for key in space.keys]
    assert [a for a in singles.values() if a["type"] == "press_key"] == keys
    pairs = [a["keys"] for a in singles.values() if a["type"] == "press_keys"]
    assert len(pairs) == len(space.keys) * (len(space.keys) - 1) // 2 and all(len(set(p)) == 2 for p in pairs)
    assert [a for a in singles.values() if a["type"] == "left_click"] == [
        {"type": "left_click", "x": space.width // 2, "y": space.height // 2}]
    assert {a["name"] for a in singles.values() if a["type"] == "semantic"} == set(space.semantic)
    assert policies["cycle through the keys"] == keys
    assert [a["name"] for a in policies["cycle through the semantic actions"]] == list(space.semantic)
    for actions in policies.values():
        for action in actions:
            space.resolve(action, 200)  # every policy plays valid actions


def test_the_gate_refuses_a_task_that_needs_no_eyes(tally):
    task = tally.tasks["points-8"]
    assert calibration.gate(task, card_for(task, frames=CLEAN_FRAMES, fresh_success=[False] * 3,
                                           open_loop_success=[True] * 3)) == []  # 90 % and 10 %: at the bounds
    assert calibration.gate(task, card_for(task, frames=CLEAN_FRAMES, fresh_success=[False] * 4,
                                           open_loop_success=[True] * 4, trivial_success=[True, False, True])) == [
        "tally/points-8@1: the solver reaches the target on 87% of 30 fresh seeds (at least 90% of 30): make every "
        "seed's game winnable by good play",
        "tally/points-8@1: a sequence memorised on one seed reaches the target on 13% of 30 fresh seeds (at most "
        "10%): make what the player must look at depend on the seed",
        "tally/points-8@1: the trivial policy 'press ArrowUp' reaches the target on fresh seeds 100, 102: make the "
        "target need more than one action repeated or a fixed cycle"]
    card = card_for(task, frames=CLEAN_FRAMES)
    del card["open_loop"], card["trivial"]
    assert calibration.gate(task, card) == [
        "tally/points-8@1: the card has no open_loop, trivial arm (measured before it was part of the gate): "
        "run `python -m sandbox calibrate tally`"]


@pytest.mark.slow
def test_a_game_that_ignores_its_seed_is_caught_by_the_open_loop_arm(tmp_path, tally):
    """(The sound game's open loop stays under the gate's bound: the calibration above.)"""
    seeds = calibration.fresh_seeds(tally, 6)
    seedless = flawed_copy(tmp_path, "seedless").tasks["points-8"]
    alternating = [{"type": "press_key", "key": "ArrowUp" if k % 2 == 0 else "ArrowDown"} for k in range(8)]
    seedless = replace(seedless, reference=Trajectory(seed=1, actions=alternating))  # its solver's run on any seed
    blind = calibration.measure_fresh(seedless, seeds, out=lambda line: None)
    assert blind["open_loop"]["success_rate"] == 1.0
    assert [entry["seed"] for entry in blind["open_loop"]["results"]] == seeds


def test_calibrate_exits_non_zero_naming_what_keeps_a_task_from_shipping(tmp_path, monkeypatch, capsys):
    from sandbox import cli
    from sandbox.__main__ import main

    monkeypatch.setattr(cli, "registry", Registry(tally_copy(tmp_path)))
    assert main(["calibrate", "--stored", "tally"]) == 1  # point-1: random play and trivial policies reach it
    output = capsys.readouterr().out
    assert re.search(r"^tally/point-1@1 .* FAIL$", output, re.MULTILINE)
    assert re.search(r"^tally/points-15@1 .* PASS$", output, re.MULTILINE)
    assert "reasons keep these tasks from shipping:\ntally/point-1@1: random cua play reaches the target" in output
    assert "tally/point-1@1: the trivial policy 'press ArrowUp' reaches the target" in output
    without = tally_copy(tmp_path / "without", tasks=("points-8", "points-15"))
    monkeypatch.setattr(cli, "registry", Registry(without))
    assert main(["calibrate", "--stored", "tally"]) == 0
    assert "reasons keep" not in capsys.readouterr().out
