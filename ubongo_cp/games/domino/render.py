"""Picture of a domino state: the path of dominoes, the pawns, the start field and Domina.

Jupyter shows it for a state left at the end of a cell
(:meth:`~ubongo_cp.games.base.GameState._repr_png_`); matplotlib is imported
only when a picture is drawn.
"""

from __future__ import annotations

from ...draw.canvas import PALETTE, text_colour
from ..base import picture_axes
from .actions import OFF, OUT, domino_name

__all__ = ["FIELDS_PER_ROW", "figure"]

#: Path fields drawn per row before the picture wraps.
FIELDS_PER_ROW = 24


def figure(state):
    """A :class:`matplotlib.figure.Figure` of ``state`` (a :class:`~.state.DominoState`).

    The path runs left to right, wrapping every :data:`FIELDS_PER_ROW`
    fields; each field shows its symbol, the start field is outlined green
    and Domina's field gold; a pawn is a disc with its seat number. Below:
    each player's position and hand (the whole table, as :meth:`__str__`).
    """
    from matplotlib.patches import Circle, Rectangle

    n_fields = len(state.path)
    rows = (n_fields + FIELDS_PER_ROW - 1) // FIELDS_PER_ROW
    width = min(n_fields, FIELDS_PER_ROW)
    text_rows = state.num_players + 1
    fig, ax = picture_axes(max(4.0, 0.32 * width + 0.4), 0.45 * (1.6 * rows + text_rows) + 0.2)
    pawn_at = {f: q for q, f in enumerate(state.pawns) if f >= 0}
    for f, symbol in enumerate(state.path):
        x, y = f % FIELDS_PER_ROW, -1.6 * (f // FIELDS_PER_ROW)
        edge, lw = "black", 0.6
        if state.start >= 0 and f == state.start:
            edge, lw = "#27AE60", 2.0
        if state.start >= 0 and f == state.domina:
            edge, lw = "#D4AC0D", 2.5
        # The two fields of one domino share a darker background (DN-3).
        ax.add_patch(Rectangle((x - 0.48, y - 0.48), 0.96, 0.96, facecolor="#F4F1EA" if (f // 2) % 2 == 0 else "#DCD3BF",
                               edgecolor=edge, lw=lw))
        ax.text(x, y, str(symbol), ha="center", va="center", fontsize=9)
        if f in pawn_at:
            q = pawn_at[f]
            fill = PALETTE[q % len(PALETTE)]  # seat q's colour, the toolkit's colour-blind-safe set
            ax.add_patch(Circle((x, y + 0.72), 0.24, facecolor=fill, edgecolor="black", zorder=3))
            ax.text(x, y + 0.72, str(q), ha="center", va="center", fontsize=7, color=text_colour(fill), zorder=4)
        elif f in state.blocked:
            ax.text(x, y + 0.72, "x", ha="center", va="center", fontsize=9)
    y0 = -1.6 * (rows - 1) - 1.1
    ds = state.settings.domino_set
    if state.is_terminal():
        status = f"game over ({state.end_reason}), winners: {state.winners() or 'nobody'}"
    else:
        status = f"round {state.round}, player {state.cur} to act; stock {len(state.stock)}"
    ax.text(-0.5, y0, status, fontsize=8, va="center")
    for q in range(state.num_players):
        pos = state.pawns[q]
        where = ("off the path" if pos == OFF else "out" if pos == OUT
                 else f"{state.domina - pos} field(s) to Domina")
        hand = " ".join(domino_name(d, ds) for d in sorted(state.hands[q])) or "-"
        ax.text(-0.5, y0 - 0.75 * (q + 1), f"player {q}: {where}; hand {hand}", fontsize=8, va="center")
    ax.set_xlim(-0.7, max(width, 12) - 0.3)
    ax.set_ylim(y0 - 0.75 * text_rows - 0.2, 1.1)
    return fig
