"""The frames a player saw, kept on disk (DATA_DIR/play/<session>/) for the replay shown at the end."""
import shutil

from django.conf import settings


def folder(session_id):
    return settings.DATA_DIR / "play" / str(session_id)


def path(session_id, index):
    return folder(session_id) / f"{index:03d}.jpg"


def has(session_id, index):
    return path(session_id, index).is_file()


def save(session_id, index, jpeg):
    target = path(session_id, index)
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(".part")
    partial.write_bytes(jpeg)
    partial.replace(target)  # a reader never sees half a frame


def read(session_id, index):
    return path(session_id, index).read_bytes()


def count(session):
    found = folder(session.pk)
    return len(list(found.glob("*.jpg"))) if found.is_dir() else 0


def stored_session_ids():
    root = settings.DATA_DIR / "play"
    return [int(f.name) for f in root.iterdir() if f.is_dir() and f.name.isdigit()] if root.is_dir() else []


def remove(session_id):
    shutil.rmtree(folder(session_id), ignore_errors=True)


class SessionFrames:
    """One session's frames, as the live-session engine keeps them while it plays."""

    def __init__(self, session_id):
        self.session_id = session_id

    def has(self, index):
        return has(self.session_id, index)

    def save(self, index, jpeg):
        save(self.session_id, index, jpeg)
