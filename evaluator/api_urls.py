from django.urls import path

from . import api

app_name = "api"
urlpatterns = [
    path("v1/submissions", api.submissions, name="submissions"),
    path("v1/submissions/<int:pk>", api.submission, name="submission"),
    path("schema/submission-1.json", api.schema, name="schema"),
    path("openapi.json", api.openapi, name="openapi"),
]
