"""``ubongo-cp simulate domino``: simulate or replay games of Domino, nezlob se!

Heavy modules (pandas, matplotlib) are imported inside the run function.
"""

from __future__ import annotations

import argparse

from ..errors import InputError

from .common import (as_option, say, show_bar, add_executor_arguments, add_games_out, add_progress_argument, comma_names,
                     executor_from, fixed_suffixes, games_journal, notify, only_with, output_kinds, resumable,
                     rule_settings, rule_settings_text)

__all__ = ["add_parsers", "run_simulate_domino"]

_AGENT_NAMES = ("random", "greedy", "careful", "lookahead")
#: Options of a simulation run; --replay takes none of them.
_SIMULATION_OPTIONS = ("players", "games", "agents", "seed", "rotate_seats", "out", "plot", "record",
                       "executor", "jobs", "scheduler", "domino_set", "first_player", "must_attach",
                       "eliminated_field_blocked", "all_out_winner", "stall_ties", "stall_distance", "max_rounds")


def add_parsers(simulate_subparsers) -> None:
    """Add the ``domino`` sub-command to the ``simulate`` sub-parsers."""
    p = simulate_subparsers.add_parser(
        "domino",
        help="simulate Domino, nezlob se! games (rules DN-1..DN-12) or replay a game record",
        description="Play seeded games of Domino, nezlob se! with the given agents, write one row "
                    "per game, print end reasons and win rates by seat and agent with 95% Wilson "
                    "intervals; or replay and check a JSON game record (--replay).")
    p.add_argument("--players", type=int, default=4, help="2, 3 or 4 players (default 4)")
    p.add_argument("--games", type=int, default=1000,
                   help="number of games (default 1000); with --out, a run of more games resumes the journal of "
                   "fewer (playing only the missing ones) and one of fewer takes its games from it")
    p.add_argument("--agents", default="random",
                   help="agent per seat, comma-separated, or one name for every seat "
                        f"({', '.join(_AGENT_NAMES)}; default random)")
    p.add_argument("--seed", type=int, default=0, help="seed of the run (default 0)")
    p.add_argument("--rotate-seats", action="store_true",
                   help="rotate the agent list by one seat per game (fair agent comparison)")
    add_games_out(p)
    p.add_argument("--plot", metavar="FILE.png", help="save a histogram of game lengths")
    fixed_suffixes(p, plot="png")
    p.add_argument("--record", metavar="GAME.json", help="save the JSON record of game 0")
    output_kinds(p, record=_record_kind)
    p.add_argument("--replay", metavar="GAME.json",
                   help="replay and check a game record instead of simulating")
    p.add_argument("--show-moves", action="store_true", help="with --replay: print every move")
    only_with(p, "--show-moves", lambda a: a.replay, "goes with --replay")
    add_progress_argument(p)
    add_executor_arguments(p)
    rules = p.add_argument_group("rule settings (the decisions on what the rules DN-1..DN-12 leave open)")
    rules.add_argument("--domino-set", choices=("double-five", "one-to-six"), default="double-five",
                       help="the 21 dominoes: double-five, 0-0 to 5-5 (default), or one-to-six, 1-1 to 6-6")
    rules.add_argument("--first-player", type=int, default=0, metavar="SEAT",
                       help="seat that plays first, 0 to players-1 (DN-1; default 0)")
    rules.add_argument("--must-attach", action="store_true",
                       help="a player who can attach must (default: may always decline)")
    rules.add_argument("--eliminated-field-blocked", action="store_true",
                       help="a fallen pawn keeps blocking its field (default: the field is free)")
    rules.add_argument("--all-out-winner", choices=("nobody", "last_out"), default="nobody",
                       help="who wins when every pawn fell off the path (DN-11): nobody (default) or the last "
                            "pawn to fall off")
    rules.add_argument("--stall-ties", choices=("share", "nobody"), default="share",
                       help="pawns equally near Domina when the game stalls (DN-12): share the win (default) or "
                            "nobody wins; only --stall-distance free_fields can make two pawns equally near")
    rules.add_argument("--stall-distance", choices=("fields", "free_fields"), default="fields",
                       help="DN-12 nearness: fields along the path, counting those that hold other pawns "
                            "(default), or only the free fields a move counts (DN-8)")
    rules.add_argument("--max-rounds", type=int, default=500,
                       help="engine bound on rounds, not a rule (default 500)")
    only_with(p, "--stall-ties", lambda a: a.stall_distance == "free_fields",
              "decides between pawns equally near Domina, and only --stall-distance free_fields makes two equally "
              "near", note=True)
    only_with(p, "--rotate-seats", lambda a: len(set(_agent_names(a.agents))) > 1,
              "has no effect when every seat plays the same agent", note=True)
    rule_settings(p, {"domino_set": "DN-1", "first_player": "DN-1", "must_attach": "DN-4",
                      "eliminated_field_blocked": "DN-11", "all_out_winner": "DN-11", "stall_ties": "DN-12",
                      "stall_distance": "DN-12", "max_rounds": None})
    p.set_defaults(func=run_simulate_domino,
                   simulation_defaults={name: p.get_default(name) for name in _SIMULATION_OPTIONS})


