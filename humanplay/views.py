from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.defaultfilters import pluralize
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from catalogue.models import Task
from catalogue.selectors import latest_tasks
from leaderboard import selectors
from leaderboard.exports import csv_response
from sandbox.protocol import describe_action
from submissions.limits import LimitReached
from submissions.models import Run

from . import charts, frames, services
from . import selectors as campaign_selectors
from .models import Assignment, Campaign, CampaignMember, HumanPlaySettings, PlayerProfile, PlaySession


# The campaign page's task table shows this many tasks a page (the genres, levels and the heat map cover them all).
TASKS_PER_PAGE = 25


def current_task(game_slug, task_slug):
    tasks = latest_tasks(list(Task.objects.select_related("game").filter(game__slug=game_slug, slug=task_slug)))
    if not tasks:
        raise Http404(f"No task {game_slug}/{task_slug}")
    return tasks[0]


# A recorded attempt that would be the player's novice run is confirmed on its page first: the page asked with
# ?confirm=novice shows the confirmation in place of the start buttons.
CONFIRM_NOVICE = "?confirm=novice#confirm-novice"


def confirming_novice(request, kind):
    return request.GET.get("confirm") == "novice" and kind == Run.Kind.NOVICE


@require_GET
def task_page(request, game, task):
    found = current_task(game, task)
    kind = (campaign_selectors.baseline_kind(user=request.user, game=found.game)
            if request.user.is_authenticated else None)
    return render(request, "humanplay/task.html", {
        "task": found, "game": found.game, "baseline_kind": kind, "confirm_novice": confirming_novice(request, kind),
        "rules": HumanPlaySettings.current()})


@login_required
@require_POST
def start(request, game, task):
    found = current_task(game, task)
    mode = request.POST.get("mode")
    if mode not in PlaySession.Mode.values:
        messages.error(request, "Choose practice or a recorded baseline attempt.")
        return redirect("humanplay:task", game=game, task=task)
    try:
        if mode == PlaySession.Mode.BASELINE:
            session = services.start_recorded_attempt(user=request.user, task=found,
                                                      novice_confirmed=request.POST.get("novice_confirmed") == "1")
        else:
            session = services.start_session(user=request.user, task=found, mode=mode)
    except services.NoviceUnconfirmed:
        return redirect(reverse("humanplay:task", args=[game, task]) + CONFIRM_NOVICE)
    except LimitReached as reached:
        messages.error(request, f"No new game for now: {reached}.")
        return redirect("humanplay:task", game=game, task=task)
    return redirect(session)


# The on-screen keys of the play page (for touch screens): the arrows a game has in one row (left, up, down,
# right: a cross would leave empty slots, and take three rows of the phone's first screen), the other keys as buttons.
ARROWS = {"ArrowLeft": "◀", "left": "◀", "ArrowUp": "▲", "up": "▲", "ArrowDown": "▼", "down": "▼",
          "ArrowRight": "▶", "right": "▶"}


KEY_LABELS = {"Space": "Space", "Enter": "Enter", "ShiftLeft": "Shift", "ShiftRight": "Shift", "Escape": "Esc",
              "Backspace": "⌫", "a": "A", "b": "B", "start": "Start", "select": "Select"}


def on_screen_keys(keys):
    """{arrows: [(key, symbol)], buttons: [(key, label)]} for a game's keys."""
    return {"arrows": [(key, symbol) for key, symbol in ARROWS.items() if key in keys],
            "buttons": [(key, KEY_LABELS.get(key, key.removeprefix("Key").removeprefix("Digit")))
                        for key in keys if key not in ARROWS]}


@login_required
@require_GET
def session_page(request, pk):
    session = get_object_or_404(PlaySession.objects.select_related("task__game", "run"), pk=pk, user=request.user)
    game = session.task.game
    manifest = game.manifest
    return render(request, "humanplay/play.html", {
        "session": session, "task": session.task, "game": game, "keys": manifest["keys"],
        "pad": on_screen_keys(manifest["keys"]),
        "pointer": manifest["pointer"], "viewport": manifest["viewport"],
        "semantic_actions": manifest["semantic_actions"], "frame_count": frames.count(session),
        "actions": [describe_action(a) for a in session.action_list()] if session.status != PlaySession.Status.ACTIVE else [],
        "rules": HumanPlaySettings.current(),
        "compare": selectors.task_comparison(session.task) if session.status == PlaySession.Status.FINISHED else None,
        "assignment": campaign_selectors.assignment_of(session)})


