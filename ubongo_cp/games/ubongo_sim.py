"""Simulation loops for the gem game and Ubongo Duel, producing pandas tables.

Two paths give the same outcomes for the same seed:

* the reference path drives :class:`~ubongo_cp.games.ubongo.UbongoState` /
  :class:`~ubongo_cp.games.duel.DuelState` action by action
  (:func:`play_ubongo_game`, :func:`play_duel_match` with ``fast=False``);
* the fast path (the default) replays the same rules and the same draws from
  the same generators on plain lists, without state objects or per-action
  validation (:func:`_fast_ubongo_game`, :func:`_fast_duel_match`).

``tests/test_ubongo_game.py`` and ``tests/test_duel_game.py`` check that both
paths agree game by game. No puzzle is solved in the loop: solve times come
from the rated deck through :class:`~ubongo_cp.games.players.SolveTimeModel`.

Seeding: game (match) ``g`` of a run with seed ``s`` uses child ``g`` of
``numpy.random.SeedSequence(s)``; that child spawns the game's generator and
one generator per player strategy.

Execution: :func:`simulate_ubongo` and :func:`simulate_duel` split the games
into chunks run by an executor (:mod:`ubongo_cp.executors`, ``"local"`` or
``"dask"``) through :func:`map_chunks`. A game's randomness depends only
on the run seed and the game index, so the table is the same whatever the
executor, the number of jobs and the chunking.
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np
import pandas as pd

from ..errors import InputError
from ..executors import Executor, map_chunks
from ..io import atomic_path
from .base import CHANCE
from .duel import (A_SCORES, B_SCORES, DEFAULT_GIVE_UP, DEFAULT_ORANGE_FIELDS, DEFAULT_TIE_RESOLUTION,
                   MAX_REROLLS, NUM_FACES as DUEL_FACES, TARGET, TIE, DuelState, settle_duel, unsolvable)
from .players import (GAMES, STRATEGIES, SolveTimeModel, StrategyAgent, TaskDeck, make_strategy,
                      sorted_counts)
from .ubongo import (CARDS_PER_PLAYER, DEFAULT_COLOUR_COUNTS, DEFAULT_TIMER, HOLES_PER_LANE,
                     MOVE_ALLOWANCE, NUM_FACES as GEM_FACES, NUM_LANES, UbongoState, ug10_winners)

__all__ = [
    "default_tasks_path",
    "load_tasks",
    "as_deck",
    "synthetic_tasks",
    "run_state",
    "play_ubongo_game",
    "simulate_ubongo",
    "summarise_ubongo",
    "play_duel_match",
    "simulate_duel",
    "summarise_duel",
    "handicap_sweep",
    "plot_handicap_sweep",
    "write_table",
]


def default_tasks_path(game: str) -> Path:
    """The shipped rated deck ``puzzles/decks/<game>/tasks.csv`` (``game`` is "classic" or "duel").

    Found beside the shipped piece sets, so it does not depend on the
    current directory.
    """
    from ..shipped import deck_tasks_path

    path = deck_tasks_path(game)
    try:  # as the README shows it, when run from the project's directory
        return path.relative_to(Path.cwd())
    except ValueError:
        return path


def load_tasks(path: str | os.PathLike) -> pd.DataFrame:
    """Read a per-task table (CSV or Parquet, by suffix).

    Parameters
    ----------
    path : str or os.PathLike
        ``*.csv`` or ``*.parquet`` / ``*.pq`` file from the batch runner.

    Returns
    -------
    pandas.DataFrame
        The table, ``card_id`` and ``side`` read as strings ("01" stays "01").

    Raises
    ------
    InputError
        If the file is missing or unreadable (columns are checked by
        :class:`~ubongo_cp.games.players.TaskDeck`).
    """
    path = Path(path)
    if not path.is_file():
        raise InputError("tasks table not found (run the batch job first, or pass --tasks FILE "
                         "or --synthetic)", path=path)
    try:
        if path.suffix.lower() in (".parquet", ".pq"):
            df = pd.read_parquet(path)
            for col in ("card_id", "side"):
                if col in df.columns:
                    df[col] = df[col].astype(str)
            return df
        return pd.read_csv(path, dtype={"card_id": str, "side": str})
    except (ValueError, OSError, pd.errors.ParserError) as exc:
        raise InputError(f"cannot read tasks table: {exc}", path=path) from None


def as_deck(tasks, game: str) -> TaskDeck:
    """A :class:`TaskDeck` from a deck, a DataFrame or a path to a table."""
    if isinstance(tasks, TaskDeck):
        if tasks.game != game:
            raise InputError(f"expected the {game} deck, got the {tasks.game} deck", path=tasks.path)
        return tasks
    if isinstance(tasks, pd.DataFrame):
        return TaskDeck(tasks, game)
    return TaskDeck(load_tasks(tasks), game, path=tasks)


def synthetic_tasks(game: str, seed: int = 0) -> pd.DataFrame:
    """A made-up rated deck with the batch runner's schema (until the real one exists).

    Classic: cards "01".."36", sides easy/hard, faces 1..6; Duel: cards
    "1".."9", sides A/B, faces 1..20. Difficulties are log-normal with
    sigma 0.5 around 1 (easy, A) and 2 (hard) or 1.8 (B); every task is
    "solved". The pieces are random picks of the right number (3/4 classic,
    4/5 Duel) and carry no meaning.

    Examples
    --------
    >>> df = synthetic_tasks("duel")
    >>> len(df), sorted(df.side.unique()), int(df.face.max())
    (360, ['A', 'B'], 20)
    """
    if game not in GAMES:
        raise InputError(f"unknown game {game!r} (expected one of {sorted(GAMES)})")
    rng = np.random.default_rng(seed)
    if game == "classic":
        cards = [f"{i:02d}" for i in range(1, 37)]
        sides = {"easy": (1.0, 3), "hard": (2.0, 4)}
        names = ["I2", "I3", "L3", "T4", "L4", "I4", "S4", "O4", "Y5", "L5", "P5", "Z5"]
        sizes = [2, 3, 3, 4, 4, 4, 4, 4, 5, 5, 5, 5]
    else:
        cards = [str(i) for i in range(1, 10)]
        sides = {"A": (1.0, 4), "B": (1.8, 5)}
        names = list("ABCDEFGHIJKLMNOPQRSTU")
        sizes = [5, 5, 5, 5, 6, 6, 5, 6, 6, 5, 6, 5, 6, 6, 5, 6, 6, 6, 6, 5, 5]
    faces = GAMES[game]["faces"]
    rows = []
    for side, (centre, k) in sides.items():
        for c in cards:
            for f in range(1, faces + 1):
                pick = rng.choice(len(names), size=k, replace=False)
                rows.append({"card_id": c, "side": side, "face": f,
                             "pieces": " ".join(names[i] for i in sorted(pick)),
                             "area": int(sum(sizes[i] for i in pick)), "count": 1, "count_reduced": 1,
                             "status": "solved",
                             "difficulty": float(centre * math.exp(0.5 * rng.standard_normal()))})
    return pd.DataFrame(rows)


def run_state(state, agents=None, max_steps: int = 100_000):
    """Play ``state`` to the end, chance drawn by ``state.sample_chance()``.

    Parameters
    ----------
    state : UbongoState or DuelState
        Mutated and returned.
    agents : sequence of callables, optional
        ``agents[p](state) -> action`` for player ``p`` (not needed for Duel).

    Raises
    ------
    RuntimeError
        If the game is not over after ``max_steps`` actions.
    """
    for _ in range(max_steps):
        if state.is_terminal():
            return state
        player = state.current_player()
        state.apply_action(state.sample_chance() if player == CHANCE else agents[player](state))
    raise RuntimeError(f"game not over after {max_steps} actions")


# --------------------------------------------------------------------------
# The gem game
# --------------------------------------------------------------------------

def _game_seeds(seed, n: int) -> list[np.random.SeedSequence]:
    return np.random.SeedSequence(seed).spawn(n)


def play_ubongo_game(deck: TaskDeck, strategies: Sequence[str], skills: Sequence[float], seed, *,
                     side: str = "easy", model: SolveTimeModel | None = None, timer: float = DEFAULT_TIMER,
                     move_time: float = 0.0, all_cards: bool = False,
                     colour_counts: Sequence[int] = DEFAULT_COLOUR_COUNTS, fast: bool = True) -> dict:
    """Play one gem game; return the final gems and statistics.

    Parameters
    ----------
    deck : TaskDeck
        Classic rated deck.
    strategies : sequence of str
        One strategy name per player (keys of
        :data:`~ubongo_cp.games.players.STRATEGIES`).
    skills : sequence of float
        One skill per player.
    seed : int or numpy.random.SeedSequence
        Game seed; spawns the game generator and one per strategy.
    fast : bool
        Use the fast loop (default) or drive :class:`UbongoState`.
    Other parameters
        As :class:`~ubongo_cp.games.ubongo.UbongoState`.

    Returns
    -------
    dict
        ``gems`` (list of per-colour lists), ``returns`` (UG-10 shares),
        ``solved`` (rounds each player took gems in), ``extended`` (rounds
        with the UG-8 re-turn), ``pawns`` (final fields), ``rounds``.
    """
    n = len(strategies)
    if len(skills) != n:
        raise InputError(f"{len(skills)} skills for {n} players")
    ss = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    game_ss, agent_ss = ss.spawn(2)
    game_rng = np.random.default_rng(game_ss)
    agent_rngs = [np.random.default_rng(s) for s in agent_ss.spawn(n)]
    strats = [make_strategy(s) for s in strategies]
    model = model if model is not None else SolveTimeModel()
    if not fast:
        state = UbongoState(deck, n, side, skills=skills, model=model, timer=timer, move_time=move_time,
                            all_cards=all_cards, colour_counts=colour_counts, seed=game_rng)
        run_state(state, [StrategyAgent(s, r) for s, r in zip(strats, agent_rngs)])
        solved = [0] * n
        for h in state.history:
            for p, _, _ in h["moves"]:
                solved[p] += 1
        return {"gems": state.gems.tolist(), "returns": state.returns(), "solved": solved,
                "extended": sum(h["extended"] for h in state.history), "pawns": state.pawns.tolist(),
                "rounds": state.num_rounds}
    return _fast_ubongo_game(deck, strats, np.asarray(skills, dtype=float), game_rng, agent_rngs, side=side,
                             model=model, timer=float(timer), move_time=float(move_time), all_cards=all_cards,
                             colour_counts=tuple(int(c) for c in colour_counts))


def simulate_ubongo(tasks, num_players: int = 4, games: int = 100, seed=0, *,
                    strategies: Sequence[str] | None = None, skills: Sequence[float] | None = None,
                    side: str = "easy", model: SolveTimeModel | None = None, timer: float = DEFAULT_TIMER,
                    move_time: float = 0.0, all_cards: bool = False, fast: bool = True,
                    progress: bool = False, executor: Executor | None = None) -> pd.DataFrame:
    """Simulate many gem games; one row per game x player.

    Parameters
    ----------
    tasks : TaskDeck, pandas.DataFrame or path
        The rated classic deck.
    num_players : int
        2 to 4.
    games : int
        Number of games.
    seed : int
        Run seed (game ``g`` uses child ``g`` of ``SeedSequence(seed)``).
    strategies : sequence of str, optional
        Strategy per seat; a shorter list is cycled (default: stay,
        most-gems, leading, lookahead).
    skills : sequence of float, optional
        Skills of the players (default 1.0); in game ``g`` seat ``p`` gets
        ``skills[(p + g) % len(skills)]``, so skills rotate over the seats
        and every strategy plays with every skill.
    progress : bool
        Show a tqdm progress bar.
    executor : Executor, optional
        Where the games run (default: in this process; see
        :func:`~ubongo_cp.executors.map_chunks`); the table does not depend on it.

    Returns
    -------
    pandas.DataFrame
        Columns ``game, seat, strategy, skill, gems_0 .. gems_{C-1}, total,
        top, score`` (sorted counts "6-4-2-2-2-2", rule UG-10), ``win``
        (1, 1/k for a k-way shared win, 0), ``solved`` (rounds with gems
        taken), ``extended`` (rounds of the game with the UG-8 re-turn).

    Raises
    ------
    InputError
        For a bad deck, player count, strategy or skill.
    """
    deck = as_deck(tasks, "classic")
    if not 2 <= num_players <= 4:
        raise InputError(f"the gem game takes 2 to 4 players, not {num_players}")
    if games < 1:
        raise InputError(f"number of games must be >= 1, not {games}")
    strategies = list(strategies or list(STRATEGIES))
    skills = [float(s) for s in (skills or [1.0])]
    for s in strategies:
        make_strategy(s)
    if any(not s > 0 for s in skills):
        raise InputError(f"skills {skills} must be > 0")
    seat_strats = [strategies[p % len(strategies)] for p in range(num_players)]
    seeds = _game_seeds(seed, games)
    opts = {"side": side, "model": model, "timer": timer, "move_time": move_time, "all_cards": all_cards,
            "fast": fast}
    rows = map_chunks(_ubongo_rows, games, lambda a, b: (deck, seat_strats, skills, a, seeds[a:b], opts),
                      executor=executor, progress=progress, desc="gem games", unit="game")
    return pd.DataFrame(rows)


def _ubongo_rows(deck: TaskDeck, seat_strats: list[str], skills: list[float], start: int,
                 seeds: Sequence[np.random.SeedSequence], opts: dict) -> list[dict]:
    """Rows of games ``start .. start + len(seeds) - 1`` of :func:`simulate_ubongo`."""
    num_players = len(seat_strats)
    rows = []
    for g, game_seed in enumerate(seeds, start):
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
        ``win_rate_se`` (standard error), ``mean_total``, ``mean_top``,
        ``mean_solved``.
    """
    g = table.groupby(list(by))
    out = pd.DataFrame({
        "seats": g.size(),
        "win_rate": g["win"].mean(),
        "win_rate_se": g["win"].std(ddof=1) / np.sqrt(g.size()),
        "mean_total": g["total"].mean(),
        "mean_top": g["top"].mean(),
        "mean_solved": g["solved"].mean(),
    })
    return out


