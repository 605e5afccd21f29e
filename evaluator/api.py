"""The JSON API: token-authenticated uploads and public status, described by /api/openapi.json.

Every answer under /api/ is JSON and documented there, errors included: an unknown path or id is a JSON 404,
a method an operation does not take a JSON 405 with `Allow`. No view uses the session cookie (the token is
the credential), so none needs Django's CSRF check, which would otherwise answer an HTML 403 first.
"""
import hashlib
from functools import wraps

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpResponse, JsonResponse
from django.urls import reverse
from django.utils.cache import get_conditional_response
from django.utils.http import quote_etag
from django.views.decorators.csrf import csrf_exempt

from . import services
from .limits import LimitReached, charge
from .models import ApiToken, Submission, UploadLimits
from .openapi import openapi_document
from .selectors import submission_snapshot, unless_written
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


def allow(*methods):
    """Take only these methods (GET also answers HEAD); any other gets a JSON 405 naming them."""
    allowed = set(methods) | ({"HEAD"} if "GET" in methods else set())

    def decorator(view):
        @csrf_exempt
        @wraps(view)
        def checked(request, *args, **kwargs):
            if request.method not in allowed:
                response = _error(405, "(method)", f"{request.method} is not allowed here; use "
                                                   f"{' or '.join(sorted(allowed))}")
                response["Allow"] = ", ".join(sorted(allowed))
                return response
            return view(request, *args, **kwargs)
        return checked
    return decorator


@allow("POST")
def submissions(request):
    user = _token_user(request)
    if user is None:
        return _error(401, "Authorization", "send `Authorization: Token <key>` with an active API token "
                                            "(create one on your account page)")
    try:
        charge("upload", who=user.pk)
    except LimitReached as reached:
        response = _error(429, "(upload)", str(reached))
        response["Retry-After"] = str(reached.retry_after_s)
        return response
    try:
        body = request.body
    except RequestDataTooBig:
        return _error(413, "(file)", f"the upload is larger than the site accepts "
                                     f"({settings.DATA_UPLOAD_MAX_MEMORY_SIZE:,} bytes)")
    try:
        parsed = parse_upload(body, user=user, limits=UploadLimits.current())
    except UploadRejected as rejected:
        return JsonResponse({"errors": rejected.errors}, status=400)
    submission, created = services.submit_upload(user=user, parsed=parsed)
    submission.refresh_from_db()  # queued by now, once the upload committed
    return JsonResponse({**submission.progress_dict(), "created": created,
                         "url": request.build_absolute_uri(submission.get_absolute_url()),
                         "status_url": request.build_absolute_uri(reverse("api:submission", args=[submission.pk]))},
                        status=201 if created else 200)


@allow("GET")
def submission(request, pk):
    """`pk` is any path segment: one that is not a submission's id is a JSON 404 like a missing one."""
    found = int(pk) if pk.isascii() and pk.isdigit() and len(pk) <= 18 else None
    try:
        body, etag = unless_written(("submission_status", found), lambda: _status_body(found))
    except Submission.DoesNotExist:
        return _error(404, "id", f"no submission {pk[:40]!r}")
    # A client polling with If-None-Match is told 304 while nothing changed (no body sent, nothing to parse).
    response = get_conditional_response(request, etag=etag) or HttpResponse(body, content_type="application/json")
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    return response


def _status_body(submission_id):
    """The status answer's JSON and its ETag (polled: encoded once for as long as nothing is written)."""
    body = JsonResponse(submission_snapshot(submission_id)).content
    return body, quote_etag(hashlib.sha256(body).hexdigest()[:24])


@allow("GET")
def schema(request):
    return JsonResponse(submission_schema(), json_dumps_params={"indent": 2})


@csrf_exempt
def not_found(request, rest=""):
    return _error(404, "(path)", f"no API at {request.path[:200]!r}; see /api/openapi.json")


@allow("GET")
def openapi(request):
    return JsonResponse(openapi_document(request.build_absolute_uri("/")), json_dumps_params={"indent": 2})

