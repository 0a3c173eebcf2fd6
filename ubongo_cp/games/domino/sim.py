"""Simulation study of Domino, nezlob se!: many seeded games, one pandas row per game.

:func:`simulate` plays games with the agents of
:mod:`ubongo_cp.games.domino.agents` through
:func:`ubongo_cp.games.base.play_game`; :func:`win_rates`,
:func:`end_reason_rates` and :func:`seat_uniformity_test` summarise the
table with Wilson score intervals and a chi-square goodness-of-fit test
(:mod:`ubongo_cp.games.stats`); :func:`plot_lengths` draws the distribution
of game lengths.

The games run in chunks on an executor (``executor="local"`` or ``"dask"``,
see :mod:`ubongo_cp.executors`); game ``g``'s seed depends only on the run
seed and ``g``, so the table does not depend on the executor or the jobs.

A shared win (DN-12 ties) counts as ``1/k`` of a win for each of the ``k``
winners, so the win counts of a run sum to the number of decided games.
"""

from __future__ import annotations

import math
import os
from dataclasses import asdict
from typing import Any, Callable, Sequence

import numpy as np
import pandas as pd

from ...errors import InputError, flag_argument, names_argument, seed_argument, whole_argument
from ...executors import Executor, map_chunks
from ...io import atomic_path, check_output_file, figure_metadata
from ..base import play_game
from ..journal import GameJournal
from ..stats import Z95, chisquare_uniform, wilson_interval
from .actions import END_REASONS
from .agents import make_agent
from .state import DominoSettings, DominoState, new_game, settings_argument

__all__ = [
    "play_one",
    "simulate",
    "win_rates",
    "end_reason_rates",
    "elimination_rate",
    "seat_uniformity_test",
    "plot_lengths",
    "summary_text",
]


#: How an ``agents`` argument is written, for the error that a single string gets.
_AGENTS_EXAMPLE = "['random', 'greedy'], one per seat"


def play_one(agents: Sequence[str], seed: int,
             settings: DominoSettings | None = None) -> tuple[dict, DominoState]:
    """Play one game; ``agents[s]`` sits at seat ``s``.

    Parameters
    ----------
    agents : sequence of str
        One agent name per seat (see :data:`~ubongo_cp.games.domino.agents.AGENT_NAMES`).
    seed : int
        Seeds the deal (:func:`~ubongo_cp.games.domino.state.new_game`) and agent
        ``s`` with ``numpy.random.default_rng([seed, s])``.
    settings : DominoSettings, optional
        Default: the documented defaults with ``len(agents)`` players.

    Returns
    -------
    row : dict
        The per-game row of :func:`simulate` (without ``game``).
    state : DominoState
        The final state.

    Raises
    ------
    InputError
        Unknown agent name, ``agents`` given as one string (a table row's
        ``agents`` is ``row.agents.split(",")`` here), or settings of
        another player count than ``len(agents)``.
    """
    agents = names_argument("agents", agents, _AGENTS_EXAMPLE)   # a string would be read letter by letter
    settings = _settings_for(agents, settings)
    state = new_game(settings, seed=seed)
    play_game(state, [make_agent(a, np.random.default_rng([seed, s])) for s, a in enumerate(agents)])
    actions = len(state._history)
    ret = state.returns()
    winners = [s for s, r in enumerate(ret) if r > 0]
    row = {
        "seed": seed,
        "players": settings.num_players,
        "agents": ",".join(agents),
        "winner_seat": winners[0] if len(winners) == 1 else -1,
        "winner_agent": agents[winners[0]] if len(winners) == 1 else "",
        "n_winners": len(winners),
        "end_reason": state.end_reason,
        "rounds": state.round,
        "turns": state.turns,
        "actions": actions,
        "eliminations": len(state.eliminated),
        "eliminated_seats": ",".join(map(str, state.eliminated)),
        "path_dominoes": len(state.path_ids),
        "stock_left": len(state.stock),
    }
    for s in range(settings.num_players):
        row[f"agent_{s}"] = agents[s]
        row[f"return_{s}"] = ret[s]
    return row, state