def _fast_ubongo_game(deck, strats, skills, rng, agent_rngs, *, side, model, timer, move_time, all_cards,
                      colour_counts) -> dict:
    """The gem game on plain lists; same rules and draws as :class:`UbongoState`."""
    n = len(strats)
    ids = deck.cards[side]
    ratios = deck.side_ratios(side)
    # Setup (UG-2, UG-3): gem shuffle, then card shuffle, as UbongoState.__init__.
    gems = np.repeat(np.arange(len(colour_counts), dtype=np.int64), colour_counts)
    lanes = [list(map(int, row)) for row in rng.permutation(gems).reshape(NUM_LANES, HOLES_PER_LANE)]
    n_cards = len(ids) if all_cards else CARDS_PER_PLAYER * n
    if len(ids) < n_cards or len(ids) < n:
        raise InputError(f"side {side} of the deck has {len(ids)} cards; {n} players need {n_cards} (UG-3)",
                         path=deck.path)
    perm = rng.permutation(len(ids))[:n_cards]
    rounds = len(perm) // n
    card_rows = ratios[perm[: rounds * n]].reshape(rounds, n, -1)
    counts = [[0] * len(colour_counts) for _ in range(n)]
    pawns = [strats[p].start(lanes, len(colour_counts), agent_rngs[p]) for p in range(n)]
    solved = [0] * n
    extended = 0
    twice = 2.0 * timer
    for r in range(rounds):
        face = int(rng.integers(GEM_FACES))  # UG-4
        times = model.sample(card_rows[r, :, face], skills, rng)
        limit = timer
        if not (times <= timer).any():  # UG-8
            limit = twice
            extended += 1
        order = sorted((p for p in range(n) if times[p] <= limit), key=lambda p: (times[p], p))  # UG-5
        for rank, p in enumerate(order):
            if times[p] + move_time > limit:  # UG-7
                continue
            dest = strats[p].move(lanes, pawns[p], MOVE_ALLOWANCE[rank], counts[p])
            if abs(dest - pawns[p]) > MOVE_ALLOWANCE[rank] or not 0 <= dest < NUM_LANES:
                raise RuntimeError(f"strategy {strats[p]} moved from {pawns[p]} to {dest} (UG-5)")
            pawns[p] = dest
            lane = lanes[dest]
            for g in lane[:2]:  # UG-6
                counts[p][g] += 1
            del lane[:2]
            solved[p] += 1
    winners = ug10_winners(counts)
    returns = [1.0 / len(winners) if p in winners else 0.0 for p in range(n)]
    return {"gems": counts, "returns": returns, "solved": solved, "extended": extended, "pawns": pawns,
            "rounds": rounds}


