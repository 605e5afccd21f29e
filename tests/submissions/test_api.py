"""The token-authenticated JSON API, its schema and OpenAPI document, and the account's tokens."""
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from submissions.models import ApiToken, Submission
from tests.factories import make_user, payload, run_entry

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("bundled_games")]


def post(client, body, key=None):
    headers = {"HTTP_AUTHORIZATION": f"Token {key}"} if key else {}
    return client.post("/api/v1/submissions", data=body, content_type="application/json", **headers)


def test_upload_with_a_token(client, django_capture_on_commit_callbacks, queued_runs):
    _, key = ApiToken.issue(user=make_user(), name="ci")
    with django_capture_on_commit_callbacks(execute=True):
        response = post(client, payload([run_entry("breakout/rally-5@2")]), key)
    assert response.status_code == 201
    body = response.json()
    submission = Submission.objects.get()
    assert body["id"] == submission.pk and body["runs_total"] == 1
    assert submission.status == "queued" and queued_runs == [submission.runs.get().pk]
    assert body["url"].endswith(f"/submissions/{body['id']}/")
    status = client.get(f"/api/v1/submissions/{body['id']}").json()
    assert status["runs"][0]["task"] == "breakout/rally-5@2" and status["runs"][0]["claimed_success"] is True


def test_a_client_polling_the_status_with_its_etag_is_told_304_until_a_run_is_verified(client, queued_runs):
    _, key = ApiToken.issue(user=make_user(), name="ci")
    url = f"/api/v1/submissions/{post(client, payload([run_entry('breakout/rally-5@2')]), key).json()['id']}"
    first = client.get(url)
    assert first.status_code == 200 and first["ETag"] and first["Content-Type"] == "application/json"
    unchanged = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert unchanged.status_code == 304 and unchanged.content == b"" and unchanged["ETag"] == first["ETag"]
    Submission.objects.get().runs.update(status="verified", progress=1.0, success=True)
    changed = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and changed.json()["runs"][0]["status"] == "verified"


def test_the_same_file_uploaded_twice_is_stored_once(client, queued_runs):
    _, key = ApiToken.issue(user=make_user(), name="ci")
    body = payload([run_entry("breakout/rally-5@2")])
    first = post(client, body, key)
    again = post(client, body, key)
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json()["id"] == first.json()["id"] and again.json()["created"] is False
    assert Submission.objects.count() == 1
    other = post(client, payload([run_entry("breakout/rally-5@2", seed=2)]), key)  # another file: stored
    assert other.status_code == 201 and Submission.objects.count() == 2
    page = client.get(f"/api/v1/submissions/{first.json()['id']}")
    assert page.status_code == 200
    assert (page.json()["provenance"], page.json()["copy_of"]) == ("uploaded", None)  # the server's word, not the file's


def test_the_upload_form_answers_a_repeated_file_with_the_first_submission(client):
    client.force_login(make_user())
    upload = lambda: client.post("/submit/", {"file": SimpleUploadedFile(  # noqa: E731
        "run.json", payload([run_entry("breakout/rally-5@2")]), content_type="application/json")})
    first, again = upload(), upload()
    assert first.status_code == again.status_code == 302 and first["Location"] == again["Location"]
    assert Submission.objects.count() == 1
    assert "You uploaded these runs before" in client.get(again["Location"]).content.decode()


def test_no_token_a_wrong_token_and_a_revoked_token_are_refused(client):
    token, key = ApiToken.issue(user=make_user(), name="ci")
    body = payload([run_entry("breakout/rally-5@2")])
    assert post(client, body).status_code == 401
    assert post(client, body, "gw_wrong").json()["errors"][0]["field"] == "Authorization"
    ApiToken.objects.filter(pk=token.pk).update(revoked_at="2026-01-01T00:00:00Z")
    assert post(client, body, key).status_code == 401
    assert not Submission.objects.exists()


def test_a_refused_upload_lists_each_error(client):
    _, key = ApiToken.issue(user=make_user(), name="ci")
    response = post(client, payload([run_entry("breakout/rally-5@2", seed=-3)]), key)
    assert response.status_code == 400
    assert response.json() == {"errors": [{"field": "runs[0].seed", "message": "must be a non-negative integer, got -3"}]}


