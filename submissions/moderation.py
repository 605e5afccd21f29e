"""Maintainers' moderation of submissions: flag, hide, mark as a baseline, re-verify. Each checks its permission
and leaves an entry in the catalogue's audit log. Keyword-only arguments."""
from catalogue.curation import audit, require

from . import services
from .models import Submission


def moderate_submission(*, actor, submission, flag_reason=None, hidden=None, is_baseline=None):
    require(actor, "submissions.curate_submission")
    changes = {}
    for name, value in (("flag_reason", flag_reason), ("hidden", hidden), ("is_baseline", is_baseline)):
        if value is not None and getattr(submission, name) != value:
            changes[name] = [getattr(submission, name), value]
            setattr(submission, name, value)
    if changes:
        Submission.objects.filter(pk=submission.pk).update(**{k: v[1] for k, v in changes.items()})
        audit(actor=actor, action="moderated submission", target=submission, changes=changes)


def reverify_submission(*, actor, submission):
    require(actor, "submissions.curate_submission")
    services.reverify_submission(submission=submission)
    audit(actor=actor, action="re-verified submission", target=submission)