def simulate(agents: Sequence[str], games: int, seed: int = 0,
             settings: DominoSettings | None = None, rotate_seats: bool = False,
             progress: bool = False, executor: Executor | None = None,
             journal: str | os.PathLike | None = None, notify: Callable[[str], Any] | None = None) -> pd.DataFrame:
    """Play ``games`` games and return one row per game.

    Parameters
    ----------
    agents : sequence of str
        Agent name per seat; its length is the number of players.
    games : int
        Number of games.
    seed : int
        Game ``g`` uses seed ``numpy.random.default_rng(seed).integers(2**63 - 1, size=games)[g]``.
    settings : DominoSettings, optional
        Rule settings (``num_players`` must equal ``len(agents)``).
    rotate_seats : bool
        Game ``g`` seats ``agents`` rotated by ``g`` places, so that every
        agent plays every seat equally often (for agent comparisons).
    progress : bool
        Show a tqdm progress bar on standard error.
    executor : Executor, optional
        Where the games run (default: in this process); see
        :func:`ubongo_cp.executors.map_chunks`. The table does not depend on it.
    journal, notify : optional
        Keep each game as it finishes in this journal, and resume from it
        (:class:`~ubongo_cp.games.journal.GameJournal`); ``notify`` says so.

    Returns
    -------
    pandas.DataFrame
        Columns ``game, seed, players, agents, winner_seat`` (-1: no single
        winner), ``winner_agent, n_winners, end_reason`` (finish / stalled /
        all_out / round_limit), ``rounds, turns, actions, eliminations,
        eliminated_seats, path_dominoes, stock_left`` and per seat
        ``agent_s, return_s``.

    Raises
    ------
    InputError
        Unknown agent name, a player count outside 2..4, settings of
        another player count than ``len(agents)``, a ``games`` that is no
        whole number >= 1, a ``rotate_seats`` other than True or False, or
        a seed numpy cannot take.

    Examples
    --------
    >>> df = simulate(["random", "careful"], games=3, seed=1)
    >>> list(df["game"]), bool(df[["return_0", "return_1"]].sum(axis=1).le(1).all())
    ([0, 1, 2], True)
    """
    agents = names_argument("agents", agents, _AGENTS_EXAMPLE)
    for a in agents:
        make_agent(a)   # an unknown name is refused before any game
    games = whole_argument("games", games, 1)
    rotate_seats = flag_argument("rotate_seats", rotate_seats)   # "no" would read as true and rotate the seats
    settings = _settings_for(agents, settings)
    seeds = np.random.default_rng(seed_argument("seed", seed)).integers(2**63 - 1, size=games)
    agents = list(agents)
    kept = GameJournal.of(journal, "simulate domino",
                          {"agents": agents, "games": games, "seed": seed, "settings": asdict(settings),
                           "rotate_seats": rotate_seats}, notify=notify)
    rows = map_chunks(_domino_rows, games,
                      lambda a, b: (agents, a, [int(x) for x in seeds[a:b]], settings, rotate_seats),
                      executor=executor, progress=progress, desc="domino games", unit="game", journal=kept)
    return pd.DataFrame(rows)


def _settings_for(agents: Sequence[str], settings: DominoSettings | None) -> DominoSettings:
    """``settings``, or the default settings of ``len(agents)`` players; an InputError unless there is one agent
    per seat."""
    settings = DominoSettings(num_players=len(agents)) if settings is None else settings_argument(settings)
    if len(agents) != settings.num_players:
        raise InputError(f"{len(agents)} agents for the {settings.num_players} players of the settings "
                         "(one agent per seat)")
    return settings


