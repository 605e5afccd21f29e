"""Campaigns: who gets which task (the assignment rule on a fixture, ties included), the novice rule shared with
open play, holds and their release, consent before the first recorded attempt and its withdrawal, coverage, the
exports, and admin input errors."""
import csv
import io
import json
import re
from datetime import date, timedelta

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from humanplay import selectors, services
from humanplay.models import Assignment, Campaign, ExpertDesignation, HumanPlaySettings, PlaySession
from submissions.models import Run
from tests.leaderboard.factories import mini_task_set, player

pytestmark = pytest.mark.django_db

# Level 1 arcade (two tasks of one game), level 2 runner, level 3 platformer.
TASKS = ["breakout/rally-5@2", "breakout/rally-10@1", "runner/clear-6@1", "platformer/seven-coins@3"]


@pytest.fixture
def campaign():
    return make_campaign(mini_task_set(TASKS))


def make_campaign(task_set, **fields):
    values = dict(slug="spring", title="Spring baselines", task_set=task_set, novice_runs_per_task=2,
                  expert_runs_per_task=1, consent_text="Your actions are recorded and published under a pseudonym.",
                  starts_on=date.today() - timedelta(days=1), ends_on=date.today() + timedelta(days=30),
                  hold_minutes=20)
    values.update(fields)
    return Campaign.objects.create(**values)


def volunteer(campaign, name):
    user = player(name)
    services.join_campaign(campaign=campaign, user=user, code=campaign.signup_code)
    return user


def next_for(campaign, user, now=None):
    found = services.assign_next(campaign=campaign, user=user, now=now)
    return None if found is None else (found.task.task_id, found.kind, found.slot)


def play(assignment, user, progress=0.5):
    session = services.start_assignment(assignment=assignment, user=user, consent=True, novice_confirmed=True)
    return services.finish_session(session_id=session.pk, progress=progress, success=progress >= 1)


def test_the_rule_on_a_fixture_who_gets_which_task_with_ties(campaign):
    alice, bob, carol = (volunteer(campaign, n) for n in ("alice", "bob", "carol"))
    # All four tasks need 2 novice runs (a tie at 100 % missing): the lower level first, then the game's and the
    # task's slug ("rally-10" sorts before "rally-5").
    assert next_for(campaign, alice) == ("breakout/rally-10@1", "novice", 0)
    # A held slot counts as taken: rally-10 now misses 50 %, rally-5 100 %.
    assert next_for(campaign, bob) == ("breakout/rally-5@2", "novice", 0)
    # Both breakout tasks at 50 %: runner (level 2) misses 100 %.
    assert next_for(campaign, carol) == ("runner/clear-6@1", "novice", 0)
    # Asking again while holding a task gives the same one.
    assert next_for(campaign, alice) == ("breakout/rally-10@1", "novice", 0)

    play(selectors.held_assignment(campaign=campaign, user=alice), alice)
    # Alice has played breakout now: no more novice breakout for her. platformer (100 % missing) is next.
    assert next_for(campaign, alice) == ("platformer/seven-coins@3", "novice", 0)
    dave = volunteer(campaign, "dave")
    # Every task at 50 %: level 1 again, and rally-10's second slot.
    assert next_for(campaign, dave) == ("breakout/rally-10@1", "novice", 1)


def test_experts_get_expert_runs_first_and_never_the_same_task_twice_for_a_kind(campaign):
    erin = volunteer(campaign, "erin")
    ExpertDesignation.objects.create(user=erin, genre="arcade", since=date.today())
    # Expert runs of breakout (100 % missing of 1) before her novice runs elsewhere (also 100 %): experts are scarcer.
    first = services.assign_next(campaign=campaign, user=erin)
    assert (first.task.task_id, first.kind) == ("breakout/rally-10@1", "expert")
    play(first, erin)
    assert first.__class__.objects.get(pk=first.pk).status == Assignment.Status.DONE
    second = services.assign_next(campaign=campaign, user=erin)
    assert (second.task.task_id, second.kind) == ("breakout/rally-5@2", "expert")
    play(second, erin)
    # Both expert slots filled (1 per task): she goes on with novice runs of games she has not played.
    assert next_for(campaign, erin) == ("runner/clear-6@1", "novice", 0)


