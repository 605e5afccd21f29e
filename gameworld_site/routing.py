"""WebSocket routes of every app, gathered here for the ASGI router."""
websocket_urlpatterns = []
