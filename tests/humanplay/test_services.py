"""Who counts as novice or expert (and the confirmation a novice run asks for), sessions that expire, and the
frames kept after a session ends."""
from datetime import date, timedelta

import pytest
from django.template.loader import render_to_string
from django.utils import timezone

from catalogue.models import Game
from humanplay import frames, selectors, services
from humanplay.models import ExpertDesignation, HumanPlaySettings, PlaySession
from sandbox.commitment import commitment_holds
from tests.factories import load_games, make_user, task

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def games():
    load_games()


def baseline(user, task_id="runner/clear-6@1"):
    return services.start_session(user=user, task=task(task_id), mode=PlaySession.Mode.BASELINE)


def practise(user, task_id="runner/clear-6@1"):
    session = services.start_session(user=user, task=task(task_id), mode=PlaySession.Mode.PRACTICE)
    return services.finish_session(session_id=session.pk, progress=0.5, success=False)


def test_the_first_recorded_attempt_at_a_game_is_novice_and_later_ones_count_as_neither():
    user = make_user()
    first = baseline(user)
    assert first.baseline_kind == "novice"
    assert services.finish_session(session_id=first.pk, progress=0.5, success=False).run.kind == "novice"
    assert baseline(user).baseline_kind == ""  # a second attempt at the task
    assert baseline(user, "runner/clear-9@1").baseline_kind == ""  # same game, another task
    assert baseline(user, "breakout/rally-5@2").baseline_kind == "novice"  # another game


def test_an_unfinished_recorded_attempt_ends_novice_status_too():
    user = make_user()
    abandoned = baseline(user)
    PlaySession.objects.filter(pk=abandoned.pk).update(status=PlaySession.Status.EXPIRED)
    assert baseline(user).baseline_kind == ""


def test_practice_first_then_a_recorded_attempt_is_not_novice():
    user = make_user()
    practise(user, "runner/clear-9@1")  # another task of the game: practice of the game all the same
    assert selectors.baseline_kind(user=user, game=Game.objects.get(slug="runner")) == ""
    assert baseline(user).baseline_kind == ""
    assert baseline(user, "breakout/rally-5@2").baseline_kind == "novice"  # a game not practised


def test_enough_practice_makes_an_expert():
    user = make_user()
    HumanPlaySettings.objects.filter(pk=HumanPlaySettings.current().pk).update(practice_sessions_for_expert=2)
    assert practise(user).baseline_kind == ""
    assert selectors.baseline_kind(user=user, game=Game.objects.get(slug="runner")) == ""  # no longer a novice
    practise(user)
    assert baseline(user).baseline_kind == "expert"


def test_a_recorded_attempt_that_would_be_a_novice_run_needs_the_players_confirmation():
    user = make_user()
    with pytest.raises(services.NoviceUnconfirmed):
        services.start_recorded_attempt(user=user, task=task("runner/clear-6@1"), novice_confirmed=False)
    assert not PlaySession.objects.filter(user=user).exists()  # nothing started
    first = services.start_recorded_attempt(user=user, task=task("runner/clear-6@1"), novice_confirmed=True)
    assert first.baseline_kind == "novice"
    # Not a novice run any more: nothing to confirm.
    services.finish_session(session_id=first.pk, progress=0.5, success=False)
    again = services.start_recorded_attempt(user=user, task=task("runner/clear-6@1"), novice_confirmed=False)
    assert again.baseline_kind == "" and again.pk != first.pk


