"""The leaderboard's statistics on their own (no database): bootstrap intervals, ranks with ties, the floor."""
import numpy as np

from leaderboard import statistics


def test_interval_ranks_count_agents_whose_lower_bound_is_above():
    lower = [0.5, 0.6, 0.1, 0.75]
    upper = [0.7, 0.8, 0.3, 0.9]
    # 1st: nobody's lower bound is above .7 except the 4th (.75) -> 2; 2nd: none above .8 -> 1;
    # 3rd: .5, .6, .75 are above .3 -> 4; 4th: none above .9 -> 1.
    assert statistics.interval_ranks(lower, upper) == [2, 1, 4, 1]


def test_the_bootstrap_is_deterministic_and_equals_a_plain_resampling():
    rng = np.random.default_rng(3)
    matrix = rng.random((12, 5))
    first = statistics.bootstrap_intervals(matrix, samples=400, seed=11)
    second = statistics.bootstrap_intervals(matrix, samples=400, seed=11)
    assert np.array_equal(first[0], second[0]) and np.array_equal(first[1], second[1])
    picks = np.random.default_rng(11).integers(0, 12, size=(400, 12))
    plain = matrix[picks].mean(axis=1)                       # resample the tasks, mean per entry
    lower, upper = np.percentile(plain, [2.5, 97.5], axis=0)
    assert np.allclose(first[0], lower) and np.allclose(first[1], upper)
    other = statistics.bootstrap_intervals(matrix, samples=400, seed=12)
    assert not np.array_equal(first[0], other[0])


def test_progress_above_chance_is_rescaled_from_the_floor_and_undefined_without_one():
    assert statistics.above_chance(60.0, 20.0) == 50.0
    assert statistics.above_chance(10.0, 20.0) == 0.0  # below the floor
    assert statistics.above_chance(50.0, None) is None and statistics.above_chance(50.0, 100.0) is None


def test_the_paired_bootstrap_says_who_is_ahead_on_the_shared_tasks():
    first, second = [0.9, 0.8, 0.7, 0.9], [0.5, 0.6, 0.4, 0.5]
    found = statistics.paired_difference(first, second, samples=400, seed=5)
    assert found["diff"] == np.mean(np.subtract(first, second)) and found["tasks"] == 4
    assert found["lo"] > 0 and found["ahead"] == 1.0 and found["behind"] == 0.0
    assert statistics.paired_difference(first, second, samples=400, seed=5) == found  # the same draws
    assert statistics.paired_difference([], []) is None