# --------------------------------------------------------------------------
# Ubongo Duel
# --------------------------------------------------------------------------

def play_duel_match(deck: TaskDeck, skills: Sequence[float], seed, *, side: str = "A",
                    model: SolveTimeModel | None = None, handicap: bool = False,
                    orange_fields: Sequence[int] = DEFAULT_ORANGE_FIELDS, give_up: float = DEFAULT_GIVE_UP,
                    tie_resolution: float = DEFAULT_TIE_RESOLUTION, fast: bool = True) -> dict:
    """Play one Duel match; return scores and statistics.

    Returns
    -------
    dict
        ``scores`` (A, B), ``winner`` (0 or 1), ``duels`` (settled rolls:
        points, ties and re-rolls), ``ties`` (UD-6), ``rerolls`` (UD-5),
        ``handicap_duels`` (UD-7), ``time`` (seconds of play: the winning
        time of each duel, ``give_up`` when neither solved).
    """
    ss = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    rng = np.random.default_rng(ss)
    model = model if model is not None else SolveTimeModel()
    if not fast:
        state = DuelState(deck, side, skills=skills, model=model, handicap=handicap, orange_fields=orange_fields,
                          give_up=give_up, tie_resolution=tie_resolution, seed=rng)
        run_state(state)
        return {"scores": tuple(state.scores), "winner": state.scores.index(TARGET), "duels": len(state.history),
                "ties": state.ties, "rerolls": state.rerolls,
                "handicap_duels": sum(h["handicap"] for h in state.history),
                "time": sum(min(give_up, min(h["times"])) for h in state.history)}
    return _fast_duel_match(deck.side_ratios(side), deck.cards[side], np.asarray(skills, dtype=float), rng, model=model,
                            handicap=handicap, orange=frozenset(orange_fields), give_up=float(give_up),
                            res=float(tie_resolution))


