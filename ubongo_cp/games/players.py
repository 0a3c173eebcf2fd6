"""Player models for the Ubongo engines: rated task decks, solve times, movement strategies.

Three pieces, shared by the gem game (:mod:`ubongo_cp.games.ubongo`) and the
Duel (:mod:`ubongo_cp.games.duel`):

* :class:`TaskDeck` -- the per-task table of a rated deck (one row per card
  side x die face, from the lead's batch runner), reduced to one array of
  *difficulty ratios* per card side: ``ratio[card, face-1] = difficulty /
  median difficulty of the deck``; ``inf`` marks a task with no solution.
* :class:`SolveTimeModel` -- how long a player of a given skill takes on a
  task of a given ratio (seconds), with log-normal noise.
* Movement strategies for the gem game (rule UG-5): :class:`Stay`,
  :class:`MostGems`, :class:`LeadingColour`, :class:`LookAhead`.

Glossary: a *lane* is one of the 6 rows of gem holes, listed front to back
(hole 0 is nearest the red pawn field); *field* ``f`` (0..5) is the red field
at the head of lane ``f``. Colours are integers ``0..C-1``.

The solve-time model
--------------------
Player ``p`` with skill ``s_p > 0`` (1 = an average player, 2 = twice as
fast) solving a task whose rated difficulty is ``d`` takes::

    T = (base + scale * d / median(d)) / s_p * exp(sigma * Z - sigma**2 / 2)

seconds, ``Z`` standard normal, independent per player and task. So the
median-difficulty task takes an average player ``base + scale`` seconds on
average (the noise factor has mean 1), time grows linearly with the rated
difficulty (the composite score of the batch runner, whose scale is
arbitrary; dividing by the deck median makes it unit-free), and skill
divides the whole time. ``base`` is the time to pick up the named pieces
and place them even when the task is trivial. A task rated "no solution"
takes ``inf``. Defaults (``base`` 10 s, ``scale`` 30 s, ``sigma`` 0.4) give
an average player about 40 s on a median task, against the 60 s timer of
the gem game (RULES.md section 2); they are modelling choices, not rules,
and every one is a parameter.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from typing import Sequence

import numpy as np
import pandas as pd

from ..errors import InputError

__all__ = [
    "GAMES",
    "REQUIRED_COLUMNS",
    "TaskDeck",
    "SolveTimeModel",
    "ScriptedTimes",
    "Strategy",
    "Stay",
    "MostGems",
    "LeadingColour",
    "LookAhead",
    "STRATEGIES",
    "StrategyAgent",
    "make_strategy",
    "sorted_counts",
]

#: Facts per game: valid card sides and die faces (UG-1/UG-4 six-sided die,
#: UD-1/UD-2 sides A/B and a 20-sided die).
GAMES = {
    "classic": {"sides": ("easy", "hard"), "faces": 6},
    "duel": {"sides": ("A", "B"), "faces": 20},
}

#: Columns of the per-task table this module reads (the batch runner writes
#: more: pieces, area, count, count_reduced; they are kept but not needed).
REQUIRED_COLUMNS = ("card_id", "side", "face", "status", "difficulty")

_STATUSES = ("solved", "no solution", "unknown")


def _card_key(card_id: str):
    """Sort card ids numerically when they are numbers ("2" before "10")."""
    return (0, int(card_id), card_id) if card_id.isdigit() else (1, 0, card_id)


class TaskDeck:
    """A rated deck: difficulty ratios per card side, card and die face.

    Parameters
    ----------
    tasks : pandas.DataFrame
        One row per card side x die face with at least the columns
        :data:`REQUIRED_COLUMNS`: ``card_id`` (str), ``side`` (str),
        ``face`` (int, 1..6 classic / 1..20 duel), ``status`` ("solved",
        "no solution" or "unknown") and ``difficulty`` (float >= 0, larger is
        harder, arbitrary scale).
    game : {"classic", "duel"}
        Which deck this is (fixes the valid sides and faces).
    path : str or os.PathLike, optional
        File the table came from, named in error messages.

    Attributes
    ----------
    median : float
        Median difficulty of the solvable tasks of the whole deck (both
        sides); 1.0 if that median is 0.
    cards : dict of str -> list of str
        Card ids per side, sorted numerically.
    ratios : dict of str -> numpy.ndarray
        Per side, shape ``(n_cards, n_faces)``: ``difficulty / median``;
        ``inf`` for a task with status "no solution". A task with status
        "unknown" (the solver gave up) keeps its difficulty, or the deck's
        largest difficulty when it has none.

    Raises
    ------
    InputError
        A missing column, a bad side, face, status or difficulty (with the
        CSV line number ``row + 2``), a duplicated task, a card side that
        lacks some face, or a card side whose tasks are all unsolvable.

    Examples
    --------
    >>> df = pd.DataFrame({"card_id": ["1"] * 6, "side": ["easy"] * 6,
    ...                    "face": range(1, 7), "status": ["solved"] * 6,
    ...                    "difficulty": [1, 2, 2, 3, 4, 8]})
    >>> deck = TaskDeck(df, "classic")
    >>> deck.median, deck.ratios["easy"].tolist()
    (2.5, [[0.4, 0.8, 0.8, 1.2, 1.6, 3.2]])
    """

    def __init__(self, tasks: pd.DataFrame, game: str, path: str | os.PathLike | None = None) -> None:
        if game not in GAMES:
            raise InputError(f"unknown game {game!r} (expected one of {sorted(GAMES)})", path=path)
        self.game = game
        self.path = None if path is None else os.fspath(path)
        facts = GAMES[game]
        n_faces = facts["faces"]
        missing = [c for c in REQUIRED_COLUMNS if c not in tasks.columns]
        if missing:
            raise InputError(f"tasks table lacks column(s) {', '.join(missing)} "
                             f"(needs {', '.join(REQUIRED_COLUMNS)})", path=path)
        if len(tasks) == 0:
            raise InputError("tasks table has no rows", path=path)
        card = tasks["card_id"].astype(str).str.strip().to_numpy()
        side = tasks["side"].astype(str).str.strip().to_numpy()
        status = tasks["status"].astype(str).str.strip().to_numpy()
        face = pd.to_numeric(tasks["face"], errors="coerce").to_numpy(dtype=float)
        diff = pd.to_numeric(tasks["difficulty"], errors="coerce").to_numpy(dtype=float)
        for i in range(len(tasks)):
            line = i + 2  # header is line 1 of a CSV
            if side[i] not in facts["sides"]:
                raise InputError(f"side {side[i]!r} is not one of {facts['sides']} ({game} deck)",
                                 path=path, line=line)
            if not (face[i] == face[i] and float(face[i]).is_integer() and 1 <= face[i] <= n_faces):
                raise InputError(f"face {tasks['face'].iloc[i]} is not an integer 1..{n_faces}",
                                 path=path, line=line)
            if status[i] not in _STATUSES:
                raise InputError(f"status {status[i]!r} is not one of {_STATUSES}", path=path, line=line)
            if status[i] == "solved" and not (diff[i] >= 0 and math.isfinite(diff[i])):
                raise InputError(f"difficulty {tasks['difficulty'].iloc[i]} of a solved task "
                                 "is not a number >= 0", path=path, line=line)
            if status[i] == "unknown" and diff[i] < 0:
                raise InputError(f"difficulty {diff[i]} is negative", path=path, line=line)
        solvable = status != "no solution"
        known = solvable & np.isfinite(diff)
        if not known.any():
            raise InputError("no task of the deck is solvable with a difficulty", path=path)
        median = float(np.median(diff[known]))
        self.median = median if median > 0 else 1.0
        top = float(diff[known].max())
        self.cards: dict[str, list[str]] = {}
        self.ratios: dict[str, np.ndarray] = {}
        seen: dict[tuple[str, str, int], int] = {}
        for s in facts["sides"]:
            rows = np.flatnonzero(side == s)
            if len(rows) == 0:
                continue
            ids = sorted(set(card[rows]), key=_card_key)
            index = {c: k for k, c in enumerate(ids)}
            arr = np.full((len(ids), n_faces), np.nan)
            for i in rows:
                key = (card[i], s, int(face[i]))
                if key in seen:
                    raise InputError(f"task card {card[i]} side {s} face {int(face[i])} appears twice "
                                     f"(first on line {seen[key]})", path=path, line=i + 2)
                seen[key] = i + 2
                d = diff[i] if math.isfinite(diff[i]) else top
                arr[index[card[i]], int(face[i]) - 1] = d / self.median if solvable[i] else math.inf
            for k, c in enumerate(ids):
                gaps = np.flatnonzero(np.isnan(arr[k]))
                if len(gaps):
                    raise InputError(f"card {c} side {s} lacks face(s) "
                                     f"{', '.join(str(g + 1) for g in gaps)}", path=path)
                if np.isinf(arr[k]).all():
                    raise InputError(f"card {c} side {s} has no solvable task", path=path)
            self.cards[s] = ids
            self.ratios[s] = arr

    def side_ratios(self, side: str) -> np.ndarray:
        """Ratios of one side, shape ``(n_cards, n_faces)``.

        Raises
        ------
        InputError
            If the deck has no task on ``side``.
        """
        if side not in self.ratios:
            raise InputError(f"the {self.game} deck has no task on side {side!r} "
                             f"(sides present: {', '.join(self.ratios) or 'none'})", path=self.path)
        return self.ratios[side]

    def __repr__(self) -> str:
        sizes = ", ".join(f"{s}: {len(c)} cards" for s, c in self.cards.items())
        return f"TaskDeck({self.game}, {sizes}, median difficulty {self.median:g})"


@dataclass(frozen=True)
class SolveTimeModel:
    """Solve time = (base + scale x difficulty ratio) / skill x log-normal noise.

    See the module docstring for the formula and the defaults' rationale.

    Parameters
    ----------
    base : float
        Seconds a player of skill 1 needs even on a trivial task.
    scale : float
        Extra seconds per unit of difficulty ratio (a median task has ratio 1).
    sigma : float
        Standard deviation of the log of the noise factor (0 = deterministic);
        the factor is ``exp(sigma Z - sigma^2 / 2)``, mean 1.

    Examples
    --------
    >>> m = SolveTimeModel(base=10, scale=30, sigma=0)
    >>> m.times(np.array([1.0, 2.0, np.inf]), np.array([1.0, 2.0, 1.0]), np.zeros(3)).tolist()
    [40.0, 35.0, inf]
    """

    base: float = 10.0
    scale: float = 30.0
    sigma: float = 0.4

    def __post_init__(self) -> None:
        if not (self.base >= 0 and self.scale >= 0 and self.base + self.scale > 0):
            raise InputError(f"solve-time base {self.base} and scale {self.scale} must be >= 0, "
                             "not both 0")
        if not self.sigma >= 0:
            raise InputError(f"solve-time sigma {self.sigma} must be >= 0")

    def times(self, ratios: np.ndarray, skills: np.ndarray, z: np.ndarray) -> np.ndarray:
        """Solve times in seconds, shape of ``ratios``, for standard-normal draws ``z``."""
        with np.errstate(invalid="ignore"):
            return (self.base + self.scale * ratios) / skills * np.exp(
                self.sigma * z - 0.5 * self.sigma * self.sigma)

    def sample(self, ratios: np.ndarray, skills: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Draw solve times (seconds) for tasks ``ratios`` and players ``skills``.

        Exactly one ``rng.standard_normal(len(ratios))`` call, so that the
        fast simulation loops can replay the same stream.
        """
        return self.times(ratios, skills, rng.standard_normal(len(ratios)))


