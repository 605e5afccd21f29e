"""WebSocket routes of every app, gathered here for the ASGI router."""
from django.urls import path

from evaluator.consumers import SubmissionProgressConsumer

websocket_urlpatterns = [
    path("ws/submissions/<int:pk>/", SubmissionProgressConsumer.as_asgi()),
]
