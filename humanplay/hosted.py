"""Hosted agent evaluation: an agent plays tasks live on the site over a token-authenticated WebSocket.

The same rules as the human-play socket (the server owns the game, one action per message answering the
current frame, the paused clock, the budget, reset-on-fail, every action stored as it is applied and a
dropped connection resumed by replaying the log), with two differences that make it an agent's run: an
action outside the game's action space is not refused but charged (recorded as {"type": "invalid",
"raw": ...}, as in an upload), and the episodes of an evaluation become one Submission, created through
the upload checks and verified by the same replay on a worker as any other.

Connect to /ws/agent/ with `Authorization: Token <key>` (or `?token=<key>` where headers cannot be set).
Client -> server (JSON text), server -> client:

  {"type": "begin", "agent": {...}, "task_set": "core-v1", "protocol": "paused" | "realtime"}
  {"type": "begin", "evaluation": 12}                          (continue an open evaluation of yours)
      -> {"type": "evaluation", "id", "protocol", "task_set", "agent", "tasks": [...], "episodes": [...]}
  {"type": "reset", "task": "breakout/score-100@1", "seed": 1}
      -> {"type": "status", "step": 0, ..., "resumed": bool, "actions": [...]} then the frame (binary JPEG)
  {"type": "action", "step": n, "action": {...}}               (realtime: the action may carry latency_ms)
      -> {"type": "status", "step": n + 1, "action": <as recorded>, "invalid", ...} then the frame
         (when the run is over the status also has progress, success and trace_sha256)
  {"type": "submit"}
      -> {"type": "submitted", "submission", "url", "status_url", "runs"}
  anything the rules refuse -> {"type": "refused", "reason"} (nothing changes)
"""
import json
import time
from datetime import timedelta
from urllib.parse import parse_qs

import jsonschema
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.db import IntegrityError, transaction
from django.db.models import Count
from django.utils import timezone

from evaluator import services as evaluator_services
from evaluator.models import ApiToken, TaskSet, UploadLimits
from sandbox import InvalidAction, SandboxError, make
from sandbox.env import LATENCY_FIELD, MAX_LATENCY_MS, check_latency
from evaluator.uploads import FORMAT, PROTOCOLS, RECORDED_INVALID, UploadRejected, parse_upload, submission_schema

from .consumers import in_sandbox
from .models import HostedAction, HostedEpisode, HostedEvaluation, HumanPlaySettings

RAW_LIMIT = 500  # characters of a refused action kept in its invalid record
HOSTED_NOTE = "Played live on the site (hosted evaluation)."


class Refusal(Exception):
    """A message the rules refuse: answered with {"type": "refused", "reason"}, nothing changes."""


# Database work (synchronous; the consumer calls it through database_sync_to_async).

def token_user(key):
    token = ApiToken.authenticate(key) if key else None
    return token.user if token else None


def task_description(task):
    game = task.game
    spec = task.spec()  # the game version the task was made for (its action space)
    return {"task": task.task_id, "title": task.title, "instruction": task.instruction,
            "max_actions": task.max_actions, "step_ms": task.step_ms, "seeds": list(task.seeds),
            "game": {"slug": game.slug, "title": game.title, "backend": game.backend, "genre": game.genre,
                     "level": game.level},
            "action_space": spec.game.action_space.describe()}


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
    protocol = message.get("protocol", "paused")
    if protocol not in PROTOCOLS:
        raise Refusal(f"protocol is one of {', '.join(PROTOCOLS)}, got {protocol!r}")
    agent = message.get("agent")
    problem = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(
        submission_schema()["properties"]["agent"]).iter_errors(agent))
    if problem is not None:
        where = ".".join(map(str, problem.absolute_path))
        raise Refusal(f"agent{'.' + where if where else ''}: {problem.message}")
    slug = message.get("task_set")
    task_set = (TaskSet.objects.filter(slug=slug) if slug else TaskSet.objects.filter(is_default=True)).first()
    if task_set is None or task_set.status != TaskSet.Status.PUBLISHED:
        published = ", ".join(TaskSet.objects.filter(status=TaskSet.Status.PUBLISHED).values_list("slug", flat=True))
        raise Refusal(f"task set {slug!r} is not published; published task sets: {published or 'none'}")
    return HostedEvaluation.objects.create(user=user, task_set=task_set, protocol=protocol, agent=agent)


