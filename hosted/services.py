"""Hosted agent evaluation: an agent plays tasks live on the site over a token-authenticated WebSocket
(hosted.consumers.AgentConsumer, on the live-session engine of hosted/live.py). These are its
database services; the socket protocol is described on the consumer.

The same rules as the human-play socket, with two differences that make it an agent's run: an action
outside the game's action space is not refused but charged (recorded as {"type": "invalid", "raw": ...},
as in an upload), and the episodes of an evaluation become one Submission, created through the upload
checks and verified by the same replay on a worker as any other.
"""
import json
from datetime import timedelta

import jsonschema
from django.db import IntegrityError, transaction
from django.db.models import Count
from django.utils import timezone

from catalogue.models import TASK_BULKY_FIELDS, TaskSet
from sandbox.protocol import MAX_LATENCY_MS, PROTOCOLS
from submissions import services
from submissions.limits import LimitReached, charge
from submissions.models import ApiToken, Protocol, Provenance, UploadLimits
from submissions.sealing import seal, sealed_seed
from submissions.uploads import FORMAT, UploadRejected, not_published_message, parse_upload, submission_schema

from .live import Refusal
from .models import HostedAction, HostedEpisode, HostedEvaluation, HostedEvaluationSettings

HOSTED_NOTE = "Played live on the site (hosted evaluation)."


def token_for(key):
    """The active API token of this key, or None."""
    return ApiToken.authenticate(key) if key else None


def token_still_active(token_id):
    """Checked on every message of an open agent socket: a token revoked meanwhile stops it at once."""
    return ApiToken.objects.filter(pk=token_id, revoked_at__isnull=True, user__is_active=True).exists()


def task_description(task, *, sealed, episodes):
    """A task as the agent sees it: a sealed evaluation plays `episodes` episodes of it, each at a seed the site
    draws; otherwise the agent picks one of its public seeds."""
    game = task.game
    spec = task.spec()  # the game version the task was made for (its action space)
    episodes = {"episodes": episodes} if sealed else {"seeds": list(task.seeds)}
    return {"task": task.task_id, "title": task.title, "instruction": task.instruction,
            "max_actions": task.max_actions, "step_ms": task.step_ms, **episodes,
            "game": {"slug": game.slug, "title": game.title, "backend": game.backend, "genre": game.genre,
                     "level": game.level},
            "action_space": spec.game.action_space.describe()}


def episode_reference(episode):
    """How messages name an episode: a sealed one by its number and commitment (its seed is secret until the
    evaluation is submitted), any other by its seed."""
    if episode.number is not None:
        return {"episode_number": episode.number, "commitment": episode.commitment}
    return {"seed": episode.seed}


def begin(user, message):
    """Open a new evaluation, or continue an open one of this user's."""
    if message.get("evaluation") is not None:
        evaluation = HostedEvaluation.objects.select_related("task_set").filter(
            pk=message["evaluation"] if isinstance(message["evaluation"], int) else None, user=user).first()
        if evaluation is None:
            raise Refusal(f"no hosted evaluation {message['evaluation']!r} for your account")
        ensure_open(evaluation)
        touch(evaluation.pk)
        return evaluation
    protocol = checked_protocol(message)
    sealed = message.get("sealed", False)
    if not isinstance(sealed, bool):
        raise Refusal(f"sealed is true (the site draws every episode's seed) or false (public seeds), got {sealed!r}")
    agent = checked_agent(message)
    slug = message.get("task_set")
    task_set = (TaskSet.objects.filter(slug=slug) if slug else TaskSet.objects.filter(is_default=True)).first()
    if task_set is None or task_set.status != TaskSet.Status.PUBLISHED:
        raise Refusal(f"task_set: {not_published_message(slug, task_set)}")
    try:
        charge("hosted_evaluation", who=user.pk)
    except LimitReached as reached:
        raise Refusal(f"{reached} (continue an open evaluation of yours with {{\"type\": \"begin\", "
                      f"\"evaluation\": <id>}})") from None
    return HostedEvaluation.objects.create(user=user, task_set=task_set, protocol=protocol, sealed=sealed,
                                           agent=agent)


def checked_protocol(message):
    protocol = message.get("protocol", Protocol.PAUSED)
    if protocol not in PROTOCOLS:
        raise Refusal(f"protocol is one of {', '.join(PROTOCOLS)}, got {protocol!r}")
    return protocol


