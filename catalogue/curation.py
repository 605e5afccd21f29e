"""Maintainers' writes: task versions, validation, task sets, bundle imports, submission moderation. Each
one checks its permission and leaves an entry in the audit log. Keyword-only arguments."""
import shutil

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from sandbox import SandboxError, run_trajectory
from sandbox.calibration import WORDING as WORDING_FIELDS
from sandbox.calibration import INTERFACES, gate, gate_task_set, is_stale, sampled_interface, verify_task_sample

from . import bundle_loading, bundles
from .models import MEASURED_FIELDS, AuditEntry, Game, Task, TaskSet, TaskValidation


class CurationRefused(Exception):
    """The action is not allowed in this state; the message says why and what to do."""


def require(user, permission):
    if user is None or not user.is_active or not user.has_perm(permission):
        raise PermissionDenied(f"maintainers only: needs the {permission.split('.')[-1].replace('_', ' ')} permission")


def audit(*, actor, action, target, changes=None):
    return AuditEntry.objects.create(actor=actor, action=action, target_type=type(target).__name__,
                                     target_id=str(getattr(target, "pk", "") or ""), target=str(target)[:200],
                                     changes=changes or {})


def edit_task(*, actor, task, changes):
    """Change a task. Wording is fixed in place (and logged); a change to what it measures makes a new version
    when the task is published or has runs, so old figures keep the version they were made on."""
    require(actor, "catalogue.change_task")
    changes = {name: value for name, value in changes.items() if getattr(task, name) != value}
    if not changes:
        return task
    unknown = set(changes) - set(WORDING_FIELDS) - set(MEASURED_FIELDS) - {"reference", "null"}
    if unknown:
        raise CurationRefused(f"these fields cannot be edited: {', '.join(sorted(unknown))}")
    measured = sorted(set(changes) - set(WORDING_FIELDS))
    diff = {name: [_plain(getattr(task, name)), _plain(value)] for name, value in changes.items()}
    with transaction.atomic():
        if measured and (task.is_published or task.runs.exists()):
            latest = Task.objects.filter(game=task.game, slug=task.slug).aggregate(v=Max("version"))["v"]
            fields = {f.name: getattr(task, f.name) for f in Task._meta.concrete_fields
                      if f.name not in ("id", "created", "calibration")}  # a new definition: not calibrated
            new = Task.objects.create(**{**fields, **changes, "version": latest + 1})
            audit(actor=actor, action="new task version", target=new,
                  changes={"from": task.task_id, **diff})
            return new
        for name, value in changes.items():
            setattr(task, name, value)
        task.save()
        audit(actor=actor, action="reworded task" if not measured else "edited draft task", target=task,
              changes=diff)
        return task


def validate_task(*, actor, task):
    """Reference must reach the target, null must not, and replays of the reference must be identical."""
    require(actor, "catalogue.validate_task")
    return _validate(task=task, actor=actor)


def _validate(*, task, actor, one_random_run=False):
    """One replay of the reference (its trace must be the one its calibration card stored, which also shows two
    replays agree; without a current card it is replayed twice) and one of the null, then the card's gate and one
    of its random runs replayed for each interface (with `one_random_run`, for the task's `sampled_interface`)."""
    problems = []
    reference = null = frame = deterministic = card = None
    try:
        spec = task.spec()
        reference, _, frame = run_trajectory(spec, spec.reference, last_frame=True)
        card = task.calibration if task.calibration is not None and not is_stale(spec, task.calibration) else None
        if card is not None:
            deterministic = reference.trace_sha256 == card["reference"]["trace_sha256"]
        else:
            deterministic = run_trajectory(spec, spec.reference)[0].trace_sha256 == reference.trace_sha256
        null, _ = run_trajectory(spec, spec.null)
    except (SandboxError, ValueError) as exc:
        problems.append(f"could not replay: {exc}")
    if reference is not None and not reference.success:
        problems.append(f"the reference reaches {reference.best:g}, not the target {reference.target:g}")
    if null is not None and null.success:
        problems.append(f"the null trajectory reaches the target ({null.best:g} of {null.target:g})")
    if deterministic is False:
        problems.append("the reference replays with another trace than " +
                        ("its calibration card's" if card is not None else "a second replay's"))
    if reference is not None:
        problems += _calibration_problems(spec, task.calibration,
                                          interfaces=(sampled_interface(spec),) if one_random_run else INTERFACES)
    validation = TaskValidation.objects.create(
        task=task, game_version=task.game_version, ok=not problems, requested_by=actor,
        reference_progress=reference.progress if reference else None,
        reference_success=reference.success if reference else None,
        null_progress=null.progress if null else None, null_success=null.success if null else None,
        deterministic=deterministic, trace_sha256=reference.trace_sha256 if reference else "",
        problems="\n".join(problems), frame_png=frame)
    audit(actor=actor, action="validated task", target=task,
          changes={"result": "passed" if validation.ok else "failed", "problems": problems})
    return validation


