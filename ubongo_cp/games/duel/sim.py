"""Simulation study of Ubongo Duel: seeded matches through the engine, the handicap sweep and its plot.

Every match is played by :func:`ubongo_cp.games.base.play_game` on a
:class:`~ubongo_cp.games.duel.state.DuelState` (the one implementation of the
rules). Match ``g`` of a run with seed ``s`` uses child ``g`` of
``numpy.random.SeedSequence(s)``; the matches run in chunks on an executor
(:func:`~ubongo_cp.executors.map_chunks`) and the table does not depend on it.
"""

from __future__ import annotations

import os
from typing import Any, Callable, Sequence

import numpy as np
import pandas as pd

from ...errors import InputError, as_written, seed_argument, whole_argument
from ...executors import Executor, map_chunks
from ...io import atomic_path, check_output_file, figure_metadata
from ..base import game_seeds, play_game
from ..journal import GameJournal, deck_option
from ..stats import binomial_se
from ..tasks import SolveTimeModel, TaskDeck, as_deck, skills_argument
from .state import (DEFAULT_GIVE_UP, DEFAULT_ORANGE_FIELDS, DEFAULT_TIE_WINDOW, TARGET, DuelState,
                    orange_fields_argument)

__all__ = ["play_duel_match", "simulate_duel", "summarise_duel", "handicap_sweep", "plot_handicap_sweep"]


def play_duel_match(deck: TaskDeck, skills: Sequence[float], seed, *, side: str = "A",
                    model: SolveTimeModel | None = None, handicap: bool = False,
                    orange_fields: Sequence[int] = DEFAULT_ORANGE_FIELDS, give_up: float = DEFAULT_GIVE_UP,
                    tie_window: float = DEFAULT_TIE_WINDOW) -> dict:
    """Play one Duel match; return scores and statistics.

    Parameters
    ----------
    deck : TaskDeck
        A rated deck (the Duel deck, or any deck its spec defines).
    skills : (float, float)
        Skills of players A and B.
    seed : int or numpy.random.SeedSequence
        Seeds the match's generator.
    Other parameters
        As :class:`~ubongo_cp.games.duel.state.DuelState`.

    Returns
    -------
    dict
        ``scores`` (A, B), ``winner`` (0 or 1), ``duels`` (settled duels:
        points, ties and re-rolls), ``ties`` (UD-6), ``rerolls`` (UD-5),
        ``handicap_duels`` (UD-7), ``time`` (seconds of play: the sum of
        each duel's ``seconds``, its winning or tying time, or when the
        last player gave up).

    Raises
    ------
    InputError
        For bad settings, or a card on which nobody ever scores.
    """
    ss = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    state = DuelState(deck, side, skills=skills, model=model, handicap=handicap, orange_fields=orange_fields,
                      give_up=give_up, tie_window=tie_window, seed=np.random.default_rng(ss))
    play_game(state, ())
    handicap_duels, clock = 0, 0.0
    for h in state._history:
        handicap_duels += h["handicap"]
        clock += h["seconds"]
    return {"scores": tuple(state.scores), "winner": state.scores.index(TARGET), "duels": len(state._history),
            "ties": state.ties, "rerolls": state.rerolls, "handicap_duels": handicap_duels, "time": clock}