def test_practice_past_the_threshold_makes_an_expert_and_practice_alone_ends_novice_status(campaign):
    HumanPlaySettings.objects.filter(pk=HumanPlaySettings.current().pk).update(practice_sessions_for_expert=2)
    frank = volunteer(campaign, "frank")
    runner = selectors.campaign_tasks(campaign)[2]
    practice = services.start_session(user=frank, task=runner, mode=PlaySession.Mode.PRACTICE)
    services.finish_session(session_id=practice.pk, progress=0.1, success=False)
    kinds = selectors.baseline_kinds(user=frank, games=[runner.game])
    assert kinds == {}  # played (practised once): not a novice, not yet an expert
    practice = services.start_session(user=frank, task=runner, mode=PlaySession.Mode.PRACTICE)
    services.finish_session(session_id=practice.pk, progress=0.1, success=False)
    assert selectors.baseline_kinds(user=frank, games=[runner.game]) == {runner.game.pk: "expert"}
    assert next_for(campaign, frank) == ("runner/clear-6@1", "expert", 0)


def test_an_expert_is_offered_practice_and_a_novice_is_not(campaign):
    gina = volunteer(campaign, "gina")
    ExpertDesignation.objects.create(user=gina, genre="arcade", since=date.today())
    expert = services.assign_next(campaign=campaign, user=gina)
    practice = services.practise_assignment(assignment=expert, user=gina)
    assert practice.mode == PlaySession.Mode.PRACTICE and practice.task == expert.task
    assert selectors.assignment_of(practice) == expert
    hugo = volunteer(campaign, "hugo")
    novice = services.assign_next(campaign=campaign, user=hugo)
    with pytest.raises(services.CampaignError, match="first contact"):
        services.practise_assignment(assignment=novice, user=hugo)


def test_consent_is_agreed_once_before_the_first_recorded_attempt(campaign):
    ivy = volunteer(campaign, "ivy")
    assignment = services.assign_next(campaign=campaign, user=ivy)
    with pytest.raises(services.CampaignError, match="consent"):
        services.start_assignment(assignment=assignment, user=ivy)
    assert not PlaySession.objects.filter(user=ivy).exists()  # nothing started
    session = services.start_assignment(assignment=assignment, user=ivy, consent=True, novice_confirmed=True)
    assert session.mode == PlaySession.Mode.BASELINE and session.baseline_kind == "novice"
    assert services.start_assignment(assignment=assignment, user=ivy) == session  # resumes; consent kept
    services.finish_session(session_id=session.pk, progress=1.0, success=True)
    following = services.assign_next(campaign=campaign, user=ivy)
    assert services.start_assignment(assignment=following, user=ivy,
                                     novice_confirmed=True).task == following.task  # no consent again


def test_an_abandoned_assignment_is_released_after_its_time_and_one_in_play_is_kept(campaign):
    jack, kate, liam = (volunteer(campaign, n) for n in ("jack", "kate", "liam"))
    start = timezone.now()
    abandoned = services.assign_next(campaign=campaign, user=jack, now=start)
    playing = services.assign_next(campaign=campaign, user=kate, now=start)
    session = services.start_assignment(assignment=playing, user=kate, consent=True, novice_confirmed=True, now=start)
    # Kate keeps playing; Jack never started.
    later = start + timedelta(minutes=campaign.hold_minutes + 1)
    PlaySession.objects.filter(pk=session.pk).update(last_action_at=later - timedelta(minutes=2))
    assert services.release_abandoned_assignments(campaign=campaign, now=start + timedelta(minutes=19)) == 0
    assert services.release_abandoned_assignments(campaign=campaign, now=later) == 1
    abandoned.refresh_from_db()
    playing.refresh_from_db()
    assert abandoned.status == Assignment.Status.RELEASED and "abandoned" in abandoned.release_reason
    assert playing.status == Assignment.Status.HELD and playing.held_until > later
    # The released slot goes to the next volunteer.
    assert next_for(campaign, liam, now=later) == (abandoned.task.task_id, "novice", abandoned.slot)
    # Kate stops playing: her assignment and her open recorded attempt are released together.
    much_later = playing.held_until + timedelta(minutes=1)
    assert services.release_abandoned_assignments(campaign=campaign, now=much_later) == 1
    session.refresh_from_db()
    assert session.status == PlaySession.Status.EXPIRED
    with pytest.raises(services.CampaignError, match="released"):
        services.start_assignment(assignment=Assignment.objects.get(pk=playing.pk), user=kate)