def _fast_duel_match(ratios, ids, skills, rng, *, model, handicap, orange, give_up, res) -> dict:
    """A Duel match on plain values; same rules and draws as :class:`DuelState`."""
    scores = [0, 0]
    card = 0
    n_cards = len(ratios)
    duels = ties = rerolls = hduels = here = 0
    clock = 0.0
    sk_a, sk_b = skills
    while scores[0] < TARGET and scores[1] < TARGET:
        row = ratios[card % n_cards]
        a, b = scores
        lead = None if a == b else (0 if a > b else 1)
        if handicap and lead is not None and scores[lead] in orange:  # UD-7
            f1 = int(rng.integers(DUEL_FACES))
            f2 = int(rng.integers(DUEL_FACES))
            s_lead = skills[lead]
            t = model.sample(np.array([row[f1], row[f2], row[f2]]),
                             np.array([s_lead, s_lead, skills[1 - lead]]), rng)
            t_lead = t[0] + t[1] if (t[0] <= give_up and t[1] <= give_up) else math.inf
            times = [0.0, 0.0]
            times[lead], times[1 - lead] = t_lead, float(t[2])
            hduels += 1
        else:
            f = int(rng.integers(DUEL_FACES))
            t = model.sample(np.array([row[f], row[f]]), skills, rng)
            times = [float(t[0]), float(t[1])]
        duels += 1
        clock += min(give_up, times[0], times[1])
        outcome = settle_duel(times[0], times[1], give_up, res)
        if outcome == A_SCORES or outcome == B_SCORES:  # UD-3
            scores[outcome] += 1
            card += 1
            here = 0
        else:
            if outcome == TIE:  # UD-6
                ties += 1
            else:  # UD-5
                rerolls += 1
            here += 1
            if here >= MAX_REROLLS:
                raise unsolvable(ids[card % n_cards], here)
    return {"scores": tuple(scores), "winner": scores.index(TARGET), "duels": duels, "ties": ties,
            "rerolls": rerolls, "handicap_duels": hduels, "time": clock}


