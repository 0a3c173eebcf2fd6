"""Picture of a gem-game state: the six lanes of gems, the red pawn fields and the scores.

Jupyter shows it for a state left at the end of a cell
(:meth:`~ubongo_cp.games.base.GameState._repr_png_`); matplotlib is imported
only when a picture is drawn.
"""

from __future__ import annotations

from ...draw.canvas import PALETTE
from ..base import picture_axes
from .state import EMPTY, HOLES_PER_LANE, NUM_LANES, sorted_counts

__all__ = ["figure"]


def figure(state):
    """A :class:`matplotlib.figure.Figure` of ``state`` (an :class:`~.state.UbongoState`).

    Lane ``f`` is row ``f`` from the top: its red pawn field on the left with
    the seat numbers of the pawns on it, then hole 0 (the front) to hole 11;
    an empty hole is an open circle. On the right, each player's gem counts
    sorted as UG-10 compares them.
    """
    from matplotlib.patches import Circle, Rectangle

    fig, ax = picture_axes(6.4, 2.6)
    board = state.board
    for lane in range(NUM_LANES):
        y = NUM_LANES - 1 - lane
        ax.add_patch(Rectangle((-1.45, y - 0.42), 0.84, 0.84, facecolor="#C0392B", edgecolor="black", lw=0.6))
        here = "".join(str(p) for p in range(state.num_players) if state.pawns[p] == lane)
        ax.text(-1.03, y, here, ha="center", va="center", fontsize=8, color="white", weight="bold")
        for h in range(HOLES_PER_LANE):
            g = int(board[lane, h])
            colour = "none" if g == EMPTY else PALETTE[g % len(PALETTE)]  # the toolkit's colour-blind-safe set
            ax.add_patch(Circle((h, y), 0.36, facecolor=colour, edgecolor="#555555", lw=0.6))
    phase = "over" if state.is_terminal() else state.phase
    ax.text(12.2, NUM_LANES - 0.5, f"round {min(state.round + 1, state.num_rounds)}/{state.num_rounds}, {phase}",
            fontsize=8, va="center")
    for p in range(state.num_players):
        score = "-".join(map(str, sorted_counts(state.gems[p].tolist())))
        ax.text(12.2, NUM_LANES - 1.5 - p, f"player {p}: {score}", fontsize=8, va="center")
    ax.set_xlim(-1.6, 17.5)
    ax.set_ylim(-0.6, NUM_LANES - 0.4)
    return fig