def test_a_volunteer_can_give_a_task_back(campaign):
    mia = volunteer(campaign, "mia")
    first = services.assign_next(campaign=campaign, user=mia)
    assert services.release_assignment(assignment=first, user=mia)
    # Given back before playing: she may get it again (it still needs a run she can give).
    assert next_for(campaign, mia) == (first.task.task_id, "novice", first.slot)


def test_when_every_slot_is_taken_there_is_no_next_task(campaign):
    Campaign.objects.filter(pk=campaign.pk).update(novice_runs_per_task=1, expert_runs_per_task=0)
    campaign.refresh_from_db()
    users = [volunteer(campaign, f"v{i}") for i in range(5)]
    got = [next_for(campaign, u) for u in users]
    assert sorted(g[0] for g in got[:4]) == sorted(TASKS) and got[4] is None


def test_joining_needs_the_code_and_an_open_campaign(campaign):
    Campaign.objects.filter(pk=campaign.pk).update(signup_code="LAB-7")
    campaign.refresh_from_db()
    nora = player("nora")
    with pytest.raises(services.CampaignError, match="sign-up code"):
        services.join_campaign(campaign=campaign, user=nora, code="lab")
    with pytest.raises(services.CampaignError, match="Join the campaign first"):
        services.assign_next(campaign=campaign, user=nora)
    services.join_campaign(campaign=campaign, user=nora, code=" LAB-7 ")
    Campaign.objects.filter(pk=campaign.pk).update(ends_on=date.today() - timedelta(days=1))
    campaign.refresh_from_db()
    with pytest.raises(services.CampaignError, match="has ended"):
        services.assign_next(campaign=campaign, user=nora)


def test_coverage_moves_with_holds_and_runs(campaign):
    oli, pia = volunteer(campaign, "oli"), volunteer(campaign, "pia")
    before = selectors.coverage(campaign)
    assert before["runs_missing"] == 4 * 3 and before["runs_done"] == 0 and before["members"] == 2
    held = services.assign_next(campaign=campaign, user=oli)
    services.assign_next(campaign=campaign, user=pia)
    assert selectors.coverage(campaign)["in_play"] == 2
    play(held, oli)
    after = selectors.coverage(campaign)
    assert after["runs_done"] == 1 and after["runs_missing"] == 11 and after["players"] == 1
    row = next(r for r in after["rows"] if r["task"] == held.task)
    assert row["cells"]["novice"] == {"kind": "novice", "needed": 2, "done": 1, "held": 0, "missing": 1,
                                      "share": "0.50", "percent": 50}
    arcade = next(g for g in after["genres"] if g["name"] == "Arcade")
    assert (arcade["tasks"], arcade["cells"]["novice"]["done"], arcade["cells"]["novice"]["held"]) == (2, 1, 1)