def _calibration_problems(spec, card, *, interfaces):
    """The calibration gate on the task's card, then a sample of its random runs replayed here: a card is the
    bundle author's measurement, and the site ranks nothing on a figure it has not reproduced."""
    reasons = gate(spec, card)
    if card is not None and not is_stale(spec, card):
        reasons += verify_task_sample(spec, card, out=lambda line: None, interfaces=interfaces)
    return [reason.removeprefix(f"{spec.id}: ") for reason in reasons]


def default_set_problems(task_set):
    """Why a task set may not be the default (docs/game-authors.md, "The calibration gate": random play at most 5 % SR and 20 % PG over the set,
    the solvers at least 90 %); [] when it may."""
    cards = [task.calibration for task in task_set.tasks.all()]
    missing = sum(card is None for card in cards)
    if missing:
        return [f"{missing} of its tasks have no calibration card"]
    return gate_task_set(cards)


def latest_validation(task):
    return task.validations.filter(game_version=task.game_version).order_by("-created").first()


def publish_task_set(*, actor, task_set):
    require(actor, "catalogue.publish_taskset")
    _publish(task_set=task_set, actor=actor)


def validate_and_publish_default(*, task_set, say):
    """The site's own set-up in the foreground (`load_games`): check every task of the draft default set, one
    after the other, then publish it (`publish_checked_default`)."""
    tasks = unchecked_tasks(task_set)
    for index, task in enumerate(tasks, start=1):
        say(f"  validated {index}/{len(tasks)} {task.task_id}: {outcome(check_default_task(task=task))}")
    publish_checked_default(task_set=task_set, say=say)


def unchecked_tasks(task_set, *, since=None):
    """The tasks of the set with no passing validation for their game version, in the board's order; with `since`,
    not those that failed one made since then (checked, and failed)."""
    tasks = list(task_set.tasks.light().order_by("game__level", "game__slug", "target"))
    latest = _latest_validations(tasks)

    def unchecked(validation):
        return not _passed(validation) and (since is None or validation is None or validation.created < since)
    return [task for task in tasks if unchecked(latest.get(task.pk))]


def _latest_validations(tasks):
    """{task pk: its latest validation for its game version} in one query (a first start asks every 2 s)."""
    versions = {task.pk: task.game_version for task in tasks}
    latest = {}
    for validation in TaskValidation.objects.filter(task__in=versions).defer("frame_png").order_by("created"):
        if validation.game_version == versions[validation.task_id]:
            latest[validation.task_id] = validation
    return latest


def check_default_task(*, task):
    """Validate a task of the default set unless it passed already (a message delivered again skips it); the
    validation. The set's 200 tasks sample the cards' random runs of both interfaces between them, one a task.
    Audited with no actor: the site's set-up, not a person."""
    validation = latest_validation(task)
    if _passed(validation):
        return validation
    return _validate(task=task, actor=None, one_random_run=True)


def outcome(validation):
    return "ok" if validation.ok else "FAILED: " + validation.problems.replace("\n", "; ")


def _passed(validation):
    return validation is not None and validation.ok


def publish_checked_default(*, task_set, say):
    """Publish the checked draft default set: the tasks that failed are left out of it (a bundled task that fails
    the gate does not ship; named in the log and the audit log), and the rest is refused as a maintainer's publish
    would be if the set as a whole fails its gate."""
    tasks = list(task_set.tasks.light())
    latest = _latest_validations(tasks)
    failing = [task for task in tasks if task.pk in latest and not latest[task.pk].ok]
    failed = {task.task_id: latest[task.pk].problems.splitlines()[0] for task in failing}
    if failed:
        task_set.tasks.remove(*failing)
        audit(actor=None, action="left failing tasks out of the task set", target=task_set, changes=failed)
        say(f"  {len(failed)} tasks fail validation and are left out of {task_set.slug}: {', '.join(failed)}")
    _publish(task_set=task_set, actor=None, as_default=True)
    bundle_loading.make_default_if_none(task_set=task_set)


