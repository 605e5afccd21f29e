from django.contrib import admin
from django.shortcuts import redirect
from django.templatetags.static import static
from django.urls import include, path


def favicon(request):
    """Browsers ask for /favicon.ico whatever the page says: send them to the icon (its hashed static name is
    known only once the static files are collected, hence at request time)."""
    return redirect(static("favicon.svg"), permanent=True)


urlpatterns = [
    path("admin/", admin.site.urls),
    path("favicon.ico", favicon),
    path("accounts/", include("django.contrib.auth.urls")),
    path("api/", include("submissions.api_urls")),
    path("", include("catalogue.urls")),  # before humanplay's play/<game>/<task>/, which play/roms/<pk>/ would match
    path("", include("submissions.urls")),
    path("", include("hosted.urls")),
    path("", include("rounds.urls")),
    path("", include("humanplay.urls")),
    path("", include("leaderboard.urls")),  # the home page "/" is the leaderboard
]
