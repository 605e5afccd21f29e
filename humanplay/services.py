"""Writes of human play: sessions, their actions, and the baseline Runs they become."""
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from submissions import limits, verification
from submissions.models import Run
from submissions.sealing import seal, sealed_seed

from . import frames, selectors
from .models import Assignment, CampaignMember, HumanPlaySettings, PlayAction, PlayerProfile, PlaySession


def profile_for(*, user):
    profile, _ = PlayerProfile.objects.get_or_create(user=user)
    return profile


def start_session(*, user, task, mode, kind=None):
    """A new session, or the player's open one of the same task and mode: starting again resumes it (and a
    recorded attempt cannot be restarted by opening another). LimitReached past the play sessions a player may
    start an hour. A recorded attempt's kind of run is the player's baseline kind unless `kind` says otherwise
    (a campaign's learning round)."""
    open_session = PlaySession.objects.filter(user=user, task=task, mode=mode,
                                              status=PlaySession.Status.ACTIVE).order_by("-pk").first()
    if open_session is not None and not is_expired(open_session):
        return open_session
    limits.charge("play_session", who=user.pk)  # each session holds a browser while it is played
    if mode != PlaySession.Mode.BASELINE:
        kind = ""
    elif kind is None:
        kind = selectors.baseline_kind(user=user, game=task.game)
    played = PlaySession.objects.filter(user=user, task=task).count()
    if mode == PlaySession.Mode.BASELINE:  # a recorded attempt is sealed, as an agent's ranked episode is
        seed = sealed_seed(scope=f"recorded:{user.pk}", task_id=task.task_id, episode=played + 1)
        salt, commitment = seal(seed)
    else:  # practice rotates over the public seeds
        seed, salt, commitment = task.seeds[played % len(task.seeds)], "", ""
    session = PlaySession.objects.create(user=user, task=task, mode=mode, baseline_kind=kind, seed=seed, salt=salt,
                                         commitment=commitment)
    frames.remove(session.pk)  # frames are kept by session number: a folder left by another database is not its
    return session


class NoviceUnconfirmed(Exception):
    """A recorded attempt that would be the player's novice run of its game, asked for without their confirming it."""


def start_recorded_attempt(*, user, task, novice_confirmed):
    """A recorded attempt (start_session), in open play or for a campaign. When it would be the player's novice run
    of the game it needs their confirmation (NoviceUnconfirmed): once it starts, finished or not, they can no longer
    practise the game first and stay a novice."""
    if not novice_confirmed and selectors.baseline_kind(user=user, game=task.game) == Run.Kind.NOVICE:
        raise NoviceUnconfirmed(f"This recorded attempt would be your novice run of {task.game.title}: confirm it "
                                f"to start.")
    return start_session(user=user, task=task, mode=PlaySession.Mode.BASELINE)


def record_action(*, session_id, index, action):
    """Store the action applied as step `index` (0-based); a second store of the same step raises StepTaken."""
    with transaction.atomic():
        PlayAction.append(session_id=session_id, index=index, action=action)
        PlaySession.objects.filter(pk=session_id).update(last_action_at=timezone.now())


def finish_session(*, session_id, progress, success):
    """End play; a counted baseline becomes a Run verified by the same replay as an agent's."""
    with transaction.atomic():
        session = PlaySession.objects.select_for_update().select_related("task").get(pk=session_id)
        if session.status != PlaySession.Status.ACTIVE:
            return session
        session.status = PlaySession.Status.FINISHED
        session.progress, session.success, session.finished_at = progress, success, timezone.now()
        if session.mode == PlaySession.Mode.BASELINE and session.baseline_kind:
            session.run = Run.objects.create(kind=session.baseline_kind, player=session.user, task=session.task,
                                             seed=session.seed, commitment=session.commitment, salt=session.salt,
                                             actions=session.action_list())
            run_id = session.run.pk
            transaction.on_commit(lambda: verification.queue_run(run_id=run_id))
        session.save()
        # A campaign's assignment played in this session: done with its run, or released when it did not count.
        if session.run_id:
            Assignment.objects.filter(session=session, status=Assignment.Status.HELD).update(
                status=Assignment.Status.DONE, run=session.run, ended_at=session.finished_at)
        else:
            Assignment.objects.filter(session=session, status=Assignment.Status.HELD).update(
                status=Assignment.Status.RELEASED, ended_at=session.finished_at,
                release_reason="the attempt did not count as a baseline run")
    return session