def _publish(*, task_set, actor, as_default=False):
    task_set.refresh_from_db()
    if task_set.status != TaskSet.Status.DRAFT:
        raise CurationRefused(f"{task_set} is {task_set.get_status_display().lower()}; only a draft can be published")
    tasks = list(task_set.tasks.select_related("game"))
    if not tasks:
        raise CurationRefused(f"{task_set} has no tasks")
    not_validated, failed = [], []
    for task in tasks:
        validation = latest_validation(task)
        if validation is None:
            not_validated.append(task.task_id)
        elif not validation.ok:
            failed.append(f"{task.task_id} ({validation.problems.splitlines()[0]})")
    if not_validated or failed:
        raise CurationRefused(f"{task_set} cannot be published while tasks fail validation: "
                              + "; ".join(f"{len(found)} {reason}: {_a_few(found)}" for reason, found in
                                          (("not validated", not_validated), ("failed", failed)) if found))
    if as_default:
        _refuse_as_default(task_set)
    TaskSet.objects.filter(pk=task_set.pk).update(status=TaskSet.Status.PUBLISHED, published_at=timezone.now())
    audit(actor=actor, action="published task set", target=task_set, changes={"tasks": [t.task_id for t in tasks]})


NAMED_PER_REASON = 3  # a refusal names this many tasks of each reason and counts the rest (it may be about 200)


def _a_few(names):
    more = len(names) - NAMED_PER_REASON
    return ", ".join(names[:NAMED_PER_REASON]) + (f" and {more} more" if more > 0 else "")


def _refuse_as_default(task_set):
    problems = default_set_problems(task_set)
    if problems:
        raise CurationRefused(f"{task_set} cannot be the default task set: {'; '.join(problems)}")


def retire_task_set(*, actor, task_set):
    require(actor, "catalogue.publish_taskset")
    task_set.refresh_from_db()
    if task_set.status != TaskSet.Status.PUBLISHED:
        raise CurationRefused(f"{task_set} is not published")
    if task_set.is_default:
        raise CurationRefused(f"{task_set} is the default task set: make another one the default first")
    TaskSet.objects.filter(pk=task_set.pk).update(status=TaskSet.Status.RETIRED)
    audit(actor=actor, action="retired task set", target=task_set)


def make_default(*, actor, task_set):
    require(actor, "catalogue.publish_taskset")
    task_set.refresh_from_db()
    if task_set.status != TaskSet.Status.PUBLISHED:
        raise CurationRefused(f"{task_set} is not published: only a published task set can be the default")
    _refuse_as_default(task_set)
    with transaction.atomic():
        previous = TaskSet.objects.filter(is_default=True).exclude(pk=task_set.pk).first()
        TaskSet.objects.filter(is_default=True).update(is_default=False)
        TaskSet.objects.filter(pk=task_set.pk).update(is_default=True)
    audit(actor=actor, action="made default task set", target=task_set,
          changes={"previous": str(previous) if previous else None})


def import_bundle(*, actor, source_dir):
    """Import a bundle folder (from games/ or an unpacked archive): a new game or a new version."""
    require(actor, "catalogue.validate_task")
    report = bundle_loading.LoadReport()
    spec = bundle_loading.import_bundle(source_dir=source_dir, report=report)
    audit(actor=actor, action="imported bundle", target=Game.objects.get(slug=spec.slug),
          changes={"version": spec.version, "report": report.lines})
    return spec, report


def stored_game(spec):
    """The stored copy of an imported game version (what replays run against)."""
    return bundles.stored_spec(spec.slug, spec.version)


def import_archive(*, actor, data, name):
    require(actor, "catalogue.validate_task")
    tmp, folder = bundles.unpack_archive(data, name)
    try:
        return import_bundle(actor=actor, source_dir=folder)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _plain(value):
    return value if isinstance(value, (int, float, str, bool, type(None), list, dict)) else str(value)
