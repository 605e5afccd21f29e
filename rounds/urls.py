from django.urls import path, re_path

from . import views

app_name = "rounds"
urlpatterns = [
    path("rounds/", views.index, name="index"),
    path("rounds/entries/<int:pk>/", views.entry, name="entry"),
    re_path(r"^rounds/(?P<slug>[-\w]+)/export\.(?P<fmt>csv|json)$", views.export, name="export"),
    path("rounds/<slug:slug>/", views.board, name="board"),
]