def simulate_duel(tasks, games: int = 1000, skill_a: float = 1.0, skill_b: float = 1.0, seed=0, *,
                  side: str = "A", handicap: bool = False, orange_fields: Sequence[int] = DEFAULT_ORANGE_FIELDS,
                  model: SolveTimeModel | None = None, give_up: float = DEFAULT_GIVE_UP,
                  tie_resolution: float = DEFAULT_TIE_RESOLUTION, fast: bool = True,
                  progress: bool = False, executor: Executor | None = None) -> pd.DataFrame:
    """Simulate Duel matches; one row per match.

    Match ``g`` uses child ``g`` of ``SeedSequence(seed)``; ``executor``
    says where the matches run (default: in this process; see
    :func:`~ubongo_cp.executors.map_chunks`) and does not change the table.

    Returns
    -------
    pandas.DataFrame
        Columns ``match, side, skill_a, skill_b, handicap, winner`` ("A" or
        "B"), ``score_a, score_b, duels, ties, rerolls, handicap_duels,
        minutes`` (modelled playing time).

    Raises
    ------
    InputError
        For a bad deck, skill, side or orange fields.
    """
    deck = as_deck(tasks, "duel")
    if games < 1:
        raise InputError(f"number of matches must be >= 1, not {games}")
    if not (skill_a > 0 and skill_b > 0):
        raise InputError(f"skills {skill_a}, {skill_b} must be > 0")
    if side not in ("A", "B"):
        raise InputError(f"side {side!r} is not 'A' or 'B' (UD-1)")
    if any(not 0 < int(f) < TARGET for f in orange_fields):
        raise InputError(f"orange fields {list(orange_fields)} must lie in 1..{TARGET - 1} (UD-7)")
    seeds = _game_seeds(seed, games)
    opts = {"side": side, "model": model, "handicap": handicap, "orange_fields": tuple(orange_fields),
            "give_up": give_up, "tie_resolution": tie_resolution, "fast": fast}
    rows = map_chunks(_duel_rows, games, lambda a, b: (deck, (skill_a, skill_b), a, seeds[a:b], opts),
                      executor=executor, progress=progress, desc="duel matches", unit="match")
    return pd.DataFrame(rows)


