"""Rated task decks and the solve-time model, shared by the gem game and Ubongo Duel.

* :class:`TaskDeck` -- the per-task table of a rated deck (one row per card
  side x die face, from the batch runner), reduced to one array of
  *difficulty ratios* per card side: ``ratio[card, face-1] = difficulty /
  median difficulty of the deck``; ``inf`` marks a task with no solution.
  :func:`load_tasks`, :func:`as_deck` and :func:`default_tasks_path` read
  the tables; :func:`synthetic_tasks` makes a stand-in for tests.
* :class:`SolveTimeModel` -- how long a player of a given skill takes on a
  task of a given ratio (seconds), with log-normal noise; the player model
  of both Ubongo engines. :class:`ScriptedTimes` replays fixed times (tests).

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
from pathlib import Path
from typing import Sequence

import numpy as np
import pandas as pd

from ..cards import card_id_key
from ..errors import InputError, as_written
from ..specs import DeckSpec, game_spec, load_spec

__all__ = [
    "REQUIRED_COLUMNS",
    "recorded_times_problem",
    "TaskDeck",
    "SolveTimeModel",
    "MAX_SIGMA",
    "check_sigma",
    "engine_model",
    "skills_argument",
    "ScriptedTimes",
    "default_tasks_path",
    "load_tasks",
    "as_deck",
    "spec_for_table",
    "synthetic_tasks",
    "timed_record",
    "timed_replay",
    "timed_result",
]

#: Columns of the per-task table this module reads (the batch runner writes
#: more: pieces, area, count, count_reduced; they are kept but not needed).
REQUIRED_COLUMNS = ("card_id", "side", "face", "status", "difficulty")

#: Statuses of a task the simulators play: a batch's "timeout" (the time limit cut the search) is an
#: "unknown" task, as is "unknown" itself (the solver gave up).
_STATUSES = ("solved", "no solution", "unknown", "timeout")
_UNKNOWN = ("unknown", "timeout")

#: Why a batch status gives the simulators no task to play, and what to do about it.
_NO_ANSWER = {
    "error": "the batch could not rate it (run the batch again on the same output folder to retry it)",
    "disagreement": "the batch's two solvers counted its solutions differently (a bug to report)",
    "memout": "its search ran out of memory",
}


class TaskDeck:
    """A rated deck: difficulty ratios per card side, card and die face.

    Parameters
    ----------
    tasks : pandas.DataFrame
        One row per card side x die face with at least the columns
        :data:`REQUIRED_COLUMNS`: ``card_id`` (str), ``side`` (str),
        ``face`` (int, 1..6 classic / 1..20 duel), ``status`` ("solved",
        "no solution", "unknown", or "timeout", which is read as "unknown")
        and ``difficulty`` (float >= 0, larger is harder, arbitrary scale).
    game : str or DeckSpec, optional
        Which deck this is: its sides and die faces come from its deck spec
        (:mod:`ubongo_cp.specs`): a :class:`~ubongo_cp.specs.DeckSpec`, a
        deck spec file, or a shipped game (``"classic"``, ``"duel"``). By
        default the table's ``game`` column names it (a shipped game, or a
        designer's game whose ``deck.toml`` lies beside the table,
        :func:`spec_for_table`); without that column, ``"classic"``. A
        table whose ``game`` column names another game than the one given
        is refused.
    path : str or os.PathLike, optional
        File the table came from, named in error messages.

    Attributes
    ----------
    spec : DeckSpec
        The deck's spec.
    game : str
        Its game's name.
    median : float
        Median difficulty of the solvable tasks of the whole deck (both
        sides); 1.0 if that median is 0.
    cards : dict of str -> tuple of str
        Card ids per side, sorted numerically; a tuple, so that a match
        holding it (or a caller) cannot reorder the deck for every later
        match.
    ratios : dict of str -> numpy.ndarray
        Per side, shape ``(n_cards, n_faces)``: ``difficulty / median``;
        ``inf`` for a task with status "no solution". A task with status
        "unknown" (the solver gave up) or "timeout" (the batch's time limit
        cut its search) keeps its difficulty, or the deck's largest
        difficulty when it has none. Read-only (a deck's ratios never
        change; ``side_rows`` keeps them as tuples).

    Raises
    ------
    InputError
        A table of another game than the one given, a missing column, a bad side, face, status or difficulty (with the
        CSV line the row was read from, or the row of another table), a task the
        batch gave no answer ("error", "disagreement"), a duplicated task, a card side that
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

    def __init__(self, tasks: pd.DataFrame, game: "str | DeckSpec | None" = None,
                 path: str | os.PathLike | None = None) -> None:
        from ..io import check_unique_columns

        check_unique_columns([str(c) for c in tasks.columns], path, where="the table")
        try:
            spec = game if isinstance(game, DeckSpec) else load_spec(game) if game else spec_for_table(tasks, path)
        except InputError as exc:
            raise InputError(exc.message, path=exc.path or path, line=exc.line) from None
        if game is not None and "game" in tasks.columns:    # the spec given, and the game the table names
            named = sorted({str(g).strip() for g in tasks["game"].dropna()} - {"", spec.game})
            if named:
                from ..specs import SHIPPED_SPECS

                which = f"the {spec.game} deck's" if spec.game in SHIPPED_SPECS or not spec.path else spec.path
                raise InputError(f"the tasks table is of game {', '.join(map(repr, named))} but the deck spec "
                                 f"({which}) is of game {spec.game!r}: give the spec of the table's game",
                                 path=path)
        self.spec = spec
        game = spec.game
        self.game = game
        self.path = None if path is None else os.fspath(path)
        #: Where the deck came from, in words: its file, "shipped duel" for a shipped deck's table (by the short
        #: name the commands take, wherever the toolkit is installed), "synthetic" (:func:`synthetic_tasks`) or None.
        self.source = tasks.attrs.get("source") if self.path is None else _source(self.path)
        sides = spec.side_names
        faces_of = {s: spec.side(s).faces for s in sides}
        missing = [c for c in REQUIRED_COLUMNS if c not in tasks.columns]
        if missing:
            raise InputError(f"tasks table lacks column(s) {', '.join(missing)} "
                             f"(needs {', '.join(REQUIRED_COLUMNS)})", path=path)
        from ..report.tables import check_task_rows, check_unique_tasks, keep_rows, row_place

        # A table as a file gives it (load_tasks, whose checks these are): a row of empty fields is no task.
        tasks = keep_rows(tasks, [not b for b in check_task_rows(tasks, path, unique=False)])
        if len(tasks) == 0:
            raise InputError("tasks table has no rows", path=path)
        card = tasks["card_id"].astype(str).str.strip().to_numpy()
        side = tasks["side"].astype(str).str.strip().to_numpy()
        status = tasks["status"].astype(str).str.strip().to_numpy()
        face = pd.to_numeric(tasks["face"], errors="coerce").to_numpy(dtype=float)
        diff = pd.to_numeric(tasks["difficulty"], errors="coerce").to_numpy(dtype=float)
        for i in range(len(tasks)):
            line, where = row_place(path, i, tasks)
            if side[i] not in faces_of:
                raise InputError(f"side {side[i]!r}{where} is not a side of the {game} deck ({', '.join(sides)}; "
                                 "the deck spec lists them)", path=path, line=line)
            n_faces = faces_of[side[i]]
            if not (face[i] == face[i] and float(face[i]).is_integer() and 1 <= face[i] <= n_faces):
                raise InputError(f"face {tasks['face'].iloc[i]}{where} is not an integer 1..{n_faces}",
                                 path=path, line=line)
            if status[i] in _NO_ANSWER:
                raise InputError(f"task card {card[i]} side {side[i]} face {int(face[i])}{where} has status "
                                 f"{status[i]!r}: {_NO_ANSWER[status[i]]}", path=path, line=line)
            if status[i] not in _STATUSES:
                raise InputError(f"status {status[i]!r}{where} is not one of {', '.join(_STATUSES)}",
                                 path=path, line=line)
            if status[i] == "solved" and not (diff[i] >= 0 and math.isfinite(diff[i])):
                raise InputError(f"difficulty {tasks['difficulty'].iloc[i]}{where} of a solved task "
                                 "is not a number >= 0", path=path, line=line)
            if status[i] in _UNKNOWN and diff[i] < 0:
                raise InputError(f"difficulty {diff[i]}{where} is negative", path=path, line=line)
        check_unique_tasks(tasks, path)
        solvable = status != "no solution"
        known = solvable & np.isfinite(diff)
        if not known.any():
            raise InputError("no task of the deck is solvable with a difficulty", path=path)
        with np.errstate(over="ignore"):
            median = float(np.median(diff[known]))
        if not math.isfinite(median):   # two middle difficulties summing beyond the largest float (1e308 each)
            middle = np.sort(diff[known])[[(known.sum() - 1) // 2, known.sum() // 2]]
            median = float(middle[0] / 2 + middle[1] / 2)
        self.median = median if median > 0 else 1.0
        top = float(diff[known].max())
        self.cards: dict[str, tuple[str, ...]] = {}
        self.ratios: dict[str, np.ndarray] = {}
        self._rows: dict[str, tuple[tuple[float, ...], ...]] = {}
        for s in sides:
            rows = np.flatnonzero(side == s)
            if len(rows) == 0:
                continue
            ids = sorted(set(card[rows]), key=card_id_key)
            index = {c: k for k, c in enumerate(ids)}
            arr = np.full((len(ids), faces_of[s]), np.nan)
            for i in rows.tolist():
                d = diff[i] if math.isfinite(diff[i]) else top
                arr[index[card[i]], int(face[i]) - 1] = d / self.median if solvable[i] else math.inf
            for k, c in enumerate(ids):
                gaps = np.flatnonzero(np.isnan(arr[k]))
                if len(gaps):
                    raise InputError(f"card {c} side {s} lacks face(s) "
                                     f"{', '.join(str(g + 1) for g in gaps)}", path=path)
                if np.isinf(arr[k]).all():
                    raise InputError(f"card {c} side {s} has no solvable task", path=path)
            self.cards[s] = tuple(ids)
            arr.setflags(write=False)   # the engines and the rows cache (side_rows) read it: nobody changes it
            self.ratios[s] = arr

    def faces(self, side: str) -> int:
        """The die faces of ``side`` (its deck spec's ``faces``).

        Raises
        ------
        InputError
            If the deck's spec has no such side.
        """
        if side not in self.spec.side_names:
            raise InputError(f"side {side!r} is not a side of the {self.game} deck "
                             f"({', '.join(self.spec.side_names)})", path=self.path)
        return self.spec.side(side).faces

    def check_side(self, side: str, rule: str) -> None:
        """Refuse a ``side`` the deck's spec does not list (``rule``: the rule that plays one side, e.g. UG-1).

        Raises
        ------
        InputError
            Naming the sides there are.
        """
        if side not in self.spec.side_names:
            raise InputError(f"side {side!r} is not one of {', '.join(self.spec.side_names)} ({rule}; the "
                             f"{self.game} deck's spec lists its sides)")

    def side_ratios(self, side: str) -> np.ndarray:
        """Ratios of one side, shape ``(n_cards, n_faces)``: the deck's own array, read-only (as ``ratios``).

        Raises
        ------
        InputError
            If the deck has no task on ``side``.
        """
        if side not in self.ratios:
            raise InputError(f"the {self.game} deck has no task on side {side!r} "
                             f"(sides present: {', '.join(self.ratios) or 'none'})", path=self.path)
        return self.ratios[side]

    def side_rows(self, side: str) -> tuple[tuple[float, ...], ...]:
        """Ratios of one side as nested tuples, ``rows[card][face - 1]`` (cached and shared by every engine of
        the deck, so immutable, as the ``ratios``).

        Raises
        ------
        InputError
            If the deck has no task on ``side``.
        """
        rows = self._rows.get(side)
        if rows is None:
            rows = self._rows[side] = tuple(map(tuple, self.side_ratios(side).tolist()))
        return rows

    def side_to_json(self, side: str) -> dict:
        """One side of the deck as JSON-ready data (game records): card ids and ratios, ``null`` for ``inf``.

        Raises
        ------
        InputError
            If the deck has no task on ``side``.
        """
        rows = [[None if math.isinf(r) else r for r in row] for row in self.side_rows(side)]
        return {"game": self.game, "side": side, "cards": list(self.cards[side]), "ratios": rows}

    @classmethod
    def from_side_json(cls, data: dict, path: str | os.PathLike | None = None) -> "TaskDeck":
        """The one-side deck of :meth:`side_to_json` (ratios as written; ``median`` 1).

        Raises
        ------
        InputError
            For a malformed object, an unknown game or side, a row of the
            wrong length, or a ratio that is not a number >= 0 (naming ``path``).
        """
        try:
            game, side, cards, rows = data["game"], data["side"], list(data["cards"]), list(data["ratios"])
            spec = game_spec(game)
            faces = spec.side(side).faces
            arr = np.array([[math.inf if r is None else float(r) for r in row] for row in rows], dtype=float)
        except InputError as exc:
            raise InputError(f"deck: {exc.message}", path=path) from None
        except (KeyError, TypeError, ValueError) as exc:
            from .base import malformed

            raise InputError(f"deck: missing or malformed field ({malformed(exc)})", path=path) from None
        if arr.shape != (len(cards), faces) or not len(cards) or (arr < 0).any() or np.isnan(arr).any():
            raise InputError(f"deck: side {side} needs {len(cards)} rows of {faces} ratios >= 0", path=path)
        arr.setflags(write=False)   # read-only, as every deck's ratios (TaskDeck.ratios)
        deck = cls.__new__(cls)
        deck.spec, deck.game, deck.path, deck.median = spec, game, None if path is None else os.fspath(path), 1.0
        deck.cards, deck.ratios, deck._rows = {side: tuple(str(c) for c in cards)}, {side: arr}, {}
        return deck

    def __repr__(self) -> str:
        sizes = ", ".join(f"{s}: {len(c)} cards" for s, c in self.cards.items())
        return f"TaskDeck({self.game}, {sizes}, median difficulty {self.median:g})"


#: Largest ``sigma`` of :class:`SolveTimeModel`. The noise factor
#: ``exp(sigma Z - sigma**2 / 2)`` then stays a normal float (neither 0 nor
#: inf: ``exp`` covers about +-708) for every draw ``|Z| <= 8``, since
#: ``30**2 / 2 + 8 * 30 = 690`` (a draw beyond 8 standard deviations has a
#: chance of about 1e-15). Larger values make the times 0, inf or nan
#: (``sigma**2`` itself overflows above about 1e154).
MAX_SIGMA = 30.0


def check_sigma(sigma: float, what: str = "solve-time sigma") -> None:
    """Raise :class:`~ubongo_cp.errors.InputError` unless ``0 <= sigma <= MAX_SIGMA``; ``what`` names it."""
    if not 0 <= sigma <= MAX_SIGMA:
        raise InputError(f"{what} must be a number from 0 to {MAX_SIGMA:g}, got {sigma}")


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
        Standard deviation of the log of the noise factor (0 = deterministic,
        at most :data:`MAX_SIGMA`); the factor is ``exp(sigma Z - sigma^2 / 2)``,
        mean 1.

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
        check_sigma(self.sigma)

    def times(self, ratios: np.ndarray, skills: np.ndarray, z: np.ndarray) -> np.ndarray:
        """Solve times in seconds, shape of ``ratios``, for standard-normal draws ``z``."""
        work = self.base + self.scale * ratios
        if self.scale == 0:  # 0 x inf: a task with no solution still takes forever
            work = np.where(np.isinf(ratios), np.inf, work)
        return work / skills * np.exp(self.sigma * z - 0.5 * self.sigma * self.sigma)

    def to_json(self) -> dict:
        """The parameters as a JSON-ready dict (game records)."""
        return {"base": self.base, "scale": self.scale, "sigma": self.sigma}

    def sample(self, ratios: np.ndarray, skills: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Draw solve times (seconds) for tasks ``ratios`` and players ``skills``.

        Exactly one ``rng.standard_normal(len(ratios))`` call per draw (the
        chance stream the engines document).
        """
        return self.times(ratios, skills, rng.standard_normal(len(ratios)))


def skills_argument(skills, players: int | None = None) -> np.ndarray:
    """Players' skills for a :class:`SolveTimeModel` (the divisor of a solve time), checked: a list, tuple or
    array of finite real numbers > 0 (not a bool, not text: ``"1"`` is no skill), ``players`` of them where
    given, else at least one.

    Raises
    ------
    InputError
        Naming the skills and what they must be.

    Examples
    --------
    >>> skills_argument([1, 0.8], 2).tolist()
    [1.0, 0.8]
    """
    from .base import is_number

    values = list(skills) if isinstance(skills, (list, tuple, np.ndarray)) else None
    if values is None or not values or (players is not None and len(values) != players) or \
            not all(is_number(s) and 0 < s < math.inf for s in values):
        count = "" if players is None else f"{players} "
        raise InputError(f"skills {as_written(values if values is not None else skills)} must be {count}finite "
                         "numbers > 0")
    return np.array(values, dtype=float)


def engine_model(deck, side, rule: str, model):
    """The solve-time model of a game engine that plays ``side`` of ``deck``; checks all three.

    Returns ``model``, or a default :class:`SolveTimeModel` when it is None.

    Raises
    ------
    InputError
        When ``deck`` is not a :class:`TaskDeck`, ``side`` not a side of
        its spec (``rule``: the rule that plays one side, e.g. UG-1), or
        ``model`` has no ``sample(ratios, skills, rng)`` method.
    """
    if not isinstance(deck, TaskDeck):
        shown = repr(deck) if isinstance(deck, (str, int, float)) else type(deck).__name__
        raise InputError(f"deck must be a TaskDeck (as_deck of a rated tasks table, ubongo_cp.games.tasks), "
                         f"got {shown}")
    deck.check_side(side, rule)
    if model is None:
        return SolveTimeModel()
    if not callable(getattr(model, "sample", None)):
        raise InputError(f"model must be a solve-time model with a sample(ratios, skills, rng) method "
                         f"(SolveTimeModel), got {type(model).__name__}")
    return model


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


def _source(path: str) -> str:
    """A deck's table file in words (:attr:`TaskDeck.source`): ``"shipped duel"`` for a shipped deck's, else the
    path as given."""
    from ..shipped import shipped_deck_name

    name = shipped_deck_name(path)
    return path if name is None else f"shipped {name}"


def default_tasks_path(game: str) -> Path:
    """The shipped rated deck ``puzzles/decks/<game>/tasks.csv`` (``game`` is "classic" or "duel").

    Found beside the shipped piece sets, so it does not depend on the
    current directory.

    Raises
    ------
    InputError
        For a name that is not a shipped deck's (:func:`ubongo_cp.shipped.deck_dir`).
    """
    from ..shipped import deck_tasks_path

    path = deck_tasks_path(game)
    try:  # as the README shows it, when run from the project's directory
        return path.relative_to(Path.cwd())
    except ValueError:
        return path


def load_tasks(path: str | os.PathLike) -> pd.DataFrame:
    """Read a per-task table for the simulators (the toolkit's one reader, :func:`ubongo_cp.report.load_tasks`).

    Parameters
    ----------
    path : str or os.PathLike
        ``*.csv`` or ``*.parquet`` / ``*.pq`` file from the batch runner, or
        its output directory, or a shipped deck's name (``"classic"``, ``"duel"``).

    Returns
    -------
    pandas.DataFrame
        The table with the report's dtypes (``card_id`` and ``side`` as
        text: "01" stays "01").

    Raises
    ------
    InputError
        If the file is missing or unreadable, or lacks a column the
        simulators need (:data:`REQUIRED_COLUMNS`; values are checked by
        :class:`TaskDeck`).
    """
    from ..report import load_tasks as read_task_table
    from ..shipped import resolve_deck

    path = resolve_deck(path)   # a shipped deck by name: its rated table
    if not path.exists():
        raise InputError("tasks table not found (rate the deck with the batch runner first, or name a rated "
                         "table, a batch folder or a shipped deck)", path=path)
    return read_task_table(path, required=REQUIRED_COLUMNS)


def spec_for_table(tasks: pd.DataFrame, path: str | os.PathLike | None = None, default: str = "classic") -> DeckSpec:
    """The deck spec of a rated table: its ``game`` column's shipped game, or the ``deck.toml`` beside it.

    Parameters
    ----------
    tasks : pandas.DataFrame
        A task table; its ``game`` column (one value) names the game.
    path : path, optional
        Where the table came from: a designer's game is read from the
        ``deck.toml`` in that directory (or beside that file), which
        ``ubongo-cp batch`` copies into its output directory.
    default : str
        The shipped game of a table without a ``game`` column.

    Raises
    ------
    InputError
        For a table of several games, or a game that is neither shipped nor
        described by a ``deck.toml`` there.
    """
    from ..specs import DECK_SPEC_FILE, SHIPPED_SPECS

    games = sorted({str(g) for g in tasks["game"].dropna()}) if "game" in tasks.columns else []
    if len(games) > 1:
        raise InputError(f"the tasks table holds several games ({', '.join(games)}); give one deck", path=path)
    game = games[0] if games else default
    if game in SHIPPED_SPECS:
        return game_spec(game)
    if path is not None:
        where = Path(path) if Path(path).is_dir() else Path(path).parent
        if (where / DECK_SPEC_FILE).is_file():
            spec = load_spec(where / DECK_SPEC_FILE)
            if spec.game == game:
                return spec
    raise InputError(f"game {game!r} is not a shipped game ({', '.join(SHIPPED_SPECS)}) and no {DECK_SPEC_FILE} of "
                     "that game lies beside the table: give its deck spec (--spec DECK.toml)", path=path)


def as_deck(tasks, game: "str | DeckSpec | None" = None, *, spec: "str | DeckSpec | None" = None) -> TaskDeck:
    """A :class:`TaskDeck` from a deck, a DataFrame or a path to a table.

    ``spec`` (a :class:`~ubongo_cp.specs.DeckSpec`, a spec file or a shipped
    game) says which game the table is of; without it the table says
    (:func:`spec_for_table`), and ``game`` is the game of a table that does
    not (default ``"classic"``). A :class:`TaskDeck` is returned as it is.
    """
    if isinstance(tasks, TaskDeck):
        return tasks
    if isinstance(tasks, pd.DataFrame):
        return TaskDeck(tasks, spec or (None if "game" in tasks.columns else game))
    from ..report.tables import table_file

    table = load_tasks(tasks)
    if spec is None and "game" not in table.columns:
        spec = game
    return TaskDeck(table, spec, path=table_file(tasks, "tasks"))


#: Median difficulty of each side of the synthetic decks (a made-up scale).
_SYNTHETIC_CENTRES = {"classic": (1.0, 2.0), "duel": (1.0, 1.8)}


def synthetic_tasks(game: "str | DeckSpec", seed: int = 0) -> pd.DataFrame:
    """A made-up rated deck with the batch runner's schema (until the real one exists).

    Cards, sides, die faces, pieces per task and the piece set are the
    deck spec's (a shipped game's name, a spec file or a
    :class:`~ubongo_cp.specs.DeckSpec`): classic cards "01".."36", sides
    easy/hard, faces 1..6; Duel cards "1".."9", sides A/B, faces 1..20.
    Difficulties are log-normal with sigma 0.5 around 1 (first side) and 2
    (classic hard) or 1.8 (Duel B; for other specs 1.8, 2.6, ...); every
    task is "solved". The pieces are random picks of the side's number and
    carry no meaning.

    Examples
    --------
    >>> df = synthetic_tasks("duel")
    >>> len(df), sorted(df.side.unique()), int(df.face.max())
    (360, ['A', 'B'], 20)
    """
    from ..pieces import load_pieces

    spec = game if isinstance(game, DeckSpec) else load_spec(game)
    pieces = load_pieces(spec.pieces_path()).pieces
    centres = _SYNTHETIC_CENTRES.get(spec.game, tuple(1.0 + 0.8 * i for i in range(len(spec.sides))))
    rng = np.random.default_rng(seed)
    cards = [spec.card_id(i) for i in range(spec.cards)]
    rows = []
    for side, centre in zip(spec.side_names, centres):
        k, faces = spec.side(side).pieces_per_task, spec.side(side).faces
        for c in cards:
            for f in range(1, faces + 1):
                pick = rng.choice(len(pieces), size=k, replace=False)
                rows.append({"card_id": c, "side": side, "face": f,
                             "pieces": " ".join(pieces[i].name for i in sorted(pick)),
                             "area": int(sum(pieces[i].size for i in pick)), "count": 1, "count_reduced": 1,
                             "status": "solved",
                             "difficulty": float(centre * math.exp(0.5 * rng.standard_normal()))})
    table = pd.DataFrame(rows)
    table.attrs["source"] = "synthetic"   # what a deck of it is called (TaskDeck.source)
    return table


def recorded_times_problem(times: Sequence[float], ratios: Sequence[float], rule: str) -> str | None:
    """Why solve times restored from a record (a replay) cannot be what the game's model draws, else None.

    Each time (seconds; ``inf`` for never) must be a number, not negative, and ``inf`` for a task with no
    solution (ratio ``inf``: nobody solves it, whatever the player). ``rule`` names the rule the times
    decide (``"UG-7"``, ``"UD-3"``).
    """
    for player, (t, ratio) in enumerate(zip(times, ratios)):
        if math.isnan(t) or t < 0:
            return f"player {player}'s solve time {t!r} is not a time in seconds ({rule})"
        if math.isinf(float(ratio)) and not math.isinf(t):
            return f"player {player} solves a task with no solution in {t:g} s ({rule})"
    return None


# ---------------------------------------------------------------------------
# Records of the two timed games (the gem game and the Duel)


def timed_record(fmt: str, version: int, state, replay_state, settings: dict, field: str, draws,
                 settles, players=None) -> dict:
    """The JSON record of a gem game or Duel (their ``records`` modules give the game's parts).

    Parameters
    ----------
    fmt, version : str, int
        The record's ``format`` and ``version``.
    state
        The game (``actions``, ``start``, ``deck``, ``side``, ``model``, ``rng``).
    replay_state
        A fresh state of the same settings and start, replayed here to name
        each move and its player.
    settings : dict
        The game's settings (JSON-ready).
    field : str
        Name of the move field holding the solve times a move drew.
    draws : iterator of list of float
        The solve times of each move that draws them, in order.
    settles : callable
        ``settles(state)``: does the next move draw solve times?
    players : sequence of str, optional
        Labels of the seats.
    """
    from .base import floats_from_json, floats_to_json, generator_to_json

    moves = []
    for i, a in enumerate(state.actions, 1):
        move = {"n": i, "player": replay_state.current_player(), "action": a,
                "text": replay_state.action_to_string(a)}
        if settles(replay_state):
            move[field] = floats_to_json(next(draws))
            replay_state._forced_times = floats_from_json(move[field], field)
        replay_state.apply_action(a)
        moves.append(move)
    rec = {"format": fmt, "version": version, "settings": settings,
           "model": state.model.to_json() if isinstance(state.model, SolveTimeModel) else None,
           "deck": state.deck.side_to_json(state.side), "start": dict(state.start), "moves": moves,
           "generator": generator_to_json(state.rng)}
    if players is not None:
        rec["players"] = list(players)
    if state.is_terminal():
        rec["result"] = timed_result(state)
    return rec


def timed_result(state) -> dict:
    """The ``result`` of a finished game's record of :func:`timed_record`: the players' returns."""
    return {"returns": state.returns()}


def timed_replay(record: dict, path, on_move, build, field: str, settles, count):
    """Replay a record of :func:`timed_record` through the rules; returns the final state.

    ``build(deck, settings, model, start)`` makes the start state (errors
    become :class:`InputError` naming ``path``); before each move that
    ``settles``, the move's ``field`` (``count(state)`` solve times) is
    what the transition draws.

    Raises
    ------
    InputError
        A malformed record, a move's missing or malformed solve times, solve
        times on a move that draws none, or a stored result that differs from the replay's
        (:func:`~ubongo_cp.games.base.check_result`).
    IllegalActionError
        A recorded move the rules forbid.
    """
    from .base import check_result, floats_from_json, generator_from_json, malformed, replay_moves

    try:
        model = record.get("model")
        state = build(TaskDeck.from_side_json(record["deck"], path), dict(record["settings"]),
                      None if model is None else SolveTimeModel(**model), dict(record["start"]))
    except InputError as exc:
        raise InputError(exc.message, path=path) from None
    except (KeyError, TypeError, ValueError, OverflowError) as exc:
        raise InputError(f"malformed record ({malformed(exc)})", path=path) from None

    def before(i, s, move) -> None:
        if settles(s):
            times = floats_from_json(move.get(field), f"move {i}: '{field}'", path)
            if len(times) != count(s):
                raise InputError(f"move {i}: '{field}' needs {count(s)} solve times", path=path)
            s._forced_times = times
        elif field in move:   # a value the rules cannot produce, as a swap depth on a move that is no swap
            raise InputError(f"move {i}: '{field}' belongs to a move that draws solve times, not to "
                             f"{as_written(s.action_to_string(move['action']))}", path=path)

    replay_moves(state, record.get("moves"), path=path, on_move=on_move, before=before)
    if "generator" in record:
        generator_from_json(state.rng, record["generator"], path)
    check_result(record.get("result"), timed_result(state) if state.is_terminal() else None, path)
    return state
