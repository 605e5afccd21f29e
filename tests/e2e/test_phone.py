"""In a real browser at a phone's size (390 x 844, touch): no page is wider than the screen, the header's links are
in a menu of tap targets, a game's tasks are cards with their Play button in view, the play page's frame, on-screen
keys and status share the first screen, the board shows its table first with controls a thumb can hit, and no chart's
title is under plotly's mode bar. Every page named is photographed at 390 and 1280 px (test-artifacts/phone-*.png)."""
from datetime import date, timedelta

import pytest
from django.core.cache import cache
from django.core.management import call_command

from humanplay.models import Campaign
from tests.factories import make_user
from tests.leaderboard.factories import core_task_set, populate

# Transactional, so that the site's process can write while a test runs (a test's open transaction would hold the
# SQLite database); the tests only browse what `board` commits once for the module, and the flush after each is
# limited to an app they leave empty (the admin's log), so that it keeps that.
pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True, available_apps=["django.contrib.admin"])]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}
TAP = 44  # px: the smallest tap target a phone's user can hit reliably

PAGES = {"board": "/", "games": "/games/", "game": "/games/runner/", "task": "/play/runner/clear-17/",
         "board-task": "/leaderboard/tasks/runner/clear-17/1/", "compare": "/leaderboard/compare/",
         "agent": "/leaderboard/agents/{agent}/", "submit": "/submit/", "evaluate": "/evaluate/",
         "docs": "/docs/submissions/", "account": "/account/", "campaigns": "/campaigns/",
         "campaign": "/campaigns/spring/"}


@pytest.fixture(scope="module")
def board(django_db_setup, django_db_blocker, site_url):
    """A populated board, a campaign and a player, committed once for the module's tests (which only browse the site
    served from the test database); the database is emptied after them, as a transactional test's would be."""
    with django_db_blocker.unblock():
        cache.clear()  # the board's pages are cached: none of an earlier test's
        task_set = core_task_set()
        agents = populate(task_set, agents=10)
        make_user("pia")
        Campaign.objects.create(slug="spring", title="Spring lab baselines", task_set=task_set, novice_runs_per_task=1,
                                expert_runs_per_task=0, signup_code="LAB-7", consent_text="Recorded under a pseudonym.",
                                starts_on=date.today(), ends_on=date.today() + timedelta(days=7))
        yield {"agent": agents[0].pk}
        cache.clear()
        call_command("flush", interactive=False, verbosity=0)


@pytest.fixture(scope="module")
def signed_in(browser, site_url, board):
    """The cookies of pia, signed in: each test's pages open with them."""
    context = browser.new_context(**DESKTOP)
    page = context.new_page()
    page.goto(site_url + "/accounts/login/")
    page.fill("#id_username", "pia")
    page.fill("#id_password", "pw-pia-2026!")
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    state = context.storage_state()
    context.close()
    return state


@pytest.fixture
def open_page(browser, signed_in):
    """open_page(size) -> a page of a new browser context of that size (PHONE or DESKTOP), signed in as pia."""
    contexts = []

    def open_one(size, **options):
        context = browser.new_context(storage_state=signed_in, **size, **options)
        contexts.append(context)
        return context.new_page()

    yield open_one
    for context in contexts:
        context.close()


def too_small(locator):
    """What of these elements, visible, is less than a tap target high: their texts and heights."""
    return locator.evaluate_all(
        f"""elements => elements.filter(e => e.getClientRects().length)
            .map(e => [e.textContent.trim().slice(0, 30) || e.outerHTML.slice(0, 60), e.getBoundingClientRect().height])
            .filter(([, height]) => height < {TAP} - 0.5)""")


# What of a chart plotly's mode bar (its zoom and download buttons) lies over: titles, buttons.
UNDER_THE_MODE_BAR = """charts => charts.flatMap(chart => {
    const bar = chart.querySelector('.modebar').getBoundingClientRect();
    return [...chart.querySelectorAll('.gtitle, .updatemenu-button')].filter(e => {
        const box = e.getBoundingClientRect();
        return box.left < bar.right && bar.left < box.right && box.top < bar.bottom && bar.top < box.bottom;
    }).map(e => chart.dataset.chart + ': ' + e.textContent);
})"""
# Chart titles that run past their chart's right edge (plotly does not wrap them).
CUT_TITLES = """titles => titles.filter(t => t.getBoundingClientRect().right > t.closest('[data-chart]')
    .getBoundingClientRect().right).map(t => t.textContent)"""


