"""Reads of human play: who counts as novice or expert where, which campaign task a volunteer gets next, and a
campaign's coverage and runs."""
from collections import defaultdict

from django.db.models import Count, Exists, OuterRef, Q
from django.utils import timezone

from catalogue.models import GENRES, LEVELS
from submissions.models import Run

from .models import (TAKES_A_SLOT, Assignment, CampaignMember, ExpertDesignation, HumanPlaySettings, PlaySession,
                      pseudonym)

KIND_NAMES = {Run.Kind.NOVICE.value: "novice", Run.Kind.EXPERT.value: "expert"}


def novice_games(*, user, games):
    """The novice rule, for open play and campaigns alike (the one place it is decided): a recorded attempt at a
    game counts as novice when it is the person's first contact with the game, with no practice and no recorded
    attempt of it before, finished or not. Returns the pks of the games, among `games`, where the person's next
    recorded attempt would."""
    games = list(games)
    played = set(PlaySession.objects.filter(user=user, task__game__in=games).values_list("task__game", flat=True))
    return {game.pk for game in games if game.pk not in played}


def baseline_kinds(*, user, games, today=None):
    """{game pk: the kind of baseline run the user's next recorded attempt at it gives}, in a few queries for all
    the games; games where it would count as neither (kept in their history, not counted) are left out.

    expert: marked by a maintainer for the game or its genre (from a date), or past the practice threshold;
    novice: as novice_games decides."""
    today = today or timezone.localdate()
    games = list(games)
    designations = ExpertDesignation.objects.filter(user=user, since__lte=today)
    expert_games = set(designations.filter(game__isnull=False).values_list("game_id", flat=True))
    expert_genres = set(designations.filter(game__isnull=True).values_list("genre", flat=True))
    threshold = HumanPlaySettings.current().practice_sessions_for_expert
    practised = dict(PlaySession.objects.filter(user=user, mode=PlaySession.Mode.PRACTICE,
                                                status=PlaySession.Status.FINISHED)
                     .values_list("task__game").annotate(n=Count("pk")).values_list("task__game", "n"))
    novices = novice_games(user=user, games=games)
    kinds = {}
    for game in games:
        if game.pk in expert_games or game.genre in expert_genres or practised.get(game.pk, 0) >= threshold:
            kinds[game.pk] = Run.Kind.EXPERT.value
        elif game.pk in novices:
            kinds[game.pk] = Run.Kind.NOVICE.value
    return kinds


def baseline_kind(*, user, game, today=None):
    """The kind of baseline run the user's next recorded attempt at the game gives; "" when neither."""
    return baseline_kinds(user=user, games=[game], today=today).get(game.pk, "")


def campaign_tasks(campaign):
    return list(campaign.task_set.tasks.light().order_by("game__level", "game__slug", "slug", "version"))


def taken_slots(campaign):
    """{(task pk, kind): {slot numbers held or filled}} (by their round 0: later rounds are the same volunteer's)."""
    taken = defaultdict(set)
    for task_id, kind, slot in campaign.assignments.filter(TAKES_A_SLOT, round=0).values_list("task_id", "kind",
                                                                                            "slot"):
        taken[(task_id, kind)].add(slot)
    return taken


def candidate_slots(*, campaign, user, today=None):
    """The slots the user could take, best first: [(task, kind, [free slot numbers])].

    The rule: the task whose runs of a kind the user can give are most missing, as a share of what the
    campaign asks (so a task needing 1 expert run and none done comes before one needing 3 novice runs with
    1 done). Ties: an expert run first (experts are scarcer), then the lower curriculum level, then the game's
    and the task's slug. Never a task the user already ran, or holds, for that kind."""
    tasks = campaign_tasks(campaign)
    kinds = baseline_kinds(user=user, games={t.game for t in tasks}, today=today)
    taken = taken_slots(campaign)
    own = set(campaign.assignments.filter(TAKES_A_SLOT, user=user).values_list("task_id", "kind"))
    own |= set(Run.objects.filter(player=user, kind__in=[Run.Kind.NOVICE, Run.Kind.EXPERT])
               .values_list("task_id", "kind"))
    candidates = []
    for task in tasks:
        kind = kinds.get(task.game_id)
        needed = campaign.needed(kind) if kind else 0
        if not needed or (task.pk, kind) in own:
            continue
        free = [slot for slot in range(needed) if slot not in taken[(task.pk, kind)]]
        if free:
            key = (-len(free) / needed, kind != Run.Kind.EXPERT, task.game.level, task.game.slug, task.slug,
                   task.version)
            candidates.append((key, task, kind, free))
    candidates.sort(key=lambda c: c[0])
    return [(task, kind, free) for _, task, kind, free in candidates]