def checked_agent(message):
    """The begin message's agent block, checked against the submission schema's."""
    agent = message.get("agent")
    problem = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(
        submission_schema()["properties"]["agent"]).iter_errors(agent))
    if problem is not None:
        where = ".".join(map(str, problem.absolute_path))
        raise Refusal(f"agent{'.' + where if where else ''}: {problem.message}")
    return agent


def ensure_open(evaluation):
    """Refuse play and submission on an evaluation that is submitted, or expired: marked so by the periodic
    sweep, or idle past the admin's limit and not yet swept."""
    if evaluation.status == HostedEvaluation.Status.SUBMITTED:
        raise Refusal(f"evaluation {evaluation.pk} was already submitted (submission {evaluation.submission_id}); "
                      "begin a new one")
    hours = HostedEvaluationSettings.current().hosted_expiry_hours
    if evaluation.status == HostedEvaluation.Status.OPEN and evaluation.last_active_at >= idle_cutoff(hours):
        return
    raise Refusal(f"evaluation {evaluation.pk} expired after {hours} h without activity; its episodes are kept "
                  "on the site, but it can no longer be played or submitted: begin a new one")


def idle_cutoff(hours):
    return timezone.now() - timedelta(hours=hours)


def expire_idle_evaluations():
    """Open evaluations idle for longer than the admin's limit become expired; returns how many."""
    cutoff = idle_cutoff(HostedEvaluationSettings.current().hosted_expiry_hours)
    return HostedEvaluation.objects.filter(status=HostedEvaluation.Status.OPEN, last_active_at__lt=cutoff).update(
        status=HostedEvaluation.Status.EXPIRED)


def touch(evaluation_id):
    """Mark an open evaluation active now; False if it is no longer open (submitted, expired, or idle past
    the limit and not yet swept)."""
    cutoff = idle_cutoff(HostedEvaluationSettings.current().hosted_expiry_hours)
    return HostedEvaluation.objects.filter(pk=evaluation_id, status=HostedEvaluation.Status.OPEN,
                                           last_active_at__gte=cutoff).update(last_active_at=timezone.now()) == 1


def evaluation_message(evaluation):
    tasks = evaluation.playable_tasks()
    episodes = [{"task": e.task.task_id, **episode_reference(e), "status": e.status, "steps": e.steps,
                 "progress": e.progress, "success": e.success}
                for e in evaluation.episodes.select_related("task__game")
                .defer(*(f"task__{name}" for name in TASK_BULKY_FIELDS)).annotate(steps=Count("actions"))]
    return {"type": "evaluation", "id": evaluation.pk, "protocol": evaluation.protocol, "sealed": evaluation.sealed,
            "task_set": evaluation.task_set.slug, "agent": evaluation.agent, "max_latency_ms": MAX_LATENCY_MS,
            "tasks": [task_description(t, sealed=evaluation.sealed, episodes=evaluation.episodes_of(t)) for t in tasks],
            "episodes": episodes}


def open_episode(evaluation_id, message):
    """The episode a reset message asks for, created on first use, and its stored actions: (task, seed) in an
    evaluation on public seeds; (task, episode number) in a sealed one, whose seed the site draws from its
    secret and commits to."""
    evaluation = HostedEvaluation.objects.select_related("task_set").get(pk=evaluation_id)
    ensure_open(evaluation)
    task_id = message.get("task")
    task = next((t for t in evaluation.playable_tasks() if t.task_id == task_id), None)
    if task is None:
        scope = ("this round" if evaluation.kind == HostedEvaluation.Kind.ROUND
                 else f"task set {evaluation.task_set.slug}")
        raise Refusal(f"{task_id!r} is not a task of {scope} (tasks are game/task@version, listed in the "
                      "evaluation message)")
    lookup, defaults = (_sealed_episode if evaluation.sealed else _public_episode)(evaluation, task, message)
    try:
        with transaction.atomic():
            episode, _ = HostedEpisode.objects.get_or_create(evaluation=evaluation, task=task, **lookup,
                                                             defaults=defaults)
    except IntegrityError:  # created by another connection at the same moment
        episode = HostedEpisode.objects.get(evaluation=evaluation, task=task, **lookup)
    if episode.status == HostedEpisode.Status.FINISHED:
        which = f"episode {episode.number}" if evaluation.sealed else f"seed {episode.seed}"
        raise Refusal(f"{task_id} {which} was already played in this evaluation (each once)")
    touch(evaluation.pk)
    return episode, task.spec(), episode.action_list()


