"""Sign-in lockout (django-axes), for sign-ins that come with a request: the site's forms and the admin's."""
from axes.backends import AxesStandaloneBackend


class SignInLockout(AxesStandaloneBackend):
    """Axes refuses to authenticate without a request; a sign-in made on the server itself (the test client, a
    shell) has no address to count, so it is left to the next backend instead."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)