def ensure_open(evaluation):
    """Refuse play and submission on an evaluation that is submitted, or expired: marked so by the periodic
    sweep, or idle past the admin's limit and not yet swept."""
    if evaluation.status == HostedEvaluation.Status.SUBMITTED:
        raise Refusal(f"evaluation {evaluation.pk} was already submitted (submission {evaluation.submission_id}); "
                      "begin a new one")
    hours = HumanPlaySettings.current().hosted_expiry_hours
    if evaluation.status == HostedEvaluation.Status.OPEN and evaluation.last_active_at >= idle_cutoff(hours):
        return
    raise Refusal(f"evaluation {evaluation.pk} expired after {hours} h without activity; its episodes are kept "
                  "on the site, but it can no longer be played or submitted: begin a new one")


def idle_cutoff(hours):
    return timezone.now() - timedelta(hours=hours)


def expire_idle_evaluations():
    """Open evaluations idle for longer than the admin's limit become expired; returns how many."""
    cutoff = idle_cutoff(HumanPlaySettings.current().hosted_expiry_hours)
    return HostedEvaluation.objects.filter(status=HostedEvaluation.Status.OPEN, last_active_at__lt=cutoff).update(
        status=HostedEvaluation.Status.EXPIRED)


def touch(evaluation_id):
    """Mark an open evaluation active now; False if it is no longer open (submitted, expired, or idle past
    the limit and not yet swept)."""
    cutoff = idle_cutoff(HumanPlaySettings.current().hosted_expiry_hours)
    return HostedEvaluation.objects.filter(pk=evaluation_id, status=HostedEvaluation.Status.OPEN,
                                           last_active_at__gte=cutoff).update(last_active_at=timezone.now()) == 1


def evaluation_message(evaluation):
    tasks = evaluation.task_set.tasks.select_related("game").order_by("game__level", "game__slug", "target", "slug")
    episodes = [{"task": e.task.task_id, "seed": e.seed, "status": e.status, "steps": e.steps,
                 "progress": e.progress, "success": e.success}
                for e in evaluation.episodes.select_related("task__game").annotate(steps=Count("actions"))]
    return {"type": "evaluation", "id": evaluation.pk, "protocol": evaluation.protocol,
            "task_set": evaluation.task_set.slug, "agent": evaluation.agent, "max_latency_ms": MAX_LATENCY_MS,
            "tasks": [task_description(t) for t in tasks], "episodes": episodes}


def open_episode(evaluation_id, task_id, seed):
    """The episode of (task, seed) in this evaluation, created on first use; its stored actions."""
    evaluation = HostedEvaluation.objects.select_related("task_set").get(pk=evaluation_id)
    ensure_open(evaluation)
    task = next((t for t in evaluation.task_set.tasks.select_related("game") if t.task_id == task_id), None)
    if task is None:
        raise Refusal(f"{task_id!r} is not a task of task set {evaluation.task_set.slug} (tasks are "
                      "game/task@version, listed in the evaluation message)")
    if isinstance(seed, bool) or seed not in task.seeds:
        raise Refusal(f"seed {seed!r} is not one of {task_id}'s seeds ({', '.join(map(str, task.seeds))})")
    try:
        with transaction.atomic():
            episode, _ = HostedEpisode.objects.get_or_create(evaluation=evaluation, task=task, seed=seed)
    except IntegrityError:  # created by another connection at the same moment
        episode = HostedEpisode.objects.get(evaluation=evaluation, task=task, seed=seed)
    if episode.status == HostedEpisode.Status.FINISHED:
        raise Refusal(f"{task_id} seed {seed} was already played in this evaluation (each task and seed once)")
    touch(evaluation.pk)
    return episode, task.spec(), episode.action_list()


def record_action(evaluation_id, episode_id, index, action):
    try:
        with transaction.atomic():
            HostedAction.objects.create(episode_id=episode_id, index=index, action=action)
            HostedEpisode.objects.filter(pk=episode_id).update(last_action_at=timezone.now())
            if not touch(evaluation_id):
                raise Refusal(f"evaluation {evaluation_id} is no longer open (submitted or expired); begin a new one")
    except IntegrityError:
        raise Refusal(f"step {index + 1} of this episode was already played on another connection") from None


def finish_episode(episode_id, score):
    HostedEpisode.objects.filter(pk=episode_id, status=HostedEpisode.Status.ACTIVE).update(
        status=HostedEpisode.Status.FINISHED, progress=score.progress, success=score.success,
        trace_sha256=score.trace_sha256, finished_at=timezone.now())


