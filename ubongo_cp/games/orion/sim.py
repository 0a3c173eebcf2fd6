"""Orion Duel tournaments: a pandas table of games and win rates with confidence intervals.

Every pairing of agents plays ``games`` games with fresh seeded random
layouts (OD-1); the agents swap seats every other game, so each agent moves
first equally often. The first mover is player 0 (``Setup.first_player =
0``). Intervals are Wilson score intervals from :mod:`ubongo_cp.games.stats`.
An agent against itself scores 1/2 by construction (every game gives 1
point to one of its seats), so self-play rows carry no interval.

The games are played round by round: round ``g`` holds game ``g`` of every
pairing, and game ``g`` of pairing ``p`` (of ``P`` pairings, in the order
of :func:`run_tournament`) is game ``g * P + p`` of the tournament. It draws
from child ``g`` of ``SeedSequence(seed)``: that child's children ``3p``,
``3p + 1`` and ``3p + 2`` seed its layout and its two agents. So a game
depends on the seed, its pairing and its index within the pairing, not on
the number of games: a tournament of more games per pairing plays the games
of one of fewer, and more. The games run in chunks on an executor (see
:mod:`ubongo_cp.executors`), so the table does not depend on the executor
or the number of jobs, and a tournament given a ``journal``
(:mod:`ubongo_cp.games.journal`) resumes after a stop, or with more games,
with the table of an uninterrupted one.
"""

from __future__ import annotations

import itertools
import os
from typing import Any, Callable, Sequence

import numpy as np
import pandas as pd

from ...errors import (MAX_JOB_CPU_SECONDS, InputError, flag_argument, names_argument, refuse_long_job,
                        seed_argument, whole_argument)
from ..base import play_game
from ...executors import Executor, map_chunks
from ...executors.chunks import PROGRESS_CHUNK
from ..journal import GameJournal
from ..stats import wilson_interval
from .agents import PieAgent, make_agent
from .bitboard import BitOrionState
from .pie import PieOrionState
from .setup import random_setup
from .state import OrionGame, OrionState

__all__ = ["run_tournament", "win_rates", "end_conditions", "first_player_advantage", "AGENT_SECONDS",
           "JOURNAL_SECONDS"]

#: CPU seconds one game costs with an agent on both seats (measured on the published game, one core;
#: a mixed pairing costs the mean of its two agents'; an agent not listed counts 1 s): what bounds a tournament
#: before it starts. ``mcts``: 200 simulations a move, about 5.6 s a game on both seats. ``sat``: 2.9 s a game on
#: both seats (it budgets its moves in CP-SAT's deterministic time: 8 self-play games, seeds 0 and 1, 23.2 CPU-s,
#: 2.2 and 3.6 s a game per seed). ``analysis``: 66 s a game on both seats (it budgets in CP-SAT's deterministic
#: time too: 6 self-play games, 2 of seed 0 in 146.1 CPU-s and 4 of seed 2 in 249.1, 73 and 62 s a game).
AGENT_SECONDS = {"random": 0.05, "greedy": 0.5, "sat": 3.0, "analysis": 66.0, "mcts": 6.0}

#: About how many seconds of play a line of a tournament's journal holds (by :data:`AGENT_SECONDS`; one game at
#: least, :data:`~ubongo_cp.executors.chunks.PROGRESS_CHUNK` at most): what a kill may lose.
JOURNAL_SECONDS = 5.0
#: The columns of :func:`run_tournament`'s table, in order, with their types (``swapped`` last, in the pie
#: variant): an empty run (``first_game == games``) has them too.
_COLUMNS = {"game": "int64", "agent": object, "opponent": object, "seat": "int64", "result": object,
            "points": "float64", "end_rule": object, "condition": object, "length": "int64"}


