"""Plotly figures for the leaderboard pages, built in Python and drawn by the plotly.js the site serves itself.

Each function returns a figure as JSON text (or None when there is nothing to draw); the page passes it to
``Plotly.newPlot``. Sizes, fonts and colours are chosen for a laptop screen on the site's dark theme.
"""
import math
from collections import Counter
from html import escape

import plotly.graph_objects as go

from submissions.models import Submission

from .selectors import GENRE_IDS, GENRE_NAMES, LEVEL_IDS, groups_for

TEXT = "#e7ecf5"
MUTED = "#93a0b8"
GRID = "#273149"
PANEL = "#171e2e"
# One meaning per colour on every chart: blue and orange are the two interfaces (as on the table's badges), the
# teal and white the human levels, green and red a gap's sign; single agents take the other colours, in order.
INTERFACE_COLOURS = {Submission.Interface.CUA: "#7aa7ff", Submission.Interface.GENERALIST: "#ff7a59"}
HUMAN_COLOURS = {"novice": "#9ad0c2", "expert": "#e7ecf5"}
GAP_COLOURS = {"above": "#5ad17a", "below": "#e0524f"}
AGENT_COLOURS = ["#ffc94d", "#4dd0e1", "#b0e36b", "#d4a373", "#90a4ae", "#a1887f"]
GENRE_COLOURS = {"arcade": "#ff8fb1", "platformer": "#5ad17a", "puzzle": "#b39ddb", "runner": "#f2d15c",
                 "simulation": "#c88bff"}  # as the genre tags of static/css/site.css
BAR_AGENTS = 6  # agents drawn beside the humans in grouped bars
GAP_AGENTS = 15


# Plotly's mode bar (zoom, download) is drawn over a chart's top right corner: it gets a band of its own at the top,
# and titles and buttons go under it, so that it never covers them (on a phone a long title reaches that corner).
MODEBAR_BAND = 34
TOP_MARGIN = MODEBAR_BAND + 40


def chart_title(text):
    """A chart's title: left-aligned, under the mode bar's band."""
    return {"text": text, "font": {"size": 15}, "x": 0.01, "xanchor": "left",
            "y": 1, "yref": "container", "yanchor": "top", "pad": {"t": MODEBAR_BAND}}


def _layout(fig, *, title, height=340, **extra):
    fig.update_layout(
        title=chart_title(title), height=height + MODEBAR_BAND, margin={"l": 56, "r": 16, "t": TOP_MARGIN, "b": 48},
        paper_bgcolor=PANEL, plot_bgcolor=PANEL,
        font={"color": TEXT, "size": 12, "family": "system-ui, -apple-system, Segoe UI, sans-serif"},
        legend={"orientation": "h", "y": -0.18, "x": 0, "font": {"size": 11}},
        hoverlabel={"bgcolor": "#0b101b", "font": {"color": TEXT}}, **extra)
    fig.update_xaxes(gridcolor=GRID, zerolinecolor=GRID, linecolor=GRID)
    fig.update_yaxes(gridcolor=GRID, zerolinecolor=GRID, linecolor=GRID)
    return fig


def entry_label(entry):
    """An entry's name for a chart (raw: `_short` escapes it, for plotly reads a few tags in text)."""
    if entry["kind"] == "human":
        return entry["name"]
    return f"{entry['name']} ({entry['model']})" if entry.get("model") else entry["name"]


def _short(text, size=28):
    """Shortened to `size` characters and HTML-escaped (names are user input; plotly reads some tags)."""
    return escape(text if len(text) <= size else text[:size - 1] + "…").replace("%", "&#37;")


def chart_entries(entries):
    """The entries drawn in grouped charts: the best ranked agents (by PG) and the humans."""
    agents = sorted([e for e in entries if e["kind"] == "agent" and e["ranked"]],
                    key=lambda e: -(e["overall"]["pg"] or 0))[:BAR_AGENTS]
    if not agents:
        agents = sorted([e for e in entries if e["kind"] == "agent" and not e.get("reference")
                         and e["overall"]["pg"] is not None],
                        key=lambda e: -(e["overall"]["pg"] or 0))[:BAR_AGENTS]
    humans = [e for e in entries if e["kind"] == "human"]
    return agents + humans