def next_round(*, campaign, user):
    """The user's done assignment whose next round the campaign still asks of them (the earliest), or None."""
    if campaign.rounds <= 1:
        return None
    done = campaign.assignments.filter(user=user, status=Assignment.Status.DONE, round__lt=campaign.rounds - 1)
    later = campaign.assignments.filter(TAKES_A_SLOT, user=user, task=OuterRef("task"), kind=OuterRef("kind"),
                                        round=OuterRef("round") + 1)
    return done.filter(~Exists(later)).select_related("task").order_by("created", "pk").first()


def held_assignment(*, campaign, user):
    return campaign.assignments.filter(user=user, status=Assignment.Status.HELD).select_related(
        "task__game", "session").first()


def assignment_of(session):
    """The campaign assignment a play session belongs to: the one it is the recorded attempt of, or for a
    practice session the assignment of the same task the player holds; None outside campaigns."""
    if session.mode == PlaySession.Mode.BASELINE:
        return Assignment.objects.filter(session=session).select_related("campaign").first()
    return Assignment.objects.filter(user=session.user_id, task=session.task_id,
                                     status=Assignment.Status.HELD).select_related("campaign").first()


def coverage(campaign):
    """What the campaign page shows: per task, game, genre and level, for each kind, runs done, held (in play)
    and needed; players; runs still needed."""
    tasks = campaign_tasks(campaign)
    counts = defaultdict(int)
    for task_id, kind, status, n in campaign.assignments.filter(TAKES_A_SLOT, round=0).values_list(
            "task_id", "kind", "status").annotate(n=Count("pk")).values_list("task_id", "kind", "status", "n"):
        counts[(task_id, kind, status)] = n
    kinds = [Run.Kind.NOVICE.value, Run.Kind.EXPERT.value]
    rows = []
    for task in tasks:
        cells = {}
        for kind in kinds:
            needed = campaign.needed(kind)
            done = min(counts[(task.pk, kind, Assignment.Status.DONE)], needed)
            cells[kind] = {"kind": kind, "needed": needed, "done": done,
                           "held": counts[(task.pk, kind, Assignment.Status.HELD)], "missing": max(needed - done, 0)}
        rows.append({"task": task, "game": task.game, "cells": cells})
    active = [k for k in kinds if campaign.needed(k)]

    def grouped(key, names):
        groups = {}
        for row in rows:
            group = groups.setdefault(key(row), {"name": names.get(key(row), key(row)), "tasks": 0,
                                                  "cells": {k: {"kind": k, "needed": 0, "done": 0, "held": 0,
                                                                "missing": 0} for k in kinds}})
            group["tasks"] += 1
            for kind in kinds:
                for field in ("needed", "done", "held", "missing"):
                    group["cells"][kind][field] += row["cells"][kind][field]
        return list(groups.values())

    def shown(items):
        """Each item's cells of the kinds the campaign asks for, in order, with the share done (0-1)."""
        for item in items:
            for cell in item["cells"].values():
                cell["share"] = f"{cell['done'] / cell['needed']:.2f}" if cell["needed"] else "0"
                cell["percent"] = round(100.0 * cell["done"] / cell["needed"]) if cell["needed"] else None
            item["shown"] = [item["cells"][k] for k in active]
        return items

    totals = shown(grouped(lambda row: "all", {"all": "All tasks"}))[0] if rows else None
    done_by = campaign.assignments.filter(status=Assignment.Status.DONE)
    return {
        "rows": shown(rows), "kinds": active,
        "games": shown(grouped(lambda row: row["game"].title, {})),
        "genres": shown(grouped(lambda row: row["game"].genre, dict(GENRES))),
        "levels": shown(sorted(grouped(lambda row: row["game"].level, {n: f"Level {n}" for n, _ in LEVELS}),
                               key=lambda g: g["name"])),
        "totals": totals,
        "members": shown_members(campaign).count(),
        "players": done_by.values("user").distinct().count(),
        "in_play": campaign.assignments.filter(status=Assignment.Status.HELD).count(),
        "runs_done": done_by.count(),
        "runs_missing": sum(c["missing"] for row in rows for c in row["cells"].values()),
    }


