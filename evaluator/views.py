import re

from django.conf import settings
from django.templatetags.static import static
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from . import services
from .limits import LimitReached, charge
from .forms import TokenForm, UploadForm
from .models import ApiToken, Game, Submission, TaskSet, UploadLimits
from .selectors import (game_detail, game_library, published_default_set, submission_snapshot, user_submissions,
                        user_tokens)
from .uploads import UploadRejected, parse_upload


@require_GET
def games(request):
    return render(request, "evaluator/games.html", {"games": game_library()})


@require_GET
def game(request, slug):
    try:
        found = game_detail(slug)
    except Game.DoesNotExist:
        raise Http404(f"No game {slug!r}") from None
    manifest = found.manifest
    tasks = list(found.current_tasks)
    intro, own, outro = shared_sentences([task.instruction for task in tasks])
    context = {
        "game": found, "tasks": list(zip(tasks, own)), "intro": intro, "outro": outro,
        "ranked": set(TaskSet.objects.exclude(status=TaskSet.Status.DRAFT).filter(tasks__in=tasks)
                      .values_list("tasks__pk", flat=True)),
        "keys": manifest["keys"], "pointer": manifest["pointer"], "viewport": manifest["viewport"],
        "semantic_actions": manifest["semantic_actions"],
        "state_fields": sorted(manifest["state_fields"].items()),
    }
    return render(request, "evaluator/game.html", context)


SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")


def shared_sentences(instructions):
    """(opening, [each instruction's own part], closing): the sentences every instruction of two or more starts
    and ends with, so that a game page says how the game plays once and each task what it asks."""
    split = [SENTENCE_END.split(text) for text in instructions]
    if len(split) < 2:
        return "", list(instructions), ""
    shortest = min(len(sentences) for sentences in split)
    head = 0
    while head < shortest - 1 and len({tuple(s[:head + 1]) for s in split}) == 1:
        head += 1
    tail = 0
    while head + tail < shortest - 1 and len({tuple(s[len(s) - tail - 1:]) for s in split}) == 1:
        tail += 1
    return (" ".join(split[0][:head]), [" ".join(s[head:len(s) - tail]) for s in split],
            " ".join(split[0][len(split[0]) - tail:]) if tail else "")


@require_GET
def game_frame(request, slug):
    found = list(Game.objects.filter(slug=slug).values_list("frame_png", flat=True))
    if not found:
        raise Http404(f"No game {slug!r}")
    if not found[0]:  # a first start's worker is still capturing it: a placeholder, asked for again next time
        response = redirect(static("img/frame-pending.svg"))
        response["Cache-Control"] = "no-store"
        return response
    response = HttpResponse(bytes(found[0]), content_type="image/png")
    response["Cache-Control"] = "public, max-age=300"
    return response


@login_required
@require_http_methods(["GET", "POST"])
def submit(request):
    form = UploadForm(request.POST or None, request.FILES or None)
    errors = []
    if request.method == "POST" and form.is_valid():
        try:
            charge("upload", who=request.user.pk)
            parsed = parse_upload(form.payload(), user=request.user, limits=UploadLimits.current())
        except LimitReached as reached:
            errors = [{"field": "(upload)", "message": str(reached)}]
        except UploadRejected as rejected:
            errors = rejected.errors
        else:
            submission, created = services.submit_upload(user=request.user, parsed=parsed)
            if not created:
                messages.info(request, f"You uploaded these runs before (submission {submission.pk}), maybe in another "
                                       "file or order: here it is; it is stored once.")
            return redirect(submission)
    context = {"form": form, "errors": errors, "limits": UploadLimits.current(),
               "task_sets": TaskSet.objects.filter(status=TaskSet.Status.PUBLISHED)}
    return render(request, "evaluator/submit.html", context, status=400 if errors else 200)


@require_GET
def submission(request, pk):
    found = get_object_or_404(Submission.objects.select_related("task_set", "user"), pk=pk)
    return render(request, "evaluator/submission.html", {"submission": found, "snapshot": submission_snapshot(pk)})


@require_GET
def submission_docs(request):
    return render(request, "evaluator/docs_submissions.html", {
        "limits": UploadLimits.current(), "task_set": published_default_set()})


@login_required
@require_GET
def account(request):
    return render(request, "evaluator/account.html", {
        "tokens": user_tokens(request.user), "submissions": user_submissions(request.user)[:50],
        "form": TokenForm(), "new_key": request.session.pop("new_api_key", None)})


@login_required
@require_POST
def create_token(request):
    form = TokenForm(request.POST)
    try:
        charge("token", who=request.user.pk)
    except LimitReached as reached:
        messages.error(request, f"No new token: {reached}.")
        return redirect("evaluator:account")
    if form.is_valid():
        _token, key = ApiToken.issue(user=request.user, name=form.cleaned_data["name"])
        request.session["new_api_key"] = key  # shown once, on the next page
    else:
        messages.error(request, "A token needs a name (at most 60 characters).")
    return redirect("evaluator:account")


@login_required
@require_POST
def revoke_token(request, pk):
    token = get_object_or_404(ApiToken, pk=pk, user=request.user)
    ApiToken.objects.filter(pk=token.pk, revoked_at__isnull=True).update(revoked_at=timezone.now())
    messages.success(request, f"Token “{token.name}” revoked: it no longer works.")
    return redirect("evaluator:account")


@require_http_methods(["GET", "POST"])
def signup(request):
    form = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            charge("signup", who=request.META["REMOTE_ADDR"])
        except LimitReached as reached:
            form.add_error(None, f"No new account from your address for now: {reached}.")
            return render(request, "registration/signup.html", {"form": form}, status=429)
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        wanted = request.GET.get("next", "")
        safe = url_has_allowed_host_and_scheme(wanted, allowed_hosts={request.get_host()},
                                               require_https=request.is_secure())
        return redirect(wanted if wanted and safe else settings.LOGIN_REDIRECT_URL)
    return render(request, "registration/signup.html", {"form": form})
