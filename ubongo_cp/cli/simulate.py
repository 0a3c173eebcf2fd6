"""``ubongo-cp simulate``: the group, and its ``ubongo`` and ``duel`` sub-commands.

Heavy modules (pandas, the engines) are imported inside the run functions.
"""

from __future__ import annotations

import argparse
import math
import os

from ..errors import InputError
from .common import (say, show_bar, add_executor_arguments, add_games_out, add_progress_argument, executor_from,
                     fixed_suffixes, games_journal, notify, only_with, resumable, rule_settings, rule_settings_text)

__all__ = ["add_parsers"]

_STRATEGY_NAMES = ("stay", "most-gems", "leading", "lookahead")


def add_parsers(sub):
    """Add ``simulate`` with ``ubongo`` and ``duel`` to ``sub``; returns the ``simulate`` sub-parsers."""
    simulate = sub.add_parser("simulate", help="simulate many games and tabulate the outcomes",
                              description="Simulate many seeded games of one of the games and tabulate "
                                          "the outcomes (one row per game; per game and seat for the gem game).")
    simulate_subparsers = simulate.add_subparsers(dest="game", required=True, metavar="GAME")
    p = simulate_subparsers.add_parser(
        "ubongo", help="simulate Ubongo gem games (2005 edition, rules UG-1..UG-10)",
        description="Simulate gem games with solve times drawn from a rated deck (the shipped classic deck, or "
                    "any deck rated by `ubongo-cp batch`: its spec gives the sides and the die); prints win rates by "
                    "strategy and skill and can write the per-game table.")
    p.add_argument("--players", type=int, default=4, help="players per game, 2..4 (default 4)")
    p.add_argument("--games", type=int, default=1000,
                   help="number of games (default 1000); with --out, a run of more games resumes the journal of "
                   "fewer (playing only the missing ones) and one of fewer takes its games from it")
    p.add_argument("--seed", type=int, default=0, help="run seed (default 0)")
    p.add_argument("--strategy", nargs="+", choices=_STRATEGY_NAMES, metavar="NAME",
                   help="movement strategy per seat, at most one per player, cycled if shorter: "
                        + ", ".join(_STRATEGY_NAMES) + " (default: all four in that order)")
    p.add_argument("--skills", nargs="+", type=float, metavar="X",
                   help="solve speeds of the players (1 = average; default 1), at most one per player, cycled "
                        "if shorter; they rotate over the seats game by game so every strategy plays with every "
                        "skill")
    p.add_argument("--side", help="card side (UG-1; a side of the deck's spec; default its first: easy)")
    p.add_argument("--all-cards", action="store_true", help="play every card (UG-3 variant)")
    p.add_argument("--timer", type=float, default=60.0, help="sand timer in seconds (default 60)")
    p.add_argument("--move-time", type=float, default=0.0, metavar="S",
                   help="seconds a solver needs to move and take gems, which must also fit before the timer "
                        "runs out (UG-7; default 0)")
    _common(p, "classic")
    rule_settings(p, {"all_cards": "UG-3", "timer": "UG-4", "move_time": "UG-7", "strategy": None, "skills": None,
                      "sigma": None})
    p.set_defaults(func=_run_ubongo)

    d = simulate_subparsers.add_parser(
        "duel", help="simulate Ubongo Duel matches (rules UD-1..UD-7)",
        description="Simulate Duel matches to 5 points with solve times drawn from the rated Duel deck; "
                    "prints win rates and can write the per-match table.")
    d.add_argument("--games", type=int, default=1000,
                   help="number of matches (default 1000); with --out, a run of more matches resumes the journal "
                   "of fewer (playing only the missing ones) and one of fewer takes its matches from it")
    d.add_argument("--skill-a", type=float, default=1.0, help="solve speed of player A (default 1)")
    d.add_argument("--skill-b", type=float, default=1.0, help="solve speed of player B (default 1)")
    d.add_argument("--handicap", action="store_true", help="handicap variant (UD-7)")
    d.add_argument("--orange", type=int, nargs="+", default=[3, 4], metavar="FIELD",
                   help="orange fields of the handicap board (UD-7, default 3 4; a set: order and repeats do "
                        "not matter)")
    d.add_argument("--side", help="card side (UD-1; a side of the deck's spec; default its first: A)")
    d.add_argument("--seed", type=int, default=0, help="run seed (default 0)")
    d.add_argument("--sweep", type=float, nargs="+", metavar="RATIO",
                   help="instead of one setting: for each speed gap R >= 1, the slower player B gets skill "
                        "skill-a / R; play --games matches with and without the handicap (UD-7) and print B's "
                        "win rates (--out writes a row per gap; its journal keeps the matches of every setting, "
                        "and a run of other gaps is refused)")
    d.add_argument("--plot", metavar="PNG", help="with --sweep: plot the win rates to PNG")
    fixed_suffixes(d, plot="png")
    only_with(d, "--plot", lambda a: a.sweep, "goes with --sweep")
    only_with(d, "--orange", lambda a: a.handicap or a.sweep, "goes with --handicap or --sweep (the handicap "
                                                                 "board's fields)")
    only_with(d, "--skill-b", lambda a: not a.sweep, "does not go with --sweep, which gives B the skill "
                                                      "skill-a / RATIO")
    only_with(d, "--handicap", lambda a: not a.sweep, "has no effect with --sweep, which plays every setting "
                                                       "with and without the handicap", note=True)
    _common(d, "duel")
    rule_settings(d, {"handicap": "UD-7", "orange": "UD-7", "skill_a": None, "skill_b": None, "sigma": None})
    d.set_defaults(func=_run_duel)
    return simulate_subparsers