def run_tournament(agents: Sequence[str], games: int, seed: int = 0,
                   self_play: bool = True, progress: bool = False,
                   executor: Executor | None = None, game: OrionGame | None = None,
                   pie: bool = False, first_game: int = 0,
                   max_cpu_seconds: float | None = MAX_JOB_CPU_SECONDS,
                   journal: str | os.PathLike | None = None,
                   notify: Callable[[str], Any] | None = None) -> pd.DataFrame:
    """Play every pairing of ``agents`` ``games`` times; one row per game and seat.

    Parameters
    ----------
    agents : sequence of str
        Agent names (:data:`.agents.AGENTS`).
    games : int
        Games per pairing (seats alternate).
    seed : int
        Master seed: layouts and agents are seeded from it.
    self_play : bool
        Include each agent against itself.
    progress : bool
        Show a tqdm bar.
    executor : Executor, optional
        Where the games run (default: in this process); see
        :func:`ubongo_cp.executors.map_chunks`. The table does not depend on it.
    game : OrionGame, optional
        Board, tile set and OD-1 rules (default the RULES.md §4 game).
    pie : bool
        Play the pie variant (:mod:`.pie`): the agents play through
        :class:`.agents.PieAgent` (the ``mcts`` agent searches the swap
        itself); ``seat`` 0 is still the seat that moves first.
    first_game : int
        Play only games ``first_game .. games - 1`` of each pairing: the
        rows of a run with the same agents and seed from that game on,
        with the same ``game`` numbers (module docstring); a whole number
        from 0 to ``games``.
    max_cpu_seconds : float or None
        Refuse a tournament estimated (:data:`AGENT_SECONDS`) to need more
        CPU time, before any game; ``None``: no bound.
    journal : path, optional
        Keep every game in this journal as it finishes (a few games a line,
        about :data:`JOURNAL_SECONDS` of play), and take the games it holds
        from it instead of playing them again
        (:class:`~ubongo_cp.games.journal.GameJournal`): a tournament stopped
        by Ctrl-C, a crash or a kill resumes where it stopped, and one of
        more ``games`` plays only the games the journal does not hold, with
        the table of an uninterrupted one (one of fewer takes its games from
        it). A journal of other options (agents, seed, variant, ...) is
        refused.
    notify : callable, optional
        Called with one line when the tournament resumes from ``journal``.

    Returns
    -------
    pandas.DataFrame
        Rows in game order (round by round, module docstring). Columns ``game, agent, opponent, seat``
        (0 moves first), ``result``
        (``win``/``loss``/``draw``), ``points`` (1, 0, 0.5), ``end_rule``
        (OD-5/6/7), ``condition`` (the winner's fulfilled conditions for an
        OD-5 end, ``"no move"`` for OD-6, ``"score"``/``"draw"`` for OD-7),
        ``length`` (moves); in the pie variant ``swapped`` too. No rows, with these columns, when
        ``first_game == games``.

    Raises
    ------
    InputError
        For no pairing to play, or an agent named twice; ``self_play`` or
        ``pie`` other than True or False, a ``first_game`` that is no whole
        number from 0 to ``games``; for a journal of another
        tournament, or a file that is no journal.
    JobTooLargeError
        For a tournament estimated to need more than ``max_cpu_seconds``.
    """
    games = whole_argument("games", games, 1)
    # "no" would read as true: self-play played, or the pie variant
    self_play, pie = flag_argument("self_play", self_play), flag_argument("pie", pie)
    seed_argument("seed", seed)   # here: the workers seed from it, where numpy's error would name nothing
    first_game = whole_argument("first_game", first_game, 0)
    if first_game > games:
        raise InputError(f"first_game must be at most games ({games}), got {first_game}: the games of each "
                         "pairing are 0..games - 1")
    names = names_argument("agents", agents, "['random', 'greedy']")
    twice = next((a for k, a in enumerate(names) if a in names[:k]), None)
    if twice is not None:   # each pairing once: a name given twice would play its pairings again
        raise InputError(f"agent {twice!r} is named twice: every agent plays each other agent (and itself) "
                         "once per pairing; name each agent once")
    pairs = [(a, b) for a, b in itertools.combinations_with_replacement(names, 2)
             if self_play or a != b]
    if not pairs:
        raise InputError("no pairing to play: give two agents, or allow self-play")
    costs = [(AGENT_SECONDS.get(a, 1.0) + AGENT_SECONDS.get(b, 1.0)) / 2 for a, b in pairs]
    cost = max(games - first_game, 0) * sum(costs)
    refuse_long_job("this tournament", cost, f"{games * len(pairs):,} games", max_cpu_seconds)
    variant = _variant(game)
    kept = GameJournal.of(journal, "orion tournament",
                          {"agents": names, "games": games, "seed": seed, "self_play": self_play, "pie": pie,
                           "first_game": first_game, "variant": _variant_digest(variant)}, notify=notify,
                          games=max(games - first_game, 0) * len(pairs),
                          games_per_line=min(PROGRESS_CHUNK, max(1, int(JOURNAL_SECONDS / max(costs)))))

    # A chunk carries only its bounds: its games and their seeds are made by the worker that plays
    # them, so nothing is held per game before it is played. The chunks count from game first_game of every
    # pairing (the games before it are not played), round by round: a run of more games extends the journal.
    skip = first_game * len(pairs)
    rows = map_chunks(_tournament_rows, max(games - first_game, 0) * len(pairs),
                      lambda i, j: (i + skip, j + skip, pairs, seed, variant, pie),
                      executor=executor, progress=progress, desc="orion games", unit="game", journal=kept)
    columns = {**_COLUMNS, **({"swapped": "bool"} if pie else {})}
    return pd.DataFrame(rows, columns=list(columns)) if rows else pd.DataFrame(columns=list(columns)).astype(columns)


def _variant_digest(variant) -> dict | None:
    """A game variant (:func:`_variant`; None for the default game) as a journal records it: what a user chose
    in words (the tile set's name, whether tiles turn over, the OD-1 counts and spacings, the board's name), each
    name with a digest of what it stands for, so that a journal refused for another variant names what differs."""
    import hashlib

    from .tiles import format_tiles

    if variant is None:
        return None
    board, tiles, rules = variant

    def digest(value) -> str:
        return hashlib.sha256(repr(value).encode()).hexdigest()[:12]

    return {"tiles": f"{tiles.name} ({digest(format_tiles(tiles))})", "flips": tiles.flips,
            "setup rules": rules.to_json(), "board": f"{board.name} ({digest(board)})"}