def _agent_names(text: str) -> list[str]:
    """The agents of ``--agents``: its comma-separated names (:func:`~ubongo_cp.cli.common.comma_names`)."""
    return comma_names(text, "--agents")


def run_simulate_domino(args: argparse.Namespace) -> int:
    """Run ``simulate domino``; returns the exit status.

    Raises
    ------
    InputError
        Bad player count, agent list, output suffix, or game record.
    """
    if args.replay:
        defaults = getattr(args, "simulation_defaults", {})
        given = [name for name, value in defaults.items() if getattr(args, name) != value]
        if given:
            raise InputError(f"--replay replays a record and takes no simulation options (given: "
                             f"{', '.join('--' + name.replace('_', '-') for name in given)})")
        return _replay(args)
    from ..games.base import save_record
    from ..games.domino.sim import play_one, plot_lengths, simulate, summary_text
    from ..games.domino.state import DominoSettings

    try:
        settings = DominoSettings(
            num_players=args.players, domino_set=args.domino_set, first_player=args.first_player,
            may_decline=not args.must_attach, eliminated_field_free=not args.eliminated_field_blocked,
            all_out_winner=args.all_out_winner, stall_ties=args.stall_ties,
            stall_distance=args.stall_distance, max_rounds=args.max_rounds)
    except InputError as exc:   # a setting, named as its option
        named = as_option(exc, {"num_players": "--players", "first_player": "--first-player",
                                "max_rounds": "--max-rounds"})
        if named is None:
            raise
        raise named from None
    agents = _agent_names(args.agents)
    for a in agents:
        if a not in _AGENT_NAMES:
            raise InputError(f"--agents: unknown agent {a!r} (choose from {', '.join(_AGENT_NAMES)})")
    if len(agents) == 1:
        agents = agents * args.players
    if len(agents) != args.players:
        raise InputError(f"--agents lists {len(agents)} agents for --players {args.players} "
                         "(give one name or one per seat)")
    if args.games < 1:
        raise InputError(f"--games must be at least 1, got {args.games}")
    journal = games_journal(args)
    with executor_from(args) as executor, resumable(journal):
        df = simulate(agents, args.games, seed=args.seed, settings=settings, rotate_seats=args.rotate_seats,
                      progress=show_bar(args), executor=executor, journal=journal, notify=notify)
    header, rest = summary_text(df).split("\n", 1)   # the run's header line, then the tables
    print(header + rule_settings_text(args))
    print(rest)
    if args.out:
        from ..io import write_table

        say(f"wrote {len(df)} rows to {write_table(df, args.out, notify=notify)}")
    if args.plot:
        plot_lengths(df, args.plot)
        say(f"wrote {args.plot}")
    if args.record:
        seating = df.loc[0, "agents"].split(",")
        _, state = play_one(seating, int(df.loc[0, "seed"]), settings)
        save_record(state, args.record, players=seating)
        say(f"wrote the record of game 0 ({len(state.history)} moves) to {args.record}")
    return 0


def _replay(args: argparse.Namespace) -> int:
    from ..games.base import load_record
    from ..games.domino.state import DominoState

    def show(n, state, action):
        print(f"{n:4d}  round {state.round:3d}  player {state.cur}  {state.action_to_string(action)}")

    state = load_record(args.replay, game=DominoState, on_move=show if args.show_moves else None)
    print(state)
    if state.is_terminal():
        print(f"replayed {len(state.history)} moves: {state.end_reason}, returns {state.returns()}")
    else:
        print(f"replayed {len(state.history)} moves: game not over")
    return 0


def _record_kind(args: argparse.Namespace) -> tuple[str, str]:
    """What ``--record`` writes (:func:`.common.output_kinds`)."""
    from ..games.domino.records import RECORD_FORMAT

    return ".json", RECORD_FORMAT
