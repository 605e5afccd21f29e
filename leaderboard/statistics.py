"""The leaderboard's statistics, plain numpy: percentile bootstrap intervals of an entry's mean over tasks (tasks
resampled with replacement, the same draws for every entry), the paired bootstrap of two entries, ranks with ties
while intervals overlap, and progress rescaled above random play's floor."""
import numpy as np

BOOTSTRAP_SAMPLES = 1000
BOOTSTRAP_SEED = 20260


def bootstrap_intervals(matrix, *, samples=BOOTSTRAP_SAMPLES, seed=BOOTSTRAP_SEED, level=95.0):
    """Percentile intervals of the mean over tasks, resampling tasks with replacement.

    `matrix` is tasks x entries (NaN where an entry has no figure for a task). Every entry sees the same
    resamples (drawn from a generator seeded with `seed`), so the result is deterministic. Returns two
    arrays (lower, upper), NaN for an entry without any task.
    """
    matrix = np.asarray(matrix, dtype=float)
    n_tasks, n_entries = matrix.shape
    if n_tasks == 0 or n_entries == 0:
        return np.full(n_entries, np.nan), np.full(n_entries, np.nan)
    means = resampled_means(matrix, samples=samples, seed=seed)
    tail = (100.0 - level) / 2
    lower = np.full(n_entries, np.nan)
    upper = np.full(n_entries, np.nan)
    for j in range(n_entries):
        column = means[:, j]
        column = column[~np.isnan(column)]
        if column.size:
            lower[j], upper[j] = np.percentile(column, [tail, 100.0 - tail])
    return lower, upper


def resampled_means(matrix, *, samples=BOOTSTRAP_SAMPLES, seed=BOOTSTRAP_SEED):
    """samples x entries: each entry's mean over a resample of the tasks (rows of `matrix`, drawn with replacement
    from a generator seeded with `seed`, the same draws for every entry), NaN cells left out."""
    n_tasks = matrix.shape[0]
    rng = np.random.default_rng(seed)
    picks = rng.integers(0, n_tasks, size=(samples, n_tasks))
    counts = np.zeros((samples, n_tasks))
    np.add.at(counts, (np.repeat(np.arange(samples), n_tasks), picks.ravel()), 1.0)
    present = ~np.isnan(matrix)
    totals = counts @ np.where(present, matrix, 0.0)
    weights = counts @ present.astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(weights > 0, totals / np.where(weights > 0, weights, 1.0), np.nan)


def paired_difference(first, second, *, samples=BOOTSTRAP_SAMPLES, seed=BOOTSTRAP_SEED, level=95.0):
    """The paired bootstrap of two entries' figures on the tasks both have (two equal-length sequences, one
    value per shared task): the mean difference (first - second), its percentile interval over resamples of
    the tasks, and the share of resamples in which the first is ahead (and behind). None without a task."""
    diffs = np.asarray(first, dtype=float) - np.asarray(second, dtype=float)
    if diffs.size == 0:
        return None
    means = resampled_means(diffs[:, None], samples=samples, seed=seed)[:, 0]
    tail = (100.0 - level) / 2
    lower, upper = np.percentile(means, [tail, 100.0 - tail])
    return {"diff": float(diffs.mean()), "lo": float(lower), "hi": float(upper), "tasks": int(diffs.size),
            "ahead": float(np.mean(means > 0)), "behind": float(np.mean(means < 0))}


def interval_ranks(lower, upper):
    """LMArena's rank with ties: 1 + the number of others whose lower bound is above this one's upper bound."""
    lower = np.asarray(lower, dtype=float)
    upper = np.asarray(upper, dtype=float)
    return [1 + int(np.sum(lower > hi)) for hi in upper]


def above_chance(pg, floor):
    """PG rescaled so that random play's mean progress (the floor) is 0 and the target 100 (both in percent);
    below the floor is 0. None without a floor, or when random play already reaches the target."""
    if pg is None or floor is None or floor >= 100.0:
        return None
    return max(0.0, (pg - floor) / (100.0 - floor) * 100.0)
