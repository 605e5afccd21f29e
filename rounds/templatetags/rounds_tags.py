from django import template

register = template.Library()


def _signed(value):
    return f"{value:+.1f}"


@register.filter
def difference(result):
    """A bootstrapped difference ({"diff", "lo", "hi"}) as "+12.3"; an en dash without one."""
    return "–" if not result else _signed(result["diff"])


@register.filter
def difference_interval(result):
    """Its 95 % interval as "−1.0 to +25.0"; "" without one."""
    return "" if not result else f"{_signed(result['lo'])} to {_signed(result['hi'])}"