@login_required
@require_GET
def session_frame(request, pk, index):
    session = get_object_or_404(PlaySession, pk=pk, user=request.user)
    if not frames.has(session.pk, index):
        raise Http404("no such frame")
    response = HttpResponse(frames.read(session.pk, index), content_type="image/jpeg")
    response["Cache-Control"] = "private, max-age=3600"
    return response


class ProfileForm(forms.ModelForm):
    class Meta:
        model = PlayerProfile
        fields = ["experience", "about"]


@login_required
@require_http_methods(["GET", "POST"])
def profile(request):
    form = ProfileForm(request.POST or None, instance=services.profile_for(user=request.user))
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, "Profile saved.")
        return redirect("humanplay:profile")
    sessions = PlaySession.objects.filter(user=request.user).select_related("task__game", "run")[:50]
    return render(request, "humanplay/profile.html", {"form": form, "sessions": sessions})


@require_GET
def rules(request):
    return render(request, "humanplay/rules.html", {"rules": HumanPlaySettings.current()})


def _campaign(slug):
    return get_object_or_404(Campaign.objects.select_related("task_set"), slug=slug)


@require_GET
def campaigns(request):
    return render(request, "humanplay/campaigns.html", {"campaigns": Campaign.objects.select_related("task_set")})


@require_GET
def campaign_page(request, slug):
    campaign = _campaign(slug)
    services.release_abandoned_assignments(campaign=campaign)
    coverage = campaign_selectors.coverage(campaign)
    member = held = None
    if request.user.is_authenticated:
        member = CampaignMember.objects.filter(campaign=campaign, user=request.user).first()
        held = campaign_selectors.held_assignment(campaign=campaign, user=request.user) if member else None
    return render(request, "humanplay/campaign.html", {
        "campaign": campaign, "coverage": coverage, "member": member, "held": held,
        "tasks_page": Paginator(coverage["rows"], TASKS_PER_PAGE).get_page(request.GET.get("page")),
        "volunteers": campaign_selectors.volunteers(campaign), "state": campaign.state(),
        "heatmap": charts.coverage_heatmap(coverage)})


@login_required
@require_POST
def campaign_join(request, slug):
    campaign = _campaign(slug)
    try:
        services.join_campaign(campaign=campaign, user=request.user, code=request.POST.get("code", ""))
    except services.CampaignError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, f"You joined {campaign.title}. Press “Play the next task” when you are ready.")
    return redirect(campaign)


@login_required
@require_POST
def campaign_name(request, slug):
    campaign = _campaign(slug)
    show = request.POST.get("show_name") == "1"
    if services.set_show_name(campaign=campaign, user=request.user, show=show):
        messages.success(request, "Your name is shown on this campaign's page and in its exports." if show
                         else "You appear under your pseudonym.")
    return redirect(campaign)


@login_required
@require_POST
def campaign_consent(request, slug):
    """Agree to the consent text again, after withdrawing it."""
    campaign = _campaign(slug)
    if request.POST.get("consent") != "1":
        messages.error(request, "Tick “I agree” under the consent text to take part again.")
    elif services.give_consent(campaign=campaign, user=request.user):
        messages.success(request, "You agreed to the consent text again: press “Play the next task” when you are "
                                  "ready.")
    return redirect(campaign)


