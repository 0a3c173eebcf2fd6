"""Pictures of Orion Duel positions: ASCII for the terminal, matplotlib for files.

ASCII legend: ``.`` free hex, ``G`` free galaxy, ``H`` free black hole,
``a``/``b`` a hex of player 0's / player 1's colour (upper case: placed by
the last move), with ``*`` when it covers a galaxy and ``#`` a black hole.
Rows are ``r = -5 .. 5`` (top to bottom), shifted half a hex per row as in
the pointy-top layout of :func:`.hexgrid.to_pixel`.
"""

from __future__ import annotations

import math
from typing import Iterable, Mapping

from .hexgrid import Hex, text_column, to_pixel

__all__ = ["ascii_board", "draw", "picture", "PLAYER_COLOURS"]

#: Fill colours of player 0's and player 1's colour (colour-blind safe pair).
PLAYER_COLOURS = ("#e66100", "#5d3a9b")
_FREE = "#eeeeee"
_PAIR_COLOURS = ("#1b9e77", "#a6761d", "#1f78b4")  # teal, brown, blue: unlike the players


def ascii_board(state) -> str:
    """The position as text, one row of hexes per line (see the module legend).

    Examples
    --------
    >>> from ubongo_cp.games.orion import OrionState, random_setup
    >>> print(ascii_board(OrionState(random_setup(0, first_player=0))).splitlines()[0])
    player 0 = a, player 1 = b, to move: 0, move 0
    """
    board = state.game.board
    last = set(state.game.placements[state._history[-1]].cells) if state._history else set()
    xs = [text_column(h) for h in board.hexes]
    x0 = min(xs)
    rows: dict[int, list[str]] = {}
    for i, (q, r) in enumerate(board.hexes):
        c = int(state.colour[i])
        if c < 0:
            sym = "G" if state.galaxy[i] else "H" if state.hole[i] else "."
        else:
            sym = "ab"[c]
            if i in last:
                sym = sym.upper()
            sym += "*" if state.galaxy[i] else "#" if state.hole[i] else ""
        line = rows.setdefault(r, [])
        col = 2 * (text_column((q, r)) - x0)
        line.extend(" " * (col - len("".join(line))))
        line.append(sym)
    who = state.current_player()
    head = (f"player 0 = a, player 1 = b, to move: {who if who >= 0 else '-'}, "
            f"move {len(state._history)}")
    body = ["".join(rows[r]).rstrip() for r in sorted(rows)]
    tail = []
    for p in (0, 1):
        for w in state.wins[p]:
            tail.append(f"player {p} fulfils {w.condition}" + (f" ({w.sides[0]}-{w.sides[1]})" if w.sides else ""))
    if state.is_terminal():
        res = "draw" if state.winner < 0 else f"player {state.winner} wins"
        tail.append(f"game over: {res} ({state.end_rule}); scores {state.scores()}")
    return "\n".join([head, *body, *tail])


