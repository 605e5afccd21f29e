"""The JSON API: token-authenticated uploads and public status, described by /api/openapi.json."""
from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import JsonResponse
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods

from . import services
from .models import ApiToken, Submission, UploadLimits
from .openapi import openapi_document
from .selectors import submission_snapshot
from .uploads import UploadRejected, parse_upload, submission_schema


def _token_user(request):
    header = request.headers.get("Authorization", "")
    scheme, _, key = header.partition(" ")
    if scheme not in ("Token", "Bearer") or not key:
        return None
    token = ApiToken.authenticate(key.strip())
    return token.user if token else None


def _error(status, field, message):
    return JsonResponse({"errors": [{"field": field, "message": message}]}, status=status)


@csrf_exempt
@require_http_methods(["POST"])
def submissions(request):
    user = _token_user(request)
    if user is None:
        return _error(401, "Authorization", "send `Authorization: Token <key>` with an active API token "
                                            "(create one on your account page)")
    try:
        body = request.body
    except RequestDataTooBig:
        return _error(413, "(file)", f"the upload is larger than the site accepts "
                                     f"({settings.DATA_UPLOAD_MAX_MEMORY_SIZE:,} bytes)")
    try:
        parsed = parse_upload(body, user=user, limits=UploadLimits.current())
    except UploadRejected as rejected:
        return JsonResponse({"errors": rejected.errors}, status=400)
    submission = services.create_submission(user=user, parsed=parsed)
    submission.refresh_from_db()  # queued by now, once the upload committed
    return JsonResponse({**submission.progress_dict(),
                         "url": request.build_absolute_uri(submission.get_absolute_url()),
                         "status_url": request.build_absolute_uri(reverse("api:submission", args=[submission.pk]))},
                        status=201)


@require_GET
def submission(request, pk):
    try:
        return JsonResponse(submission_snapshot(pk))
    except Submission.DoesNotExist:
        return _error(404, "id", f"no submission {pk}")


@require_GET
def schema(request):
    return JsonResponse(submission_schema(), json_dumps_params={"indent": 2})


@require_GET
def openapi(request):
    return JsonResponse(openapi_document(request.build_absolute_uri("/")), json_dumps_params={"indent": 2})