def test_the_play_page_asks_to_confirm_a_novice_run_in_the_words_of_the_rules_page(client):
    user = make_user()
    client.force_login(user)
    rule = render_to_string("humanplay/_novice_rule.html")
    page = client.get("/play/runner/clear-6/").content.decode()
    assert rule in page and rule in client.get("/play/rules/").content.decode()  # one snippet, the same words
    assert 'id="confirm-novice"' not in page
    response = client.post("/play/runner/clear-6/start/", {"mode": "baseline"})
    assert response.url == "/play/runner/clear-6/?confirm=novice#confirm-novice"
    assert not PlaySession.objects.filter(user=user).exists()  # asked, not started
    confirm = client.get("/play/runner/clear-6/?confirm=novice").content.decode()
    assert 'id="confirm-novice"' in confirm and 'name="novice_confirmed" value="1"' in confirm
    assert "you cannot practise this game first and stay a novice" in confirm.lower()
    response = client.post("/play/runner/clear-6/start/", {"mode": "baseline", "novice_confirmed": "1"})
    session = PlaySession.objects.get(user=user)
    assert response.url == session.get_absolute_url() and session.baseline_kind == "novice"
    # Once played, the page no longer asks, even when told to.
    assert 'id="confirm-novice"' not in client.get("/play/runner/clear-6/?confirm=novice").content.decode()


def test_a_maintainer_marks_experts_for_a_game_or_a_genre_from_a_date():
    user = make_user()
    runner, breakout = Game.objects.get(slug="runner"), Game.objects.get(slug="breakout")
    ExpertDesignation.objects.create(user=user, game=runner, since=date.today() + timedelta(days=1))
    assert selectors.baseline_kind(user=user, game=runner) == "novice"  # not yet
    assert selectors.baseline_kind(user=user, game=runner, today=date.today() + timedelta(days=1)) == "expert"
    ExpertDesignation.objects.create(user=user, genre="arcade", since=date.today())
    assert selectors.baseline_kind(user=user, game=breakout) == "expert"


def test_practice_rotates_over_the_public_seeds_and_recorded_attempts_are_sealed():
    user = make_user()
    practised = []
    for _ in range(4):
        session = services.start_session(user=user, task=task("runner/clear-6@1"), mode=PlaySession.Mode.PRACTICE)
        practised.append(session.seed)
        services.finish_session(session_id=session.pk, progress=0.1, success=False)
    assert practised == [1, 2, 3, 1]
    # On a game the player has not practised: a recorded attempt there is a novice run, which makes a Run.
    recorded = [baseline(user, "breakout/rally-5@2"), baseline(make_user("other"), "breakout/rally-5@2")]
    for session in recorded:
        assert session.seed not in session.task.seeds and commitment_holds(
            seed=session.seed, salt=session.salt, commitment_hex=session.commitment)
        run = services.finish_session(session_id=session.pk, progress=0.1, success=False).run
        assert (run.seed, run.salt, run.commitment) == (session.seed, session.salt, session.commitment)
    assert recorded[0].seed != recorded[1].seed  # drawn for each player's attempt


def test_starting_again_resumes_the_open_session_of_the_task_and_mode():
    user = make_user()
    practise = lambda: services.start_session(user=user, task=task("runner/clear-6@1"),  # noqa: E731
                                              mode=PlaySession.Mode.PRACTICE)
    first = practise()
    assert practise().pk == first.pk                       # a second click resumes it
    assert baseline(user).pk != first.pk                   # a recorded attempt is another session
    PlaySession.objects.filter(pk=first.pk).update(last_action_at=timezone.now() - timedelta(days=1))
    second = practise()
    assert second.pk != first.pk                           # an abandoned one is not resumed
    services.finish_session(session_id=second.pk, progress=0.2, success=False)
    assert practise().pk not in (first.pk, second.pk)      # nor a finished one


def test_abandoned_sessions_expire_after_the_time_the_admin_sets():
    user = make_user()
    stale, fresh = baseline(user), baseline(user, "breakout/rally-5@2")
    minutes = HumanPlaySettings.current().session_expiry_minutes
    PlaySession.objects.filter(pk=stale.pk).update(last_action_at=timezone.now() - timedelta(minutes=minutes + 1))
    assert services.expire_abandoned_sessions() == 1
    assert PlaySession.objects.get(pk=stale.pk).status == "expired"
    assert PlaySession.objects.get(pk=fresh.pk).status == "active"