def submit(evaluation_id, user):
    """The evaluation's episodes as one submission: the upload checks, then the same verification."""
    with transaction.atomic():
        evaluation = HostedEvaluation.objects.select_for_update().select_related("task_set").get(pk=evaluation_id)
        ensure_open(evaluation)
        runs = []
        for episode in evaluation.episodes.select_related("task__game"):
            actions = episode.action_list()
            if not actions:
                continue
            run = {"task": episode.task.task_id, "seed": episode.seed, "actions": actions}
            if episode.status == HostedEpisode.Status.FINISHED:
                run["claimed"] = {"progress": episode.progress, "success": episode.success}
            runs.append(run)
        if not runs:
            raise Refusal("no episode has an action yet: play at least one before submitting")
        agent = dict(evaluation.agent)
        notes = agent.get("notes", "")
        agent["notes"] = (f"{notes} {HOSTED_NOTE}" if notes else HOSTED_NOTE)[:4000]
        raw = json.dumps({"format": FORMAT, "agent": agent, "protocol": evaluation.protocol,
                          "task_set": evaluation.task_set.slug, "runs": runs}).encode()
        try:
            parsed = parse_upload(raw, user=user, limits=UploadLimits.current())
        except UploadRejected as rejected:
            raise Refusal("the site refused these runs as a submission: " + "; ".join(
                f"{e['field']}: {e['message']}" for e in rejected.errors)) from None
        submission = evaluator_services.create_submission(user=user, parsed=parsed)
        evaluation.status, evaluation.submission, evaluation.submitted_at = (
            HostedEvaluation.Status.SUBMITTED, submission, timezone.now())
        evaluation.save(update_fields=["status", "submission", "submitted_at"])
    return submission, len(runs)


# The sandbox side (blocking: run it on a worker thread, never on the event loop).

class HostedEnv:
    def __init__(self, spec, seed):
        self.spec, self.seed = spec, seed
        self.env = None
        self.info = {}

    def open(self, actions):
        self.env = make(self.spec, observation="state")
        _, self.info = self.env.reset(seed=self.seed)
        for action in actions:
            _, self.info = self.env.step(action)

    def step(self, action):
        _, self.info = self.env.step(action)

    def frame(self):
        return self.env.render("jpeg")

    def score(self):
        return self.env.score()

    @property
    def steps(self):
        return self.env.actions_used

    @property
    def done(self):
        return self.env.done

    def close(self):
        if self.env is not None:
            self.env.close()
            self.env = None


def recorded(action, space, step_ms, *, protocol, latency):
    """The action as stored and applied: itself if valid, else an invalid record; the reason if invalid."""
    if isinstance(action, dict) and action.get("type") == RECORDED_INVALID:
        raw = action.get("raw", "")
        out, reason = {"type": RECORDED_INVALID, "raw": raw if isinstance(raw, str) else json.dumps(raw)}, \
            "no valid action (recorded as invalid)"
        out["raw"] = out["raw"][:RAW_LIMIT]
    else:
        try:
            space.resolve(action, step_ms)
            out, reason = action, None
        except InvalidAction as exc:
            out, reason = {"type": RECORDED_INVALID, "raw": json.dumps(action)[:RAW_LIMIT]}, str(exc)
    if protocol == "realtime":
        out = {**out, LATENCY_FIELD: latency}
    return out, reason


class AgentConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        self.user = self.evaluation = self.episode = self.env = None
        self.frame_sent_at = None
        self.user = await database_sync_to_async(token_user)(self._token())
        await self.accept()
        if self.user is None:
            await self.refuse("send an active API token: the `Authorization: Token <key>` header of the "
                              "handshake, or ?token=<key> (create one on your account page)", close=4401)

    def _token(self):
        for name, value in self.scope.get("headers", []):
            if name == b"authorization":
                scheme, _, key = value.decode("latin-1").partition(" ")
                if scheme in ("Token", "Bearer") and key.strip():
                    return key.strip()
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        return (query.get("token") or [""])[0].strip()

    async def disconnect(self, code):
        await self.close_env()

    async def close_env(self):
        if self.env is not None:
            env, self.env = self.env, None
            await in_sandbox(env.close)()

    async def receive(self, text_data=None, bytes_data=None):
        try:
            message = json.loads(text_data) if text_data is not None else None
        except json.JSONDecodeError:
            message = None
        kind = message.get("type") if isinstance(message, dict) else None
        handler = {"begin": self.on_begin, "reset": self.on_reset, "action": self.on_action,
                   "submit": self.on_submit}.get(kind)
        if self.user is None:
            return
        if handler is None:
            await self.refuse('send JSON text: {"type": "begin" | "reset" | "action" | "submit", ...}')
            return
        try:
            await handler(message)
        except Refusal as refusal:
            await self.refuse(str(refusal))

    async def on_begin(self, message):
        if self.evaluation is not None:
            raise Refusal(f"evaluation {self.evaluation.pk} is already begun on this connection")
        self.evaluation = await database_sync_to_async(begin)(self.user, message)
        await self.send(text_data=json.dumps(await database_sync_to_async(evaluation_message)(self.evaluation)))

    async def on_reset(self, message):
        if self.evaluation is None:
            raise Refusal('begin first: {"type": "begin", "agent": {...}} or {"type": "begin", "evaluation": <id>}')
        episode, spec, actions = await database_sync_to_async(open_episode)(
            self.evaluation.pk, message.get("task"), message.get("seed"))
        await self.close_env()
        env = HostedEnv(spec, episode.seed)
        try:
            await in_sandbox(env.open)(actions)
        except (SandboxError, ValueError) as exc:
            await in_sandbox(env.close)()
            await self.refuse(f"the game could not be started: {exc}", close=4500)
            return
        self.env, self.episode = env, episode
        await self.send_step(resumed=bool(actions), actions=actions)
        if env.done:
            await self.finish()

    async def on_action(self, message):
        env = self.env
        if env is None:
            raise Refusal('no episode is open: send {"type": "reset", "task": ..., "seed": ...} first')
        if env.done:
            raise Refusal("the run is over: no actions left; reset another task or submit")
        if message.get("step") != env.steps:
            raise Refusal(f"out of step: that action answers frame {message.get('step')!r}, but frame {env.steps} "
                          "is the current one; wait for each frame")
        action = message.get("action")
        latency = None
        if isinstance(action, dict) and LATENCY_FIELD in action:
            if self.evaluation.protocol != "realtime":
                raise Refusal(f"{LATENCY_FIELD} belongs to the realtime protocol; this evaluation is paused")
            latency, problem = check_latency(action[LATENCY_FIELD])
            if problem:
                raise Refusal(problem)
            action = {k: v for k, v in action.items() if k != LATENCY_FIELD}
        elif self.evaluation.protocol == "realtime":  # not reported: the time since the frame was sent
            waited = time.monotonic() - self.frame_sent_at if self.frame_sent_at else 0
            latency = min(MAX_LATENCY_MS, round(waited * 1000))
        stored, reason = recorded(action, env.spec.game.action_space, env.spec.step_ms,
                                  protocol=self.evaluation.protocol, latency=latency)
        index = env.steps
        await database_sync_to_async(record_action)(self.evaluation.pk, self.episode.pk, index, stored)
        try:
            await in_sandbox(env.step)(stored)
        except SandboxError as exc:
            await self.refuse(f"the game failed: {exc}; reconnect to resume", close=4500)
            return
        await self.send_step(action=stored, reason=reason)
        if env.done:
            await self.finish()

    async def on_submit(self, message):
        if self.evaluation is None:
            raise Refusal("begin first: there is no evaluation on this connection")
        submission, runs = await database_sync_to_async(submit)(self.evaluation.pk, self.user)
        await self.close_env()
        self.evaluation.status = HostedEvaluation.Status.SUBMITTED
        await self.send(text_data=json.dumps({
            "type": "submitted", "submission": submission.pk, "runs": runs,
            "url": f"/submissions/{submission.pk}/", "status_url": f"/api/v1/submissions/{submission.pk}"}))

    async def send_step(self, *, resumed=None, actions=None, action=None, reason=None):
        env, info = self.env, self.env.info
        status = {"type": "status", "episode": self.episode.pk, "task": env.spec.id, "seed": env.seed,
                  "step": env.steps, "actions_left": info["actions_left"], "max_actions": env.spec.max_actions,
                  "attempt": info["attempt"], "reset": info["reset"], "invalid": info["invalid"],
                  "invalid_reason": reason or info["invalid_reason"], "terminated": info["terminated"],
                  "truncated": info["truncated"], "done": env.done}
        for name in ("latency_ms", "landed"):
            if name in info:
                status[name] = info[name]
        if resumed is not None:
            status.update(resumed=resumed, actions=actions)
        if action is not None:
            status["action"] = action
        if env.done:
            score = env.score()
            status.update(progress=score.progress, success=score.success, trace_sha256=score.trace_sha256)
        await self.send(text_data=json.dumps(status))
        await self.send(bytes_data=await in_sandbox(env.frame)())
        self.frame_sent_at = time.monotonic()

    async def finish(self):
        score = await in_sandbox(self.env.score)()
        await database_sync_to_async(finish_episode)(self.episode.pk, score)

    async def refuse(self, reason, close=None):
        await self.send(text_data=json.dumps({"type": "refused", "reason": reason}))
        if close:
            await self.close(code=close)
