"""The leaderboard's pages, exports and cache, through the test client."""
import csv
import html
import gzip
import io
import json
import re
import sqlite3
from html.parser import HTMLParser

import pytest

from catalogue.models import TaskSet
from leaderboard import selectors
from submissions.models import Run
from tests.leaderboard.factories import mini_task_set, player, run, submission

pytestmark = pytest.mark.django_db

T1, T2, T3, T4 = "breakout/rally-5@2", "runner/clear-6@1", "merge2048/corner-20@1", "minesweeper/clear-2-boards@2"


@pytest.fixture
def board():
    ts = mini_task_set([T1, T2, T3, T4])
    TaskSet.objects.exclude(pk=ts.pk).update(is_default=False)
    TaskSet.objects.filter(pk=ts.pk).update(is_default=True)           # the page shows it first
    a = submission(ts, "Alpha", model="alpha-1", org="Org A", interface="cua")
    for t, p in zip((T1, T2, T3, T4), (1.0, 0.2, 1.0, 0.6)):
        run(a, t, p)
    b = submission(ts, "Bravo", model="bravo-1", interface="generalist")
    for t, p in zip((T1, T2, T3, T4), (0.5, 0.5, 0.0, 0.25)):
        run(b, t, p)
    d = submission(ts, "Delta <script>", model="delta-1", interface="cua")
    run(d, T1, 1.0, True, mismatch=True, claimed=0.3)  # the claim differs from the replay
    for t in (T2, T3):
        run(d, t, 0.5)
    for t, p in zip((T1, T2, T3, T4), (0.5, 0.4, 0.8, 0.8)):
        run("novice", t, p, player=player("ana"))
    return ts, {"a": a, "b": b, "d": d}


class TableParser(HTMLParser):
    """The rows of table#leaderboard: (data-key, [first text of each cell])."""

    def __init__(self):
        super().__init__()
        self.rows, self.inside, self.cell, self.row = [], False, None, None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table" and attrs.get("id") == "leaderboard":
            self.inside = True
        elif self.inside and tag == "tr" and "data-key" in attrs:
            self.row = (attrs["data-key"], [])
        elif self.row is not None and tag == "td":
            self.cell = []

    def handle_endtag(self, tag):
        if tag == "table":
            self.inside = False
        elif tag == "td" and self.cell is not None:
            self.row[1].append(" ".join(self.cell))
            self.cell = None
        elif tag == "tr" and self.row is not None:
            self.rows.append(self.row)
            self.row = None

    def handle_data(self, data):
        if self.cell is not None and data.strip() and not self.cell:
            self.cell.append(data.strip())


def rows_of(response):
    parser = TableParser()
    parser.feed(response.content.decode())
    return parser.rows


def table_of(client, query=""):
    response = client.get("/" + query)
    assert response.status_code == 200
    return rows_of(response)


def fmt(value):
    return "–" if value in ("", None) else f"{float(value):.1f}"


def test_the_home_page_is_the_leaderboard_and_the_library_moved_to_games(client, board):
    page = client.get("/").content.decode()
    assert "<h1>Leaderboard</h1>" in page and 'href="/"' in page
    assert client.get("/games/").status_code == 200 and "The game library" in client.get("/games/").content.decode()
    rows = table_of(client)
    keys = [key for key, _ in rows]
    ts, subs = board
    assert keys[:3] == [f"s{subs['a'].pk}", "novice", f"s{subs['b'].pk}"]
    assert keys[-1] == f"s{subs['d'].pk}"                      # partial (flagged and 2 of 4 tasks) last
    assert 'class="human"' in page and "human reference" in page and "1 flagged run" in page
    assert "Delta &lt;script&gt;" in page and "Delta <script>" not in page
    assert "partial · 2/4 tasks" in page


