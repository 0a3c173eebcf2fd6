"""Simulation study of the gem game: many seeded games through the engine, one pandas row per seat.

Every game is played by :func:`ubongo_cp.games.base.play_game` on a
:class:`~ubongo_cp.games.ubongo.state.UbongoState` (the one implementation of
the rules). No puzzle is solved in the loop: solve times come from the rated
deck through :class:`~ubongo_cp.games.tasks.SolveTimeModel`.

Seeding: game ``g`` of a run with seed ``s`` uses child ``g`` of
``numpy.random.SeedSequence(s)``; that child spawns the game's generator and
one generator per player strategy.

Execution: :func:`simulate_ubongo` splits the games into chunks run by an
executor (:mod:`ubongo_cp.executors`) through
:func:`~ubongo_cp.executors.map_chunks`. A game's randomness depends only on
the run seed and the game index, so the table is the same whatever the
executor, the number of jobs and the chunking.
"""

from __future__ import annotations

import os
from typing import Any, Callable, Sequence

import numpy as np
import pandas as pd

from ...errors import InputError, names_argument, seed_argument, whole_argument
from ...executors import Executor, map_chunks
from ..base import game_seeds, play_game
from ..journal import GameJournal, deck_option
from ..stats import mean_se
from ..tasks import SolveTimeModel, TaskDeck, as_deck, skills_argument
from .agents import STRATEGIES, StrategyAgent, make_strategy
from .state import DEFAULT_COLOUR_COUNTS, DEFAULT_TIMER, UbongoState, sorted_counts

__all__ = ["play_ubongo_game", "simulate_ubongo", "summarise_ubongo"]


def play_ubongo_game(deck: TaskDeck, strategies: Sequence[str], skills: Sequence[float], seed, *,
                     side: str = "easy", model: SolveTimeModel | None = None, timer: float = DEFAULT_TIMER,
                     move_time: float = 0.0, all_cards: bool = False,
                     colour_counts: Sequence[int] = DEFAULT_COLOUR_COUNTS) -> dict:
    """Play one gem game; return the final gems and statistics.

    Parameters
    ----------
    deck : TaskDeck
        A rated deck (the classic deck, or any deck its spec defines).
    strategies : sequence of str
        One strategy name per player (keys of
        :data:`~ubongo_cp.games.ubongo.agents.STRATEGIES`).
    skills : sequence of float
        One skill per player.
    seed : int or numpy.random.SeedSequence
        Game seed; spawns the game generator and one per strategy.
    Other parameters
        As :class:`~ubongo_cp.games.ubongo.state.UbongoState`.

    Returns
    -------
    dict
        ``gems`` (list of per-colour lists), ``returns`` (UG-10 shares),
        ``solved`` (rounds in which each player solved its task before the
        timer ran out, UG-5 and UG-8, whether or not its move then fit,
        UG-7), ``extended`` (rounds with the UG-8 re-turn), ``pawns`` (final
        fields), ``rounds``.

    Raises
    ------
    InputError
        For a bad strategy name, skill count or any bad game setting.
    """
    n = len(strategies)
    if len(skills) != n:
        raise InputError(f"{len(skills)} skills for {n} players")
    ss = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    game_ss, agent_ss = ss.spawn(2)
    agents = [StrategyAgent(make_strategy(s), np.random.default_rng(r))
              for s, r in zip(strategies, agent_ss.spawn(n))]
    state = UbongoState(deck, n, side, skills=skills, model=model, timer=timer, move_time=move_time,
                        all_cards=all_cards, colour_counts=colour_counts, seed=np.random.default_rng(game_ss))
    play_game(state, agents)
    solved = [0] * n
    for h in state._history:   # solved before the timer ran out (UG-5, UG-8), whether or not the move fit (UG-7)
        for p in h["finish_order"]:
            solved[p] += 1
    return {"gems": state.gems.tolist(), "returns": state.returns(), "solved": solved,
            "extended": sum(h["extended"] for h in state._history), "pawns": state.pawns.tolist(),
            "rounds": state.num_rounds}