def grouped_bars(entries, view, held=None):
    """SR or PG per genre (or per level, only those `held`) for the best agents and the humans; a button switches
    the metric."""
    drawn = chart_entries(entries)
    if not drawn:
        return None
    groups = groups_for(view, held)
    x = [label for _, label, _ in groups]
    fig = go.Figure()
    agent_index = 0
    for entry in drawn:
        figures = entry["genre"] if view == "genre" else entry["level"]
        human = entry["kind"] == "human"
        colour = HUMAN_COLOURS[entry["human_kind"]] if human else AGENT_COLOURS[agent_index % len(AGENT_COLOURS)]
        agent_index += 0 if human else 1
        for metric in ("pg", "sr"):
            fig.add_trace(go.Bar(
                x=x, y=[figures[g][metric] for g, _, _ in groups], name=_short(entry_label(entry), 34),
                legendgroup=entry["key"], showlegend=metric == "pg", visible=metric == "pg",
                marker={"color": colour, "pattern": {"shape": "/" if human else "", "fgcolor": "#0f1420",
                                                     "size": 6}},
                customdata=[[figures[g]["runs"], figures[g]["tasks"]] for g, _, _ in groups],
                hovertemplate=f"<b>{_short(entry_label(entry), 40)}</b><br>%{{x}}: %{{y:.1f}} % "
                              f"{metric.upper()}<br>%{{customdata[0]}} runs, %{{customdata[1]}} tasks<extra></extra>"))
    count = len(fig.data)
    pg_visible = [i % 2 == 0 for i in range(count)]
    buttons = [{"label": "PG", "method": "update", "args": [{"visible": pg_visible},
                                                            {"yaxis.title.text": "progress (%)"}]},
               {"label": "SR", "method": "update", "args": [{"visible": [not v for v in pg_visible]},
                                                            {"yaxis.title.text": "success rate (%)"}]}]
    title = "By genre: best agents vs humans" if view == "genre" else "By curriculum level: best agents vs humans"
    _layout(fig, title=title, barmode="group", bargap=0.18, bargroupgap=0.04, height=380,
            updatemenus=[{"type": "buttons", "direction": "right", "buttons": buttons, "x": 1, "xanchor": "right",
                          "y": 1, "yanchor": "bottom", "pad": {"b": 4}, "bgcolor": GRID, "bordercolor": GRID,
                          "font": {"color": "#111"}, "showactive": True, "active": 0}])
    fig.update_yaxes(title_text="progress (%)", range=[0, 100])
    return fig.to_json()


def scatter(entries):
    """Overall SR against overall PG, with 95 % intervals; agents by interface, humans as stars."""
    points = [e for e in entries if e["overall"]["pg"] is not None]
    if not points:
        return None
    fig = go.Figure()
    for interface, label in Submission.Interface.choices:
        for ranked in (True, False):
            group = [e for e in points if e["kind"] == "agent" and e["interface"] == interface and e["ranked"] == ranked]
            if not group:
                continue
            fig.add_trace(go.Scatter(
                x=[e["overall"]["sr"] for e in group], y=[e["overall"]["pg"] for e in group], mode="markers",
                name=label + ("" if ranked else " (partial)"),
                marker={"color": INTERFACE_COLOURS[interface], "size": 9 if len(points) < 200 else 6,
                        "opacity": 0.9 if ranked else 0.45, "symbol": "circle" if ranked else "circle-open",
                        "line": {"width": 1, "color": "#0f1420"}},
                error_x=_errors(group, "sr") if len(group) <= 60 else None,
                error_y=_errors(group, "pg") if len(group) <= 60 else None,
                text=[_short(entry_label(e), 60) for e in group], customdata=[[e["rank"] or "–"] for e in group],
                hovertemplate="<b>%{text}</b><br>SR %{x:.1f} % · PG %{y:.1f} %<br>rank %{customdata[0]}"
                              "<extra></extra>"))
    for entry in [e for e in points if e["kind"] == "human"]:
        # A human row may cover a few tasks: its point says on how many, so it is not read as overall.
        label = entry["name"] + ("" if entry["covered"] == entry["tasks_total"]
                                 else f" ({entry['covered']}/{entry['tasks_total']} tasks)")
        fig.add_trace(go.Scatter(
            x=[entry["overall"]["sr"]], y=[entry["overall"]["pg"]], mode="markers+text", name=label,
            text=[label], textposition="middle right", textfont={"color": HUMAN_COLOURS[entry["human_kind"]]},
            marker={"symbol": "star", "size": 15, "color": HUMAN_COLOURS[entry["human_kind"]],
                    "line": {"width": 1, "color": "#0f1420"}},
            error_x=_errors([entry], "sr"), error_y=_errors([entry], "pg"),
            hovertemplate=f"<b>{label}</b><br>SR %{{x:.1f}} % · PG %{{y:.1f}} %<extra></extra>"))
    _layout(fig, title="Success rate vs progress (overall, 95 % intervals)", height=380)
    fig.update_xaxes(title_text="success rate (%)", range=[-3, 103])
    fig.update_yaxes(title_text="progress (%)", range=[-3, 103])
    return fig.to_json()


