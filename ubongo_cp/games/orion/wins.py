"""Orion Duel win conditions (OD-4): W1-W3 of both players, with or without witness chains.

RULES.md §4, OD-4, for player P: W1 a connected chain of P's colour links
the two sides of an opposite pair; W2 a chain of P's colour covers 4
galaxies; W3 a chain of the opponent's colour covers 3 black holes. Chains
are the one-colour components of the board (:func:`.graphs.colour_components`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .graphs import colour_components, shortest_path_within
from .hexgrid import Hex

__all__ = ["W2_GALAXIES", "W3_BLACK_HOLES", "WinWitness", "win_conditions", "evaluate_wins"]

#: OD-4 thresholds: W2 needs 4 galaxies, W3 needs 3 black holes on one chain.
W2_GALAXIES = 4
#: OD-4: black holes on one chain for W3.
W3_BLACK_HOLES = 3


@dataclass(frozen=True)
class WinWitness:
    """A chain witnessing a fulfilled win condition (OD-4).

    ``condition`` is ``"W1"``, ``"W2"`` or ``"W3"``; ``player`` who fulfils
    it; ``colour`` the colour of the chain (the opponent's for W3);
    ``hexes`` the chain (for W1 a shortest path between the two sides
    ``sides``, for W2/W3 the connected chain); ``tokens`` the galaxies or
    black holes it covers.
    """

    condition: str
    player: int
    colour: int
    hexes: tuple[Hex, ...]
    tokens: tuple[Hex, ...] = ()
    sides: tuple[str, str] | None = None


def win_conditions(game, colour, galaxy, hole) -> tuple[frozenset, frozenset]:
    """The fulfilled win conditions of both players, without witnesses (OD-4).

    Parameters
    ----------
    game : OrionGame
        The variant (:class:`.state.OrionGame`): board adjacency and sides.
    colour : numpy.ndarray, shape (n + 1,), int
        Colour per hex (-1 free), with a trailing sentinel.
    galaxy, hole : numpy.ndarray, shape (n + 1,), bool
        Token masks.

    Returns
    -------
    (frozenset of str, frozenset of str)
        The names (``"W1"``, ``"W2"``, ``"W3"``) each player fulfils.
    """
    out: tuple[set, set] = (set(), set())
    for c, _members, side, g, h in _chains(game, colour, galaxy, hole):
        if side is not None:
            out[c].add("W1")
        if len(g) >= W2_GALAXIES:
            out[c].add("W2")
        if len(h) >= W3_BLACK_HOLES:
            out[1 - c].add("W3")
    return frozenset(out[0]), frozenset(out[1])


def evaluate_wins(game, colour, galaxy, hole) -> list[list[WinWitness]]:
    """The fulfilled win conditions W1-W3 of both players, with witness chains (OD-4).

    Parameters are those of :func:`win_conditions`.

    Returns
    -------
    list of two lists of WinWitness
        ``result[p]`` lists the conditions player ``p`` fulfils (one witness
        per condition, sorted by condition).
    """
    hexes = game.board.hexes
    out: list[list[WinWitness]] = [[], []]
    have: list[set] = [set(), set()]
    for c, members, side, g, h in _chains(game, colour, galaxy, hole):
        if side is not None and "W1" not in have[c]:
            a, b = game.side_pairs[side]
            path = shortest_path_within(game.adjacency, members, sorted(a), b)
            out[c].append(WinWitness("W1", c, c, tuple(hexes[i] for i in path), (),
                                     game.board.pairs[side]))
            have[c].add("W1")
        if len(g) >= W2_GALAXIES and "W2" not in have[c]:
            out[c].append(WinWitness("W2", c, c, tuple(hexes[i] for i in sorted(members)),
                                     tuple(hexes[i] for i in g)))
            have[c].add("W2")
        if len(h) >= W3_BLACK_HOLES and "W3" not in have[1 - c]:
            out[1 - c].append(WinWitness("W3", 1 - c, c, tuple(hexes[i] for i in sorted(members)),
                                         tuple(hexes[i] for i in h)))
            have[1 - c].add("W3")
    for lst in out:
        lst.sort(key=lambda w: w.condition)
    return out


def _chains(game, colour, galaxy, hole):
    """Yield ``(colour, members, pair or None, galaxies, black holes)`` per one-colour component.

    ``pair`` is the first opposite pair whose two sides the component
    touches (W1); galaxies and black holes are the token hexes it covers.
    """
    label, comps = colour_components(game.adjacency, colour)
    if not comps:
        return
    col = colour.tolist() if isinstance(colour, np.ndarray) else colour
    gal = galaxy.tolist() if isinstance(galaxy, np.ndarray) else galaxy
    hol = hole.tolist() if isinstance(hole, np.ndarray) else hole
    side_of: dict[int, int] = {}
    for k, (a, b) in enumerate(game.side_pairs):
        la = {label[h] for h in a}
        for cid in la.intersection(label[h] for h in b):
            if cid >= 0:
                side_of.setdefault(cid, k)
    for cid, members in enumerate(comps):
        yield (col[members[0]], members, side_of.get(cid),
               [h for h in members if gal[h]], [h for h in members if hol[h]])