class ScriptedTimes:
    """A solve-time "model" that returns pre-set times (for hand-built tests).

    Parameters
    ----------
    script : sequence of sequences of float
        One vector of times (seconds; ``math.inf`` = does not solve) per call
        of :meth:`sample`, in order.
    """

    def __init__(self, script: Sequence[Sequence[float]]) -> None:
        self.script = [np.asarray(t, dtype=float) for t in script]
        self.calls = 0

    def sample(self, ratios, skills, rng) -> np.ndarray:
        if self.calls >= len(self.script):
            raise RuntimeError(f"scripted times exhausted after {self.calls} calls")
        t = self.script[self.calls]
        if len(t) != len(ratios):
            raise ValueError(f"scripted call {self.calls} has {len(t)} times, needs {len(ratios)}")
        self.calls += 1
        return t.copy()


def sorted_counts(counts: Sequence[int]) -> tuple[int, ...]:
    """Gem counts per colour sorted in descending order: the UG-10 score.

    Two players compare these tuples lexicographically (rule UG-10).

    >>> sorted_counts([4, 3, 2, 6, 1, 0]) > sorted_counts([6, 4, 2, 2, 2, 2])
    True
    """
    return tuple(sorted(counts, reverse=True))


# --------------------------------------------------------------------------
# Movement strategies (rule UG-5: move up to 3/2/1/0 fields either way;
# rule UG-6: then take the two front gems of the lane).
# --------------------------------------------------------------------------

