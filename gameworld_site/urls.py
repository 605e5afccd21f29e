from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("api/", include("evaluator.api_urls")),
    path("", include("humanplay.urls")),
    path("", include("leaderboard.urls")),  # the home page "/" is the leaderboard
    path("", include("evaluator.urls")),
]
