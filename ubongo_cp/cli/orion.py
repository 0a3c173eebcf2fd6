"""``ubongo-cp orion play|analyze|tournament``: the Orion Duel command line.

Heavy modules (the engine, CP-SAT, pandas) are imported inside the run
functions, so building the parser stays cheap.
"""

from __future__ import annotations

import argparse
import os

from .common import say, show_bar, add_executor_arguments, add_games_out, add_progress_argument, comma_names, \
    confirmed, executor_from, fixed_suffixes, games_journal, notify, output_kinds, resumable

__all__ = ["add_parsers"]

_TILES_HELP = ("tile set: published (default: the published game's tiles), seed (the original rule text's sentence "
               "read literally: every tile 2 own hexes + 1 opponent hex) or a tile-set FILE "
               "(format: as `ubongo-cp examples orion/published` shows); a shipped set's name is the shipped set: "
               "./NAME reads a file")
_SPACING_HELP = ("OD-1 token spacing: default (galaxies >= 3 apart, black holes >= 3 apart and "
                 ">= 2 from a galaxy) or literal (the original rule text's words: >= 3, >= 2, >= 1)")


def add_parsers(subparsers) -> argparse.ArgumentParser:
    """Add ``orion`` with sub-commands ``play``, ``analyze``, ``tournament`` to ``subparsers``."""
    orion = subparsers.add_parser("orion", help="Orion Duel: play, analyse and compare agents",
                                  description="Orion Duel, a hex connection game for two (rules OD-1..OD-7).")
    sub = orion.add_subparsers(dest="orion_command", required=True, metavar="ACTION")

    play = sub.add_parser("play", help="play one game between two agents and print/save it",
                          description="Play one game of Orion Duel between two agents on a random layout "
                                      "drawn from --seed; print the final position and its result, and "
                                      "optionally the moves, the game record and a picture.")
    play.add_argument("--p0", default="greedy", help="agent of player 0: random, greedy, sat, analysis or mcts "
                      "(default greedy)")  # the names of games.orion.agents.AGENTS (a test keeps them equal)
    play.add_argument("--p1", default="random", help="agent of player 1 (default random)")
    play.add_argument("--seed", type=int, default=0, help="seed of the layout and the agents (default 0)")
    play.add_argument("--first", type=int, choices=(0, 1), default=0,
                      help="player who moves first (default 0; OD-1 lets the galaxy player choose)")
    _add_variant_arguments(play)
    play.add_argument("--save", metavar="GAME.json", help="write the game record (JSON)")
    play.add_argument("--picture", metavar="PNG", help="draw the final position (.png, .svg or .pdf)")
    fixed_suffixes(play, picture="drawing")
    output_kinds(play, save=_record_kind)
    play.add_argument("--moves", action="store_true", help="list every move")
    play.set_defaults(func=_run_play)

    an = sub.add_parser("analyze", help="analyse every position of a game record",
                        description="Per position: each player's fewest tiles to W1 and W2, the "
                        "fewest free hexes that stop its W1, and whether its W1 is safe against "
                        "any single opponent move; exact under the rules OD-2...OD-5. "
                        "The tile set and rules come from the record.")
    an.add_argument("record", metavar="GAME.json")
    an.add_argument("--time-limit", type=float, default=2.0,
                    help="seconds per question (default 2)")
    an.add_argument("--every", type=int, default=1, help="analyse every N-th position")
    an.add_argument("--pictures", metavar="DIR",
                    help="write one PNG per analysed position (move_NN.png), blocking sets outlined")
    an.set_defaults(func=_run_analyze)

    tour = sub.add_parser("tournament", help="agents play each other; win rates with 95%% CIs",
                          description="Every pairing of the agents plays --games games (seats alternate, a "
                                      "fresh layout each game); print each agent's points rate against each "
                                      "opponent with a 95% Wilson interval, the first mover's points rate and "
                                      "how the games ended.")
    tour.add_argument("--games", type=int, default=20,
                      help="games per pairing (default 20); with --out, a run of more games resumes the journal of "
                      "fewer (playing only the missing ones) and one of fewer takes its games from it")
    tour.add_argument("--agents", default="random,greedy",
                      help="comma-separated agents (default random,greedy)")
    tour.add_argument("--seed", type=int, default=0,
                      help="master seed of the layouts and the agents (default 0; the same seed plays the "
                           "same games)")
    _add_variant_arguments(tour)
    add_games_out(tour)
    tour.add_argument("--no-self-play", action="store_true", help="skip an agent against itself")
    tour.add_argument("--yes", action="store_true",
                      help="play a tournament estimated to need more than 24 CPU-hours (refused without it)")
    add_executor_arguments(tour)
    add_progress_argument(tour)
    tour.set_defaults(func=_run_tournament)
    return orion


