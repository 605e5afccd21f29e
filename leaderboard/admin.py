from django.contrib import admin

from catalogue.admin import SiteSettingsAdmin

from .models import BoardSettings


@admin.register(BoardSettings)
class BoardSettingsAdmin(SiteSettingsAdmin):
    list_display = ("__str__", "human_min_coverage")
