"""plotly.js as a static file of the site, from the installed plotly package (the site loads nothing from the
internet): collected as vendor/plotly.min.js, WhiteNoise serves it compressed under a hashed name, cached for good."""
from pathlib import Path

import plotly
from django.contrib.staticfiles.finders import BaseFinder
from django.core.files.storage import FileSystemStorage

PLOTLY_JS = "vendor/plotly.min.js"


class PlotlyFinder(BaseFinder):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.storage = FileSystemStorage(location=Path(plotly.__file__).parent / "package_data")
        self.storage.prefix = str(Path(PLOTLY_JS).parent)

    def check(self, **kwargs):
        return []

    def find(self, path, find_all=False, **kwargs):
        found = self.storage.path(Path(PLOTLY_JS).name) if path == PLOTLY_JS else None
        if find_all:
            return [found] if found else []
        return found

    def list(self, ignore_patterns):
        yield Path(PLOTLY_JS).name, self.storage