@pytest.mark.parametrize("name", PAGES)
def test_every_page_fits_a_phone_and_its_charts_titles_are_clear(name, site_url, board, open_page, artifacts_dir):
    url = site_url + PAGES[name].format(**board)
    for size, width in ((PHONE, 390), (DESKTOP, 1280)):
        page = open_page(size)
        page.goto(url)
        page.wait_for_function(  # plotly draws after the page loads
            "[...document.querySelectorAll('[data-chart]')].every(chart => chart.querySelector('.main-svg'))")
        assert page.evaluate("document.documentElement.scrollWidth") <= width, f"{name} scrolls sideways at {width} px"
        assert page.locator("[data-chart]").evaluate_all(UNDER_THE_MODE_BAR) == [], f"at {width} px"
        assert page.locator("[data-chart] .gtitle").evaluate_all(CUT_TITLES) == [], f"at {width} px"
        cut = page.locator("table.data:not(:has(thead))").evaluate_all(  # lists of names and meanings
            "tables => tables.filter(t => t.scrollWidth > t.clientWidth).map(t => t.textContent.slice(0, 40))")
        assert cut == [], f"at {width} px"
        page.screenshot(path=str(artifacts_dir / f"phone-{name}-{width}.png"), full_page=True)
    page.set_viewport_size({"width": 800, "height": 900})  # a tablet's: between the phone's layout and the laptop's
    assert page.evaluate("document.documentElement.scrollWidth") <= 800, f"{name} scrolls sideways at 800 px"


def test_the_header_is_a_menu_of_tap_targets_on_a_phone_and_a_row_of_links_on_a_laptop(site_url, board, open_page):
    page = open_page(PHONE)
    page.goto(site_url + "/")
    links = page.locator(".topbar nav a")
    assert not links.first.is_visible()  # folded: the page starts right under the header
    header = page.locator(".topbar").bounding_box()
    assert header["height"] < 70, header
    for name in ("pia", "Sign out"):  # the account's links stay on screen
        box = page.locator(".topbar .user").get_by_text(name).bounding_box()
        assert box and 0 <= box["x"] and box["x"] + box["width"] <= 390 and box["height"] >= TAP, (name, box)

    menu = page.locator(".menu > summary")
    assert menu.bounding_box()["height"] >= TAP
    menu.tap()
    assert links.count() == 6
    for link in links.all():
        box = link.bounding_box()
        assert link.is_visible() and box["x"] >= 0 and box["x"] + box["width"] <= 390, (link.inner_text(), box)
        assert box["y"] + box["height"] <= 844 and box["height"] >= TAP, (link.inner_text(), box)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    links.get_by_text("Evaluate your agent").tap()
    page.wait_for_url("**/evaluate/")

    page = open_page(PHONE, java_script_enabled=False)  # without JavaScript the menu stays open: every link works
    page.goto(site_url + "/")
    assert page.locator(".topbar nav a", has_text="Docs").is_visible()

    page = open_page(DESKTOP)
    page.goto(site_url + "/")
    assert not page.locator(".menu > summary").is_visible()
    assert all(link.is_visible() for link in page.locator(".topbar nav a").all())
    assert len({round(box["y"]) for box in (link.bounding_box() for link in page.locator(".topbar nav a").all())}) == 1


def test_a_games_tasks_are_cards_with_their_play_button_in_view(site_url, board, open_page):
    page = open_page(PHONE)
    page.goto(site_url + "/games/runner/")
    cards = page.locator(".task-table tbody tr")
    assert cards.count() == 5
    assert page.locator(".task-table").evaluate("t => t.scrollWidth <= t.clientWidth"), "the tasks scroll sideways"
    for card in cards.all():
        play = card.get_by_role("link", name="Play")
        play.scroll_into_view_if_needed()
        box = play.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390 and box["height"] >= TAP, box
    cards.filter(has_text="Get past 17 obstacles").get_by_role("link", name="Play").tap()
    page.wait_for_url("**/play/runner/clear-17/")


