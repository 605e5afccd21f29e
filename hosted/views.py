"""The evaluate page (how to evaluate an agent, hosted or by upload) and the client archive it offers."""
from django.conf import settings
from django.db.models import Count
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from catalogue import selectors as catalogue_selectors

from .models import HostedEvaluation, HostedEvaluationSettings

CLIENT_DIR = settings.BASE_DIR / "gameworld_client"
CLIENT_FILES = ("pyproject.toml", "README.md", "py.typed", "*.py")


@require_GET
def evaluate(request):
    task_set = catalogue_selectors.published_default_set()
    examples = catalogue_selectors.example_tasks(task_set) if task_set else []
    evaluations = []
    if request.user.is_authenticated:
        evaluations = HostedEvaluation.objects.filter(user=request.user).select_related(
            "task_set", "submission").annotate(episode_count=Count("episodes"))[:20]
    site = f"{request.scheme}://{request.get_host()}"
    return render(request, "hosted/evaluate.html", {
        "site": site, "task_set": task_set, "task_count": task_set.tasks.count() if task_set else 0,
        "examples": examples, "example": examples[0] if examples else None,
        "being_checked": catalogue_selectors.default_set_validation(), "evaluations": evaluations,
        "hosted_expiry_hours": HostedEvaluationSettings.current().hosted_expiry_hours,
        "client_url": site + reverse("hosted:client_archive")})


@require_GET
def client_archive(request):
    """The gameworld_client package as a source archive pip installs: `pip install <site>/evaluate/...zip`."""
    import io
    import zipfile

    from django.http import FileResponse

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for pattern in CLIENT_FILES:
            for path in sorted(CLIENT_DIR.glob(pattern)):
                info = zipfile.ZipInfo(f"gameworld-client/{path.name}", date_time=(2026, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                archive.writestr(info, path.read_bytes())
    buffer.seek(0)
    return FileResponse(buffer, as_attachment=True, filename="gameworld-client.zip", content_type="application/zip")