def expire_abandoned_sessions(*, now=None):
    now = now or timezone.now()
    cutoff = now - timedelta(minutes=HumanPlaySettings.current().session_expiry_minutes)
    return PlaySession.objects.filter(status=PlaySession.Status.ACTIVE, last_action_at__lt=cutoff).update(
        status=PlaySession.Status.EXPIRED, finished_at=now)


def is_expired(session, *, now=None):
    now = now or timezone.now()
    return session.status == PlaySession.Status.EXPIRED or (
        session.status == PlaySession.Status.ACTIVE
        and session.last_action_at < now - timedelta(minutes=HumanPlaySettings.current().session_expiry_minutes))


def prune_play_frames():
    """Delete the stored frames of sessions that ended longer ago than the admin's limit (and of sessions
    no longer in the database); return how many sessions' frames went."""
    cutoff = timezone.now() - timedelta(days=HumanPlaySettings.current().frames_kept_days)
    stored = set(frames.stored_session_ids())
    keep = set(PlaySession.objects.filter(pk__in=stored).filter(
        Q(status=PlaySession.Status.ACTIVE) | Q(finished_at__gte=cutoff) | Q(finished_at__isnull=True)
    ).values_list("pk", flat=True))
    for session_id in stored - keep:
        frames.remove(session_id)
    return len(stored - keep)


# Campaigns: joining, "play the next task", starting the assigned task, and releasing abandoned assignments.

class CampaignError(Exception):
    """Something a volunteer asked that the campaign refuses, with the reason to show them."""


def join_campaign(*, campaign, user, code="", now=None):
    """Join (once; joining again is a no-op). A campaign with a sign-up code asks for it."""
    today = timezone.localdate(now or timezone.now())
    if campaign.state(today) == "ended":
        raise CampaignError("This campaign has ended.")
    if campaign.signup_code:
        try:  # a code is short: wrong guesses are counted, and past the limit even the right one waits
            limits.ensure_below("campaign_code", who=user.pk)
            if code.strip() != campaign.signup_code:
                limits.charge("campaign_code", who=user.pk)
                raise CampaignError("That sign-up code is not this campaign's: check the code you were given.")
        except limits.LimitReached as reached:
            raise CampaignError(f"No more sign-up codes for now: {reached}.") from None
    member, _ = CampaignMember.objects.get_or_create(campaign=campaign, user=user)
    return member


def give_consent(*, campaign, user, now=None):
    """The volunteer agrees to the campaign's consent text: before their first recorded attempt, or again after
    withdrawing it (the campaign gives them tasks again; runs they took out stay out)."""
    return CampaignMember.objects.filter(campaign=campaign, user=user).update(
        consented_at=now or timezone.now(), consent_withdrawn_at=None) == 1


def withdraw_consent(*, campaign, user, remove_runs, now=None):
    """The volunteer withdraws their consent: the campaign gives them no more tasks and the one they hold goes
    back (its open recorded attempt expires). With remove_runs their done runs leave the campaign's exports,
    coverage and figures: the assignments become withdrawn, their slots free for others, and the Runs stay stored,
    replayable to maintainers for audit. Withdrawing again may still remove the runs.

    Returns (whether a held task went back, how many runs were removed, how many stay)."""
    now = now or timezone.now()
    if not CampaignMember.objects.filter(campaign=campaign, user=user).exists():
        raise CampaignError("You are not a volunteer of this campaign.")
    with transaction.atomic():
        CampaignMember.objects.filter(campaign=campaign, user=user, consent_withdrawn_at__isnull=True).update(
            consent_withdrawn_at=now)
        held = selectors.held_assignment(campaign=campaign, user=user)
        try:
            released = held is not None and release_assignment(assignment=held, user=user,
                                                                reason="consent withdrawn", now=now)
        except CampaignError:  # it ended meanwhile (its attempt finished): a done run, removed below if asked
            released = False
        done = Assignment.objects.filter(campaign=campaign, user=user, status=Assignment.Status.DONE)
        if remove_runs:
            return released, done.update(status=Assignment.Status.WITHDRAWN,
                                         release_reason="taken out of the campaign's exports and figures"), 0
        return released, 0, done.count()


def set_show_name(*, campaign, user, show):
    return CampaignMember.objects.filter(campaign=campaign, user=user).update(show_name=bool(show)) == 1


