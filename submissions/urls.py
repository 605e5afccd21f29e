from django.urls import path

from . import views

app_name = "submissions"
urlpatterns = [
    path("submit/", views.submit, name="submit"),
    path("submissions/<int:pk>/", views.submission, name="submission"),
    path("docs/submissions/", views.submission_docs, name="submission_docs"),
    path("account/", views.account, name="account"),
    path("account/tokens/", views.create_token, name="create_token"),
    path("account/tokens/<int:pk>/revoke/", views.revoke_token, name="revoke_token"),
    path("accounts/signup/", views.signup, name="signup"),
]
