import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gameworld_site.settings")

app = Celery("gameworld_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

if app.conf.broker_url.startswith("sqla+"):
    # The embedded broker (kombu's SQLAlchemy transport on SQLite) polls its table once a second by default,
    # which left workers idle half the time between short replays. Its transport options all go to
    # SQLAlchemy's create_engine, so the interval can only be set on the transport itself.
    from kombu.transport.sqlalchemy import Transport

    Transport.polling_interval = 0.1
