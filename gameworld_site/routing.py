"""WebSocket routes of every app, gathered here for the ASGI router.

Sockets that a signed-in person opens from the site's pages check the Origin (a page elsewhere must not ride on
the session cookie) and read the session. The agent socket does neither: its API token is the credential, sent
by programs that set no Origin header.
"""
from channels.auth import AuthMiddlewareStack
from channels.security.websocket import AllowedHostsOriginValidator
from django.urls import path

from catalogue.rom_capture import RomCaptureConsumer
from humanplay.consumers import PlayConsumer
from rounds.consumers import AgentConsumer  # the hosted agent socket, with rounds evaluations
from submissions.consumers import SubmissionProgressConsumer


def from_the_site(consumer):
    return AllowedHostsOriginValidator(AuthMiddlewareStack(consumer.as_asgi()))


websocket_urlpatterns = [
    path("ws/submissions/<int:pk>/", from_the_site(SubmissionProgressConsumer)),
    path("ws/play/<int:pk>/", from_the_site(PlayConsumer)),
    path("ws/roms/<int:pk>/start/", from_the_site(RomCaptureConsumer)),
    path("ws/agent/", AgentConsumer.as_asgi()),
]