def release_abandoned_assignments(*, campaign=None, now=None):
    """Release every held assignment past its time whose volunteer has not played the task (practice or the
    recorded attempt) for the campaign's hold time; one still being played has its hold extended. A released
    assignment's open recorded session expires with it (the slot goes to someone else). Returns how many went."""
    now = now or timezone.now()
    late = Assignment.objects.filter(status=Assignment.Status.HELD, held_until__lt=now).select_related("campaign")
    if campaign is not None:
        late = late.filter(campaign=campaign)
    released = 0
    for assignment in late:
        hold = timedelta(minutes=assignment.campaign.hold_minutes)
        with transaction.atomic():
            # Lock the recorded session first, as finish_session does: a release and a finish never interleave.
            session = (PlaySession.objects.select_for_update().filter(pk=assignment.session_id).first()
                       if assignment.session_id else None)
            # Play on the task since it was assigned: practice, or the recorded attempt (which may be an open
            # one the player had started before, resumed by start_session).
            last = PlaySession.objects.filter(user=assignment.user_id, task=assignment.task_id).filter(
                Q(created__gte=assignment.created) | Q(pk=assignment.session_id)).order_by("-last_action_at") \
                .values_list("last_action_at", flat=True).first()
            in_play = session is None or session.status == PlaySession.Status.ACTIVE
            if last is not None and last >= now - hold and in_play:
                Assignment.objects.filter(pk=assignment.pk, status=Assignment.Status.HELD).update(
                    held_until=last + hold)
                continue
            if Assignment.objects.filter(pk=assignment.pk, status=Assignment.Status.HELD).update(
                    status=Assignment.Status.RELEASED, ended_at=now,
                    release_reason=f"abandoned: no play for {assignment.campaign.hold_minutes} min") == 1:
                released += 1
                if session is not None:
                    PlaySession.objects.filter(pk=session.pk, status=PlaySession.Status.ACTIVE).update(
                        status=PlaySession.Status.EXPIRED, finished_at=now)
    return released


def assign_next(*, campaign, user, now=None):
    """The volunteer's held assignment, or a new one on the slot that most needs a run they can give
    (selectors.candidate_slots), or None when no task needs a run they can give.

    Two requests at once cannot take the same slot: the database's unique constraint on held and filled slots
    refuses the second insert, which moves on to the next free slot."""
    now = now or timezone.now()
    member = CampaignMember.objects.filter(campaign=campaign, user=user).first()
    if member is None:
        raise CampaignError("Join the campaign first.")
    if member.consent_withdrawn_at is not None:
        raise CampaignError(f"You withdrew your consent to this campaign on {member.consent_withdrawn_at:%Y-%m-%d}, "
                            f"so it gives you no task. To take part again, agree to its consent text on the "
                            f"campaign page.")
    state = campaign.state(timezone.localdate(now))
    if state != "open":
        raise CampaignError(f"This campaign {'has not started yet' if state == 'upcoming' else 'has ended'}: "
                            f"it runs from {campaign.starts_on} to {campaign.ends_on}.")
    release_abandoned_assignments(campaign=campaign, now=now)
    held = selectors.held_assignment(campaign=campaign, user=user)
    if held is not None:
        return held
    held_until = now + timedelta(minutes=campaign.hold_minutes)
    follow_up = selectors.next_round(campaign=campaign, user=user)
    if follow_up is not None:  # the volunteer's learning curve on a task comes before any new task
        try:
            with transaction.atomic():
                return Assignment.objects.create(campaign=campaign, user=user, task=follow_up.task,
                                                 kind=follow_up.kind, slot=follow_up.slot,
                                                 round=follow_up.round + 1, held_until=held_until)
        except IntegrityError:  # the same volunteer's other request made it
            return selectors.held_assignment(campaign=campaign, user=user)
    for task, kind, free in selectors.candidate_slots(campaign=campaign, user=user, today=timezone.localdate(now)):
        for slot in free:
            try:
                with transaction.atomic():
                    return Assignment.objects.create(campaign=campaign, user=user, task=task, kind=kind, slot=slot,
                                                     held_until=held_until)
            except IntegrityError:
                held = selectors.held_assignment(campaign=campaign, user=user)
                if held is not None:  # the same volunteer's other request won
                    return held
                # someone else took this slot first: try the next one
    return None


