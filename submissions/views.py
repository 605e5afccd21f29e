
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from catalogue.models import TaskSet
from catalogue.selectors import published_default_set
from sandbox.protocol import MAX_LATENCY_MS

from . import services
from .forms import TokenForm, UploadForm
from .limits import LimitReached, charge
from .models import ApiToken, Submission, UploadLimits
from .selectors import submission_snapshot, user_submissions, user_tokens
from .uploads import UploadRejected, parse_upload


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
    return render(request, "submissions/submit.html", context, status=400 if errors else 200)


@require_GET
def submission(request, pk):
    found = get_object_or_404(Submission.objects.select_related("task_set", "user"), pk=pk)
    return render(request, "submissions/submission.html", {"submission": found, "snapshot": submission_snapshot(pk)})


@require_GET
def submission_docs(request):
    return render(request, "submissions/docs_submissions.html", {
        "limits": UploadLimits.current(), "task_set": published_default_set(), "max_latency_ms": MAX_LATENCY_MS})


@login_required
@require_GET
def account(request):
    return render(request, "submissions/account.html", {
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
        return redirect("submissions:account")
    if form.is_valid():
        _token, key = ApiToken.issue(user=request.user, name=form.cleaned_data["name"])
        request.session["new_api_key"] = key  # shown once, on the next page
    else:
        messages.error(request, "A token needs a name (at most 60 characters).")
    return redirect("submissions:account")


@login_required
@require_POST
def revoke_token(request, pk):
    token = get_object_or_404(ApiToken, pk=pk, user=request.user)
    ApiToken.objects.filter(pk=token.pk, revoked_at__isnull=True).update(revoked_at=timezone.now())
    messages.success(request, f"Token “{token.name}” revoked: it no longer works.")
    return redirect("submissions:account")


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
