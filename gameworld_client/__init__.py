"""A small client for GameWorld's submission API: standard library only, no Django.

    from gameworld_client import upload, wait, write_submission
"""
from .upload import (FORMAT, ClientError, UploadError, WaitTimeout, submission, upload, wait,
                     write_submission)

__all__ = ["FORMAT", "ClientError", "UploadError", "WaitTimeout", "submission", "upload", "wait",
           "write_submission"]