def test_exports_show_pseudonyms_unless_a_player_opts_in(campaign, client):
    quinn, rosa = volunteer(campaign, "quinn"), volunteer(campaign, "rosa")
    for user in (quinn, rosa):
        session = play(services.assign_next(campaign=campaign, user=user), user, progress=0.8)
        Run.objects.filter(pk=session.run_id).update(status=Run.Status.VERIFIED, progress=0.8, success=False,
                                                     attempts=2, actions_used=100, verified_at=timezone.now())
    services.set_show_name(campaign=campaign, user=rosa, show=True)
    data = json.loads(client.get(f"/campaigns/{campaign.slug}/runs.json").content)
    players = {row["player"] for row in data["runs"]}
    assert "rosa" in players and "quinn" not in players
    pseudonym = (players - {"rosa"}).pop()
    assert pseudonym.startswith("volunteer-")
    response = client.get(f"/campaigns/{campaign.slug}/runs.csv")
    assert response["Content-Disposition"] == 'attachment; filename="campaign-spring-runs.csv"'
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert {r["player"] for r in rows} == {pseudonym, "rosa"}
    assert rows[0].keys() >= {"task", "kind", "player", "progress", "success", "actions", "attempts", "date"}
    assert {(r["kind"], r["progress"], r["actions"], r["attempts"]) for r in rows} == {("novice", "0.8", "100", "2")}
    assert client.get(f"/campaigns/{campaign.slug}/runs.xml").status_code == 404


def test_pseudonyms_cannot_be_computed_from_user_ids_with_the_sites_key(campaign, settings):
    """They are keyed by a random salt of the campaign's, not by the (once fixed, public) Django secret key."""
    import hashlib
    import hmac

    from humanplay.models import CampaignMember

    quinn = volunteer(campaign, "quinn")
    other = make_campaign(campaign.task_set, slug="autumn")
    services.join_campaign(campaign=other, user=quinn, code="")
    spring, autumn = (CampaignMember.objects.get(campaign=c, user=quinn).pseudonym for c in (campaign, other))
    assert spring != autumn and spring.startswith("volunteer-")
    for key in (settings.SECRET_KEY, "embedded-default-not-secret"):
        for campaign_id in (campaign.pk, other.pk):
            guess = hmac.new(key.encode(), f"campaign:{campaign_id}:user:{quinn.pk}".encode(), hashlib.sha256)
            assert f"volunteer-{guess.hexdigest()[:6]}" not in (spring, autumn)
    assert len(campaign.pseudonym_salt) == 64 and campaign.pseudonym_salt != other.pseudonym_salt
    assert campaign.pseudonym_salt not in client_view(campaign)


def client_view(campaign):
    from django.test import Client

    return Client().get(f"/campaigns/{campaign.slug}/").content.decode() + Client().get(
        f"/campaigns/{campaign.slug}/runs.json").content.decode()


def test_a_named_volunteer_cannot_put_a_formula_in_the_csv_export(campaign, client):
    sly = volunteer(campaign, "-2+3")
    session = play(services.assign_next(campaign=campaign, user=sly), sly, progress=0.8)
    Run.objects.filter(pk=session.run_id).update(status=Run.Status.VERIFIED, progress=0.8, verified_at=timezone.now())
    services.set_show_name(campaign=campaign, user=sly, show=True)
    rows = list(csv.DictReader(io.StringIO(client.get(f"/campaigns/{campaign.slug}/runs.csv").content.decode())))
    assert [r["player"] for r in rows] == ["'-2+3"]  # shown as text, never evaluated
    data = json.loads(client.get(f"/campaigns/{campaign.slug}/runs.json").content)
    assert [r["player"] for r in data["runs"]] == ["-2+3"]


def test_bad_admin_input_names_the_field(campaign):
    bad = Campaign(slug="bad", title="Bad", task_set=campaign.task_set, novice_runs_per_task=0, expert_runs_per_task=0,
                   consent_text="  ", starts_on=date.today(), ends_on=date.today() - timedelta(days=1), hold_minutes=0)
    with pytest.raises(ValidationError) as raised:
        bad.full_clean()
    assert {"ends_on", "novice_runs_per_task", "consent_text", "hold_minutes"} <= set(raised.value.message_dict)


def test_the_admin_form_refuses_bad_dates_with_a_message_and_stores_nothing(admin_client, campaign):
    response = admin_client.post("/admin/humanplay/campaign/add/", {
        "title": "Summer", "slug": "summer", "task_set": campaign.task_set.pk, "novice_runs_per_task": 2,
        "expert_runs_per_task": 1, "hold_minutes": 30, "consent_text": "ok", "starts_on": "2026-07-10",
        "ends_on": "2026-07-01", "members-TOTAL_FORMS": 0, "members-INITIAL_FORMS": 0})
    assert response.status_code == 200
    assert "The campaign must end on or after the day it starts." in response.content.decode()
    assert not Campaign.objects.filter(slug="summer").exists()
    listing = admin_client.get("/admin/humanplay/campaign/").content.decode()
    assert "Spring baselines" in listing and "2 novice · 1 expert" in listing