def _domino_rows(agents: list[str], start: int, seeds: list[int], settings: DominoSettings,
                 rotate_seats: bool) -> list[dict]:
    """Rows of games ``start .. start + len(seeds) - 1`` of :func:`simulate`."""
    n = len(agents)
    rows = []
    for g, game_seed in enumerate(seeds, start):
        seating = [agents[(s + g) % n] for s in range(n)] if rotate_seats else list(agents)
        row, _ = play_one(seating, game_seed, settings)
        rows.append({"game": g, **row})
    return rows


def win_rates(df: pd.DataFrame, by: str = "seat", z: float = Z95) -> pd.DataFrame:
    """Win rate per seat or per agent with Wilson intervals.

    Parameters
    ----------
    df : pandas.DataFrame
        Output of :func:`simulate`.
    by : {"seat", "agent"}
        ``seat``: one row per seat over all games. ``agent``: one row per
        agent over all the seats it played (a seat-game is one trial).

    Returns
    -------
    pandas.DataFrame
        Columns ``wins`` (shared wins fractional), ``games``, ``rate``,
        ``ci_low``, ``ci_high``; indexed by seat or agent.

    Raises
    ------
    InputError
        For a ``by`` other than ``"seat"`` or ``"agent"``.
    """
    if not isinstance(by, str) or by not in ("seat", "agent"):
        raise InputError(f"by must be 'seat' or 'agent', got {by!r}")
    n = int(df["players"].iloc[0])
    long = pd.DataFrame({
        "seat": np.repeat(np.arange(n), len(df)),
        "agent": np.concatenate([df[f"agent_{s}"].to_numpy() for s in range(n)]),
        "ret": np.concatenate([df[f"return_{s}"].to_numpy(dtype=float) for s in range(n)]),
    })
    g = long.groupby(by)["ret"].agg(wins="sum", games="count")
    g["rate"] = g["wins"] / g["games"]
    ci = [wilson_interval(w, int(t), z) for w, t in zip(g["wins"], g["games"])]
    g["ci_low"] = [c[0] for c in ci]
    g["ci_high"] = [c[1] for c in ci]
    return g


def end_reason_rates(df: pd.DataFrame, z: float = Z95) -> pd.DataFrame:
    """Share of games per end reason with Wilson intervals (every reason listed, zeros included)."""
    total = len(df)
    counts = df["end_reason"].value_counts()
    rows = []
    for reason in END_REASONS:
        k = int(counts.get(reason, 0))
        lo, hi = wilson_interval(k, total, z)
        rows.append({"end_reason": reason, "games": k, "share": k / total if total else math.nan,
                     "ci_low": lo, "ci_high": hi})
    return pd.DataFrame(rows).set_index("end_reason")


def elimination_rate(df: pd.DataFrame, z: float = Z95) -> dict:
    """Share of games with at least one pawn falling off (DN-11), Wilson interval, mean count."""
    k = int((df["eliminations"] > 0).sum())
    lo, hi = wilson_interval(k, len(df), z)
    return {"games_with_elimination": k, "games": len(df), "share": k / len(df),
            "ci_low": lo, "ci_high": hi, "mean_eliminations": float(df["eliminations"].mean())}


def seat_uniformity_test(df: pd.DataFrame) -> dict:
    """Chi-square goodness of fit of the wins per seat against equal shares.

    Only decided games count; shared wins count fractionally.

    Returns
    -------
    dict
        ``chi2``, ``dof`` (seats - 1), ``p_value``
        (:func:`~ubongo_cp.games.stats.chisquare_uniform`),
        ``observed`` wins per seat, ``expected`` per seat.
    """
    n = int(df["players"].iloc[0])
    obs = np.array([df[f"return_{s}"].sum() for s in range(n)], dtype=float)
    return {**chisquare_uniform(obs), "observed": obs.tolist(), "expected": float(obs.sum() / n)}