def _add_variant_arguments(parser) -> None:
    parser.add_argument("--tiles", default="published", metavar="published|seed|FILE",
                        help=_TILES_HELP)
    parser.add_argument("--spacing", choices=("default", "literal"), default="default",
                        help=_SPACING_HELP)


def _game(args):
    """The game variant named by ``--tiles`` and ``--spacing``."""
    from ..games.orion.setup import SetupRules
    from ..games.orion.state import OrionGame
    from ..games.orion.tiles import SHIPPED_TILE_SETS, load_tiles
    from .common import notify

    import os

    from ..errors import InputError

    rules = SetupRules.literal() if args.spacing == "literal" else SetupRules()
    if args.tiles in SHIPPED_TILE_SETS and os.path.isfile(args.tiles):
        notify(f"note: --tiles {args.tiles} reads the shipped set; give ./{args.tiles} to read the file of that name "
               "here")
    tiles = load_tiles(args.tiles)
    try:
        return OrionGame.get(None, tiles, rules)
    except InputError as exc:  # name the file the tiles came from
        if exc.path is None and args.tiles not in SHIPPED_TILE_SETS and os.path.isfile(args.tiles):
            raise InputError(exc.message, path=args.tiles) from None
        raise


def _run_play(args) -> int:
    from ..games.base import play_game
    from ..games.orion.agents import make_agent
    from ..games.orion.records import save_record
    from ..games.orion.setup import random_setup
    from ..games.orion.state import OrionState

    game = _game(args)
    agents = [make_agent(args.p0, args.seed * 2 + 1), make_agent(args.p1, args.seed * 2 + 2)]
    state = OrionState(random_setup(args.seed, game.board, first_player=args.first,
                                    rules=game.rules), game)
    play_game(state, agents)
    if args.moves:
        replay = OrionState(state.setup, state.game)
        for k, a in enumerate(state.history, 1):
            print(f"{k:2d}. player {replay.current_player()}: {replay.action_to_string(a)}")
            replay.apply_action(a)
    print(state)
    for p in (0, 1):
        for w in state.wins[p]:
            print(f"  witness {w.condition} of player {p}: {' '.join(f'({q},{r})' for q, r in w.hexes)}")
    if args.save:
        save_record(state, args.save, players=[args.p0, args.p1])
        say(f"record written to {args.save}")
    if args.picture:
        from ..games.orion.render import draw
        from ..io import atomic_path

        hl = [h for w in state.wins[state.winner] for h in w.hexes] if state.winner in (0, 1) else []
        with atomic_path(args.picture, suffix=os.path.splitext(args.picture)[1]) as tmp:  # the format by the name
            draw(state, path=tmp, title=f"{args.p0} (0) vs {args.p1} (1), seed {args.seed}",
                 highlight=hl, highlight_label="winning chain")
        say(f"picture written to {args.picture}")
    return 0


def _run_analyze(args) -> int:
    import os
    from contextlib import nullcontext

    from ..games.orion.pie import PieOrionState
    from ..games.orion.records import load_record
    from ..outputs import OutputFolder

    loaded = load_record(args.record)
    final = loaded.inner if isinstance(loaded, PieOrionState) else loaded   # the colours' game is analysed
    swapped = isinstance(loaded, PieOrionState) and loaded.swapped
    # The pictures folder: locked, one record's pictures, and no file of another origin replaced.
    with (OutputFolder(args.pictures, "orion analyze", source=os.path.realpath(args.record),
                       guarded=lambda name: True)
          if args.pictures else nullcontext()) as pictures:
        if pictures is not None:
            pictures.check([_picture_name(move) for move in range(len(final.history) + 1)])
        return _analyze(args, final, pictures, swapped)