def test_the_pages_render(campaign, client):
    sam = volunteer(campaign, "sam")
    page = client.get(f"/campaigns/{campaign.slug}/").content.decode()
    assert "runs still needed" in page and 'data-chart="fig-coverage"' in page
    client.force_login(sam)
    response = client.post(f"/campaigns/{campaign.slug}/next/")
    assignment = Assignment.objects.get(user=sam)
    assert response.url == assignment.get_absolute_url()
    page = client.get(assignment.get_absolute_url()).content.decode()
    assert campaign.consent_text in page and "no practice before it" in page
    assert f"Kept for you until {assignment.held_until:%H:%M} UTC" in page  # a time says its zone
    # The consent comes first on the page, before the task, with its box tied to the start form.
    assert page.index('id="consent-panel"') < page.index('class="game-head"')
    assert 'id="consent" form="start-form" required' in page
    start = f"/campaigns/{campaign.slug}/assignments/{assignment.pk}/start/"
    response = client.post(start)
    assert response.url == assignment.get_absolute_url()  # no consent ticked: back, nothing started
    # A novice run is confirmed on the page before it starts.
    response = client.post(start, {"consent": "1"})
    assert response.url == assignment.get_absolute_url() + "?confirm=novice#confirm-novice"
    assert not PlaySession.objects.filter(user=sam).exists()
    confirm = client.get(response.url).content.decode()
    assert 'id="confirm-novice"' in confirm and "You cannot practise this game first and stay a novice" in confirm
    assert 'id="consent-panel"' not in confirm and 'id="consent-given"' not in confirm  # agreed on the first click
    response = client.post(start, {"novice_confirmed": "1"})
    assert response.url == PlaySession.objects.get(user=sam).get_absolute_url()
    assert client.get("/campaigns/").status_code == 200


def test_a_recorded_attempt_opened_before_the_assignment_is_resumed_and_keeps_the_hold(campaign):
    tom = volunteer(campaign, "tom")
    ExpertDesignation.objects.create(user=tom, genre="arcade", since=date.today())
    start = timezone.now()
    early = services.start_session(user=tom, task=selectors.campaign_tasks(campaign)[0], mode=PlaySession.Mode.BASELINE)
    assignment = services.assign_next(campaign=campaign, user=tom, now=start)
    assert assignment.task == early.task  # breakout/rally-10: expert, no run yet
    assert services.start_assignment(assignment=assignment, user=tom, consent=True, now=start) == early
    later = start + timedelta(minutes=campaign.hold_minutes + 5)
    PlaySession.objects.filter(pk=early.pk).update(last_action_at=later - timedelta(minutes=1))
    assert services.release_abandoned_assignments(campaign=campaign, now=later) == 0
    assert Assignment.objects.get(pk=assignment.pk).status == Assignment.Status.HELD


def test_the_novice_rule_in_a_campaign_is_the_open_play_one(campaign):
    una = volunteer(campaign, "una")
    # A first recorded attempt at a game, given by the campaign: novice.
    first = services.assign_next(campaign=campaign, user=una)
    assert (first.task.task_id, first.kind) == ("breakout/rally-10@1", "novice")
    assert play(first, una).run.kind == "novice"
    # A second one is not: the campaign gives her no novice task of the game, and open play counts it as neither.
    assert next_for(campaign, una) == ("runner/clear-6@1", "novice", 0)
    rally_5 = selectors.campaign_tasks(campaign)[1]
    assert services.start_session(user=una, task=rally_5, mode=PlaySession.Mode.BASELINE).baseline_kind == ""
    # Practice first, in open play: the novice task she holds goes back, and no novice task of that game comes.
    vic = volunteer(campaign, "vic")
    held = services.assign_next(campaign=campaign, user=vic)
    assert held.task == rally_5 and held.kind == "novice"
    services.start_session(user=vic, task=rally_5, mode=PlaySession.Mode.PRACTICE)
    with pytest.raises(services.CampaignError, match="no longer give a novice run"):
        services.start_assignment(assignment=held, user=vic, consent=True, novice_confirmed=True)
    assert next_for(campaign, vic) == ("platformer/seven-coins@3", "novice", 0)
    # A recorded attempt first, in open play: the same.
    wes = volunteer(campaign, "wes")
    services.start_session(user=wes, task=rally_5, mode=PlaySession.Mode.BASELINE)
    assert next_for(campaign, wes)[0] not in ("breakout/rally-5@2", "breakout/rally-10@1")


