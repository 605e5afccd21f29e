import pytest

from catalogue.bundle_loading import load_bundles
from catalogue.models import Game
from sandbox.registry import Registry
from tests.conftest import FIXTURE_GAMES

pytestmark = pytest.mark.django_db


@pytest.fixture
def counter_game():
    report = load_bundles(games_registry=Registry(FIXTURE_GAMES), capture_frames=True)
    assert not report.errors
    return Game.objects.get(slug="counter")


def test_the_library_lists_games_with_their_frame_and_tasks(client, counter_game):
    page = client.get("/games/").content.decode()
    assert "Counter (test fixture)" in page and "Score 3" in page
    assert 'src="/games/counter/frame.png"' in page


def test_the_frame_is_a_png_captured_by_the_sandbox(client, counter_game):
    response = client.get("/games/counter/frame.png")
    assert response.status_code == 200 and response["Content-Type"] == "image/png"
    assert response.content.startswith(b"\x89PNG")


def test_the_game_page_shows_tasks_actions_and_state_fields(client, counter_game):
    page = client.get("/games/counter/").content.decode()
    for text in ("Press ArrowUp to reach 3 points.", "<kbd>ArrowUp</kbd>", "tap(col)", "Click at column col.",
                 "Game ticks at 60 per second.", "10 actions", "200 ms"):
        assert text in page


def test_a_game_page_says_once_how_the_game_plays_and_links_each_task(client):
    from catalogue.views import shared_sentences
    from tests.factories import load_games

    assert shared_sentences(["Jump. Reach 5. Lives: 3.", "Jump. Reach 9 now. Lives: 3."]) == (
        "Jump.", ["Reach 5.", "Reach 9 now."], "Lives: 3.")
    assert shared_sentences(["Reach 5.", "Reach 9."]) == ("", ["Reach 5.", "Reach 9."], "")
    assert shared_sentences(["Same. Same."] * 2) == ("Same.", ["Same.", "Same."], "")  # a task keeps its own part
    load_games()
    page = client.get("/games/runner/").content.decode()
    opening = "Desert Dash: the runner runs right by itself and speeds up;"
    assert page.count(opening) == 1 and 'id="how-to-play"' in page
    assert "Get past 9 obstacles in one run (obstacles_passed reaches 9) within 100 actions." in page
    assert 'href="/play/runner/clear-9/"><strong>' in page and 'href="/leaderboard/tasks/runner/clear-9/1/"' in page


def test_unknown_games_are_404(client, counter_game):
    assert client.get("/games/nope/").status_code == 404
    assert client.get("/games/nope/frame.png").status_code == 404


@pytest.mark.parametrize("wanted, lands", [
    ("https://evil.example/", "/account/"),
    ("//evil.example/x", "/account/"),
    ("/leaderboard/games/breakout/", "/leaderboard/games/breakout/"),
    ("", "/account/"),
])
def test_signup_redirects_only_within_the_site(client, wanted, lands):
    response = client.post("/accounts/signup/" + (f"?next={wanted}" if wanted else ""),
                           {"username": "newcomer", "password1": "a-long-pass-phrase-9", "password2": "a-long-pass-phrase-9"})
    assert response.status_code == 302 and response["Location"] == lands


def test_sign_in_without_next_lands_on_the_account_page(client, django_user_model):
    django_user_model.objects.create_user("ana", password="a-long-pass-phrase-9")
    response = client.post("/accounts/login/", {"username": "ana", "password": "a-long-pass-phrase-9"})
    assert response["Location"] == "/account/" and client.get("/account/").status_code == 200


def test_a_missing_page_is_the_site_s_own_and_the_favicon_is_found(client):
    unknown = client.get("/no/such/page/")
    page = unknown.content.decode()
    assert unknown.status_code == 404 and "Page not found" in page and 'class="topbar"' in page
    assert "Nothing lives at this address." in page and "Resolver404" not in page
    missing_game = client.get("/games/nope/").content.decode()
    assert "No game &#x27;nope&#x27;" in missing_game and 'class="topbar"' in missing_game
    icon = client.get("/favicon.ico")
    assert icon.status_code == 301 and icon["Location"].startswith("/static/favicon.") and icon["Location"].endswith(".svg")
    assert 'rel="icon"' in client.get("/games/").content.decode()
