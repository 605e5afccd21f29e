from django import template

from .. import selectors

register = template.Library()


@register.inclusion_tag("humanplay/_campaign_consent.html", takes_context=True)
def campaign_consent(context):
    """The account page's campaigns: the consent given to each, and the control to withdraw it."""
    return {"memberships": selectors.memberships(user=context["user"]), "csrf_token": context.get("csrf_token")}
