"""The client's version (read by the build, pyproject.toml, and sent as its User-Agent)."""
__version__ = "0.3.0"
