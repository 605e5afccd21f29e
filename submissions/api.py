"""The JSON API: token-authenticated uploads and public status, described by /api/openapi.json.

Every answer under /api/ is JSON and documented there, errors included: an unknown path or id is a JSON 404,
a method an operation does not take a JSON 405 with `Allow`. No view uses the session cookie (the token is
the credential), so none needs Django's CSRF check, which would otherwise answer an HTML 403 first.
"""
from functools import wraps

from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import RequestDataTooBig
from django.http import HttpResponse, JsonResponse
from django.urls import reverse
from django.views.decorators.cache import cache_control
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import condition

from catalogue import data_version

from . import services
from .limits import LimitReached, charge
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


STATUS_SECONDS = 3600  # a status answer kept in the shared cache under the data version (clients poll it)


def _status_etag(request, pk):
    """The status changes only with the data: a client polling with If-None-Match is told 304 (no body sent,
    nothing read or parsed) until something is written."""
    return str(data_version.current())


@allow("GET")
@cache_control(no_cache=True)
@condition(etag_func=_status_etag)
def submission(request, pk):
    """`pk` is any path segment: one that is not a submission's id is a JSON 404 like a missing one."""
    found = int(pk) if pk.isascii() and pk.isdigit() and len(pk) <= 18 else None
    try:
        body = cache.get_or_set(f"submission-status.{found}", lambda: JsonResponse(submission_snapshot(found)).content,
                                STATUS_SECONDS, version=data_version.current())
    except Submission.DoesNotExist:
        return _error(404, "id", f"no submission {pk[:40]!r}")
    return HttpResponse(body, content_type="application/json")


@allow("GET")
def schema(request):
    return JsonResponse(submission_schema(), json_dumps_params={"indent": 2})


@csrf_exempt
def not_found(request, rest=""):
    return _error(404, "(path)", f"no API at {request.path[:200]!r}; see /api/openapi.json")


@allow("GET")
def openapi(request):
    return JsonResponse(openapi_document(request.build_absolute_uri("/")), json_dumps_params={"indent": 2})