def test_a_campaign_attempt_s_result_offers_the_next_task_not_a_replay(campaign, client):
    xia = volunteer(campaign, "xia")
    session = play(services.assign_next(campaign=campaign, user=xia), xia)
    client.force_login(xia)
    page = client.get(session.get_absolute_url()).content.decode()
    assert 'id="play-next"' in page and 'id="play-again"' not in page
    open_play = services.start_session(user=xia, task=session.task, mode=PlaySession.Mode.BASELINE)
    services.finish_session(session_id=open_play.pk, progress=0.5, success=False)
    page = client.get(open_play.get_absolute_url()).content.decode()
    assert 'id="play-again"' in page and 'id="play-next"' not in page


# Consent withdrawn: no more tasks; past runs out of the exports and figures, or not, as the volunteer chooses.

def verified_run(campaign, user):
    """A run of the volunteer's next task, verified as the worker leaves it; its id."""
    session = play(services.assign_next(campaign=campaign, user=user), user, progress=0.8)
    Run.objects.filter(pk=session.run_id).update(status=Run.Status.VERIFIED, progress=0.8, success=False,
                                                 attempts=1, actions_used=100, verified_at=timezone.now())
    return session.run_id


def exported_runs(client, campaign):
    rows = csv.DictReader(io.StringIO(client.get(f"/campaigns/{campaign.slug}/runs.csv").content.decode()))
    return {int(row["run_id"]) for row in rows}


def test_withdrawing_consent_stops_assignments_and_releases_the_held_one(campaign):
    yan = volunteer(campaign, "yan")
    held = services.assign_next(campaign=campaign, user=yan)
    session = services.start_assignment(assignment=held, user=yan, consent=True, novice_confirmed=True)
    assert services.withdraw_consent(campaign=campaign, user=yan, remove_runs=False) == (True, 0, 0)
    held.refresh_from_db()
    session.refresh_from_db()
    assert held.status == Assignment.Status.RELEASED and held.release_reason == "consent withdrawn"
    assert session.status == PlaySession.Status.EXPIRED  # the open recorded attempt ends with it
    with pytest.raises(services.CampaignError, match="withdrew your consent"):
        services.assign_next(campaign=campaign, user=yan)
    assert selectors.coverage(campaign)["in_play"] == 0
    zoe = volunteer(campaign, "zoe")
    assert next_for(campaign, zoe) == (held.task.task_id, "novice", held.slot)  # the slot went back


def test_with_remove_my_runs_the_export_and_coverage_leave_them_out_and_the_runs_stay(campaign, client):
    ada, bo = volunteer(campaign, "ada"), volunteer(campaign, "bo")
    ada_run, bo_run = verified_run(campaign, ada), verified_run(campaign, bo)
    assert exported_runs(client, campaign) == {ada_run, bo_run}
    assert services.withdraw_consent(campaign=campaign, user=ada, remove_runs=True) == (False, 1, 0)
    assert exported_runs(client, campaign) == {bo_run}
    assert [r["run_id"] for r in client.get(f"/campaigns/{campaign.slug}/runs.json").json()["runs"]] == [bo_run]
    coverage = selectors.coverage(campaign)
    assert (coverage["runs_done"], coverage["players"], coverage["runs_missing"]) == (1, 1, 11)
    assert [v["runs"] for v in selectors.volunteers(campaign)] == [1]  # bo only
    # Stored for the maintainers' audit, still verified and replayable.
    assert Run.objects.filter(pk=ada_run, status=Run.Status.VERIFIED).exists()
    assert Assignment.objects.get(run_id=ada_run).status == Assignment.Status.WITHDRAWN
    # Its slot is free for another volunteer.
    cy = volunteer(campaign, "cy")
    assert next_for(campaign, cy) == ("breakout/rally-10@1", "novice", 0)