def _picture_name(move: int) -> str:
    return f"move_{move:02d}.png"


#: The columns of ``orion analyze``: header and width (values are right-aligned, the last column left-aligned).
_ANALYZE_COLUMNS = [("move", 4), ("to move", 7), ("d0 W1", 5), ("d1 W1", 5), ("d0 W2", 5), ("d1 W2", 5),
                    ("block0 W1", 9), ("block1 W1", 9), ("safe0 W1", 8), ("safe1 W1", 8), ("safety changed", 14)]


def _table_row(cells) -> str:
    """One Markdown row of the ``orion analyze`` table, every column padded to its width."""
    last = len(_ANALYZE_COLUMNS) - 1
    return "| " + " | ".join(c.ljust(w) if i == last else c.rjust(w)
                             for i, (c, (_, w)) in enumerate(zip(cells, _ANALYZE_COLUMNS))) + " |"


def _who(p: int, swapped: bool) -> str:
    """Who holds colour ``p`` (a player of the colours' game analysed): ``player p``, or after a pie-rule swap
    (:mod:`ubongo_cp.games.orion.pie`: seat ``1 - p`` plays colour ``p``) ``colour p (seat 1 - p)``."""
    return f"colour {p} (seat {1 - p})" if swapped else f"player {p}"


def _analyze(args, final, pictures, swapped: bool = False) -> int:
    from ..games.orion.review import review_game

    if swapped:   # the columns' 0 and 1 are the colours' game's players: after the swap, not the seats
        print("pie rule: seat 1 swapped, so seat 1 plays colour 0 and seat 0 colour 1; the players below are "
              "the colours (0, 1), and the moves count tiles, the swap not among them")
    print(_table_row([name for name, _ in _ANALYZE_COLUMNS]))
    print("| " + " | ".join(("-" * (w - 1) + ":") if i < len(_ANALYZE_COLUMNS) - 1 else "-" * w
                            for i, (_, w) in enumerate(_ANALYZE_COLUMNS)) + " |")

    def show(rev) -> None:
        s = rev.state
        row = [str(rev.move), "end" if s.is_terminal() else str(s.current_player())]
        row += [_distance(rev.distance[(p, g)]) for g in ("sides", "galaxies") for p in (0, 1)]
        row += [_blocking(b) for b in rev.blocking]
        row += [_safety(f) for f in rev.safety]
        changes = [f"{p}: {'now safe' if rev.safety[p].safe else 'no longer safe'}"
                   for p in (0, 1) if rev.changed[p]]
        row.append("; ".join(changes))
        print(_table_row(row), flush=True)
        if pictures is not None:
            pictures.claim([_picture_name(rev.move)])
            _picture(rev, pictures.path, swapped)

    review_game(final, every=args.every, time_limit=args.time_limit, progress=show)
    if final.winner is None:   # a record of a game not over: no winner, no rule that ended it
        print(f"result: game not over after {len(final.history)} moves, {_who(final.current_player(), swapped)} "
              "to move")
    else:
        res = "draw" if final.winner == -1 else f"{_who(final.winner, swapped)} wins"
        print(f"result: {res} ({final.end_rule}) after {len(final.history)} moves")
    print("d = fewest own tiles (a count of tiles) to W1/W2 if the opponent passes (0: fulfilled now, "
          "- unreachable or game over, ? time limit, n? = plan of n tiles found, fewer not excluded); "
          "block = fewest free hexes (a count of hexes) that stop W1 (done: W1 fulfilled now, - game over, "
          "? time limit, n? = best found, not proved); safe = W1 survives every single opponent move "
          "(done: W1 fulfilled now, - unreachable or game over, ? time limit)")
    if pictures is not None:
        say(f"pictures written to {pictures.path}")
    return 0


