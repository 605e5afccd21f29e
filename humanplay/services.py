"""Writes of human play: sessions, their actions, and the baseline Runs they become."""
from datetime import timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from evaluator import verification
from evaluator.models import Run

from . import frames
from .models import ExpertDesignation, HumanPlaySettings, PlayAction, PlayerProfile, PlaySession


def profile_for(*, user):
    profile, _ = PlayerProfile.objects.get_or_create(user=user)
    return profile


def baseline_kind(*, user, game, today=None):
    """expert: marked by a maintainer for the game or its genre (from a date), or past the practice threshold;
    novice: the player's first recorded attempt at the game; "" otherwise (kept, not counted)."""
    today = today or timezone.localdate()
    designated = ExpertDesignation.objects.filter(user=user, since__lte=today).filter(
        Q(game=game) | Q(game__isnull=True, genre=game.genre)).exists()
    practised = PlaySession.objects.filter(user=user, task__game=game, mode=PlaySession.Mode.PRACTICE,
                                           status=PlaySession.Status.FINISHED).count()
    if designated or practised >= HumanPlaySettings.current().practice_sessions_for_expert:
        return Run.Kind.EXPERT
    earlier = PlaySession.objects.filter(user=user, task__game=game, mode=PlaySession.Mode.BASELINE).exists()
    return "" if earlier else Run.Kind.NOVICE


def start_session(*, user, task, mode):
    """A new session, or the player's open one of the same task and mode: starting again resumes it (and a
    recorded attempt cannot be restarted by opening another)."""
    open_session = PlaySession.objects.filter(user=user, task=task, mode=mode,
                                              status=PlaySession.Status.ACTIVE).order_by("-pk").first()
    if open_session is not None and not is_expired(open_session):
        return open_session
    kind = baseline_kind(user=user, game=task.game) if mode == PlaySession.Mode.BASELINE else ""
    played = PlaySession.objects.filter(user=user, task=task).count()
    return PlaySession.objects.create(user=user, task=task, mode=mode, baseline_kind=kind,
                                      seed=task.seeds[played % len(task.seeds)])


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
                                             seed=session.seed, actions=session.action_list())
            run_id = session.run.pk
            transaction.on_commit(lambda: verification.queue_run(run_id=run_id))
        session.save()
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