def _common(p: argparse.ArgumentParser, game: str) -> None:
    src = p.add_mutually_exclusive_group()
    src.add_argument("--tasks", metavar="FILE",
                     help="rated per-task table, CSV or Parquet, or a `ubongo-cp batch` output directory (default: "
                          f"the ratings shipped with the {game} deck, `ubongo-cp examples decks/{game}`)")
    src.add_argument("--synthetic", action="store_true",
                     help="use a made-up rated deck (for trying the simulator before the batch job ran)")
    p.add_argument("--spec", metavar="DECK.toml",
                   help="the deck spec of the table's game (default: the shipped game the table names, or the "
                        "deck.toml that `ubongo-cp batch` copies beside its tables)")
    add_games_out(p, "the table")
    p.add_argument("--sigma", type=float, default=0.4,
                   help="noise of the solve-time model (sd of log time, >= 0, default 0.4)")
    add_executor_arguments(p)
    add_progress_argument(p)


#: Options that must be finite numbers > 0, and options that must be finite numbers >= 0.
_POSITIVE = ("skills", "skill_a", "skill_b", "sweep")
_NON_NEGATIVE = ("move_time",)


def _check_numbers(args) -> None:
    """Refuse non-finite or out-of-range numbers (``--skills inf``, ``--sigma nan``, ``--move-time -1``).

    ``--sigma`` has the bounds of the solve-time model
    (:func:`~ubongo_cp.games.tasks.check_sigma`).

    Raises
    ------
    InputError
        Naming the option and the value.
    """
    for names, low, strict in ((_POSITIVE, "> 0", True), (_NON_NEGATIVE, ">= 0", False)):
        for name in names:
            value = getattr(args, name, None)
            for v in value if isinstance(value, list) else [] if value is None else [value]:
                if not (math.isfinite(v) and (v > 0 if strict else v >= 0)):
                    raise InputError(f"--{name.replace('_', '-')} must be a finite number {low}, got {v}")
    if getattr(args, "sigma", None) is not None:
        from ..games.tasks import check_sigma

        check_sigma(args.sigma, "--sigma")


def _tasks(args, game: str):
    """The rated deck the options name; ``args.side`` defaults to the first side of its spec."""
    from ..games.tasks import as_deck, default_tasks_path, synthetic_tasks
    from ..specs import load_spec

    spec = load_spec(args.spec) if args.spec else None
    if args.synthetic:
        deck = as_deck(synthetic_tasks(spec or game), spec or game)
    else:
        tasks = args.tasks or default_tasks_path(game)
        try:
            deck = as_deck(tasks, game, spec=spec)
        except InputError as exc:   # no table there: the options that name one, or none
            if exc.path is None or os.path.exists(exc.path):
                raise
            raise InputError(f"{exc.message}; give --tasks FILE or --synthetic", path=exc.path) from None
    if args.side is None:
        args.side = deck.spec.side_names[0]
    return deck


def _model(args):
    from ..games.tasks import SolveTimeModel

    return SolveTimeModel(sigma=args.sigma)


def _run_sweep(args, deck) -> int:
    import pandas as pd

    from ..games.duel.sim import handicap_sweep, plot_handicap_sweep
    from ..io import write_table

    for r in args.sweep:   # the table and the plot are of the slower player
        if r < 1:
            raise InputError(f"--sweep takes speed gaps of at least 1 (skill A / skill B: B is the slower player), "
                             f"got {r:g}")
    slow = [args.skill_a / r for r in args.sweep]
    journal = games_journal(args)   # every setting's matches, in one journal beside the table
    with executor_from(args) as executor, resumable(journal):
        sweep = handicap_sweep(deck, slow, args.games, args.seed, fast_skill=args.skill_a, side=args.side,
                               orange_fields=args.orange, model=_model(args), progress=show_bar(args),
                               executor=executor, journal=journal, notify=notify)
    src = "synthetic deck" if args.synthetic else (deck.source or "deck")
    say(f"{args.games} Duel matches per setting, side {args.side}, skill A {args.skill_a:g}, "
        f"orange fields {' '.join(map(str, args.orange))}, sigma {args.sigma:g}, seed {args.seed}, tasks: {src}")
    print("win rate of the slower player B, normal rules vs handicap variant (UD-7):")
    show = pd.DataFrame({
        "speed A/B": sweep["speed_ratio"].map("{:.2f}".format),
        "skill B": sweep["skill_b"].map("{:.3f}".format),
        "B wins, normal": [f"{100 * p:.1f}% ± {196 * e:.1f}" for p, e in zip(sweep.win_b_normal, sweep.se_normal)],
        "B wins, handicap": [f"{100 * p:.1f}% ± {196 * e:.1f}"
                             for p, e in zip(sweep.win_b_handicap, sweep.se_handicap)],
        "gain (points)": sweep["gain"].map("{:+.1f}".format),
    })
    print(show.to_string(index=False))
    if args.out:
        say(f"\nwrote {write_table(sweep, args.out, notify=notify)} ({len(sweep)} rows)")
    if args.plot:
        plot_handicap_sweep(sweep, args.plot,
                            title=f"Ubongo Duel side {args.side}: handicap (orange {' '.join(map(str, args.orange))})"
                                  + (" - synthetic deck" if args.synthetic else ""))
        say(f"wrote {args.plot}")
    return 0