def _errors(group, metric):
    return {"type": "data", "symmetric": False, "thickness": 1, "width": 2, "color": MUTED,
            "array": [max(0.0, (e["overall"][f"{metric}_hi"] or 0) - (e["overall"][metric] or 0)) for e in group],
            "arrayminus": [max(0.0, (e["overall"][metric] or 0) - (e["overall"][f"{metric}_lo"] or 0)) for e in group]}


def shared_gap(entry, other):
    """(entry's mean PG - other's, number of tasks) over the tasks both have runs on; (None, 0) if none."""
    shared = sorted(set(entry["task_pg"]) & set(other["task_pg"]))
    if not shared:
        return None, 0

    def mean(figures):
        return sum(figures[task] for task in shared) / len(shared)
    return mean(entry["task_pg"]) - mean(other["task_pg"]), len(shared)


def gap_to_novice(entries):
    """Each of the best ranked agents' PG minus the novice humans', both over the tasks the two share (a human
    row may cover a few tasks only: comparing it with an agent's overall figure would mislead)."""
    novice = next((e for e in entries if e["kind"] == "human" and e["human_kind"] == "novice"
                   and e["overall"]["pg"] is not None), None)
    agents = sorted([e for e in entries if e["kind"] == "agent" and e["ranked"]],
                    key=lambda e: -(e["overall"]["pg"] or 0))[:GAP_AGENTS]
    if novice is None or not agents:
        return None
    compared = [(e, *shared_gap(e, novice)) for e in agents]
    compared = [(e, gap, shared) for e, gap, shared in compared if shared]
    if not compared:
        return None
    agents, gaps, shared = [c[0] for c in compared], [c[1] for c in compared], [c[2] for c in compared]
    names = [_short(entry_label(e), 36) for e in agents]
    names = [f"{n} #{e['submission_id']}" if names.count(n) > 1 else n for n, e in zip(names, agents)]
    fig = go.Figure(go.Bar(
        y=names, x=gaps, orientation="h",
        marker={"color": [GAP_COLOURS["above"] if g >= 0 else GAP_COLOURS["below"] for g in gaps]},
        text=[f"{g:+.1f}" for g in gaps], textposition="outside", cliponaxis=False, customdata=shared,
        hovertemplate="<b>%{y}</b><br>%{x:+.1f} points of PG vs novice humans, on the %{customdata} tasks "
                      "both played<extra></extra>"))
    covered = novice["covered"]
    _layout(fig, title=f"Gap to novice humans on the tasks both played (novices cover {covered} of "
                       f"{novice['tasks_total']} tasks)",
            height=max(260, 60 + 26 * len(agents)), showlegend=False)
    fig.update_yaxes(autorange="reversed")
    low, high = min(0.0, *gaps), max(0.0, *gaps)
    pad = max(6.0, (high - low) * 0.15)
    fig.update_xaxes(title_text="agent PG − novice PG (points)", zeroline=True, zerolinecolor=MUTED,
                     range=[low - (pad if low < 0 else 1), high + (pad if high > 0 else 1)])
    fig.update_layout(margin={"l": 220, "r": 40})
    return fig.to_json()


def profile_bars(entry, humans, view="genre"):
    """One entry's PG and SR per genre (or level) with the humans beside it."""
    groups = groups_for(view)
    x = [label for _, label, _ in groups]
    fig = go.Figure()
    for other in [entry, *[h for h in humans if h["key"] != entry["key"]]]:
        figures = other["genre"] if view == "genre" else other["level"]
        human = other["kind"] == "human"
        fig.add_trace(go.Bar(
            x=x, y=[figures[g]["pg"] for g, _, _ in groups], name=_short(entry_label(other), 34),
            marker={"color": HUMAN_COLOURS[other["human_kind"]] if human else AGENT_COLOURS[0],
                    "pattern": {"shape": "/" if human else "", "fgcolor": "#0f1420", "size": 6}},
            customdata=[[figures[g]["sr"], figures[g]["runs"]] for g, _, _ in groups],
            hovertemplate=f"<b>{_short(entry_label(other), 40)}</b><br>%{{x}}: PG %{{y:.1f}} %, "
                          "SR %{customdata[0]:.1f} %<br>%{customdata[1]} runs<extra></extra>"))
    _layout(fig, title="Progress by " + ("genre" if view == "genre" else "curriculum level"), barmode="group",
            height=340)
    fig.update_yaxes(title_text="progress (%)", range=[0, 100])
    return fig.to_json()