def _duel_rows(deck: TaskDeck, skills: tuple[float, float], start: int,
               seeds: Sequence[np.random.SeedSequence], opts: dict) -> list[dict]:
    """Rows of matches ``start .. start + len(seeds) - 1`` of :func:`simulate_duel`."""
    rows = []
    for g, match_seed in enumerate(seeds, start):
        r = play_duel_match(deck, skills, match_seed, **opts)
        rows.append({"match": g, "side": opts["side"], "skill_a": skills[0], "skill_b": skills[1],
                     "handicap": opts["handicap"], "winner": "AB"[r["winner"]], "score_a": r["scores"][0],
                     "score_b": r["scores"][1], "duels": r["duels"], "ties": r["ties"], "rerolls": r["rerolls"],
                     "handicap_duels": r["handicap_duels"], "minutes": r["time"] / 60.0})
    return rows


def summarise_duel(table: pd.DataFrame) -> pd.DataFrame:
    """Win rates of A and B per (skill_a, skill_b, handicap), with standard errors."""
    t = table.assign(a_wins=(table["winner"] == "A").astype(float))
    g = t.groupby(["skill_a", "skill_b", "handicap"])
    n = g.size()
    p = g["a_wins"].mean()
    return pd.DataFrame({"matches": n, "win_rate_a": p, "win_rate_b": 1 - p,
                         "se": np.sqrt(p * (1 - p) / n), "mean_duels": g["duels"].mean(),
                         "mean_minutes": g["minutes"].mean()})


