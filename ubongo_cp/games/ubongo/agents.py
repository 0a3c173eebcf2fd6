"""Gem-game agents: movement strategies (rule UG-5) and the agent that plays them.

Strategies: :class:`Stay`, :class:`MostGems`, :class:`LeadingColour`,
:class:`LookAhead`; :class:`StrategyAgent` turns one into an agent
(``state -> action``) for :class:`~ubongo_cp.games.ubongo.state.UbongoState`.
The players' solving speed is the shared solve-time model
(:class:`~ubongo_cp.games.tasks.SolveTimeModel`).

Glossary: a *lane* is one of the 6 rows of gem holes, listed front to back
(hole 0 is nearest the red pawn field); *field* ``f`` (0..5) is the red field
at the head of lane ``f``. Colours are integers ``0..C-1``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Sequence

import numpy as np

from ...errors import InputError
from .state import sorted_counts

__all__ = [
    "Strategy",
    "Stay",
    "MostGems",
    "LeadingColour",
    "LookAhead",
    "STRATEGIES",
    "StrategyAgent",
    "make_strategy",
]


# Movement strategies (rule UG-5: move up to 3/2/1/0 fields either way;
# rule UG-6: then take the two front gems of the lane).

class Strategy:
    """Base class of gem-game movement strategies.

    A strategy sees plain data: ``lanes[f]`` is the list of gem colours of lane ``f``
    front to back (empty holes skipped), ``pos`` the pawn's field,
    ``allowance`` how far it may move (UG-5), ``counts`` its gems per colour.
    Candidate fields are tried nearest first, then lowest field, and the
    first best one wins (deterministic tie-break).
    """

    name = "strategy"

    def start(self, lanes: Sequence[Sequence[int]], num_colours: int, rng: np.random.Generator) -> int:
        """Starting field (rule UG-2: any red field, shared fields allowed)."""
        return self.move(lanes, 0, len(lanes) - 1, [0] * num_colours)

    def move(self, lanes: Sequence[Sequence[int]], pos: int, allowance: int,
             counts: Sequence[int]) -> int:
        """Destination field, within ``allowance`` of ``pos`` (rule UG-5)."""
        best, best_value = pos, None
        for f in _candidates(pos, allowance, len(lanes)):
            v = self.value(lanes, f, counts)
            if best_value is None or v > best_value:
                best, best_value = f, v
        return best

    def value(self, lanes, field: int, counts) -> tuple:
        """Comparable value of moving to ``field`` (larger is better)."""
        return ()

    def __repr__(self) -> str:
        return self.name


class Stay(Strategy):
    """Never move; start on a uniformly random field (the strategy's rng)."""

    name = "stay"

    def start(self, lanes, num_colours, rng) -> int:
        return int(rng.integers(len(lanes)))

    def move(self, lanes, pos, allowance, counts) -> int:
        return pos


class MostGems(Strategy):
    """Move to the reachable lane that yields the most gems now (2, 1 or 0)."""

    name = "most-gems"

    def value(self, lanes, field, counts) -> tuple:
        return (min(2, len(lanes[field])),)


class LeadingColour(Strategy):
    """Maximise the gems taken of its leading colour (the colour it holds most of).

    With several leading colours (e.g. at the start, all at 0) any of them
    counts; ties are broken by the number of gems taken.
    """

    name = "leading"

    def value(self, lanes, field, counts) -> tuple:
        taken = lanes[field][:2]
        top = max(counts)
        # Gems taken of the best leading colour: a colour not taken counts 0.
        best = max((taken.count(g) for g in taken if counts[g] == top), default=0)
        return (best, len(taken))


class LookAhead(Strategy):
    """One-round look-ahead on the UG-10 score.

    For each reachable field, take its two front gems, then assume that next
    round it moves up to ``reach`` fields (default 2, the allowance of a
    second finisher) to the best lane of the board left by its own take
    (other players ignored); compare the resulting sorted gem counts
    (rule UG-10), then the counts after this round alone.
    """

    name = "lookahead"

    def __init__(self, reach: int = 2) -> None:
        self.reach = reach

    def value(self, lanes, field, counts) -> tuple:
        lane = lanes[field]
        now = list(counts)
        for g in lane[:2]:
            now[g] += 1
        now_key = sorted_counts(now)
        best_next = None
        for f2 in _candidates(field, self.reach, len(lanes)):
            gems = lane[2:4] if f2 == field else lanes[f2][:2]
            if gems:
                nxt = now[:]
                for g in gems:
                    nxt[g] += 1
                key = sorted_counts(nxt)
            else:  # an empty lane next round leaves the counts as they are now
                key = now_key
            if best_next is None or key > best_next:
                best_next = key
        return (best_next, now_key)


#: Strategy names accepted by :func:`make_strategy` and the CLI.
STRATEGIES = {"stay": Stay, "most-gems": MostGems, "leading": LeadingColour, "lookahead": LookAhead}


class StrategyAgent:
    """An agent (``state -> action``) for :class:`~ubongo_cp.games.ubongo.state.UbongoState`.

    Parameters
    ----------
    strategy : Strategy
        Chooses the starting field (UG-2) and every move (UG-5).
    rng : int or numpy.random.Generator, optional
        The strategy's own generator (only :class:`Stay` draws from it).
    """

    def __init__(self, strategy: Strategy, rng=None) -> None:
        self.strategy = strategy
        self.rng = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)

    def __call__(self, state) -> int:
        if state.phase == "setup":
            return self.strategy.start(state.lanes(), state.num_colours, self.rng)
        player, field, allowance = state.mover()
        return self.strategy.move(state.lanes(), field, allowance, state.counts(player))


def make_strategy(name: str) -> Strategy:
    """A strategy object from its name (one of :data:`STRATEGIES`).

    Raises
    ------
    InputError
        For an unknown name.
    """
    try:
        return STRATEGIES[name]()
    except KeyError:
        raise InputError(f"unknown strategy {name!r} (choose from {', '.join(STRATEGIES)})") from None


@lru_cache(maxsize=None)
def _candidates(pos: int, allowance: int, n_fields: int) -> tuple[int, ...]:
    """Fields within ``allowance`` of ``pos``: nearest first, then lower index (memoised)."""
    out = [pos]
    for d in range(1, allowance + 1):
        for f in (pos - d, pos + d):
            if 0 <= f < n_fields:
                out.append(f)
    return tuple(out)