@login_required
@require_POST
def campaign_withdraw(request, slug):
    """Withdraw consent (from the account page), choosing whether past runs leave the campaign's exports."""
    campaign = _campaign(slug)
    runs = request.POST.get("runs")
    account = reverse("submissions:account") + "#campaigns"
    if runs not in ("keep", "remove"):
        messages.error(request, f"Choose whether your past runs stay in the exports and figures of {campaign.title}, "
                                f"then withdraw.")
        return redirect(account)
    try:
        released, removed, kept = services.withdraw_consent(campaign=campaign, user=request.user,
                                                            remove_runs=runs == "remove")
    except services.CampaignError as error:
        messages.error(request, str(error))
        return redirect(account)
    said = [f"You withdrew your consent to {campaign.title}: it gives you no more tasks"
            + (", and the task you held went back." if released else ".")]
    if removed:
        said.append(f"Your {removed} run{pluralize(removed)} left its exports and figures (stored on the server for "
                    f"the maintainers' audit).")
    if kept:
        said.append(f"Your {kept} run{pluralize(kept)} stay{'' if kept != 1 else 's'} in its exports and figures; you "
                    f"can still take {'them' if kept != 1 else 'it'} out here.")
    said.append("To take part again, agree to its consent text on the campaign page.")
    messages.success(request, " ".join(said))
    return redirect(account)


@login_required
@require_POST
def campaign_next(request, slug):
    campaign = _campaign(slug)
    try:
        assignment = services.assign_next(campaign=campaign, user=request.user)
    except services.CampaignError as error:
        messages.error(request, str(error))
        return redirect(campaign)
    if assignment is None:
        messages.info(request, "No task of this campaign needs a run you can give right now. Thank you!")
        return redirect(campaign)
    return redirect(assignment)


def _assignment(request, slug, pk):
    return get_object_or_404(Assignment.objects.select_related("campaign", "task__game", "session"),
                             campaign__slug=slug, pk=pk, user=request.user)


@login_required
@require_GET
def assignment_page(request, slug, pk):
    assignment = _assignment(request, slug, pk)
    services.release_abandoned_assignments(campaign=assignment.campaign)
    assignment.refresh_from_db()
    member = CampaignMember.objects.get(campaign=assignment.campaign, user=request.user)
    practice = PlaySession.objects.filter(user=request.user, task=assignment.task, mode=PlaySession.Mode.PRACTICE,
                                          created__gte=assignment.created).order_by("-pk")
    confirm = (assignment.status == Assignment.Status.HELD and not assignment.session_id
               and confirming_novice(request, assignment.run_kind))
    return render(request, "humanplay/assignment.html", {
        "assignment": assignment, "campaign": assignment.campaign, "task": assignment.task,
        "game": assignment.task.game, "member": member, "practice": practice[:5], "confirm_novice": confirm})


@login_required
@require_POST
def assignment_action(request, slug, pk, action):
    assignment = _assignment(request, slug, pk)
    try:
        if action == "start":
            return redirect(services.start_assignment(
                assignment=assignment, user=request.user, consent=request.POST.get("consent") == "1",
                novice_confirmed=request.POST.get("novice_confirmed") == "1"))
        if action == "practise":
            return redirect(services.practise_assignment(assignment=assignment, user=request.user))
        if action == "release":
            services.release_assignment(assignment=assignment, user=request.user)
            messages.success(request, "The task went back to the campaign.")
            return redirect(assignment.campaign)
        raise Http404("no such action")
    except services.NoviceUnconfirmed:
        return redirect(assignment.get_absolute_url() + CONFIRM_NOVICE)
    except (services.CampaignError, LimitReached) as error:
        messages.error(request, str(error))
        return redirect(assignment)


@require_GET
def campaign_export(request, slug, fmt):
    import json

    if fmt not in ("csv", "json"):
        raise Http404("exports are runs.csv and runs.json")
    campaign = _campaign(slug)
    rows = campaign_selectors.export_rows(campaign)
    filename = f"campaign-{campaign.slug}-runs.{fmt}"
    if fmt == "csv":
        return csv_response(campaign_selectors.EXPORT_FIELDS, rows, filename)
    body = json.dumps({"campaign": campaign.slug, "title": campaign.title, "task_set": campaign.task_set.slug,
                       "fields": campaign_selectors.EXPORT_FIELDS, "runs": rows}, indent=1)
    response = HttpResponse(body, content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