class Strategy:
    """Base class of gem-game movement strategies.

    A strategy sees plain data, so the same object drives the
    :class:`~ubongo_cp.games.ubongo.UbongoState` path and the fast
    simulation loop: ``lanes[f]`` is the list of gem colours of lane ``f``
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
        top = max(counts)
        taken = lanes[field][:2]
        best = max((sum(1 for g in taken if g == c) for c in range(len(counts)) if counts[c] == top),
                   default=0)
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
        now = list(counts)
        for g in lanes[field][:2]:
            now[g] += 1
        best_next = None
        for f2 in _candidates(field, self.reach, len(lanes)):
            nxt = list(now)
            gems = lanes[f2][2:4] if f2 == field else lanes[f2][:2]
            for g in gems:
                nxt[g] += 1
            key = sorted_counts(nxt)
            if best_next is None or key > best_next:
                best_next = key
        return (best_next, sorted_counts(now))


#: Strategy names accepted by :func:`make_strategy` and the CLI.
STRATEGIES = {"stay": Stay, "most-gems": MostGems, "leading": LeadingColour, "lookahead": LookAhead}


class StrategyAgent:
    """An agent (``state -> action``) for :class:`~ubongo_cp.games.ubongo.UbongoState`.

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
        player = state.current_player()
        if state.phase == "setup":
            return self.strategy.start(state.lanes(), state.num_colours, self.rng)
        return self.strategy.move(state.lanes(), int(state.pawns[player]), state.move_allowance(),
                                  state.gems[player].tolist())


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


def _candidates(pos: int, allowance: int, n_fields: int) -> list[int]:
    """Fields within ``allowance`` of ``pos``: nearest first, then lower index."""
    out = [pos]
    for d in range(1, allowance + 1):
        for f in (pos - d, pos + d):
            if 0 <= f < n_fields:
                out.append(f)
    return out
