from django.urls import path

from . import views

app_name = "catalogue"
urlpatterns = [
    path("games/", views.games, name="games"),
    path("games/<slug:slug>/", views.game, name="game"),
    path("games/<slug:slug>/frame.png", views.game_frame, name="game_frame"),
    path("play/roms/<int:pk>/start/", views.rom_capture, name="rom_capture"),
]