def _run_ubongo(args) -> int:
    import pandas as pd

    from ..games.ubongo.sim import shortest_cycle, simulate_ubongo, summarise_ubongo
    from ..io import write_table

    _check_numbers(args)
    if args.games < 1:
        raise InputError(f"--games must be >= 1, not {args.games}")
    if args.strategy and len(args.strategy) > args.players:
        raise InputError(f"--strategy lists {len(args.strategy)} names for --players {args.players} "
                         "(give at most one per seat; a shorter list is cycled)")
    deck = _tasks(args, "classic")
    journal = games_journal(args)
    with executor_from(args) as executor, resumable(journal):
        table = simulate_ubongo(deck, args.players, args.games, args.seed, strategies=args.strategy,
                                skills=args.skills, side=args.side, all_cards=args.all_cards, timer=args.timer,
                                move_time=args.move_time, model=_model(args), executor=executor,
                                progress=show_bar(args), journal=journal, notify=notify)
    # The header says the strategies and skills as the games play them: given in full or cycled, alike, and
    # not at all when they are the defaults'.
    seats = [(args.strategy or _STRATEGY_NAMES)[p % len(args.strategy or _STRATEGY_NAMES)]
             for p in range(args.players)]
    args.strategy = None if seats == list(_STRATEGY_NAMES[:args.players]) else shortest_cycle(seats)
    args.skills = None if shortest_cycle(list(args.skills or [1.0])) == [1.0] else shortest_cycle(args.skills)
    src = "synthetic deck" if args.synthetic else (deck.source or "deck")
    say(f"{args.games} gem games, {args.players} players, {args.side} side, seed {args.seed}, tasks: {src}"
        + rule_settings_text(args))
    with pd.option_context("display.width", 120, "display.precision", 3):
        for by in (["strategy"], ["skill"], ["strategy", "skill"]):
            if by == ["strategy", "skill"] and (table["strategy"].nunique() == 1 or table["skill"].nunique() == 1):
                continue
            print()
            # A standard error needs two seats in the group: "n/a" for one (e.g. --games 1).
            print(summarise_ubongo(table, by)[["seats", "win_rate", "win_rate_se", "mean_top", "mean_total",
                                               "mean_solved"]].to_string(na_rep="n/a"))
    if args.out:
        say(f"\nwrote {write_table(table, args.out, notify=notify)} ({len(table)} rows)")
    return 0


def _run_duel(args) -> int:
    import pandas as pd

    from ..games.duel.sim import simulate_duel, summarise_duel
    from ..io import write_table

    _check_numbers(args)
    if args.games < 1:
        raise InputError(f"--games must be >= 1, not {args.games}")
    from ..games.duel.state import orange_fields_argument

    # A board's orange fields are a set (UD-7): said as the set, in order, however they were given.
    args.orange = sorted(orange_fields_argument(args.orange))
    deck = _tasks(args, "duel")
    if args.sweep:
        return _run_sweep(args, deck)
    journal = games_journal(args)
    with executor_from(args) as executor, resumable(journal):
        table = simulate_duel(deck, args.games, args.skill_a, args.skill_b, args.seed, side=args.side,
                              handicap=args.handicap, orange_fields=args.orange, model=_model(args),
                              executor=executor, progress=show_bar(args), journal=journal, notify=notify)
    src = "synthetic deck" if args.synthetic else (deck.source or "deck")
    say(f"{args.games} Duel matches, side {args.side}, seed {args.seed}, tasks: {src}" + rule_settings_text(args))
    with pd.option_context("display.width", 120, "display.precision", 3):
        print(summarise_duel(table).to_string())
        print()
        print("final scores (loser's points):")
        loser = table[["score_a", "score_b"]].min(axis=1)
        print(loser.value_counts().sort_index().rename_axis("loser_points").rename("matches").to_string())
    if args.out:
        say(f"\nwrote {write_table(table, args.out, notify=notify)} ({len(table)} rows)")
    return 0