def simulate_duel(tasks, games: int = 1000, skill_a: float = 1.0, skill_b: float = 1.0, seed=0, *,
                  side: str = "A", handicap: bool = False, orange_fields: Sequence[int] = DEFAULT_ORANGE_FIELDS,
                  model: SolveTimeModel | None = None, give_up: float = DEFAULT_GIVE_UP,
                  tie_window: float = DEFAULT_TIE_WINDOW,
                  progress: bool = False, executor: Executor | None = None,
                  journal: str | os.PathLike | None = None,
                  notify: Callable[[str], Any] | None = None) -> pd.DataFrame:
    """Simulate Duel matches; one row per match.

    Match ``g`` uses child ``g`` of ``SeedSequence(seed)``; ``executor``
    says where the matches run (default: in this process; see
    :func:`~ubongo_cp.executors.map_chunks`) and does not change the table.
    The rules' parameters are those of :func:`play_duel_match`.

    Parameters
    ----------
    journal, notify : optional
        Keep each match as it finishes in this journal, and resume from it
        (:class:`~ubongo_cp.games.journal.GameJournal`); ``notify`` says so.

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
    deck = as_deck(tasks, "duel")   # a table that does not name its game is of the Duel deck
    games = whole_argument("games", games, 1)   # the number of matches
    seed_argument("seed", seed)
    skill_a, skill_b = skills_argument([skill_a, skill_b], 2).tolist()   # before any match, as a state checks them
    opts = _rules(deck, side, orange_fields, model, give_up, tie_window)
    rows = _play_settings(deck, [((skill_a, skill_b), handicap)], games, seed, opts, "simulate duel",
                          {"skills": [skill_a, skill_b], "handicap": handicap}, executor=executor,
                          progress=progress, journal=journal, notify=notify)
    return pd.DataFrame(rows[0])


def _rules(deck: TaskDeck, side: str, orange_fields: Sequence[int], model: SolveTimeModel | None, give_up: float,
           tie_window: float) -> dict:
    """The options every match of a run shares (:func:`play_duel_match`'s), checked before any match."""
    deck.check_side(side, "UD-1")
    orange = tuple(sorted(orange_fields_argument(orange_fields)))   # before any match: UD-7's board, a set
    return {"side": side, "model": model, "orange_fields": orange, "give_up": give_up, "tie_window": tie_window}


def _play_settings(deck: TaskDeck, settings: list[tuple[tuple[float, float], bool]], games: int, seed, opts: dict,
                   study: str, options: dict, *, executor: Executor | None, progress: bool,
                   journal: str | os.PathLike | None, notify: Callable[[str], Any] | None) -> list[list[dict]]:
    """The rows of matches ``0 .. games - 1`` of each setting (``((skill_a, skill_b), handicap)``), per setting.

    Match ``g`` of every setting has the same seed (common random numbers). All settings' matches run in one
    :func:`~ubongo_cp.executors.map_chunks` (one executor, one progress bar) and are kept in one journal, of
    ``study`` with the deck, ``games``, ``seed``, ``opts`` and ``options`` (what the settings are): journal
    index ``g * len(settings) + s`` is match ``g`` of setting ``s``, round by round, so that a run of more
    matches extends the journal (as a tournament's pairings).
    """
    n = len(settings)
    kept = GameJournal.of(journal, study,
                          {"games": games, "seed": seed, "deck": deck_option(deck), **opts,
                           "model": opts["model"] and opts["model"].to_json(), **options},
                          notify=notify, games=games * n)
    rows = map_chunks(_duel_rows, games * n, lambda a, b: (deck, settings, seed, a, b, opts),
                      executor=executor, progress=progress, desc="duel matches", unit="match", journal=kept)
    return [rows[s::n] for s in range(n)]


def _duel_rows(deck: TaskDeck, settings: list[tuple[tuple[float, float], bool]], seed, start: int,
               stop: int, opts: dict) -> list[dict]:
    """Rows of journal indices ``start .. stop - 1`` of :func:`_play_settings`: index ``i`` is match
    ``i // len(settings)`` of setting ``i % len(settings)``."""
    n = len(settings)
    first = start // n
    seeds = game_seeds(seed, first, (stop - 1) // n + 1)
    rows = []
    for i in range(start, stop):
        g, s = divmod(i, n)
        skills, handicap = settings[s]
        r = play_duel_match(deck, skills, seeds[g - first], handicap=handicap, **opts)
        rows.append({"match": g, "side": opts["side"], "skill_a": skills[0], "skill_b": skills[1],
                     "handicap": handicap, "winner": "AB"[r["winner"]], "score_a": r["scores"][0],
                     "score_b": r["scores"][1], "duels": r["duels"], "ties": r["ties"], "rerolls": r["rerolls"],
                     "handicap_duels": r["handicap_duels"], "minutes": r["time"] / 60.0})
    return rows


def summarise_duel(table: pd.DataFrame) -> pd.DataFrame:
    """Win rates of A and B per (skill_a, skill_b, handicap), with the binomial standard error."""
    t = table.assign(a_wins=(table["winner"] == "A").astype(float))
    g = t.groupby(["skill_a", "skill_b", "handicap"])
    n = g.size()
    p = g["a_wins"].mean()
    return pd.DataFrame({"matches": n, "win_rate_a": p, "win_rate_b": 1 - p,
                         "se": [binomial_se(pi, ni) for pi, ni in zip(p, n)], "mean_duels": g["duels"].mean(),
                         "mean_minutes": g["minutes"].mean()})


def handicap_sweep(tasks, slow_skills: Sequence[float], games: int = 2000, seed=0, *, fast_skill: float = 1.0,
                   side: str = "A", orange_fields: Sequence[int] = DEFAULT_ORANGE_FIELDS,
                   model: SolveTimeModel | None = None, progress: bool = False,
                   executor: Executor | None = None, journal: str | os.PathLike | None = None,
                   notify: Callable[[str], Any] | None = None) -> pd.DataFrame:
    """The slower player's win rate with and without the UD-7 handicap.

    Player A has ``fast_skill``; player B each of ``slow_skills`` (at most ``fast_skill``) in turn.
    Match ``g`` of every setting (each slow skill, without and with the handicap) uses child ``g`` of
    ``SeedSequence(seed)``, the match :func:`simulate_duel` plays (common random numbers). All settings' matches
    run in one go on one executor (see :func:`~ubongo_cp.executors.map_chunks`), under one progress bar.

    Parameters
    ----------
    journal, notify : optional
        Keep every setting's matches as they finish in this one journal, and resume from it
        (:class:`~ubongo_cp.games.journal.GameJournal`, study ``"simulate duel --sweep"``); ``notify`` says so.
        A run of more ``games`` extends it; one of other slow skills (or other options) is refused.

    Returns
    -------
    pandas.DataFrame
        One row per slow skill: ``skill_a, skill_b, speed_ratio`` (A / B),
        ``win_b_normal, win_b_handicap, gain`` (percentage points) and
        binomial standard errors ``se_normal, se_handicap``.

    Raises
    ------
    InputError
        For a bad deck, skill, side or orange fields (as :func:`simulate_duel`), checked for every slow skill
        before any match, ``slow_skills`` that is no list, or a slow skill above ``fast_skill``.
    """
    deck = as_deck(tasks, "duel")   # a table that does not name its game is of the Duel deck
    if not isinstance(slow_skills, (list, tuple, np.ndarray)):
        raise InputError(f"slow_skills must be a list of skills, got {as_written(slow_skills)}")
    pairs = []
    for sb in slow_skills:   # every setting's before any match, as simulate_duel checks its own
        fast, slow = skills_argument([fast_skill, sb], 2).tolist()
        if slow > fast:   # the rates are the slower player's
            raise InputError(f"slow skill {slow:g} is above the fast skill {fast:g}: player B of the sweep is the "
                             "slower player")
        pairs.append((fast, slow))
    games = whole_argument("games", games, 1)   # matches per setting
    seed_argument("seed", seed)
    opts = _rules(deck, side, orange_fields, model, DEFAULT_GIVE_UP, DEFAULT_TIE_WINDOW)
    settings = [(pair, h) for pair in pairs for h in (False, True)]
    played = _play_settings(deck, settings, games, seed, opts, "simulate duel --sweep",
                            {"skill_a": pairs[0][0] if pairs else fast_skill, "skills_b": [b for _, b in pairs]},
                            executor=executor, progress=progress, journal=journal, notify=notify)
    rows = []
    for k, sb in enumerate(slow_skills):
        res = {}
        for h in (False, True):
            p = sum(r["winner"] == "B" for r in played[2 * k + h]) / games
            res[h] = (p, binomial_se(p, games))
        rows.append({"skill_a": fast_skill, "skill_b": sb, "speed_ratio": fast_skill / sb,
                     "win_b_normal": res[False][0], "win_b_handicap": res[True][0],
                     "gain": 100 * (res[True][0] - res[False][0]),
                     "se_normal": res[False][1], "se_handicap": res[True][1]})
    return pd.DataFrame(rows)


def plot_handicap_sweep(sweep: pd.DataFrame, path: str | os.PathLike, title: str | None = None) -> None:
    """Plot :func:`handicap_sweep` output (win rate of B vs speed ratio) to ``path`` (PNG, atomically).

    An existing file at ``path`` is replaced only when it is a PNG image the toolkit wrote; any other is
    refused (:class:`~ubongo_cp.errors.InputError` naming it) before anything is drawn
    (:func:`~ubongo_cp.io.check_output_file`).
    """
    from matplotlib.figure import Figure

    check_output_file(path, ".png")

    fig = Figure(figsize=(6.4, 4.2), dpi=120)
    ax = fig.add_subplot()
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
        fig.savefig(tmp, format="png", metadata=figure_metadata("png"))