def test_the_level_view_sorting_and_filters_keep_their_state_in_the_url(client, board):
    page = client.get("/?view=level").content.decode()
    assert "L1 timing" in page and "L4 symbolic" in page and "Arcade</th>" not in page
    assert 'href="?view=level&amp;sort=4_pg&amp;dir=desc"' in page         # a sortable column keeps the view
    rows = table_of(client, "?view=level&sort=4_pg&dir=asc")
    # Level 4 PG: Alpha (1 + .6)/2 = 80, Bravo (0 + .25)/2 = 12.5, novice 80, Delta .5 (one task). The set has
    # tasks at levels 1, 2 and 4 only, so level 4 is the third group drawn.
    assert "L3 spatial" not in page and "L5 open-world" not in page
    assert [r[1][5 + 2 * 2] for r in rows] == ["12.5", "50.0", "80.0", "80.0"]
    only_cua = [key for key, _ in table_of(client, "?iface=cua")]
    assert f"s{board[1]['b'].pk}" not in only_cua and "novice" in only_cua
    assert "novice" not in [key for key, _ in table_of(client, "?humans=0")]
    assert f"s{board[1]['d'].pk}" not in [key for key, _ in table_of(client, "?partial=0")]
    assert table_of(client, "?view=nope&sort=bogus&iface=x") == table_of(client)   # bad values fall back


def declare(sub, **facts):
    type(sub).objects.filter(pk=sub.pk).update(**facts)


def test_agents_are_found_by_name_model_or_organisation_and_filtered_by_what_they_declare(client, board):
    ts, subs = board
    a, b, d = (f"s{subs[k].pk}" for k in "abd")
    declare(subs["a"], weights="open", code_url="https://example.org/alpha", paper_url="https://example.org/paper")
    declare(subs["b"], weights="closed", tuned_on_benchmark=True)
    assert [key for key, _ in table_of(client, "?q=BRAVO")] == ["novice", b]    # the human reference stays
    assert [key for key, _ in table_of(client, "?q=alpha-1")] == [a, "novice"]  # by model
    assert [key for key, _ in table_of(client, "?q=org+a")] == [a, "novice"]    # by organisation
    assert [key for key, _ in table_of(client, "?q=nobody")] == ["novice"]
    assert [key for key, _ in table_of(client, "?weights=open")] == [a, "novice"]
    assert [key for key, _ in table_of(client, "?weights=closed")] == ["novice", b]
    assert [key for key, _ in table_of(client, "?tuned=0")] == [a, "novice", d]
    page = client.get("/?q=alpha").content.decode()
    assert 'value="alpha"' in page and "showing agents matching “alpha”" in page
    assert "open weights" in page and 'href="https://example.org/alpha"' in page and ">paper</a>" in page
    assert "built on this benchmark" in client.get("/?q=bravo").content.decode()
    exported = list(csv.DictReader(io.StringIO(client.get("/leaderboard/export.csv?weights=closed").content.decode())))
    assert [(r["entry"], r["weights"], r["tuned_on_benchmark"]) for r in exported] == [
        ("Novice humans", "", ""), ("Bravo", "closed", "True")]


@pytest.mark.parametrize("view", ["genre", "level"])
def test_the_board_draws_only_the_groups_its_task_set_has_tasks_in(client, board, view):
    """A genre (or level) with no task in the set would be a column of dashes: the table and its chart leave it
    out; the exports keep every group, so that their columns are the same for every task set."""
    ts, _ = board
    held = {str(getattr(task.game, view)) for task in ts.tasks.select_related("game")}
    every = selectors.groups_for(view)
    assert 0 < len(held) < len(every)  # the mini set leaves some out, so the test can tell
    page = client.get(f"/?view={view}").content.decode()
    drawn = re.findall(r'<th colspan="2" class="group"[^>]*>([^<]+)</th>', page)
    assert drawn == [html.escape(label) for group, label, _ in every if group in held]
    chart = json.loads(page.split('id="fig-groups">')[1].split("</script>")[0])
    assert chart["data"][0]["x"] == [label for group, label, _ in every if group in held]
    exported = next(csv.reader(io.StringIO(client.get(f"/leaderboard/export.csv?view={view}").content.decode())))
    prefix = "" if view == "genre" else "level"
    assert all(f"{prefix}{group}_pg" in exported for group, _, _ in every)


def test_every_switch_of_the_board_says_what_it_means(client, board):
    """The board's jargon ("Weights", "Built on this benchmark", ...) is explained where it is used."""
    from leaderboard.views import SWITCH_HINTS

    page = client.get("/").content.decode()
    labels = re.findall(r'<span class="pill-label" title="([^"]+)">([^<]+?) <span', page)
    assert [label for _, label in labels] == list(SWITCH_HINTS)
    hints = {label: html.unescape(hint) for hint, label in labels}
    assert "published" in hints["Weights"] and "tuned or trained on this benchmark" in hints["Built on this benchmark"]


