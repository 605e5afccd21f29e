"""The OpenAPI 3.1 description of the JSON API, served at /api/openapi.json."""
import copy

from catalogue.models import TaskSet

from .uploads import submission_schema

ERRORS = {"type": "object", "required": ["errors"], "properties": {"errors": {"type": "array", "items": {
    "type": "object", "required": ["field", "message"],
    "properties": {"field": {"type": "string", "description": "The field (and run) at fault, e.g. runs[3].seed"},
                   "message": {"type": "string"}}}}}}
PROGRESS = {"type": "object", "properties": {
    "id": {"type": "integer"},
    "status": {"enum": ["received", "queued", "verifying", "verified", "rejected"]},
    "runs_done": {"type": "integer"}, "runs_total": {"type": "integer"},
    "reason": {"type": "string", "description": "Why a submission was rejected."},
    "finished": {"type": "boolean"},
    "provenance": {"enum": ["sealed", "hosted", "uploaded"], "description":
                   "How the server received the runs (never what a file says): `sealed`, played live at seeds the "
                   "server drew and committed to (the only entries the default board ranks); `hosted`, played live "
                   "on public seeds; `uploaded`, a file. `hosted` and `uploaded` entries are actions chosen by the "
                   "submitter on public seeds, checked by replay, shown apart and never ranked."},
    "copy_of": {"type": ["integer", "null"], "description":
                "The earlier submission with the same runs (task, seed, actions), by anyone: a copy is shown, never "
                "ranked."},
    "runs": {"type": "array", "description": "Each run's figures, claimed and verified (status answer only); a "
             "sealed run also has `commitment` (shown when its episode opened), `salt` and `commitment_checks`: "
             "whether sha256(f\"{seed}:{salt}\") equals the commitment.", "items": {"type": "object"}}}}


def _json_error(description):
    return {"description": description, "content": {"application/json": {
        "schema": {"$ref": "#/components/schemas/Errors"}}}}


NOT_ALLOWED = _json_error("The operation does not take this method (the `Allow` header lists those it takes)")


def upload_schema():
    """The submission schema with `task_set` limited to the task sets that take uploads now."""
    schema = copy.deepcopy(submission_schema())
    published = list(TaskSet.objects.filter(status=TaskSet.Status.PUBLISHED).order_by("slug")
                     .values_list("slug", flat=True))
    schema["properties"]["task_set"]["enum"] = published
    return schema


def openapi_document(server_url):
    return {
        "openapi": "3.1.0",
        "info": {"title": "GameWorld API", "version": "1",
                 "description": "Upload agent runs for verification by replay, and follow their status."},
        "servers": [{"url": server_url.rstrip("/")}],
        "components": {
            "securitySchemes": {"token": {"type": "apiKey", "in": "header", "name": "Authorization",
                                          "description": "`Token <key>`; create keys on your account page."}},
            "schemas": {"Submission": upload_schema(), "Errors": ERRORS, "Progress": PROGRESS},
        },
        "paths": {
            "/api/v1/submissions": {"post": {
                "summary": "Upload a gameworld.submission/1 file",
                "security": [{"token": []}],
                "requestBody": {"required": True, "content": {"application/json": {
                    "schema": {"$ref": "#/components/schemas/Submission"}}}},
                "responses": {
                    "201": {"description": "Stored whole and queued for verification",
                            "content": {"application/json": {"schema": {"allOf": [
                                {"$ref": "#/components/schemas/Progress"},
                                {"type": "object", "properties": {"url": {"type": "string"},
                                                                  "status_url": {"type": "string"}}}]}}}},
                    "200": {"description": "The same file was uploaded before by this account: that submission "
                                           "(`created` false); nothing new is stored",
                            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Progress"}}}},
                    "400": _json_error("Refused; nothing was stored"),
                    "401": _json_error("No active API token"),
                    "405": NOT_ALLOWED,
                    "413": _json_error("The body is larger than the site reads at all"),
                }}},
            "/api/v1/submissions/{id}": {"get": {
                "summary": "A submission's verification status and per-run figures (claimed and verified)",
                "parameters": [{"name": "id", "in": "path", "required": True, "schema": {"type": "integer"}}],
                "responses": {
                    "200": {"description": "Status (with an ETag: poll with If-None-Match)", "content": {
                        "application/json": {"schema": {"$ref": "#/components/schemas/Progress"}}}},
                    "304": {"description": "Not modified since the ETag sent in If-None-Match (no body)"},
                    "404": _json_error("No such submission"),
                    "405": NOT_ALLOWED,
                }}},
            "/api/schema/submission-1.json": {"get": {
                "summary": "The JSON Schema of gameworld.submission/1",
                "responses": {"200": {"description": "JSON Schema", "content": {"application/json": {
                    "schema": {"type": "object"}}}}, "405": NOT_ALLOWED}}},
            "/api/openapi.json": {"get": {
                "summary": "This document",
                "responses": {"200": {"description": "OpenAPI 3.1", "content": {"application/json": {
                    "schema": {"type": "object"}}}}, "405": NOT_ALLOWED}}},
        },
    }