def test_tokens_are_stored_hashed_and_shown_once(client):
    user = make_user()
    client.force_login(user)
    client.post("/account/tokens/", {"name": "laptop"})
    page = client.get("/account/").content.decode()
    token = ApiToken.objects.get(user=user)
    key = page.split('<code id="new-key">')[1].split("</code>")[0]
    assert key.startswith("gw_") and token.key_hash == ApiToken.hash_key(key) and key not in token.hint + token.key_hash
    assert key not in client.get("/account/").content.decode()  # never shown again
    client.post(f"/account/tokens/{token.pk}/revoke/")
    assert ApiToken.authenticate(key) is None


def test_schema_and_openapi_are_served(client):
    schema = client.get("/api/schema/submission-1.json").json()
    assert schema["$id"] == "gameworld.submission/1"
    document = client.get("/api/openapi.json").json()
    assert document["openapi"].startswith("3.1") and "/api/v1/submissions" in document["paths"]
    served = document["components"]["schemas"]["Submission"]
    assert served["properties"]["task_set"].pop("enum") == ["core-v15"]  # the published ones, at this moment
    assert served == schema


def test_the_upload_page_shows_every_error_and_stores_nothing(client):
    client.force_login(make_user())
    response = client.post("/submit/", {"text": payload([run_entry("breakout/rally-5@2", seed=9)]).decode()})
    assert response.status_code == 400
    page = response.content.decode()
    assert "nothing was stored" in page and "runs[0].seed" in page and "is not one of breakout/rally-5@2" in page
    assert not Submission.objects.exists()


def test_the_upload_page_needs_a_signed_in_user(client):
    assert client.get("/submit/")["Location"].startswith("/accounts/login/")


def test_an_upload_over_the_sites_cap_gets_a_json_error(client, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 2048
    _, key = ApiToken.issue(user=make_user(), name="ci")
    response = post(client, b" " * 4096 + payload([run_entry("breakout/rally-5@2")]), key)
    assert response.status_code == 413
    assert response.json()["errors"][0] == {"field": "(file)",
                                            "message": "the upload is larger than the site accepts (2,048 bytes)"}


def test_an_upload_under_the_cap_but_over_the_admin_limit_names_the_limit(client):
    from submissions.models import UploadLimits

    UploadLimits.objects.filter(pk=UploadLimits.current().pk).update(max_file_bytes=3 * 1024 * 1024)
    _, key = ApiToken.issue(user=make_user(), name="ci")
    response = post(client, b" " * (4 * 1024 * 1024), key)
    assert response.status_code == 400
    assert response.json()["errors"][0]["message"] == "the file is 4,194,304 bytes; the limit is 3,145,728 bytes"


@pytest.mark.parametrize("method, path, allowed", [
    ("put", "/api/v1/submissions", "POST"), ("delete", "/api/v1/submissions", "POST"),
    ("get", "/api/v1/submissions", "POST"), ("post", "/api/v1/submissions/1", "GET, HEAD"),
    ("delete", "/api/openapi.json", "GET, HEAD"), ("patch", "/api/schema/submission-1.json", "GET, HEAD"),
])
def test_an_undeclared_method_is_a_json_405(client, method, path, allowed):
    response = getattr(client, method)(path)
    assert response.status_code == 405 and response["Allow"] == allowed
    assert response.json()["errors"][0]["field"] == "(method)"


@pytest.mark.parametrize("path", ["/api/v1/submissions/abc", "/api/v1/submissions/99999", "/api/v1/nothing",
                                  "/api/v1/submissions/" + "9" * 40])
def test_unknown_ids_and_paths_are_json_404s(client, path):
    response = client.get(path)
    assert response.status_code == 404 and response["Content-Type"] == "application/json"
    assert response.json()["errors"][0]["message"]


def test_the_openapi_document_lists_published_task_sets_and_every_answer(client):
    document = client.get("/api/openapi.json").json()
    task_set = document["components"]["schemas"]["Submission"]["properties"]["task_set"]
    assert task_set["enum"] == ["core-v15"]
    post = document["paths"]["/api/v1/submissions"]["post"]["responses"]
    assert {"201", "400", "401", "405", "413"} <= set(post)
    assert "405" in document["paths"]["/api/v1/submissions/{id}"]["get"]["responses"]
