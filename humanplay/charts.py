"""The campaign page's heat map: tasks (or games) x {novice, expert}, the share of the needed runs that are done."""
import plotly.graph_objects as go

from leaderboard.charts import GRID, MUTED, PANEL, TEXT, TOP_MARGIN, chart_title

KIND_LABELS = {"novice": "Novice", "expert": "Expert"}


# Up to this many tasks the heat map has a column a task; past it, a column a game (200 columns would be too thin
# to read, and their hover texts alone would weigh more than the rest of the page).
TASK_COLUMNS_MAX = 40


def coverage_heatmap(coverage):
    """A plotly figure as JSON text (None when the campaign has no tasks or asks for no runs)."""
    kinds = coverage["kinds"]
    per_task = len(coverage["rows"]) <= TASK_COLUMNS_MAX
    rows = coverage["rows"] if per_task else coverage["games"]
    if not rows or not kinds:
        return None
    labels = [f"{row['game'].title} · {row['task'].title}" if per_task else f"{row['name']} ({row['tasks']} tasks)"
              for row in rows]
    z, text, hover = [], [], []
    for kind in kinds:
        cells = [row["cells"][kind] for row in rows]
        z.append([c["done"] / c["needed"] if c["needed"] else None for c in cells])
        text.append([f"{c['done']}/{c['needed']}" + ("▸" if c["held"] else "") for c in cells])
        hover.append([f"{label}<br>{KIND_LABELS[kind]}: {c['done']} of {c['needed']} runs done"
                      + (f", {c['held']} in play" if c["held"] else "") for label, c in zip(labels, cells)])
    fig = go.Figure(go.Heatmap(
        z=z, x=list(range(len(rows))), y=[KIND_LABELS[k] for k in kinds], text=text, hovertext=hover,
        hoverinfo="text", texttemplate="%{text}" if len(rows) <= 24 else None, textfont={"size": 13},
        zmin=0, zmax=1, xgap=2, ygap=2,
        colorscale=[[0, "#2a2f45"], [0.001, "#3f5f73"], [1, "#5ad17a"]],
        colorbar={"title": {"text": "done", "font": {"color": MUTED}}, "tickformat": ".0%", "len": 0.9,
                  "tickfont": {"color": MUTED}}))
    fig.update_layout(
        title=chart_title(f"Coverage: runs done of runs needed, per {'task' if per_task else 'game'} (▸ in play)"),
        height=TOP_MARGIN + 56 + 70 * len(kinds) + (130 if len(rows) <= 60 else 30),
        margin={"l": 70, "r": 16, "t": TOP_MARGIN, "b": 130 if len(rows) <= 60 else 30},
        paper_bgcolor=PANEL, plot_bgcolor=PANEL, font={"color": TEXT, "size": 12},
        xaxis={"tickmode": "array", "tickvals": list(range(len(rows))), "tickangle": -50, "gridcolor": GRID,
               "ticktext": [row["task"].task_id.split("@")[0] if per_task else row["name"] for row in rows]
               if len(rows) <= 60 else None,
               "showticklabels": len(rows) <= 60},
        yaxis={"gridcolor": GRID, "autorange": "reversed"})
    return fig.to_json()
