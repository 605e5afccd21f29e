from django.urls import path

from . import views

app_name = "humanplay"
urlpatterns = [
    path("evaluate/", views.evaluate, name="evaluate"),
    path("evaluate/gameworld-client.zip", views.client_archive, name="client_archive"),
    path("play/rules/", views.rules, name="rules"),
    path("play/roms/<int:pk>/start/", views.rom_capture, name="rom_capture"),
    path("play/profile/", views.profile, name="profile"),
    path("play/sessions/<int:pk>/", views.session_page, name="session"),
    path("play/sessions/<int:pk>/frames/<int:index>.jpg", views.session_frame, name="frame"),
    path("play/<slug:game>/<slug:task>/", views.task_page, name="task"),
    path("play/<slug:game>/<slug:task>/start/", views.start, name="start"),
]