EXPORT_FIELDS = ["task", "game", "genre", "level", "kind", "round", "player", "progress", "success", "actions", "attempts",
                 "invalid_actions", "seed", "date", "run_id"]


def export_rows(campaign):
    """The campaign's verified runs for a paper's appendix: players by pseudonym unless they opted in to their
    name. Progress in 0-1 as the oracle gives it; date is when the server's replay verified the run."""
    named = set(CampaignMember.objects.filter(campaign=campaign, show_name=True).values_list("user_id", flat=True))
    done = campaign.assignments.filter(status=Assignment.Status.DONE, run__status=Run.Status.VERIFIED).select_related(
        "run", "task__game", "user").order_by("task__game__level", "task__game__slug", "task__slug", "kind", "round", "run__pk")
    rows = []
    for assignment in done:
        run, task = assignment.run, assignment.task
        rows.append({
            "task": task.task_id, "game": task.game.slug, "genre": task.game.genre, "level": task.game.level,
            "kind": assignment.run_kind, "round": assignment.round,
            "player": assignment.user.username if assignment.user_id in named
            else pseudonym(campaign=campaign, user_id=assignment.user_id),
            "progress": run.progress, "success": run.success, "actions": run.actions_used,
            "attempts": run.attempts, "invalid_actions": run.invalid_actions, "seed": run.seed,
            "date": run.verified_at.isoformat() if run.verified_at else None, "run_id": run.pk})
    return rows


def shown_members(campaign):
    """The volunteers the campaign's page counts and names: those taking part, and those who withdrew their consent
    but left runs in the campaign."""
    done = campaign.assignments.filter(status=Assignment.Status.DONE).values("user")
    return campaign.members.filter(Q(consent_withdrawn_at__isnull=True) | Q(user__in=done))


def volunteers(campaign):
    """The campaign's volunteers as the page names them, with their runs done."""
    done = dict(campaign.assignments.filter(status=Assignment.Status.DONE).values_list("user")
                .annotate(n=Count("pk")).values_list("user", "n"))
    members = shown_members(campaign).select_related("user").order_by("joined_at")
    return [{"name": m.public_name, "named": m.show_name, "runs": done.get(m.user_id, 0)} for m in members]


def memberships(*, user):
    """The campaigns the user joined, for their account page: the member row (consent given, withdrawn or not
    yet), their runs the campaign counts and those they took out, and whether they hold a task of it."""
    runs = defaultdict(int)
    for campaign_id, status, n in Assignment.objects.filter(
            user=user, status__in=[Assignment.Status.DONE, Assignment.Status.WITHDRAWN]).values_list(
            "campaign", "status").annotate(n=Count("pk")).values_list("campaign", "status", "n"):
        runs[(campaign_id, status)] = n
    holding = set(Assignment.objects.filter(user=user, status=Assignment.Status.HELD).values_list("campaign",
                                                                                                  flat=True))
    members = CampaignMember.objects.filter(user=user).select_related("campaign").order_by("-joined_at")
    return [{"member": m, "campaign": m.campaign, "runs": runs[(m.campaign_id, Assignment.Status.DONE)],
             "taken_out": runs[(m.campaign_id, Assignment.Status.WITHDRAWN)], "holds": m.campaign_id in holding}
            for m in members]