def plot_lengths(df: pd.DataFrame, path: str, title: str | None = None) -> None:
    """Histogram of game lengths in rounds, stacked by end reason; saved to ``path`` (PNG, atomically).

    An existing file at ``path`` is replaced only when it is a PNG image the toolkit wrote; any other is
    refused (:class:`~ubongo_cp.errors.InputError` naming it) before anything is drawn
    (:func:`~ubongo_cp.io.check_output_file`).
    """
    from matplotlib.figure import Figure

    check_output_file(path, ".png")

    fig = Figure(figsize=(7, 4))
    ax = fig.add_subplot()
    top = int(df["rounds"].max()) if len(df) else 1
    bins = np.arange(0.5, top + 1.5, 1.0)
    data, labels = [], []
    for reason in END_REASONS:
        sel = df.loc[df["end_reason"] == reason, "rounds"].to_numpy()
        if len(sel):
            data.append(sel)
            labels.append(f"{reason} ({len(sel)})")
    ax.hist(data, bins=bins, stacked=True, label=labels)
    ax.set_xlabel("game length (rounds)")
    ax.set_ylabel("games")
    ax.set_title(title or f"Domino, nezlob se!: {len(df)} games, agents {df['agents'].iloc[0]}")
    ax.legend(title="end reason")
    fig.tight_layout()
    with atomic_path(path) as tmp:
        fig.savefig(tmp, dpi=110, format="png", metadata=figure_metadata("png"))


def summary_text(df: pd.DataFrame) -> str:
    """Plain-text report: end reasons, eliminations, win rates by seat and by agent, lengths."""
    def pct(v: float) -> str:
        return f"{100 * v:5.1f}%"

    def ci_table(t: pd.DataFrame, key: str, count: str, rate: str) -> list[str]:
        out = [f"  {key:<12} {count:>8} {'n':>6} {rate:>7}   95% Wilson CI"]
        for idx, r in t.iterrows():
            v = r["wins"] if "wins" in r else r["games"]
            n = r["games"] if "wins" in r else len(df)
            rt = r["rate"] if "rate" in r else r["share"]
            out.append(f"  {str(idx):<12} {v:>8.1f} {int(n):>6} {pct(rt)}   "
                       f"[{pct(r['ci_low'])}, {pct(r['ci_high'])}]")
        return out

    lines = [f"{len(df)} games, {int(df['players'].iloc[0])} players, agents {df['agents'].iloc[0]}"
             + (" (rotated)" if df["agents"].nunique() > 1 else "")]
    lines.append("end reason:")
    er = end_reason_rates(df)
    lines.append(f"  {'reason':<12} {'games':>8} {'share':>7}   95% Wilson CI")
    for reason, r in er.iterrows():
        lines.append(f"  {reason:<12} {int(r['games']):>8} {pct(r['share'])}   "
                     f"[{pct(r['ci_low'])}, {pct(r['ci_high'])}]")
    el = elimination_rate(df)
    lines.append(f"games with an elimination: {el['games_with_elimination']} of {el['games']} "
                 f"= {pct(el['share']).strip()} [{pct(el['ci_low']).strip()}, {pct(el['ci_high']).strip()}], "
                 f"mean {el['mean_eliminations']:.2f} per game")
    lines.append("win rate by seat:")
    lines += ci_table(win_rates(df, "seat"), "seat", "wins", "rate")
    test = seat_uniformity_test(df)
    if math.isnan(test["chi2"]):  # no decided game (e.g. every game hit the round bound)
        lines.append("  equal seats? n/a (no game had a winner)")
    else:
        lines.append(f"  equal seats? chi2 = {test['chi2']:.2f}, dof = {test['dof']}, p = {test['p_value']:.3g}")
    if df[[c for c in df.columns if c.startswith("agent_")]].stack().nunique() > 1:
        lines.append("win rate by agent (per seat-game):")
        lines += ci_table(win_rates(df, "agent"), "agent", "wins", "rate")
    r = df["rounds"]
    lines.append(f"rounds: mean {r.mean():.2f}, median {r.median():.0f}, "
                 f"5-95% {r.quantile(0.05):.0f}-{r.quantile(0.95):.0f}, max {r.max()}")
    return "\n".join(lines)
