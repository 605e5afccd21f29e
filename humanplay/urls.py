from django.urls import path

from . import views

app_name = "humanplay"
urlpatterns = [
    path("play/rules/", views.rules, name="rules"),
    path("campaigns/", views.campaigns, name="campaigns"),
    path("campaigns/<slug:slug>/", views.campaign_page, name="campaign"),
    path("campaigns/<slug:slug>/join/", views.campaign_join, name="campaign_join"),
    path("campaigns/<slug:slug>/name/", views.campaign_name, name="campaign_name"),
    path("campaigns/<slug:slug>/next/", views.campaign_next, name="campaign_next"),
    path("campaigns/<slug:slug>/consent/", views.campaign_consent, name="campaign_consent"),
    path("campaigns/<slug:slug>/consent/withdraw/", views.campaign_withdraw, name="campaign_withdraw"),
    path("campaigns/<slug:slug>/runs.<str:fmt>", views.campaign_export, name="campaign_export"),
    path("campaigns/<slug:slug>/assignments/<int:pk>/", views.assignment_page, name="assignment"),
    path("campaigns/<slug:slug>/assignments/<int:pk>/<str:action>/", views.assignment_action,
         name="assignment_action"),
    path("play/profile/", views.profile, name="profile"),
    path("play/sessions/<int:pk>/", views.session_page, name="session"),
    path("play/sessions/<int:pk>/frames/<int:index>.jpg", views.session_frame, name="frame"),
    path("play/<slug:game>/<slug:task>/", views.task_page, name="task"),
    path("play/<slug:game>/<slug:task>/start/", views.start, name="start"),
]