def level_radar(entry, humans):
    """PG per curriculum level as a radar: the entry against the humans."""
    labels = [f"L{lv}" for lv in LEVEL_IDS]
    fig = go.Figure()
    for other in [*[h for h in humans if h["key"] != entry["key"]], entry]:
        human = other["kind"] == "human"
        values = [other["level"][str(lv)]["pg"] or 0 for lv in LEVEL_IDS]
        colour = HUMAN_COLOURS[other["human_kind"]] if human else AGENT_COLOURS[0]
        fig.add_trace(go.Scatterpolar(
            r=values + values[:1], theta=labels + labels[:1], name=_short(entry_label(other), 34), fill="toself",
            opacity=0.55 if human else 0.8, line={"color": colour, "dash": "dot" if human else "solid"},
            hovertemplate="%{theta}: PG %{r:.1f} %<extra>" + _short(entry_label(other), 30) + "</extra>"))
    _layout(fig, title="Progress by curriculum level", height=340)
    fig.update_layout(margin={"l": 30, "r": 30, "b": 30},
                      polar={"bgcolor": PANEL, "domain": {"x": [0, 1], "y": [0.02, 1]},
                             "radialaxis": {"range": [0, 100], "gridcolor": GRID, "color": MUTED, "angle": 54,
                                            "tickvals": [25, 50, 75, 100], "tickfont": {"size": 9}},
                             "angularaxis": {"gridcolor": GRID, "color": TEXT, "direction": "clockwise"}})
    return fig.to_json()


def progress_by_task(runs, tasks):
    """The distribution of run progress on each task of a game: agents as boxes, humans as points."""
    if not runs:
        return None
    fig = go.Figure()
    labels = {t["task_id"]: _short(t["title"], 22) for t in tasks}
    order = [labels[t["task_id"]] for t in tasks]
    for interface, name in Submission.Interface.choices:
        agent = [r for r in runs if r["kind"] == "agent" and r["interface"] == interface]
        if agent:
            fig.add_trace(go.Box(x=[labels[r["task_id"]] for r in agent], y=[r["progress"] for r in agent],
                                 name=f"{name} agents (runs)", marker={"color": INTERFACE_COLOURS[interface], "size": 4},
                                 boxpoints="outliers" if len(agent) > 300 else "all", jitter=0.4, pointpos=0))
    for kind in ("novice", "expert"):
        human = [r for r in runs if r["kind"] == kind]
        if human:
            fig.add_trace(go.Box(x=[labels[r["task_id"]] for r in human], y=[r["progress"] for r in human],
                                 name=f"{kind} humans (runs)", marker={"color": HUMAN_COLOURS[kind], "size": 5},
                                 boxpoints="all", jitter=0.4, pointpos=0))
    _layout(fig, title="Progress of every counted run, by task", boxmode="group", height=360)
    fig.update_xaxes(categoryorder="array", categoryarray=order)
    fig.update_yaxes(title_text="progress (%)", range=[-3, 103])
    return fig.to_json()


