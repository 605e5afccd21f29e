"""WebSocket routes of every app, gathered here for the ASGI router."""
from django.urls import path

from evaluator.consumers import SubmissionProgressConsumer
from humanplay.consumers import PlayConsumer
from humanplay.hosted import AgentConsumer

websocket_urlpatterns = [
    path("ws/submissions/<int:pk>/", SubmissionProgressConsumer.as_asgi()),
    path("ws/play/<int:pk>/", PlayConsumer.as_asgi()),
    path("ws/agent/", AgentConsumer.as_asgi()),
]