def test_without_it_the_runs_stay_and_can_be_taken_out_later(campaign, client):
    dee = volunteer(campaign, "dee")
    run_id = verified_run(campaign, dee)
    assert services.withdraw_consent(campaign=campaign, user=dee, remove_runs=False) == (False, 0, 1)
    assert exported_runs(client, campaign) == {run_id}
    assert selectors.coverage(campaign)["runs_done"] == 1
    assert [v["runs"] for v in selectors.volunteers(campaign)] == [1]
    assert services.withdraw_consent(campaign=campaign, user=dee, remove_runs=True) == (False, 1, 0)
    assert exported_runs(client, campaign) == set() and selectors.volunteers(campaign) == []


def test_a_volunteer_who_consents_again_gets_tasks_again(campaign):
    eli = volunteer(campaign, "eli")
    play(services.assign_next(campaign=campaign, user=eli), eli)
    services.withdraw_consent(campaign=campaign, user=eli, remove_runs=True)
    with pytest.raises(services.CampaignError, match="withdrew your consent"):
        services.assign_next(campaign=campaign, user=eli)
    assert services.give_consent(campaign=campaign, user=eli)
    # Tasks again, by the same rules: not a novice task of breakout, which she has played; no consent asked again.
    again = services.assign_next(campaign=campaign, user=eli)
    assert (again.task.task_id, again.kind) == ("runner/clear-6@1", "novice")
    assert services.start_assignment(assignment=again, user=eli, novice_confirmed=True).task == again.task
    assert selectors.coverage(campaign)["runs_done"] == 0  # the run she took out stays out


def test_the_account_page_withdraws_consent_with_a_choice_for_past_runs(campaign, client):
    fay = volunteer(campaign, "fay")
    verified_run(campaign, fay)
    services.assign_next(campaign=campaign, user=fay)
    client.force_login(fay)
    page = client.get("/account/").content.decode()
    assert 'id="campaigns"' in page and "Consent given" in page and 'id="withdraw-spring"' in page
    assert 'name="runs" value="keep" required' in page and 'name="runs" value="remove" required' in page
    withdraw = f"/campaigns/{campaign.slug}/consent/withdraw/"
    page = client.post(withdraw, follow=True).content.decode()  # no choice made: nothing happens
    assert "Choose whether your past runs stay in the exports and figures of Spring baselines" in page
    assert services.assign_next(campaign=campaign, user=fay) is not None
    page = client.post(withdraw, {"runs": "remove"}, follow=True).content.decode()
    assert ("You withdrew your consent to Spring baselines: it gives you no more tasks, and the task you held went "
            "back. Your 1 run left its exports and figures") in page
    assert "Consent withdrawn" in page and 'id="withdraw-spring"' not in page
    # The campaign page offers to agree again, not a next task.
    page = client.get(campaign.get_absolute_url()).content.decode()
    assert 'id="consent-again"' in page and 'id="play-next"' not in page and campaign.consent_text in page
    page = client.post(f"/campaigns/{campaign.slug}/consent/", follow=True).content.decode()
    assert "Tick “I agree” under the consent text to take part again." in page
    page = client.post(f"/campaigns/{campaign.slug}/consent/", {"consent": "1"}, follow=True).content.decode()
    assert "You agreed to the consent text again" in page and 'id="play-next"' in page