def _variant(game: OrionGame | None):
    """What a worker needs to rebuild ``game`` (its placement table is rebuilt, not shipped)."""
    if game is None:
        return None
    return (game.board, game.tiles, game.rules)


def _tournament_rows(start: int, stop: int, pairs: Sequence[tuple[str, str]], seed: int,
                     variant=None, pie: bool = False) -> list[dict]:
    """Rows of games ``start .. stop - 1`` of :func:`run_tournament`.

    Game ``i`` is game ``i // P`` of pairing ``i % P`` (``P = len(pairs)``); game ``g`` of pairing ``p`` is
    seeded by children ``3p .. 3p + 2`` of child ``g`` of ``SeedSequence(seed)`` (the children ``spawn`` gives:
    module docstring).
    """
    n = len(pairs)
    game = OrionGame.get(*variant) if variant else OrionGame.get()
    rows = []
    for gid in range(start, stop):
        g, p = divmod(gid, n)
        a, b = pairs[p]
        first, second = (a, b) if g % 2 == 0 else (b, a)
        s1, s2, s3 = (np.random.SeedSequence(seed, spawn_key=(g, 3 * p + j)) for j in range(3))
        setup = random_setup(np.random.default_rng(s1), game.board, first_player=0, rules=game.rules)
        state = BitOrionState(setup, game)   # the bitmask engine: the reference's games, faster
        players = [make_agent(first, np.random.default_rng(s2)), make_agent(second, np.random.default_rng(s3))]
        if pie:
            players = [p if name == "mcts" else PieAgent(p, seed) for p, name, seed in
                       zip(players, (first, second), (s2, s3))]
            played = PieOrionState(state)
            play_game(played, players)
            swapped, returns = played.swapped, played.returns()
        else:
            play_game(state, players)
            swapped, returns = False, state.returns()
        final = state.to_reference()
        cond = _condition(final)
        for seat, (agent, opp) in enumerate(((first, second), (second, first))):
            pts = returns[seat]
            rows.append({"game": gid, "agent": agent, "opponent": opp, "seat": seat,
                         "result": "win" if pts == 1 else "loss" if pts == 0 else "draw",
                         "points": pts, "end_rule": final.end_rule, "condition": cond,
                         "length": len(final._history), **({"swapped": swapped} if pie else {})})
    return rows


def _condition(state: OrionState) -> str:
    if state.end_rule == "OD-5":
        return "+".join(w.condition for w in state.wins[state.winner])
    if state.end_rule == "OD-6":
        return "no move"
    return "draw" if state.winner < 0 else "score"


def win_rates(df: pd.DataFrame) -> pd.DataFrame:
    """Per agent and opponent: games, points rate (draw = 1/2) and its 95% Wilson interval.

    Self-play rows (agent == opponent) hold both seats of every game, so
    their rate is 1/2 by construction: their interval is NaN (not shown).
    """
    out = []
    for (agent, opp), g in df.groupby(["agent", "opponent"], sort=True):
        n = len(g)
        pts = g["points"].sum()
        lo, hi = (float("nan"), float("nan")) if agent == opp else wilson_interval(pts, n)
        out.append({"agent": agent, "opponent": opp, "games": n, "wins": int((g.result == "win").sum()),
                    "draws": int((g.result == "draw").sum()), "rate": pts / n, "ci_low": lo, "ci_high": hi})
    return pd.DataFrame(out)


def first_player_advantage(df: pd.DataFrame) -> pd.DataFrame:
    """Points rate of the first mover (seat 0) per pairing and overall, with 95% Wilson intervals."""
    first = df[df.seat == 0].copy()
    first["pairing"] = first.agent + " vs " + first.opponent
    first.loc[first.agent > first.opponent, "pairing"] = first.opponent + " vs " + first.agent
    out = []
    for key, g in list(first.groupby("pairing", sort=True)) + [("all", first)]:
        n = len(g)
        pts = g["points"].sum()
        lo, hi = wilson_interval(pts, n)
        out.append({"pairing": key, "games": n, "first_mover_rate": pts / n, "ci_low": lo,
                    "ci_high": hi, "mean_length": g["length"].mean()})
    return pd.DataFrame(out)


def end_conditions(df: pd.DataFrame) -> pd.DataFrame:
    """How games ended: share of games per deciding condition, with 95% Wilson intervals."""
    games = df[df.seat == 0]
    n = len(games)
    out = []
    for cond, k in games["condition"].value_counts().items():
        lo, hi = wilson_interval(k, n)
        out.append({"condition": cond, "games": int(k), "share": k / n, "ci_low": lo, "ci_high": hi})
    return pd.DataFrame(out)
