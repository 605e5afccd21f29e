from django.urls import path, re_path

from . import api

app_name = "api"
urlpatterns = [
    path("v1/submissions", api.submissions, name="submissions"),
    path("v1/submissions/<str:pk>", api.submission, name="submission"),
    path("schema/submission-1.json", api.schema, name="schema"),
    path("openapi.json", api.openapi, name="openapi"),
    re_path(r"^(?P<rest>.*)$", api.not_found),
]
