"""Plotly figures of rounds evaluations, on the leaderboard's theme: the improvement curve of an entry (one line a
game, the overall line, cold as a reference) and the board's curves (every entry overall, people beside them)."""
import plotly.graph_objects as go

from leaderboard.charts import AGENT_COLOURS, HUMAN_COLOURS, MUTED, TEXT, _layout, _short

from .selectors import OVERALL


def _axes(fig, last_round):
    ticks = list(range(last_round + 2))
    fig.update_xaxes(title_text="round", tickvals=ticks,
                     ticktext=["0 (cold)", *map(str, range(1, last_round + 1)), "held-out"],
                     range=[-0.3, last_round + 1.3])
    fig.update_yaxes(title_text="mean progress (%)", range=[0, 105])


def _held_out(fig, figures, *, name, colour, last_round):
    """The held-out tasks' score: an open diamond at round 0 (played cold) and a filled one after the last round."""
    for x, value, symbol, when in ((0, figures["held_out_cold"], "diamond-open", "cold, in round 0"),
                                   (last_round + 1, figures["held_out"], "diamond", "after the last round")):
        if value is not None:
            fig.add_trace(go.Scatter(x=[x], y=[value], legendgroup=name, showlegend=False, mode="markers",
                                     marker={"symbol": symbol, "size": 13, "color": colour,
                                             "line": {"color": colour, "width": 2}},
                                     hovertemplate=f"<b>{name}</b><br>held-out tasks, {when}: PG %{{y:.1f}} %"
                                                   "<extra></extra>"))


def entry_curves(figures, last_round):
    """One line a game and, with several games, the overall line (thick) over rounds 0..R, each one's held-out
    score as a diamond at the right, and the overall cold score as a dashed reference."""
    fig = go.Figure()
    rounds = list(range(last_round + 1))
    games = [scope for scope in figures if scope != OVERALL]
    scopes = [*games, OVERALL] if len(games) > 1 else games  # one game's line is the overall line
    for index, scope in enumerate(scopes):
        f = figures[scope]
        overall = scope == OVERALL
        colour = TEXT if overall else AGENT_COLOURS[index % len(AGENT_COLOURS)]
        name = "all games" if overall else scope
        fig.add_trace(go.Scatter(x=rounds, y=f["curve"], name=name, mode="lines+markers", legendgroup=name,
                                 line={"color": colour, "width": 4 if overall else 2}, marker={"size": 8},
                                 hovertemplate=f"<b>{name}</b><br>round %{{x}}: PG %{{y:.1f}} %<extra></extra>"))
        _held_out(fig, f, name=name, colour=colour, last_round=last_round)
    cold = figures[OVERALL]["cold"]
    if cold is not None:
        fig.add_hline(y=cold, line={"color": MUTED, "dash": "dash", "width": 1},
                      annotation_text=f"cold {cold:.0f} %", annotation_position="top left",
                      annotation_font_color=MUTED)
    _layout(fig, title="Progress round by round (diamonds: the held-out tasks, open when cold)", height=340)
    fig.update_layout(legend={"y": -0.3}, margin={"b": 80})
    _axes(fig, last_round)
    return fig.to_json()


def board_curves(rows, last_round, people=None):
    """Every entry's overall curve (and held-out diamond), and the people's curve when a campaign gave one."""
    fig = go.Figure()
    rounds = list(range(last_round + 1))
    drawn = [row for row in rows if row["figures"][OVERALL]["cold"] is not None]
    if not drawn and not people:
        return None
    for index, row in enumerate(drawn):
        f = row["figures"][OVERALL]
        colour = AGENT_COLOURS[index % len(AGENT_COLOURS)]
        name = _short(f"#{row['id']} {row['agent'].get('name', '?')}", 32)
        fig.add_trace(go.Scatter(x=rounds, y=f["curve"], name=name, mode="lines+markers", legendgroup=name,
                                 line={"color": colour, "width": 3}, marker={"size": 8},
                                 hovertemplate=f"<b>{name}</b><br>round %{{x}}: PG %{{y:.1f}} %<extra></extra>"))
        _held_out(fig, f, name=name, colour=colour, last_round=last_round)
    if people:
        fig.add_trace(go.Scatter(
            x=list(range(len(people["curve"]))), y=people["curve"], name=f"people ({people['players']})",
            mode="lines+markers", line={"color": HUMAN_COLOURS["novice"], "width": 3, "dash": "dot"},
            marker={"size": 8, "symbol": "square"}, customdata=people["pairs"],
            hovertemplate="<b>people</b><br>round %{x}: PG %{y:.1f} %<br>%{customdata} player-task pairs"
                          "<extra></extra>"))
    _layout(fig, title="Improvement curves, all games (diamonds: held-out tasks, open when cold)", height=340)
    fig.update_layout(legend={"y": -0.3}, margin={"b": 80})
    _axes(fig, last_round)
    return fig.to_json()
