"""Two entries compared on the tasks both ran: figures worked out by hand on a small fixture."""
import pytest
from django.core.cache import cache

from leaderboard import selectors
from tests.leaderboard.factories import mini_task_set, player, run, submission

pytestmark = pytest.mark.django_db

T1, T2, T3 = "breakout/rally-5@2", "runner/clear-6@1", "merge2048/corner-20@1"


@pytest.fixture
def pair():
    ts = mini_task_set([T1, T2, T3])
    a = submission(ts, "Alpha", interface="cua")
    b = submission(ts, "Bravo", interface="generalist")
    for t, p in ((T1, 0.6), (T2, 0.4), (T3, 1.0)):  # only Alpha ran T3: it is left out of the comparison
        run(a, t, p)
    for t, p in ((T1, 0.6), (T2, 0.2)):
        run(b, t, p)
    run("novice", T2, 1.0, player=player("ana"))
    return ts, f"s{a.pk}", f"s{b.pk}"


def test_the_paired_bootstrap_over_the_shared_tasks(pair):
    ts, alpha, bravo = pair
    result = selectors.compare_entries(ts, alpha, bravo)
    assert result["shared"] == 2 and result["tasks_total"] == 3
    assert [(row["game"], row["diff_pg"]) for row in result["rows"]] == [("breakout", 0.0), ("runner", 20.0)]
    pg = result["pg"]
    # Differences 0 and 20 on two tasks: a resample's mean is 0, 10 or 20 with chances 1/4, 1/2, 1/4.
    assert pg["diff"] == pytest.approx(10.0)
    assert (pg["lo"], pg["hi"]) == (0.0, 20.0)
    assert 0.70 <= pg["ahead"] <= 0.80 and pg["behind"] == 0.0
    assert result["overall"]["first_pg"] == pytest.approx(50.0) and result["overall"]["second_pg"] == pytest.approx(40.0)
    assert result["sr"]["diff"] == 0.0 and result["sr"]["ahead"] == 0.0  # neither reached a target
    # Deterministic: computed again from scratch, the same figures.
    cache.clear()
    assert selectors.compare_entries(ts, alpha, bravo)["pg"] == pg
    # The other way round, the signs flip and ahead/behind swap.
    back = selectors.compare_entries(ts, bravo, alpha)["pg"]
    assert (back["diff"], back["lo"], back["hi"]) == (-10.0, -20.0, 0.0)
    assert back["behind"] == pg["ahead"]


def test_a_genre_row_covers_only_the_shared_tasks_in_it(pair):
    ts, alpha, bravo = pair
    genres = {g["group"]: g for g in selectors.compare_entries(ts, alpha, bravo)["genre"]}
    assert genres["arcade"]["tasks"] == 1 and genres["runner"]["tasks"] == 1 and genres["puzzle"]["tasks"] == 0
    assert genres["runner"]["first_pg"] == pytest.approx(40.0) and genres["runner"]["second_pg"] == pytest.approx(20.0)
    assert genres["puzzle"]["first_pg"] is None


def test_an_agent_against_the_novices_uses_the_one_task_they_share(pair):
    ts, alpha, _ = pair
    result = selectors.compare_entries(ts, alpha, "novice")
    assert result["shared"] == 1 and result["pg"]["diff"] == pytest.approx(-60.0)
    assert result["pg"]["lo"] == result["pg"]["hi"] == pytest.approx(-60.0) and result["pg"]["behind"] == 1.0


def test_the_compare_page(client, pair):
    ts, alpha, bravo = pair
    page = client.get(f"/leaderboard/compare/?ts={ts.slug}&a={alpha}&b={bravo}").content.decode()
    assert "2</strong> of 3 tasks ran by both" in page
    assert "+10.0" in page and "+0.0 to +20.0" in page
    assert "cannot be told apart" in page  # the interval holds 0
    same = client.get(f"/leaderboard/compare/?ts={ts.slug}&a={alpha}&b={alpha}").content.decode()
    assert "Pick two different entries." in same
    unknown = client.get(f"/leaderboard/compare/?ts={ts.slug}&a={alpha}&b=s999999").content.decode()
    assert "No entry &#x27;s999999&#x27;" in unknown
    first_visit = client.get(f"/leaderboard/compare/?ts={ts.slug}").content.decode()  # the two best agents
    assert "two best entries" in first_visit and "2</strong> of 3 tasks ran by both" in first_visit
    assert f'value="{alpha}" selected' in first_visit.split('name="b"')[0]
    assert f'value="{bravo}" selected' in first_visit.split('name="b"')[1]
    chooser = client.get(f"/leaderboard/compare/?ts={ts.slug}&a={alpha}").content.decode()
    assert chooser.count("<option") == 2 * (3 + 1) + 2  # three entries and "choose…" in each list, two boards