def handicap_sweep(tasks, slow_skills: Sequence[float], games: int = 2000, seed=0, *, fast_skill: float = 1.0,
                   side: str = "A", orange_fields: Sequence[int] = DEFAULT_ORANGE_FIELDS,
                   model: SolveTimeModel | None = None, executor: Executor | None = None) -> pd.DataFrame:
    """The slower player's win rate with and without the UD-7 handicap.

    Player A has ``fast_skill``; player B each of ``slow_skills`` in turn.
    Both variants of one gap use the same match seeds (common random numbers).
    All settings run on one executor (see :func:`map_chunks`).

    Returns
    -------
    pandas.DataFrame
        One row per slow skill: ``skill_a, skill_b, speed_ratio`` (A / B),
        ``win_b_normal, win_b_handicap, gain`` (percentage points) and
        standard errors ``se_normal, se_handicap``.
    """
    deck = as_deck(tasks, "duel")
    rows = []
    for sb in slow_skills:
        res = {}
        for h in (False, True):
            t = simulate_duel(deck, games, fast_skill, sb, seed, side=side, handicap=h,
                              orange_fields=orange_fields, model=model, executor=executor)
            p = float((t["winner"] == "B").mean())
            res[h] = (p, math.sqrt(p * (1 - p) / games))
        rows.append({"skill_a": fast_skill, "skill_b": sb, "speed_ratio": fast_skill / sb,
                     "win_b_normal": res[False][0], "win_b_handicap": res[True][0],
                     "gain": 100 * (res[True][0] - res[False][0]),
                     "se_normal": res[False][1], "se_handicap": res[True][1]})
    return pd.DataFrame(rows)


def plot_handicap_sweep(sweep: pd.DataFrame, path: str | os.PathLike, title: str | None = None) -> None:
    """Plot :func:`handicap_sweep` output (win rate of B vs speed ratio) to ``path`` (PNG)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 4.2), dpi=120)
    x = sweep["speed_ratio"]
    for col, se, label, marker in (("win_b_normal", "se_normal", "normal rules (UD-1..UD-6)", "o"),
                                   ("win_b_handicap", "se_handicap", "handicap variant (UD-7)", "s")):
        ax.errorbar(x, 100 * sweep[col], yerr=196 * sweep[se], marker=marker, capsize=3, label=label)
    ax.axhline(50, color="grey", lw=0.8, ls=":")
    ax.set_xlabel("speed gap: skill of faster player / skill of slower player")
    ax.set_ylabel("slower player's match win rate (%)")
    ax.set_ylim(0, 60)
    ax.set_title(title or "Ubongo Duel: does the handicap variant help the slower player?")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    with atomic_path(path) as tmp:
        fig.savefig(tmp, format="png")
    plt.close(fig)


def write_table(table: pd.DataFrame, path: str | os.PathLike) -> Path:
    """Write ``table`` as CSV or Parquet (by suffix ``.csv`` / ``.parquet``).

    Raises
    ------
    InputError
        For any other suffix.
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".csv", ".parquet", ".pq"):
        raise InputError(f"output must end in .csv or .parquet, not {suffix or '(no suffix)'}", path=path)
    with atomic_path(path) as tmp:
        if suffix == ".csv":
            table.to_csv(tmp, index=False)
        else:
            table.to_parquet(tmp, index=False)
    return path