def test_frames_of_sessions_ended_past_the_admin_limit_are_pruned_and_the_page_says_so(client, settings, tmp_path):
    settings.DATA_DIR = tmp_path
    user = make_user()
    days = HumanPlaySettings.current().frames_kept_days
    active, old, recent = (baseline(user, t) for t in ("runner/clear-6@1", "runner/clear-9@1", "runner/clear-12@1"))
    for session in (active, old, recent):
        frames.save(session.pk, 0, b"\xff\xd8\xff frame")
        services.record_action(session_id=session.pk, index=0, action={"type": "wait"})
    ended = {old.pk: timezone.now() - timedelta(days=days, hours=1), recent.pk: timezone.now() - timedelta(days=1)}
    for pk, when in ended.items():
        PlaySession.objects.filter(pk=pk).update(status=PlaySession.Status.FINISHED, finished_at=when, progress=0,
                                                 success=False)
    frames.save(987654, 0, b"\xff\xd8\xff orphan")  # a session deleted since

    assert services.prune_play_frames() == 2
    assert sorted(frames.stored_session_ids()) == sorted([active.pk, recent.pk])
    client.force_login(user)
    cleared = client.get(f"/play/sessions/{old.pk}/").content.decode()
    assert "frames-cleared" in cleared and f"cleared {days} days after it ended" in cleared
    kept = client.get(f"/play/sessions/{recent.pk}/").content.decode()
    assert 'id="replay"' in kept and "frames-cleared" not in kept


def test_the_rules_page_states_both_rules_with_the_admin_figures(client):
    HumanPlaySettings.objects.filter(pk=HumanPlaySettings.current().pk).update(practice_sessions_for_expert=7,
                                                                                 session_expiry_minutes=45)
    page = client.get("/play/rules/").content.decode()
    assert "made before any practice of it" in page
    assert "<strong>7</strong> practice sessions" in page
    assert "<strong>45 minutes</strong>" in page


def test_a_finished_run_s_page_compares_with_the_agents_and_links_on(client):
    from catalogue.models import TaskSet
    from submissions.models import Submission
    from tests.leaderboard.factories import run as add_run
    from tests.leaderboard.factories import submission

    user = make_user()
    session = baseline(user)
    services.record_action(session_id=session.pk, index=0, action={"type": "wait"})
    services.finish_session(session_id=session.pk, progress=0.5, success=False)
    core = TaskSet.objects.get(slug="core-v15")
    for name, progress in (("Alpha", 0.3), ("Bravo", 0.9)):
        add_run(submission(core, name), "runner/clear-6@1", progress)
    solver = submission(core, "Solver")
    Submission.objects.filter(pk=solver.pk).update(is_baseline=True)  # a reference row: not among the agents
    add_run(solver, "runner/clear-6@1", 1.0)
    client.force_login(user)
    page = client.get(f"/play/sessions/{session.pk}/").content.decode()
    assert "You reached <strong>50 %</strong>" in page
    assert ("The 2 agents with verified runs of this task on GameWorld core v15 reach 60 % on average; the best, "
            "Bravo, 90 %.") in page
    floor = round(task("runner/clear-6@1").random_floor("cua"))
    assert f"Random key presses reach {floor} %." in page
    assert "/leaderboard/tasks/runner/clear-6/1/?ts=core-v15" in page
    assert "/leaderboard/games/runner/?ts=core-v15" in page
    assert "/leaderboard/humans/novice/?ts=core-v15" in page  # the row this run counts in


def test_a_new_session_does_not_show_frames_left_under_its_number(settings, tmp_path):
    settings.DATA_DIR = tmp_path
    user = make_user()
    upcoming = (PlaySession.objects.order_by("-pk").values_list("pk", flat=True).first() or 0) + 1
    frames.save(upcoming, 0, b"\xff\xd8\xff from another database")
    session = baseline(user)
    assert session.pk == upcoming and not frames.has(session.pk, 0)
