from django.urls import path

from . import views

app_name = "evaluator"
urlpatterns = [
    path("", views.games, name="home"),
    path("games/", views.games, name="games"),
    path("games/<slug:slug>/", views.game, name="game"),
    path("games/<slug:slug>/frame.png", views.game_frame, name="game_frame"),
]
