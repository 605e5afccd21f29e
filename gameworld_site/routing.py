"""WebSocket routes of every app, gathered here for the ASGI router."""
from django.urls import path

from evaluator.consumers import AgentConsumer, SubmissionProgressConsumer
from humanplay.consumers import PlayConsumer
from humanplay.rom_capture import RomCaptureConsumer

websocket_urlpatterns = [
    path("ws/submissions/<int:pk>/", SubmissionProgressConsumer.as_asgi()),
    path("ws/play/<int:pk>/", PlayConsumer.as_asgi()),
    path("ws/roms/<int:pk>/start/", RomCaptureConsumer.as_asgi()),
    path("ws/agent/", AgentConsumer.as_asgi()),
]
