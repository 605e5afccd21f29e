"""In a real browser, at a desktop's width and a phone's: a recorded attempt that would be a novice run asks to be
confirmed before it starts (open play and a campaign); a campaign's consent is the first thing on the assignment
page, with a large box; a volunteer withdraws it from the account page, choosing what happens to their past runs,
and can agree again on the campaign page. Screenshots of each page land in test-artifacts/ (issue30-*.png)."""
from datetime import date, timedelta

import pytest

from humanplay import services
from humanplay.models import Campaign, PlaySession
from tests.leaderboard.factories import mini_task_set, player

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

WIDTHS = {"1280": {"width": 1280, "height": 900}, "390": {"width": 390, "height": 844}}


def sign_in(browser, site_url, name, next_url):
    context = browser.new_context(viewport=WIDTHS["1280"])
    page = context.new_page()
    page.goto(f"{site_url}/accounts/login/?next={next_url}")
    page.fill("#id_username", name)
    page.fill("#id_password", f"pw-{name}-2026!")
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"**{next_url}")
    return context, page


def shoot(page, artifacts_dir, name):
    """Full-page screenshots at both widths; the page must never be wider than the phone's screen."""
    for width, viewport in WIDTHS.items():
        page.set_viewport_size(viewport)
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"], f"{name} at {width} px"
        page.screenshot(path=str(artifacts_dir / f"issue30-{name}-{width}.png"), full_page=True)
    page.set_viewport_size(WIDTHS["1280"])


def test_a_novice_run_is_confirmed_and_consent_is_given_and_withdrawn(site_url, browser, artifacts_dir):
    task_set = mini_task_set(["breakout/rally-5@2", "runner/clear-6@1"])
    campaign = Campaign.objects.create(
        slug="spring", title="Spring baselines", task_set=task_set, novice_runs_per_task=1, expert_runs_per_task=0,
        consent_text="Your key presses are recorded and published under a pseudonym.",
        starts_on=date.today(), ends_on=date.today() + timedelta(days=7))
    # Gil has given one run already (through the services: this test is about the pages around it).
    gil = player("gil")
    services.join_campaign(campaign=campaign, user=gil)
    done = services.start_assignment(assignment=services.assign_next(campaign=campaign, user=gil), user=gil,
                                     consent=True, novice_confirmed=True)
    services.finish_session(session_id=done.pk, progress=0.4, success=False)
    player("hal")

    hal_context, hal = sign_in(browser, site_url, "hal", "/play/runner/clear-6/")
    gil_context, gil_page = sign_in(browser, site_url, "gil", "/account/")
    try:
        # Open play: the rule under the buttons, and a confirmation step before a novice run starts.
        assert "made before any practice of it" in hal.locator(".novice-rule").inner_text()
        shoot(hal, artifacts_dir, "task")
        hal.get_by_role("button", name="Play a recorded attempt").click()
        hal.wait_for_url("**/play/runner/clear-6/?confirm=novice*")
        confirm = hal.locator("#confirm-novice")
        assert "You cannot practise this game first and stay a novice." in confirm.inner_text()
        shoot(hal, artifacts_dir, "confirm-novice")
        hal.get_by_role("link", name="Not now").click()
        hal.wait_for_url("**/play/runner/clear-6/")
        assert not PlaySession.objects.filter(user__username="hal").exists()  # nothing started

        # A campaign: the consent comes first, with a large box; then the same confirmation.
        hal.goto(site_url + "/campaigns/spring/")
        hal.get_by_role("button", name="Join this campaign").click()
        hal.locator("#play-next").click()
        hal.wait_for_url("**/campaigns/spring/assignments/*/")
        panel, head = hal.locator("#consent-panel").bounding_box(), hal.locator(".game-head").bounding_box()
        assert panel["y"] < head["y"]
        box = hal.locator("#consent").bounding_box()
        assert box["width"] >= 24 and box["height"] >= 24, box
        shoot(hal, artifacts_dir, "assignment")
        assignment_url = hal.url
        hal.locator("#start-recorded").click()  # not ticked: the browser holds the form back
        assert hal.url == assignment_url
        hal.locator("label.consent-check").click()
        hal.locator("#start-recorded").click()
        hal.wait_for_url("**?confirm=novice*")
        assert "You cannot practise this game first and stay a novice." in hal.locator("#confirm-novice").inner_text()
        shoot(hal, artifacts_dir, "assignment-confirm")
        hal.get_by_role("button", name="Yes, start my novice run").click()
        hal.wait_for_url("**/play/sessions/*/")
        assert PlaySession.objects.get(user__username="hal").baseline_kind == "novice"

        # Gil's campaign attempt: its result offers the next task, not a replay that would not count.
        # (In a tab of its own: the page reloads itself every 2 s while the run awaits verification, and a reload
        # that starts while the next page loads would abort that load.)
        result = gil_context.new_page()
        result.goto(site_url + done.get_absolute_url())
        assert result.locator("#play-next").is_visible() and result.locator("#play-again").count() == 0
        shoot(result, artifacts_dir, "result")
        result.close()

        # Gil withdraws from the account page, taking his run out of the campaign's exports and figures.
        gil_page.goto(site_url + "/account/")
        card = gil_page.locator("#consent-spring")
        assert "Consent given" in card.inner_text()
        shoot(gil_page, artifacts_dir, "consent")
        card.get_by_label("leave its exports and figures").check()
        card.get_by_role("button", name="Withdraw my consent").click()
        gil_page.locator(".messages", has_text="You withdrew your consent to Spring baselines").wait_for()
        assert "Your 1 run left its exports and figures" in gil_page.locator(".messages").inner_text()
        card_text = gil_page.locator("#consent-spring").inner_text()
        assert "Consent withdrawn" in card_text and "0 runs of yours in its exports and figures, 1 taken out" in card_text
        shoot(gil_page, artifacts_dir, "consent-withdrawn")
        assert gil_page.request.get(site_url + "/campaigns/spring/runs.json").json()["runs"] == []

        # On the campaign page he can agree again, and then play on.
        gil_page.goto(site_url + "/campaigns/spring/")
        assert gil_page.locator("#play-next").count() == 0
        shoot(gil_page, artifacts_dir, "campaign-consent-again")
        gil_page.locator("#volunteer label.consent-check").click()
        gil_page.locator("#consent-again").click()
        gil_page.locator(".messages", has_text="You agreed to the consent text again").wait_for()
        assert gil_page.locator("#play-next").is_visible()
    finally:
        hal_context.close()
        gil_context.close()
