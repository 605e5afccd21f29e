from django.urls import path

from . import views

app_name = "hosted"
urlpatterns = [
    path("evaluate/", views.evaluate, name="evaluate"),
    path("evaluate/gameworld-client.zip", views.client_archive, name="client_archive"),
]