def _distance(r) -> str:
    if r.status == "already":
        return "0"
    if r.tiles is None:
        return "-" if r.status in ("unreachable", "over") else "?"
    return f"{r.tiles}" + ("" if r.status == "optimal" else "?")


def _blocking(b) -> str:
    if b.status in ("already", "over"):
        return "done" if b.status == "already" else "-"
    if b.hexes is None:
        return "?"
    return f"{len(b.hexes)}" + ("" if b.status == "optimal" else "?")


def _safety(f) -> str:
    return {"safe": "yes", "refuted": "no", "unreachable": "-", "already": "done",
            "over": "-", "unknown": "?"}[f.status]


def _picture(rev, directory, swapped: bool = False) -> None:
    """One PNG of a reviewed position, the two players' W1 blocking sets outlined."""
    from ..games.orion.render import PLAYER_COLOURS, draw
    from ..io import atomic_path

    s = rev.state
    groups = {}
    for p in (0, 1):
        b = rev.blocking[p]
        if b.hexes:
            groups[f"stops {_who(p, swapped)}'s W1 ({len(b.hexes)}{'' if b.status == 'optimal' else '?'})"] = \
                (b.hexes, PLAYER_COLOURS[p])
    d = [_distance(rev.distance[(p, "sides")]) for p in (0, 1)]
    title = (f"after move {rev.move}" if rev.move else "start") + \
        f": W1 distance {d[0]} ({_who(0, swapped)}), {d[1]} ({_who(1, swapped)}); safe {_safety(rev.safety[0])}/" \
        f"{_safety(rev.safety[1])}"
    with atomic_path(directory / _picture_name(rev.move)) as tmp:
        draw(s, path=tmp, title=title, highlight=groups)


def _run_tournament(args) -> int:
    from ..errors import MAX_JOB_CPU_SECONDS, InputError
    from ..games.orion.agents import AGENTS
    from ..games.orion.sim import end_conditions, first_player_advantage, run_tournament, win_rates

    names = comma_names(args.agents, "--agents")
    bad = [a for a in names if a not in AGENTS]
    if not names:
        raise InputError(f"--agents names no agent (give some of {', '.join(AGENTS)}, comma-separated)")
    if bad:
        raise InputError(f"--agents: unknown agent(s) {', '.join(map(repr, bad))} (choose from {', '.join(AGENTS)})")
    if args.games < 1:
        raise InputError(f"--games must be at least 1, got {args.games}")
    game = _game(args)
    journal = games_journal(args)
    with executor_from(args) as executor, confirmed(args.yes), resumable(journal):
        df = run_tournament(names, args.games, seed=args.seed, self_play=not args.no_self_play,
                            executor=executor, progress=show_bar(args), game=game,
                            max_cpu_seconds=None if args.yes else MAX_JOB_CPU_SECONDS, journal=journal,
                            notify=notify)
    if args.out:
        from ..io import write_table

        say(f"per-game table written to {write_table(df, args.out, notify=notify)} ({len(df)} rows)")
    three = "{:.3f}".format
    fmt = {"rate": three, "ci_low": three, "ci_high": three, "first_mover_rate": three,
           "share": three, "mean_length": "{:.1f}".format}
    print("\nPoints rate per agent and opponent (draw = 1/2), 95% Wilson CI "
          "(none for self-play, 1/2 by construction):")
    print(win_rates(df).to_string(index=False, formatters=fmt, na_rep="-"))
    print("\nFirst-mover points rate:")
    print(first_player_advantage(df).to_string(index=False, formatters=fmt))
    print("\nHow games ended (winner's conditions for OD-5):")
    print(end_conditions(df).to_string(index=False, formatters=fmt))
    return 0


def _record_kind(args: argparse.Namespace) -> tuple[str, str]:
    """What ``play --save`` writes (:func:`.common.output_kinds`)."""
    from ..games.orion.records import FORMAT

    return ".json", FORMAT
