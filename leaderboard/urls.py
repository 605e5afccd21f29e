from django.urls import path, re_path

from . import views

app_name = "leaderboard"
urlpatterns = [
    path("", views.index, name="index"),
    re_path(r"^leaderboard/export\.(?P<fmt>csv|json)$", views.export, name="export"),
    re_path(r"^leaderboard/runs\.(?P<fmt>csv|json)$", views.export_runs, name="export_runs"),
    path("leaderboard/compare/", views.compare, name="compare"),
    path("leaderboard/agents/<int:pk>/", views.agent, name="agent"),
    path("leaderboard/humans/<slug:kind>/", views.human, name="human"),
    path("leaderboard/games/<slug:slug>/", views.game, name="game"),
    path("leaderboard/tasks/<slug:game>/<slug:slug>/<int:version>/", views.task, name="task"),
    path("leaderboard/runs/<int:pk>/", views.run, name="run"),
    path("leaderboard/runs/<int:pk>/replay.json", views.replay, name="replay"),
    path("leaderboard/runs/<int:pk>/frames/<int:step>.png", views.replay_frame, name="replay_frame"),
]