def test_reported_costs_are_columns_marked_as_the_submitter_s_word(client, board):
    ts, subs = board
    declare(subs["a"], reported_tokens_per_step=1234.4, reported_seconds_per_step=2.5, reported_cost_per_step_usd=0.0031)
    assert "Reported per step" not in client.get("/").content.decode()
    page = client.get("/?reported=1").content.decode()
    assert "Reported per step*" in page and "the site cannot" in page
    row = dict(table_of(client, "?reported=1"))[f"s{subs['a'].pk}"]
    assert row[-3:] == ["1,234", "2.50", "0.0031"]
    assert dict(table_of(client, "?reported=1"))[f"s{subs['b'].pk}"][-3:] == ["–", "–", "–"]
    entry = client.get(f"/leaderboard/agents/{subs['a'].pk}/").content.decode()
    assert "Reported by the submitter, not verified: 1,234 tokens" in entry


def test_the_board_says_when_it_last_changed_and_links_to_the_comparison(client, board):
    ts, _ = board
    newest = Run.objects.order_by("-verified_at").first().verified_at
    page = client.get("/").content.decode()
    assert f'last updated <time datetime="{newest.isoformat()}' in page
    assert f'href="/leaderboard/compare/?ts={ts.slug}"' in page


@pytest.mark.parametrize("query", ["", "?view=level&sort=overall_sr&dir=asc", "?iface=cua&humans=0"])
def test_the_exports_equal_the_table(client, board, query):
    rows = table_of(client, query)
    params = dict(p.split("=") for p in query.lstrip("?").split("&") if p)
    view = params.get("view", "genre")
    ts, _ = board
    held = {str(getattr(task.game, view)) for task in ts.tasks.select_related("game")}
    groups = [g for g, _, _ in selectors.groups_for(view, held)]  # the board draws these; the exports every one
    exported = list(csv.DictReader(io.StringIO(client.get("/leaderboard/export.csv" + query).content.decode())))
    data = json.loads(client.get("/leaderboard/export.json" + query).content)
    assert data["filters"]["view"] == view and data["columns"] == list(exported[0].keys())
    assert len(rows) == len(exported) == len(data["rows"])
    for (key, cells), line, item in zip(rows, exported, data["rows"]):
        assert line["entry"] == item["entry"]
        assert cells[1].startswith(line["entry"])
        rank = "ref" if line["kind"] in ("novice", "expert") else (line["rank"] or "–")
        assert cells[0] == rank
        prefix = "" if view == "genre" else "level"
        figures = cells[4:4 + 2 * len(groups)]
        for i, group in enumerate(groups):
            assert figures[2 * i] == fmt(line[f"{prefix}{group}_sr"]), (key, group)
            assert figures[2 * i + 1] == fmt(line[f"{prefix}{group}_pg"]), (key, group)
            assert fmt(item[f"{prefix}{group}_pg"]) == figures[2 * i + 1]
        overall_sr, overall_pg, runs = cells[4 + 2 * len(groups):]
        assert (overall_sr, overall_pg, runs) == (fmt(line["overall_sr"]), fmt(line["overall_pg"]), line["runs"])


def test_the_runs_export_lists_every_verified_run_with_flags(client, board):
    exported = list(csv.DictReader(io.StringIO(client.get("/leaderboard/runs.csv").content.decode())))
    assert len(exported) == Run.objects.filter(status="verified").count() == 4 + 4 + 3 + 4
    flagged = [r for r in exported if r["flagged"] == "True"]
    assert len(flagged) == 1 and flagged[0]["counted"] == "False" and flagged[0]["task"] == T1
    no_humans = json.loads(client.get("/leaderboard/runs.json?humans=0").content)["rows"]
    assert {r["kind"] for r in no_humans} == {"agent"} and len(no_humans) == 11


