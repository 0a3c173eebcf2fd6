"""Picture of a Duel state: the score board with both pawns and, in the variant, the orange fields.

Jupyter shows it for a state left at the end of a cell
(:meth:`~ubongo_cp.games.base.GameState._repr_png_`); matplotlib is imported
only when a picture is drawn.
"""

from __future__ import annotations

from ..base import picture_axes
from .state import TARGET

__all__ = ["figure"]


def figure(state):
    """A :class:`matplotlib.figure.Figure` of ``state`` (a :class:`~.state.DuelState`).

    One lane per player (A on top), fields 0 (start) to 5 (goal, UD-4); the
    orange fields of the handicap board are filled orange when the variant is
    played (UD-7); each pawn stands on its player's score.
    """
    from matplotlib.patches import Circle, Rectangle

    fig, ax = picture_axes(4.8, 1.5)
    for p, name in enumerate("AB"):
        y = 1 - p
        ax.text(-0.7, y, name, ha="center", va="center", fontsize=10, weight="bold")
        for f in range(TARGET + 1):
            orange = state.handicap and f in state.orange_fields
            colour = "#F39C12" if orange else ("#DDDDDD" if f < TARGET else "#7FB3D5")
            ax.add_patch(Rectangle((f - 0.45, y - 0.4), 0.9, 0.8, facecolor=colour, edgecolor="black", lw=0.6))
        ax.add_patch(Circle((state.scores[p], y), 0.25, facecolor="#C0392B" if p == 0 else "#2E86C1",
                            edgecolor="black", zorder=3))
    status = "match over" if state.is_terminal() else f"card {state.side}{state.card()}"
    if state.roll1 is not None:
        status += f", roll 1 = {state.roll1}"
    ax.text(TARGET + 0.8, 0.5, f"{state.scores[0]} : {state.scores[1]}\n{status}", fontsize=8, va="center")
    ax.set_xlim(-1.1, TARGET + 4.5)
    ax.set_ylim(-0.6, 1.6)
    return fig