def simulate_ubongo(tasks, num_players: int = 4, games: int = 100, seed=0, *,
                    strategies: Sequence[str] | None = None, skills: Sequence[float] | None = None,
                    side: str = "easy", model: SolveTimeModel | None = None, timer: float = DEFAULT_TIMER,
                    move_time: float = 0.0, all_cards: bool = False,
                    progress: bool = False, executor: Executor | None = None,
                    journal: str | os.PathLike | None = None,
                    notify: Callable[[str], Any] | None = None) -> pd.DataFrame:
    """Simulate many gem games; one row per game x player.

    Parameters
    ----------
    tasks : TaskDeck, pandas.DataFrame or path
        A rated deck: the classic deck, or any deck whose spec defines it
        (:class:`~ubongo_cp.games.tasks.TaskDeck`; a table that does not name
        its game is taken for the classic deck).
    num_players : int
        2 to 4.
    games : int
        Number of games.
    seed : int
        Run seed (game ``g`` uses child ``g`` of ``SeedSequence(seed)``).
    strategies : sequence of str, optional
        Strategy per seat, at most ``num_players`` names; a shorter list is
        cycled (default: stay, most-gems, leading, lookahead).
    skills : sequence of float, optional
        Skills of the players, at most ``num_players`` (default 1.0; a
        shorter list is cycled, as the strategies are); in game ``g`` seat
        ``p`` gets ``skills[(p + g) % len(skills)]``, so skills rotate over
        the seats and every strategy plays with every skill.
    progress : bool
        Show a tqdm progress bar.
    executor : Executor, optional
        Where the games run (default: in this process; see
        :func:`~ubongo_cp.executors.map_chunks`); the table does not depend on it.
    journal, notify : optional
        Keep each game as it finishes in this journal, and resume from it
        (:class:`~ubongo_cp.games.journal.GameJournal`); ``notify`` says so.
    Other parameters
        As :class:`~ubongo_cp.games.ubongo.state.UbongoState`.

    Returns
    -------
    pandas.DataFrame
        Columns ``game, seat, strategy, skill, gems_0 .. gems_{C-1}, total,
        top, score`` (sorted counts "6-4-2-2-2-2", rule UG-10), ``win``
        (1, 1/k for a k-way shared win, 0), ``solved`` (rounds with the task
        solved before the timer ran out, UG-5 and UG-8, whether or not the move
        then fit, UG-7), ``extended`` (rounds of the game with the UG-8 re-turn).

    Raises
    ------
    InputError
        For a bad deck, a player count that is no whole number 2 to 4, a bad strategy list or skill, more
        skills than players, or a move time not shorter than the timer (UG-7: nobody could take a gem).
    """
    deck = as_deck(tasks, "classic")
    num_players = whole_argument("num_players", num_players, None)
    if not 2 <= num_players <= 4:
        raise InputError(f"the gem game takes 2 to 4 players, not {num_players}")
    deck.check_side(side, "UG-1")  # before any game (and any progress bar)
    games = whole_argument("games", games, 1)
    seed_argument("seed", seed)
    strategies = None if strategies is None else names_argument("strategies", strategies, "['leading', 'stay']")
    if strategies and len(strategies) > num_players:
        raise InputError(f"{len(strategies)} strategies for {num_players} players "
                         "(give at most one per seat; a shorter list is cycled)")
    strategies = list(strategies or list(STRATEGIES))
    skills = [1.0] if skills is None or (isinstance(skills, (list, tuple)) and not skills) else skills
    skills = skills_argument(skills).tolist()   # before any game, as each game's state checks them
    if len(skills) > num_players:
        raise InputError(f"{len(skills)} skills for {num_players} players "
                         "(give at most one per player; a shorter list is cycled)")
    for s in strategies:
        make_strategy(s)
    seat_strats = [strategies[p % len(strategies)] for p in range(num_players)]
    opts = {"side": side, "model": model, "timer": timer, "move_time": move_time, "all_cards": all_cards}
    # The settings every game checks (a deck with too few cards for the players, UG-3; a move time not shorter
    # than the timer, UG-7) checked before the journal is made: a refused run leaves no file.
    UbongoState(deck, num_players, side, skills=[skills[p % len(skills)] for p in range(num_players)], model=model,
                timer=timer, move_time=move_time, all_cards=all_cards, seed=0)
    kept = GameJournal.of(journal, "simulate ubongo",
                          {"games": games, "seed": seed, "strategies": seat_strats, "skills": shortest_cycle(list(skills)),
                           "deck": deck_option(deck), **opts, "model": model and model.to_json()}, notify=notify)
    rows = map_chunks(_ubongo_rows, games, lambda a, b: (deck, seat_strats, skills, seed, a, b, opts),
                      executor=executor, progress=progress, desc="gem games", unit="game", journal=kept)
    return pd.DataFrame(rows)


def shortest_cycle(values: list) -> list:
    """The shortest list that cycled plays as ``values`` cycled (``[1, 2]`` for ``[1, 2, 1, 2]``): the skills a
    journal records and the header of ``simulate ubongo`` names, so that the same skills given in full or shorter
    resume its games and are said alike."""
    n = len(values)
    period = next(d for d in range(1, n + 1) if n % d == 0 and values == values[:d] * (n // d))
    return values[:period]


def _ubongo_rows(deck: TaskDeck, seat_strats: list[str], skills: list[float], seed, start: int,
                 stop: int, opts: dict) -> list[dict]:
    """Rows of games ``start .. stop - 1`` of :func:`simulate_ubongo`."""
    num_players = len(seat_strats)
    rows = []
    for g, game_seed in enumerate(game_seeds(seed, start, stop), start):
        # Skills rotate over the seats game by game, so that every strategy meets every skill.
        seat_skills = [skills[(p + g) % len(skills)] for p in range(num_players)]
        r = play_ubongo_game(deck, seat_strats, seat_skills, game_seed, **opts)
        for p in range(num_players):
            gems = r["gems"][p]
            row = {"game": g, "seat": p, "strategy": seat_strats[p], "skill": seat_skills[p]}
            row.update({f"gems_{c}": v for c, v in enumerate(gems)})
            row.update({"total": sum(gems), "top": max(gems), "score": "-".join(map(str, sorted_counts(gems))),
                        "win": r["returns"][p], "solved": r["solved"][p], "extended": r["extended"]})
            rows.append(row)
    return rows


def summarise_ubongo(table: pd.DataFrame, by: Sequence[str] = ("strategy", "skill")) -> pd.DataFrame:
    """Win rate (mean UG-10 share) and gems per group of seats.

    Returns
    -------
    pandas.DataFrame
        Index ``by``; columns ``seats`` (game x seat rows), ``win_rate``,
        ``win_rate_se`` (standard error of the mean share,
        :func:`~ubongo_cp.games.stats.mean_se`; NaN for a group of one seat),
        ``mean_total``, ``mean_top``, ``mean_solved``.
    """
    g = table.groupby(list(by))
    return pd.DataFrame({
        "seats": g.size(),
        "win_rate": g["win"].mean(),
        "win_rate_se": g["win"].agg(lambda w: mean_se(w.tolist())),
        "mean_total": g["total"].mean(),
        "mean_top": g["top"].mean(),
        "mean_solved": g["solved"].mean(),
    })