def test_the_exports_name_each_entrys_provenance_and_keep_public_seeds_apart(client, board):
    ts, subs = board
    uploaded = submission(ts, "Echo uploaded", provenance="uploaded")
    copy = submission(ts, "Foxtrot copy", provenance="uploaded", copy_of=uploaded)
    for sub in (uploaded, copy):
        for t in (T1, T2, T3, T4):
            run(sub, t, 0.9)
    sealed = list(csv.DictReader(io.StringIO(client.get("/leaderboard/export.csv").content.decode())))
    assert {r["entry"]: r["provenance"] for r in sealed if r["kind"] == "agent"} == {
        "Alpha": "sealed", "Bravo": "sealed", "Delta <script>": "sealed"}
    public = json.loads(client.get("/leaderboard/export.json?provenance=public").content)
    assert public["filters"]["provenance"] == ["hosted", "uploaded"]
    rows = {r["entry"]: r for r in public["rows"] if r["kind"] == "agent"}
    assert (rows["Echo uploaded"]["provenance"], rows["Echo uploaded"]["rank"]) == ("uploaded", None)
    assert (rows["Foxtrot copy"]["copy_of"], rows["Foxtrot copy"]["status"]) == (uploaded.pk, f"copy of #{uploaded.pk}")
    runs = list(csv.DictReader(io.StringIO(client.get("/leaderboard/runs.csv?provenance=public&humans=0")
                                           .content.decode())))
    assert {r["provenance"] for r in runs} == {"uploaded"} and len(runs) == 8
    assert {r["provenance"] for r in json.loads(client.get("/leaderboard/runs.json?humans=0").content)["rows"]} == {
        "sealed"}
    page = client.get("/?provenance=public").content.decode()
    assert "actions chosen by the submitter on public seeds, checked by replay" in page and "copy of #" in page


def test_the_main_table_is_served_from_the_cache_until_a_run_is_verified(client, board, monkeypatch):
    ts, subs = board
    first = client.get("/").content
    calls = []
    real = selectors.compute_table
    monkeypatch.setattr(selectors, "compute_table", lambda *a, **k: calls.append(1) or real(*a, **k))
    assert client.get("/").content == first and calls == []      # warm: nothing recomputed
    run(subs["d"], T4, 1.0)                                       # a verification completes
    page = client.get("/").content.decode()
    assert calls == [1] and "partial · 3/4 tasks" in page