def progress_histogram(progress):
    """How far runs got on one task: agents' runs as a histogram, human runs overlaid."""
    if not progress:
        return None
    fig = go.Figure()
    bins = {"start": 0, "end": 100, "size": 10}
    # A run at the target (100) belongs in the last bin, 90-100: plotly's bins are closed on the left only.
    progress = [{**p, "progress": min(p["progress"], 99.999)} for p in progress]
    for interface, name in Submission.Interface.choices:
        agent = [p["progress"] for p in progress if p["kind"] == "agent" and p["interface"] == interface]
        if agent:
            fig.add_trace(go.Histogram(x=agent, xbins=bins, name=f"{name} agent runs",
                                       marker={"color": INTERFACE_COLOURS[interface]}))
    for kind in ("novice", "expert"):
        human = [p["progress"] for p in progress if p["kind"] == kind]
        if human:
            fig.add_trace(go.Histogram(x=human, xbins=bins, name=f"{kind} human runs",
                                       marker={"color": HUMAN_COLOURS[kind],
                                               "pattern": {"shape": "/", "fgcolor": "#0f1420", "size": 6}}))
    _layout(fig, title="Distribution of progress (counted runs, 10-point bins)", barmode="group", bargap=0.12,
            height=320)
    fig.update_xaxes(title_text="progress (%)", range=[0, 100])
    # Runs are counted: whole-number ticks, about five of them up to the tallest bar.
    fullest_bin = max(Counter(int(x // bins["size"]) for x in trace.x).most_common(1)[0][1] for trace in fig.data)
    fig.update_yaxes(title_text="runs", tick0=0, dtick=max(1, math.ceil(fullest_bin / 5)), tickformat="d")
    return fig.to_json()



def noise_ladder(curve):
    """The noisy solver's ladder of a task's calibration card: success rate and mean progress as a share of its
    actions turns random. A task that measures skill falls smoothly: neither flat (noise does not matter) nor at
    once (one slip ends the run)."""
    noise = [level["noise"] for level in curve]
    fig = go.Figure()
    for metric, name, colour in (("pg", "mean progress", "#7aa7ff"), ("sr", "success rate", "#ffc94d")):
        fig.add_trace(go.Scatter(x=noise, y=[level[metric] for level in curve], name=name, mode="lines+markers",
                                 line={"color": colour, "width": 3}, marker={"size": 9},
                                 customdata=[level["runs"] for level in curve],
                                 hovertemplate=f"{name}: %{{y:.0f}} %<br>%{{x}} % of actions random, "
                                               "%{customdata} runs<extra></extra>"))
    _layout(fig, title="The solver with noise: how the task answers worse play", height=300)
    fig.update_layout(legend={"y": -0.34}, margin={"b": 78})  # under the axis title, not beside it
    fig.update_xaxes(title_text="share of the solver's actions replaced by random ones (%)", tickvals=noise,
                     range=[-3, max(noise) + 3])
    fig.update_yaxes(title_text="%", range=[0, 105])
    return fig.to_json()


def compare_bars(result, view):
    """Two entries' PG per genre (or level) over the tasks both ran."""
    groups = [g for g in result[view] if g["tasks"]]
    if not groups:
        return None
    fig = go.Figure()
    for index, (side, entry) in enumerate((("first", result["first"]), ("second", result["second"]))):
        human = entry["kind"] == "human"
        fig.add_trace(go.Bar(
            x=[g["label"] for g in groups], y=[g[f"{side}_pg"] for g in groups], name=_short(entry_label(entry), 34),
            marker={"color": HUMAN_COLOURS[entry["human_kind"]] if human else AGENT_COLOURS[index],
                    "pattern": {"shape": "/" if human else "", "fgcolor": "#0f1420", "size": 6}},
            customdata=[[g[f"{side}_sr"], g["tasks"]] for g in groups],
            hovertemplate=f"<b>{_short(entry_label(entry), 40)}</b><br>%{{x}}: PG %{{y:.1f}} %, SR "
                          "%{customdata[0]:.1f} %<br>over the %{customdata[1]} tasks both ran<extra></extra>"))
    _layout(fig, title="Progress by " + ("genre" if view == "genre" else "curriculum level") + " on the shared tasks",
            barmode="group", height=360)
    fig.update_layout(showlegend=True, margin={"b": 84}, legend={"y": -0.2})
    fig.update_yaxes(title_text="progress (%)", range=[0, 100])
    return fig.to_json()


def progress_over_time(entries):
    """The state of the art by submission date: for each genre (and overall) the best PG of any ranked agent
    submitted up to that day, as steps."""
    agents = sorted([e for e in entries if e["kind"] == "agent" and e["ranked"] and e["date"]], key=lambda e: e["date"])
    if not agents:
        return None
    fig = go.Figure()
    for genre, colour, dash in [*((g, GENRE_COLOURS[g], "solid") for g in GENRE_IDS), ("overall", TEXT, "dot")]:
        dates, best, names = [], [], []
        for entry in agents:
            pg = entry["overall"]["pg"] if genre == "overall" else entry["genre"][genre]["pg"]
            if pg is not None and (not best or pg > best[-1]):
                dates.append(entry["date"].isoformat())
                best.append(pg)
                names.append(_short(entry_label(entry), 40))
        if not best:
            continue
        name = "Overall" if genre == "overall" else GENRE_NAMES[genre]
        fig.add_trace(go.Scatter(
            x=dates, y=best, mode="lines+markers", line={"shape": "hv", "color": colour, "dash": dash, "width": 2},
            marker={"size": 7, "color": colour}, name=name, text=names,
            hovertemplate=f"<b>{name}</b>: %{{y:.1f}} % PG<br>%{{text}}<br>%{{x|%Y-%m-%d}}<extra></extra>"))
    _layout(fig, title="Best verified progress by submission date", height=340)
    fig.update_yaxes(title_text="best PG so far (%)", range=[0, 100])
    return fig.to_json()
