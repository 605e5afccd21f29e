from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from catalogue.selectors import about
from submissions.models import Submission

register = template.Library()


@register.filter
def pct(value):
    """A percentage with one decimal, or an en dash when there is no figure."""
    return "–" if value is None else f"{value:.1f}"


@register.filter
def interval(figures, figure):
    """The 95 % interval of an entry's overall `figure` ("pg" or "sr") as text: "lo–hi"; "n/a (1 task)" when it
    rests on one task (resampling one task always draws it: the interval would be one point); "" without one."""
    lower, upper = figures.get(f"{figure}_lo"), figures.get(f"{figure}_hi")
    if lower is None:
        return ""
    if figures.get("tasks") == 1:
        return "n/a (1 task)"
    return f"{pct(lower)}–{pct(upper)}"


@register.filter
def task_url(task):
    return reverse("leaderboard:task", args=[task.game.slug, task.slug, task.version])


@register.filter
def chart_json_script(text, element_id):
    """A figure's JSON in a <script type="application/json">, escaped as Django's json_script escapes."""
    if not text:
        return ""
    safe = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return format_html('<script type="application/json" id="{}">{}</script>', element_id, mark_safe(safe))


@register.filter
def show_all_query(params):
    return params.query(all=True)


@register.filter
def board_query(params, board):
    """This view on the other board (ranks start over: public entries are never ranked)."""
    return params.query(board=board, sort="rank", dir="", all=False)


@register.filter
def signed(value):
    """A difference in points with its sign, or an en dash."""
    return "–" if value is None else f"{value:+.1f}"


@register.filter
def clear_search_query(params):
    return params.query(q="", all=False)


@register.filter
def per_step(value, unit):
    """A reported per-step figure: tokens as a whole number, seconds with two decimals, dollars with four."""
    if not isinstance(value, (int, float)):  # none reported (a human row has no submitter at all)
        return "–"
    return {"tokens": f"{value:,.0f}", "seconds": f"{value:.2f}", "usd": f"{value:.4f}"}[unit]


INTERFACE_LABELS = {Submission.Interface.CUA: "CUA", Submission.Interface.GENERALIST: "Generalist", "human": "Human"}


@register.filter
def interface_label(value):
    return INTERFACE_LABELS.get(value, value)


@register.filter
def pct_of(value):
    """A fraction (0-1) as a percentage with one decimal."""
    return pct(None if value is None else value * 100)


@register.filter
def wait_about(seconds):
    """A wait, roughly ("about 40 s", "about 3 min")."""
    return about(seconds)