def test_on_a_phone_the_board_shows_its_table_first_and_every_control_is_a_tap_target(site_url, board, open_page):
    page = open_page(PHONE)
    page.goto(site_url + "/")
    table = page.locator("#leaderboard").bounding_box()
    assert table["y"] < 844 / 2, f"the table starts {table['y']} px down"
    pills = page.locator(".lb-switches .pill")
    assert not pills.first.is_visible()  # the filters are folded
    page.locator(".lb-filters > summary").tap()
    assert pills.first.is_visible() and pills.count() >= 18
    controls = page.locator(
        ".topbar a, .topbar summary, .topbar button, .lb-taskset select, .lb-filters summary, .lb-search input, "
        ".lb-search button, .pill, #leaderboard thead a, #leaderboard td.agent a.name, .game-chip, .more a")
    assert controls.count() > 60
    assert too_small(controls) == []
    # The agent's name stays in view while the table scrolls sideways to the overall figures.
    page.locator(".lb-scroll").evaluate("box => { box.scrollLeft = box.scrollWidth; }")
    name = page.locator("#leaderboard td.agent a.name").first.bounding_box()
    assert 0 <= name["x"] < 390 / 2, name


def test_on_a_phone_the_frame_the_keys_and_the_status_share_the_first_screen(site_url, board, open_page,
                                                                           artifacts_dir):
    page = open_page(PHONE)
    page.goto(site_url + "/play/shop/earn-15/")
    page.get_by_role("button", name="Practise (not recorded)").tap()
    page.wait_for_url("**/play/sessions/*/")
    page.locator("#actions-left").filter(has_text="100").wait_for()

    assert page.evaluate("document.documentElement.scrollWidth") <= 390, "the page is wider than the phone"
    frame, pad, status = (page.locator(selector).bounding_box() for selector in ("#frame", "#pad", "#status-strip"))
    for name, box in (("frame", frame), ("keys", pad), ("status", status)):
        assert box["y"] + box["height"] <= 844, f"the {name} is below the first screen: {box}"
    assert status["y"] + status["height"] <= frame["y"] and frame["y"] + frame["height"] <= pad["y"]  # in this order
    assert page.locator("#attempt").inner_text() == "1" and page.locator("#step").inner_text() == "0"
    arrows = page.locator(".arrows button")  # the four arrows in one row: no empty slot of a cross
    assert arrows.all_inner_texts() == ["◀", "▲", "▼", "▶"]
    assert len({round(box["y"]) for box in (arrow.bounding_box() for arrow in arrows.all())}) == 1
    assert page.locator(".pad-keys button").inner_text() == "Space"
    assert too_small(page.locator(".pad button, .how-to-play summary")) == []
    instruction = page.locator(".how-to-play .instruction")
    assert not instruction.is_visible()  # folded under "How to play"

    page.locator('.arrows button[data-key="ArrowDown"]').tap()  # a tap on an arrow is one action
    page.wait_for_function("document.getElementById('actions-left').textContent === '99'")
    assert page.locator("#step").inner_text() == "1"
    page.locator('.pad-keys button[data-key="Space"]').tap()
    page.wait_for_function("document.getElementById('actions-left').textContent === '98'")
    page.screenshot(path=str(artifacts_dir / "phone-play-390.png"))
    page.locator(".how-to-play > summary").tap()
    assert "Earn $15" in instruction.inner_text()
    page.screenshot(path=str(artifacts_dir / "phone-play-how-to-play-390.png"), full_page=True)

    # Practising again resumes this session instead of opening another; on a laptop the instruction is open.
    session_url = page.url
    page = open_page(DESKTOP)
    page.goto(site_url + "/play/shop/earn-15/")
    page.get_by_role("button", name="Practise (not recorded)").click()
    page.wait_for_url(session_url)
    page.locator("#actions-left").filter(has_text="98").wait_for()
    assert page.locator(".how-to-play .instruction").is_visible()
    status, frame = page.locator("#status-strip").bounding_box(), page.locator("#frame").bounding_box()
    assert status["y"] + status["height"] <= frame["y"] and status["width"] <= frame["width"] + 1
    page.screenshot(path=str(artifacts_dir / "phone-play-1280.png"))