def _public_episode(evaluation, task, message):
    """(lookup, defaults) of the episode at the public seed the message names."""
    if "episode_number" in message:
        raise Refusal(f"evaluation {evaluation.pk} plays the public seeds: ask for a seed "
                      f'({{"type": "reset", "task": ..., "seed": {task.seeds[0]}}}); episode numbers are for sealed '
                      "evaluations")
    seed = message.get("seed")
    if isinstance(seed, bool) or seed not in task.seeds:
        raise Refusal(f"seed {seed!r} is not one of {task.task_id}'s seeds ({', '.join(map(str, task.seeds))})")
    return {"seed": seed}, {}


def _sealed_episode(evaluation, task, message):
    """(lookup, defaults) of the sealed episode the message numbers: the seed drawn for it, with its seal."""
    if "seed" in message:
        raise Refusal(f"evaluation {evaluation.pk} is sealed: the site draws each episode's seed and reveals it when "
                      'the evaluation is submitted; ask for an episode number ({"type": "reset", "task": ..., '
                      f'"episode_number": 1}}, 1 to {evaluation.episodes_of(task)}), not a seed')
    number, count = message.get("episode_number"), evaluation.episodes_of(task)
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= count:
        raise Refusal(f"episode_number {number!r}: {task.task_id} has episodes 1 to {count} in this sealed "
                      "evaluation")
    seed = sealed_seed(scope=f"hosted:{evaluation.pk}", task_id=task.task_id, episode=number)
    salt, commitment = seal(seed)
    return {"number": number}, {"seed": seed, "salt": salt, "commitment": commitment}


def record_action(*, evaluation_id, episode_id, index, action):
    """Store the action applied as step `index` of the episode, while its evaluation is open."""
    with transaction.atomic():
        HostedAction.append(session_id=episode_id, index=index, action=action)
        HostedEpisode.objects.filter(pk=episode_id).update(last_action_at=timezone.now())
        if not touch(evaluation_id):
            raise Refusal(f"evaluation {evaluation_id} is no longer open (submitted or expired); begin a new one")


def finish_episode(episode_id, score):
    HostedEpisode.objects.filter(pk=episode_id, status=HostedEpisode.Status.ACTIVE).update(
        status=HostedEpisode.Status.FINISHED, progress=score.progress, success=score.success,
        trace_sha256=score.trace_sha256, finished_at=timezone.now())


def submit(evaluation_id, user):
    """The evaluation's episodes as one submission: the upload checks, then the same verification. Returns the
    submission, its number of runs, and a sealed evaluation's reveal: each episode's seed and salt."""
    with transaction.atomic():
        evaluation = HostedEvaluation.objects.select_for_update().select_related("task_set").get(pk=evaluation_id)
        ensure_open(evaluation)
        runs, revealed, commitments = [], [], {}
        for episode in evaluation.episodes.select_related("task__game"):
            actions = episode.action_list()
            if not actions:
                continue
            run = {"task": episode.task.task_id, "seed": episode.seed, "actions": actions}
            if episode.status == HostedEpisode.Status.FINISHED:
                run["claimed"] = {"progress": episode.progress, "success": episode.success}
            runs.append(run)
            if evaluation.sealed:
                commitments[(episode.task_id, episode.seed)] = (episode.commitment, episode.salt)
                revealed.append({"task": episode.task.task_id, **episode_reference(episode), "seed": episode.seed,
                                 "salt": episode.salt})
        if not runs:
            raise Refusal("no episode has an action yet: play at least one before submitting")
        agent = dict(evaluation.agent)
        notes = agent.get("notes", "")
        agent["notes"] = (f"{notes} {HOSTED_NOTE}" if notes else HOSTED_NOTE)[:4000]
        raw = json.dumps({"format": FORMAT, "agent": agent, "protocol": evaluation.protocol,
                          "task_set": evaluation.task_set.slug, "runs": runs}).encode()
        try:
            parsed = parse_upload(raw, user=user, limits=UploadLimits.current(), latency_measured=True,
                                  seeds_drawn_by_server=evaluation.sealed)
        except UploadRejected as rejected:
            raise Refusal("the site refused these runs as a submission: " + "; ".join(
                f"{e['field']}: {e['message']}" for e in rejected.errors)) from None
        provenance = (Provenance.ROUND if evaluation.kind == HostedEvaluation.Kind.ROUND
                      else Provenance.SEALED if evaluation.sealed else Provenance.HOSTED)
        submission = services.create_submission(user=user, parsed=parsed, provenance=provenance,
                                                commitments=commitments)
        evaluation.status, evaluation.submission, evaluation.submitted_at = (
            HostedEvaluation.Status.SUBMITTED, submission, timezone.now())
        evaluation.save(update_fields=["status", "submission", "submitted_at"])
    return submission, len(runs), revealed