def draw(state, ax=None, path=None, title: str | None = None,
         highlight: Iterable[Hex] | Mapping = (), highlight_label: str | None = None):
    """Draw a position with matplotlib: hexes by colour, tokens, the six sides.

    matplotlib is imported here, not at module import; without ``ax`` the
    figure is a bare :class:`matplotlib.figure.Figure` (no pyplot, so the
    caller's backend, e.g. Jupyter's, is left alone).

    Parameters
    ----------
    state : OrionState
    ax : matplotlib.axes.Axes, optional
        Axes to draw on (default a new 7 x 7 inch figure).
    path : str or os.PathLike, optional
        If given, save the figure there, atomically (SVG, PNG or PDF by its
        suffix, 150 dpi); an existing file is replaced only when it is a
        picture the toolkit wrote (:func:`~ubongo_cp.draw.figures.save_figure`).
    title : str, optional
    highlight : iterable of (q, r), or mapping
        Hexes outlined in black (e.g. a witness chain or a blocking set); or
        several groups: ``{label: hexes}`` or ``{label: (hexes, colour)}``,
        each outlined in its colour (default black) with its legend label.
    highlight_label : str, optional
        Legend text of the highlighted hexes (one group).

    Returns
    -------
    matplotlib.figure.Figure
    """
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch, RegularPolygon

    board = state.game.board
    if ax is None:
        fig = Figure(figsize=(7, 7))
        ax = fig.subplots()
    else:
        fig = ax.figure
    groups = []
    if isinstance(highlight, Mapping):
        for label, spec in highlight.items():
            hexes, colour = spec if (isinstance(spec, tuple) and len(spec) == 2
                                     and isinstance(spec[1], str)) else (spec, "black")
            groups.append(({tuple(h) for h in hexes}, colour, label))
    else:
        groups.append(({tuple(h) for h in highlight}, "black", highlight_label or "highlighted"))
    edge = {h: colour for hexes, colour, _ in groups for h in hexes}
    for i, h in enumerate(board.hexes):
        x, y = to_pixel(h)
        c = int(state.colour[i])
        face = _FREE if c < 0 else PLAYER_COLOURS[c]
        ax.add_patch(RegularPolygon((x, -y), 6, radius=0.98, orientation=0, facecolor=face,
                                    edgecolor=edge.get(h, "white"),
                                    linewidth=3 if h in edge else 1, zorder=2 if h in edge else 1))
        if state.galaxy[i]:
            ax.plot(x, -y, marker="*", markersize=17, color="#ffd700", markeredgecolor="black",
                    zorder=3)
        elif state.hole[i]:
            ax.plot(x, -y, marker="o", markersize=12, color="black", markeredgecolor="white",
                    zorder=3)
    # The six sides, coloured by opposite pair (W1).
    for k, (a, b) in enumerate(board.pairs):
        for name in (a, b):
            side = dict(board.sides)[name]
            pts = [to_pixel(h) for h in side]
            cx = sum(p[0] for p in pts) / len(pts)
            cy = sum(p[1] for p in pts) / len(pts)
            norm = math.hypot(cx, cy) or 1.0
            ux, uy = cx / norm, cy / norm
            xs = [p[0] + 1.05 * ux for p in pts]
            ys = [-(p[1] + 1.05 * uy) for p in pts]
            ax.plot(xs, ys, color=_PAIR_COLOURS[k % 3], linewidth=6, solid_capstyle="round",
                    zorder=0)
            ax.text(cx + 2.0 * ux, -(cy + 2.0 * uy), name, ha="center", va="center",
                    fontsize=12, fontweight="bold", color=_PAIR_COLOURS[k % 3])
    handles = [Patch(color=PLAYER_COLOURS[0], label="player 0 colour"),
               Patch(color=PLAYER_COLOURS[1], label="player 1 colour"),
               Line2D([], [], marker="*", ls="", color="#ffd700", markeredgecolor="black",
                      markersize=13, label="galaxy"),
               Line2D([], [], marker="o", ls="", color="black", markersize=9, label="black hole")]
    for hexes, colour, label in groups:
        if hexes:
            handles.append(Patch(facecolor="none", edgecolor=colour, linewidth=2, label=label))
    ax.legend(handles=handles, loc="lower center", bbox_to_anchor=(0.5, -0.08), ncol=3,
              frameon=False, fontsize=9)
    ax.set_aspect("equal")
    px = [to_pixel(h) for h in board.hexes]
    ax.set_xlim(min(x for x, _ in px) - 3, max(x for x, _ in px) + 3)
    ax.set_ylim(-max(y for _, y in px) - 3, -min(y for _, y in px) + 3)
    ax.axis("off")
    if title:
        ax.set_title(title)
    if path is not None:
        from ...draw.figures import save_figure

        save_figure(fig, path, dpi=150, bbox_inches="tight")
    return fig


def picture(state, fmt: str = "png", **kwargs) -> bytes:
    """The position drawn by :func:`draw` as image bytes (``fmt`` "png" or "svg").

    Used by ``OrionState._repr_png_``/``_repr_svg_`` (Jupyter shows a state
    as a picture); keyword arguments go to :func:`draw`.
    """
    import io

    fig = draw(state, **kwargs)
    buf = io.BytesIO()
    fig.savefig(buf, format=fmt, dpi=72 if fmt == "png" else None, bbox_inches="tight")
    return buf.getvalue()