def test_a_repeated_get_is_answered_304_until_the_data_changes(client, board):
    ts, subs = board
    first = client.get("/")
    etag = first["ETag"]
    assert first.status_code == 200 and etag and first["Cache-Control"] == "no-cache" and "Cookie" in first["Vary"]
    again = client.get("/", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again.content == b"" and again["ETag"] == etag
    cached = client.get("/")                                          # whole from the cache: no session read
    assert cached["ETag"] == etag and "Cookie" in cached["Vary"] and cached["Cache-Control"] == "no-cache"
    assert client.get("/?view=level", HTTP_IF_NONE_MATCH=etag).status_code == 200   # another view, another page
    run(subs["d"], T4, 1.0)                                                            # a verification completes
    changed = client.get("/", HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag and "partial · 3/4 tasks" in changed.content.decode()
    assert client.get("/", HTTP_IF_NONE_MATCH=changed["ETag"]).status_code == 304


def test_pages_and_exports_are_sent_compressed_to_clients_that_take_gzip(client, board):
    for url in ("/", "/leaderboard/export.csv"):
        plain = client.get(url)
        packed = client.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate")
        assert "Content-Encoding" not in plain and packed["Content-Encoding"] == "gzip"
        assert "Accept-Encoding" in plain["Vary"] and "Accept-Encoding" in packed["Vary"]
        assert gzip.decompress(packed.content) == plain.content
        # Django names the gzip member with up to 100 random bytes (against BREACH): the deflated data is what
        # shrinks, so it is measured without that name.
        name_end = packed.content.index(b"\x00", 10) + 1 if packed.content[3] & 0x08 else 10
        assert len(packed.content) - name_end < len(plain.content) / 2
        assert packed["ETag"] == f"W/{plain['ETag']}"             # the same data, sent another way
        assert client.get(url, HTTP_ACCEPT_ENCODING="gzip", HTTP_IF_NONE_MATCH=packed["ETag"]).status_code == 304


def test_a_signed_in_visitor_gets_their_own_page_around_the_board_everyone_shares(client, board, django_user_model,
                                                                                 monkeypatch):
    anonymous = client.get("/")
    assert client.get("/").content == anonymous.content                 # served whole from the cache
    calls = []
    real = selectors.compute_table
    monkeypatch.setattr(selectors, "compute_table", lambda *a, **k: calls.append(1) or real(*a, **k))
    client.force_login(django_user_model.objects.create_user("ines"))
    mine = client.get("/")
    page = mine.content.decode()
    assert ">ines</a>" in page and "Sign out" in page and "csrfmiddlewaretoken" in page
    assert calls == [] and table_of(client) == rows_of(anonymous)      # the board, from the cache
    assert mine["ETag"] != anonymous["ETag"] and "Cookie" in mine["Vary"]
    assert client.get("/", HTTP_IF_NONE_MATCH=anonymous["ETag"]).status_code == 200
    again = client.get("/")                                             # with the form token's cookie set by now
    assert client.get("/", HTTP_IF_NONE_MATCH=again["ETag"]).status_code == 304
    client.force_login(django_user_model.objects.create_user("jo"))
    theirs = client.get("/").content.decode()
    assert ">jo</a>" in theirs and ">ines<" not in theirs
    client.logout()
    assert client.get("/").content == anonymous.content


def test_a_new_task_set_in_the_list_changes_the_page(client, board):
    first = client.get("/")
    mini_task_set([T1], slug="mini-v2", name="Mini v2")
    second = client.get("/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert second.status_code == 200 and "Mini v2" in second.content.decode()


def test_the_exports_answer_a_conditional_get_and_follow_the_data(client, board):
    ts, subs = board
    for url in ("/leaderboard/export.csv", "/leaderboard/export.json", "/leaderboard/runs.csv?humans=0"):
        first = client.get(url)
        assert first.status_code == 200 and first["ETag"] and first["Content-Disposition"].startswith(("attachment", "inline"))
        cached = client.get(url)
        assert cached.content == first.content and cached["Content-Type"] == first["Content-Type"]
        assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    before = client.get("/leaderboard/export.csv")
    run(subs["d"], T4, 1.0)
    after = client.get("/leaderboard/export.csv", HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200 and after.content != before.content


@pytest.mark.django_db(transaction=True)
def test_a_write_by_another_process_shows_on_the_next_request(client, board, monkeypatch,
                                                              django_assert_max_num_queries):
    ts, subs = board
    first = client.get("/")
    calls = []
    real = selectors.compute_table
    monkeypatch.setattr(selectors, "compute_table", lambda *a, **k: calls.append(1) or real(*a, **k))
    with django_assert_max_num_queries(3):           # the data version (ETag, cache) and the task sets: no run read
        again = client.get("/")
    assert again.content == first.content and calls == []
    from django.db import connection
    other = sqlite3.connect(connection.settings_dict["NAME"])   # the worker, in its own process
    with other:
        other.execute("UPDATE submissions_run SET progress = 0.0, success = 0 WHERE submission_id = ?",
                      [subs["a"].pk])                           # its runs verified again, with other figures
    other.close()
    changed = client.get("/", HTTP_IF_NONE_MATCH=first["ETag"])
    alpha = f"s{subs['a'].pk}"
    assert changed.status_code == 200 and calls == [1]
    assert dict(rows_of(changed))[alpha] != dict(rows_of(first))[alpha]


def test_charts_and_plotly_are_served_by_the_site_itself(client, board):
    page = client.get("/").content.decode()
    assert 'data-chart="fig-groups"' in page and 'id="fig-scatter"' in page and 'id="fig-gap"' in page
    assert "https://" not in page.split("<footer>")[0].replace('href="https://', "")
    src = page.split('<script src="')[1].split('"')[0]
    assert src.startswith("/static/vendor/plotly.min.")          # from the installed package, under a hashed name
    js = client.get(src, HTTP_ACCEPT_ENCODING="gzip")
    assert js.status_code == 200 and js["Content-Encoding"] == "gzip" and "immutable" in js["Cache-Control"]
    plain = b"".join(client.get(src).streaming_content)
    assert b"plotly" in plain[:2000].lower() and len(plain) > 1_000_000
    figure = json.loads(page.split('id="fig-groups">')[1].split("</script>")[0])
    assert figure["data"][0]["type"] == "bar" and "Delta" not in json.dumps(figure)   # partial not drawn
    assert "\\u003cscript" in page or "<script>" not in page.split('id="fig-scatter">')[1].split("</script>")[0]


def test_the_agent_page_shows_profile_tasks_flagged_runs_and_submissions(client, board):
    ts, subs = board
    page = client.get(f"/leaderboard/agents/{subs['a'].pk}/").content.decode()
    assert "Alpha" in page and "alpha-1" in page and "By genre" in page and "By curriculum level" in page
    assert 'id="rank">1' in page and "Every submission of Alpha" in page and "Clear two boards" in page
    flagged_page = client.get(f"/leaderboard/agents/{subs['d'].pk}/").content.decode()
    flagged = Run.objects.get(mismatch=True)
    assert "1 flagged run" in flagged_page and f"/leaderboard/runs/{flagged.pk}/" in flagged_page
    assert "Partial:" in flagged_page and "unranked" in flagged_page
    assert client.get("/leaderboard/agents/9999/").status_code == 404


def test_human_game_and_task_pages(client, board):
    ts, _ = board
    human = client.get("/leaderboard/humans/novice/").content.decode()
    assert "Novice humans" in human and "never ranked" in human and "1 player" in human
    assert client.get("/leaderboard/humans/robots/").status_code == 404
    game = client.get(f"/leaderboard/games/breakout/?ts={ts.slug}").content.decode()
    assert "Brick Breaker" in game and "Return the ball 5 times" in game and 'data-chart="fig-dist"' in game
    assert "1 flagged run on this game" in game
    task_page = client.get(f"/leaderboard/tasks/merge2048/corner-20/1/?ts={ts.slug}").content.decode()
    assert "<code>corner_streak</code>" in task_page and "0 → 20" in task_page and "Alpha" in task_page
    assert 'data-chart="fig-hist"' in task_page
    assert client.get("/leaderboard/tasks/merge2048/corner-20/9/").status_code == 404
    assert client.get("/leaderboard/games/nope/").status_code == 404


def test_the_run_page_and_an_unverified_run(client, board):
    ts, subs = board
    flagged = Run.objects.get(mismatch=True)
    page = client.get(f"/leaderboard/runs/{flagged.pk}/").content.decode()
    assert "Flagged:" in page and 'id="replay"' in page and "counts in no figure" in page
    pending = run(subs["b"], T4, 0.0, status=Run.Status.PENDING)
    page = client.get(f"/leaderboard/runs/{pending.pk}/").content.decode()
    assert "not verified" in page and 'id="replay"' not in page
    assert client.get(f"/leaderboard/runs/{pending.pk}/replay.json").status_code == 409
    assert client.get(f"/leaderboard/runs/{flagged.pk}/frames/0.png").status_code == 404


def test_no_task_set_yet(client):
    page = client.get("/").content.decode()
    assert "No task set is published yet" in page


def test_the_task_set_is_chosen_in_the_url_and_drafts_are_not_public(client, board):
    ts, _ = board
    other = client.get("/?ts=core-v15").content.decode()
    assert "<strong>GameWorld core v15</strong>" in other and "0 ranked agents" in other   # humans count anywhere
    assert '<option value="mini-v1">' in other and '<option value="core-v15" selected>' in other
    TaskSet.objects.create(slug="draft-v2", name="Draft v2")
    for query in ("?ts=nope&view=level", "?ts=draft-v2&view=level"):
        response = client.get("/" + query)
        assert response.status_code == 302 and response["Location"] == "/?ts=mini-v1&view=level"
    assert "draft-v2" not in client.get("/").content.decode()


def test_a_human_play_run_without_a_claim_counts_for_its_level(client, board):
    ts, _ = board
    run("expert", T1, 1.0, True, player=player("eve"), claimed=None)
    Run.objects.filter(kind="expert").update(claimed_progress=None, claimed_success=None)
    rows = dict(table_of(client))
    assert rows["expert"][0] == "ref" and rows["expert"][4:6] == ["100.0", "100.0"]   # arcade SR, PG
    assert client.get("/?humans=0").content.decode().count('class="human"') == 0


def test_an_agent_page_while_its_submission_is_still_verifying(client, board):
    ts, _ = board
    waiting = submission(ts, "Waiting", status="verifying")
    run(waiting, T1, 0.0, status=Run.Status.PENDING)
    page = client.get(f"/leaderboard/agents/{waiting.pk}/").content.decode()
    assert "the submission is still being verified" in page and "no verified run" in page
    assert "Waiting" not in [name for _, (rank, name, *rest) in table_of(client)]


def test_exports_neutralise_formulas_and_round_figures_as_the_page_shows_them(client, board):
    ts, subs = board
    evil = submission(ts, '=HYPERLINK("http://evil.example","x")', model="+cmd", org="@org", interface="cua")
    for t, p in zip((T1, T2, T3, T4), (1.0, 1 / 3, 0.5, 0.25)):
        run(evil, t, p)
    exported = list(csv.DictReader(io.StringIO(client.get("/leaderboard/export.csv").content.decode())))
    row = next(r for r in exported if "HYPERLINK" in r["entry"])
    assert row["entry"] == "'" + '=HYPERLINK("http://evil.example","x")'
    assert (row["model"], row["organisation"]) == ("'+cmd", "'@org")
    assert row["overall_pg"] == "52.1"  # (100 + 33.33 + 50 + 25) / 4, one decimal as on the page
    runs = list(csv.DictReader(io.StringIO(client.get("/leaderboard/runs.csv").content.decode())))
    assert {r["progress"] for r in runs if r["entry"].startswith("'=HYPERLINK")} == {"100.0", "33.3", "50.0", "25.0"}
    data = json.loads(client.get("/leaderboard/export.json").content)
    item = next(r for r in data["rows"] if "HYPERLINK" in r["entry"])
    assert item["entry"].startswith("=HYPERLINK") and item["overall_pg"] == 52.1  # JSON is data: no quote


def test_a_task_page_shows_its_calibration_card_and_pg_above_chance(client, board):
    from tests.factories import task
    from tests.leaderboard.test_figures import random_card

    ts, subs = board
    found = task(T4)
    found.calibration = random_card(found, 0.2, 0.5)
    found.save()
    page = client.get(f"/leaderboard/tasks/minesweeper/clear-2-boards/2/?ts={ts.slug}").content.decode()
    assert "Random keys and clicks" in page and "Random semantic actions" in page
    assert "seed 1: reached in 20 actions" in page and "Calibration gate: <strong>passed" in page
    rows = {name: cells for name, cells in _task_rows(page)}
    assert rows["Alpha"] == ["0.0", "60.0", "50.0"]          # cua: (60 - 20) / 80
    assert rows["Bravo"][2] == "0.0"                         # generalist: 25 is below its floor of 50
    uncalibrated = task(T1)
    uncalibrated.calibration = None
    uncalibrated.save()
    page = client.get(f"/leaderboard/tasks/breakout/rally-5/2/?ts={ts.slug}").content.decode()
    assert "has no calibration card" in page and dict(_task_rows(page))["Alpha"][2] == "–"


def test_a_task_page_draws_the_noisy_solver_s_ladder_from_its_card(client, board):
    from tests.conftest import FIXTURE_GAMES
    from tests.factories import task

    ts, _ = board
    card = json.loads((FIXTURE_GAMES / "tally" / "calibration.json").read_text())["tasks"]["tally/points-8@1"]
    found = task(T4)
    found.calibration = card
    found.save()
    page = client.get(f"/leaderboard/tasks/minesweeper/clear-2-boards/2/?ts={ts.slug}").content.decode()
    figure = json.loads(page.split('type="application/json" id="fig-noise">', 1)[1].split("</script>", 1)[0])
    clean = [e for e in card["fresh_solver"]["results"] if e["seed"] in {r["seed"] for r in card["noise"][0]["results"]}]
    rates = [0, 10, 30, 60]
    success = [100.0 * sum(e["success"] for e in runs) / len(runs)
               for runs in [clean] + [level["results"] for level in card["noise"]]]
    by_name = {trace["name"]: trace for trace in figure["data"]}
    assert by_name["success rate"]["x"] == rates and by_name["success rate"]["y"] == pytest.approx(success)
    assert by_name["mean progress"]["y"][0] >= by_name["mean progress"]["y"][-1]
    assert "a key, two keys together" in page  # the random agent this card's runs were drawn by
    found.calibration = {key: value for key, value in card.items() if key not in ("noise", "random_floor")}
    found.save()
    page = client.get(f"/leaderboard/tasks/minesweeper/clear-2-boards/2/?ts={ts.slug}").content.decode()
    assert "fig-noise" not in page and "uniform over the game's keys, clicks and waits" in page


def _task_rows(page):
    """(entry name, [SR, PG, above chance]) of the task page's results table."""
    import re
    body = page.split('id="entries"', 1)[1].split("</table>", 1)[0]
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)[1:]:
        cells = [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        yield cells[1].split()[0], cells[3:6]


def test_the_board_s_pg_above_chance_toggle_adds_a_column_kept_in_the_url(client, board):
    plain = client.get("/").content.decode()
    assert "Above chance</th>" not in plain and "chance=1" in plain  # the switch links to it
    toggled = client.get("/?chance=1").content.decode()
    assert "Above chance</th>" in toggled and 'class="num overall above-chance"' in toggled


def test_a_new_site_says_its_baselines_are_being_verified(client, board):
    ts, subs = board
    type(subs["b"]).objects.filter(pk=subs["b"].pk).update(is_baseline=True, status="verifying", runs_total=40,
                                                            runs_done=6)
    page = client.get("/").content.decode()
    assert 'id="baselines-verifying"' in page and "(Bravo) are\n  being verified" in page and "6 of 40" in page
    type(subs["b"]).objects.filter(pk=subs["b"].pk).update(status="verified", runs_done=40)
    assert 'id="baselines-verifying"' not in client.get("/").content.decode()


def test_a_human_row_shows_its_support_and_is_marked_incomplete_below_the_maintainers_coverage(client, board):
    from leaderboard.models import BoardSettings

    ts, _ = board
    run("expert", T1, 1.0, True, player=player("eve"))
    page = client.get("/").content.decode()
    # Novices: one player on all 4 tasks, with their interval; experts: 1 task of 4, under the default 50 %.
    assert ">1 player · 4 of 4 tasks</span>" in page and "95 % bootstrap interval over tasks" in page
    assert "incomplete · 1/4 tasks" in page and page.count("incomplete-badge") == 1
    entries = {e["key"]: e for e in selectors.compute_table(ts)["entries"]}
    assert entries["expert"]["incomplete"] and not entries["novice"]["incomplete"]
    assert not any(e["incomplete"] for e in entries.values() if e["kind"] == "agent")
    BoardSettings.objects.update_or_create(pk=1, defaults={"human_min_coverage": 25})
    page = client.get("/").content.decode()  # the cached page is keyed by the setting too
    assert "incomplete-badge" not in page and "1/4 tasks" in page


def test_an_interval_over_one_task_says_so_instead_of_a_point(client, board):
    ts, subs = board
    lone = submission(ts, "Lone", model="lone-1", interface="cua")
    run(lone, T1, 0.4)  # one task of four: partial, and its bootstrap can only draw that task
    page = client.get(f"/leaderboard/agents/{lone.pk}/").content.decode()
    assert page.count("n/a (1 task)") == 2 and "40.0–40.0" not in page  # PG's and SR's
    board_page = client.get("/").content.decode()
    row = board_page[board_page.index(f'data-key="s{lone.pk}"'):]
    assert '<span class="ci">n/a (1 task)</span>' in row[:row.index("</tr>")]
    alpha = client.get(f"/leaderboard/agents/{subs['a'].pk}/").content.decode()  # four tasks: a real interval
    assert "n/a (1 task)" not in alpha and re.search(r"<small>\d+\.\d–\d+\.\d</small>", alpha)


def test_before_the_first_publication_every_board_page_shows_the_set_up_with_its_phase_and_estimate(client):
    from tests.factories import load_games, validating_the_default_set

    load_games()
    total = validating_the_default_set(done=5, seconds_apart=3)  # 3 s a task measured
    home = client.get("/").content.decode()
    assert re.search(r'<li class="now">Checking the tasks:\s*<strong>5 of %d</strong>' % total, home), home
    minutes = round(3 * (total - 5) / 60)
    assert f"<strong>about {minutes} min left</strong>" in home and 'href="/games/"' in home
    for path in ("/leaderboard/compare/", "/leaderboard/humans/expert/", "/leaderboard/games/breakout/",
                 "/leaderboard/tasks/breakout/rally-5/2/"):
        page = client.get(path)
        assert page.status_code == 200 and re.search(r"<strong>5 of %d</strong>" % total, page.content.decode()), path
    assert client.get("/leaderboard/export.csv").status_code == 404  # an export has nothing to say meanwhile
    assert client.get("/leaderboard/games/no-such-game/").status_code == 404


def test_the_default_set_s_set_up_stays_in_view_above_a_board_published_meanwhile(client):
    from tests.factories import validating_the_default_set

    ts = mini_task_set([T1, T2])
    total = validating_the_default_set(done=0, seconds_apart=3)
    home = client.get("/").content.decode()
    assert 'id="leaderboard"' in home and ts.name in home  # the other set's board
    assert "Setting up the new task set GameWorld core v15" in home
    assert re.search(r"<strong>0 of %d</strong> tasks checked" % total, home)
    assert "An estimate shows once the first tasks are checked" in home