def test_a_campaign_on_the_whole_default_set_is_a_light_page_with_its_tasks_in_pages(client):
    from catalogue.models import TaskSet
    from humanplay.views import TASKS_PER_PAGE
    from tests.factories import load_games

    load_games()
    core = TaskSet.objects.get(slug="core-v15")
    campaign = make_campaign(core)
    first = client.get(f"/campaigns/{campaign.slug}/")
    page = first.content.decode()
    assert len(first.content) < 40_000, len(first.content)
    rows = re.findall(r'<tr data-task="([^"]+)"', page)
    assert len(rows) == TASKS_PER_PAGE and f"of {core.tasks.count()}, by level and game" in page
    second = re.findall(r'<tr data-task="([^"]+)"', client.get(f"/campaigns/{campaign.slug}/?page=2").content.decode())
    assert len(second) == TASKS_PER_PAGE and not set(rows) & set(second)
    # The heat map has a column a game: 40 columns, not 200.
    figure = json.loads(re.search(r'<script type="application/json" id="fig-coverage">(.*?)</script>', page,
                                  re.S).group(1))
    assert len(figure["data"][0]["x"]) == core.tasks.values("game").distinct().count()
    assert "per game" in figure["layout"]["title"]["text"]


def test_a_campaign_with_rounds_asks_a_volunteer_for_the_same_task_again_as_learning_runs(campaign, client):
    Campaign.objects.filter(pk=campaign.pk).update(rounds=3)
    campaign.refresh_from_db()
    alice, bob = volunteer(campaign, "alice"), volunteer(campaign, "bob")
    first = services.assign_next(campaign=campaign, user=alice)
    assert (first.task.task_id, first.kind, first.round) == ("breakout/rally-10@1", "novice", 0)
    play(first, alice, progress=0.2)
    # Her next task is the same one again, round 1 of the same slot: a learning run, not a second novice run.
    again = services.assign_next(campaign=campaign, user=alice)
    assert (again.task_id, again.slot, again.round, again.run_kind) == (first.task_id, 0, 1, "learning")
    client.force_login(alice)
    shown = client.get(again.get_absolute_url()).content.decode()
    assert 'id="assignment-round">2 of 3<' in shown and "no practice before it" not in shown
    with pytest.raises(services.CampaignError, match="No practice between the rounds"):
        Assignment.objects.filter(pk=again.pk).update(kind="expert")
        services.practise_assignment(assignment=Assignment.objects.get(pk=again.pk), user=alice)
    Assignment.objects.filter(pk=again.pk).update(kind="novice")
    session = play(Assignment.objects.get(pk=again.pk), alice, progress=0.6)
    assert session.run.kind == "learning" and session.baseline_kind == "learning"
    third = services.assign_next(campaign=campaign, user=alice)
    assert (third.task_id, third.round) == (first.task_id, 2)
    play(third, alice, progress=1.0)
    # Three rounds done: a new task (the campaign's rule), at round 0.
    fourth = services.assign_next(campaign=campaign, user=alice)
    assert fourth.round == 0 and fourth.task_id != first.task_id
    # The later rounds fill no slot: rally-10 has one novice run of its two, and its slot 1 is free.
    assert next_for(campaign, bob) == ("breakout/rally-5@2", "novice", 0)  # 100 % missing before rally-10's 50 %
    assert selectors.taken_slots(campaign)[(first.task_id, "novice")] == {0}
    cells = {row["task"].task_id: row["cells"]["novice"]["done"] for row in selectors.coverage(campaign)["rows"]}
    assert cells["breakout/rally-10@1"] == 1
    # The learning runs never join the novice figures of the leaderboard (its human kinds are novice and expert).
    assert Run.objects.filter(player=alice, kind="novice").count() == 1
    assert Run.objects.filter(player=alice, kind="learning").count() == 2
    rows = selectors.export_rows(campaign)
    assert rows == []  # nothing verified yet
    for run in Run.objects.filter(player=alice).select_related("play_session"):
        Run.objects.filter(pk=run.pk).update(status=Run.Status.VERIFIED, progress=run.play_session.progress)
    exported = [(r["kind"], r["round"], r["progress"]) for r in selectors.export_rows(campaign)]
    assert exported == [("novice", 0, 0.2), ("learning", 1, 0.6), ("learning", 2, 1.0)]
