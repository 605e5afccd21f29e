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
    """Its 95 % interval as "−1.0 to +25.0"; "" without one; "n/a (1 task)" when it rests on one task
    (resampling one task always draws it: the interval would be one point)."""
    if not result:
        return ""
    if result["tasks"] == 1:
        return "n/a (1 task)"
    return f"{_signed(result['lo'])} to {_signed(result['hi'])}"