def _own_held(*, assignment, user):
    """The assignment as stored now (a caller's copy may be stale), if it is the user's and still held."""
    assignment = Assignment.objects.select_related("campaign", "task__game", "session").get(pk=assignment.pk)
    if assignment.user_id != user.pk:
        raise CampaignError("This assignment is someone else's.")
    if assignment.status in (Assignment.Status.DONE, Assignment.Status.WITHDRAWN):
        raise CampaignError("This assignment is done: ask for the next task.")
    if assignment.status == Assignment.Status.RELEASED:
        why = f" ({assignment.release_reason})" if assignment.release_reason else ""
        raise CampaignError(f"This assignment was released{why}: ask for the next task.")
    return assignment


def start_assignment(*, assignment, user, consent=False, novice_confirmed=False, now=None):
    """The recorded attempt of an assignment (resumed if it is open). The campaign's consent text must have
    been agreed to once before the volunteer's first recorded attempt; a novice run needs their confirmation
    (start_recorded_attempt)."""
    now = now or timezone.now()
    assignment = _own_held(assignment=assignment, user=user)
    campaign = assignment.campaign
    if not CampaignMember.objects.get(campaign=campaign, user=user).has_consent:
        if not consent:
            raise CampaignError("Read the consent text at the top of the page and tick “I agree” before your first "
                                "recorded attempt.")
        give_consent(campaign=campaign, user=user, now=now)
    if assignment.session_id:
        session = assignment.session
        if session.status == PlaySession.Status.ACTIVE and not is_expired(session, now=now):
            return session
        raise CampaignError("This attempt has ended: ask for the next task.")
    game = assignment.task.game
    if assignment.round == 0 and selectors.baseline_kind(user=user, game=game) != assignment.kind:
        release_assignment(assignment=assignment, user=user, reason=f"you can no longer give a {assignment.kind} "
                                                                    f"run of {game.title}", now=now)
        raise CampaignError(f"You can no longer give a {assignment.kind} run of {game.title} (you have played it "
                            f"since): the task went back; ask for the next one.")
    with transaction.atomic():
        if assignment.round == 0:
            session = start_recorded_attempt(user=user, task=assignment.task, novice_confirmed=novice_confirmed)
        else:  # a later round of the volunteer's learning curve: their baseline run of it is done already
            session = start_session(user=user, task=assignment.task, mode=PlaySession.Mode.BASELINE,
                                    kind=assignment.run_kind)
        if Assignment.objects.filter(pk=assignment.pk, status=Assignment.Status.HELD, session__isnull=True).update(
                session=session, held_until=now + timedelta(minutes=campaign.hold_minutes)) != 1:
            transaction.set_rollback(True)
            raise CampaignError("This assignment changed meanwhile: reload the page.")
    return session


def practise_assignment(*, assignment, user, now=None):
    """A practice session of an expert assignment's task (not recorded), offered before the expert attempt.
    A novice run is a first contact with the game, so novices get no practice."""
    now = now or timezone.now()
    assignment = _own_held(assignment=assignment, user=user)
    if assignment.kind != Run.Kind.EXPERT:
        raise CampaignError("A novice run is your first contact with the game: no practice before it.")
    if assignment.round:
        raise CampaignError("No practice between the rounds of a learning curve: it measures what you learn from "
                            "the recorded rounds.")
    if assignment.session_id:
        raise CampaignError("Your recorded attempt has started: finish it first.")
    session = start_session(user=user, task=assignment.task, mode=PlaySession.Mode.PRACTICE)
    Assignment.objects.filter(pk=assignment.pk, status=Assignment.Status.HELD).update(
        held_until=now + timedelta(minutes=assignment.campaign.hold_minutes))
    return session


def release_assignment(*, assignment, user, reason="given back by the volunteer", now=None):
    """Give the slot back (the volunteer's choice, or when they can no longer give that run). An open recorded
    attempt of it expires."""
    now = now or timezone.now()
    assignment = _own_held(assignment=assignment, user=user)
    with transaction.atomic():
        session = (PlaySession.objects.select_for_update().filter(pk=assignment.session_id).first()
                   if assignment.session_id else None)
        if Assignment.objects.filter(pk=assignment.pk, status=Assignment.Status.HELD).update(
                status=Assignment.Status.RELEASED, ended_at=now, release_reason=reason[:120]) != 1:
            return False
        if session is not None:
            PlaySession.objects.filter(pk=session.pk, status=PlaySession.Status.ACTIVE).update(
                status=PlaySession.Status.EXPIRED, finished_at=now)
    return True
