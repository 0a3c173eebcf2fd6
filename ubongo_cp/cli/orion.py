"""``ubongo-cp orion play|analyze|tournament``: the Orion Duel command line.

Heavy modules (the engine, CP-SAT, pandas) are imported inside the run
functions, so building the parser stays cheap.
"""

from __future__ import annotations

import argparse

from .common import add_executor_arguments, add_progress_argument, executor_from

__all__ = ["add_parsers"]


def add_parsers(subparsers) -> argparse.ArgumentParser:
    """Add ``orion`` with sub-commands ``play``, ``analyze``, ``tournament`` to ``subparsers``."""
    orion = subparsers.add_parser("orion", help="Orion Duel: play, analyse and compare agents",
                                  description="Orion Duel (RULES.md section 4).")
    sub = orion.add_subparsers(dest="orion_command", required=True, metavar="ACTION")

    play = sub.add_parser("play", help="play one game between two agents and print/save it")
    play.add_argument("--p0", default="greedy", help="agent of player 0: random, greedy, sat "
                      "(default greedy)")
    play.add_argument("--p1", default="random", help="agent of player 1 (default random)")
    play.add_argument("--seed", type=int, default=0, help="seed of the layout and the agents")
    play.add_argument("--first", type=int, choices=(0, 1), default=0, help="player who moves first")
    play.add_argument("--save", metavar="GAME.json", help="write the game record (JSON)")
    play.add_argument("--picture", metavar="PNG", help="draw the final position")
    play.add_argument("--moves", action="store_true", help="list every move")
    play.set_defaults(func=_run_play)

    an = sub.add_parser("analyze", help="analyse every position of a game record")
    an.add_argument("record", metavar="GAME.json")
    an.add_argument("--time-limit", type=float, default=2.0,
                    help="seconds per question (default 2)")
    an.add_argument("--every", type=int, default=1, help="analyse every N-th position")
    an.add_argument("--galaxies", action="store_true", help="also compute the W2 distance")
    an.set_defaults(func=_run_analyze)

    tour = sub.add_parser("tournament", help="agents play each other; win rates with 95%% CIs")
    tour.add_argument("--games", type=int, default=20, help="games per pairing (default 20)")
    tour.add_argument("--agents", default="random,greedy",
                      help="comma-separated agents (default random,greedy)")
    tour.add_argument("--seed", type=int, default=0)
    tour.add_argument("--out", metavar="FILE", help="write the per-game table (.csv or .parquet)")
    tour.add_argument("--no-self-play", action="store_true", help="skip an agent against itself")
    add_executor_arguments(tour)
    add_progress_argument(tour)
    tour.set_defaults(func=_run_tournament)
    return orion


def _run_play(args) -> int:
    from ..games.base import play_game
    from ..games.orion.agents import make_agent
    from ..games.orion.engine import OrionState, random_setup
    from ..games.orion.records import save_record

    agents = [make_agent(args.p0, args.seed * 2 + 1), make_agent(args.p1, args.seed * 2 + 2)]
    state = OrionState(random_setup(args.seed, first_player=args.first))
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
        print(f"record written to {args.save}")
    if args.picture:
        from ..games.orion.render import draw
        hl = [h for w in state.wins[state.winner] for h in w.hexes] if state.winner in (0, 1) else []
        draw(state, path=args.picture, title=f"{args.p0} (0) vs {args.p1} (1), seed {args.seed}",
             highlight=hl, highlight_label="winning chain")
        print(f"picture written to {args.picture}")
    return 0


def _run_analyze(args) -> int:
    from ..games.orion.engine import OrionState
    from ..games.orion.records import load_record
    from ..games.orion.sat import connect_distance, is_safe_connection, min_blocking_set

    final = load_record(args.record)
    state = OrionState(final.setup, final.game)
    cols = ["move", "to move", "d0 W1", "d1 W1"]
    if args.galaxies:
        cols += ["d0 W2", "d1 W2"]
    cols += ["block0", "block1", "safe0", "safe1"]
    print(" | ".join(cols))
    print(" | ".join("-" * len(c) for c in cols))

    def fmt(r):
        if r.tiles is None:
            return "-" if r.status == "unreachable" else "?"
        return f"{r.tiles}" + ("" if r.status in ("optimal", "already") else "?")

    for k in range(len(final.history) + 1):
        if k % max(1, args.every) == 0 or k == len(final.history):
            row = [str(k), str(state.current_player()) if not state.is_terminal() else "end"]
            tl = args.time_limit
            row += [fmt(connect_distance(state, p, "sides", time_limit=tl)) for p in (0, 1)]
            if args.galaxies:
                row += [fmt(connect_distance(state, p, "galaxies", time_limit=tl)) for p in (0, 1)]
            for p in (0, 1):
                b = min_blocking_set(state, p, time_limit=tl)
                if b.hexes is None:
                    row.append("won" if b.status == "already" else "?")
                else:
                    row.append(f"{len(b.hexes)}" + ("" if b.status == "optimal" else "?"))
            if state.is_terminal():
                row += ["-", "-"]
            else:
                for p in (0, 1):
                    try:
                        row.append("yes" if is_safe_connection(state, p, time_limit=tl).safe else "no")
                    except TimeoutError:
                        row.append("?")
            print(" | ".join(row))
        if k < len(final.history):
            state.apply_action(final.history[k])
    res = "draw" if final.winner == -1 else f"player {final.winner} wins"
    print(f"result: {res} ({final.end_rule}) after {len(final.history)} moves")
    print("d = fewest tiles to W1/W2 if the opponent passes (- unreachable, ? time limit); "
          "block = fewest opponent hexes that stop W1 (? = best found, not proved); safe = no single opponent move stops W1")
    return 0


def _run_tournament(args) -> int:
    from ..errors import InputError
    from ..games.orion.agents import AGENTS
    from ..games.orion.study import end_conditions, first_player_advantage, run_tournament, win_rates

    names = [a.strip() for a in args.agents.split(",") if a.strip()]
    bad = [a for a in names if a not in AGENTS]
    if bad or not names:
        raise InputError(f"unknown agent(s) {bad} (choose from {', '.join(AGENTS)})")
    if args.games < 1:
        raise InputError(f"--games must be at least 1, got {args.games}")
    with executor_from(args) as executor:
        df = run_tournament(names, args.games, seed=args.seed, self_play=not args.no_self_play,
                            executor=executor, progress=not args.no_progress)
    if args.out:
        from ..io import atomic_path

        with atomic_path(args.out) as tmp:
            if args.out.endswith(".parquet"):
                df.to_parquet(tmp, index=False)
            else:
                df.to_csv(tmp, index=False)
        print(f"per-game table written to {args.out} ({len(df)} rows)")
    fmt = {"rate": "{:.3f}".format, "ci_low": "{:.3f}".format, "ci_high": "{:.3f}".format,
           "first_mover_rate": "{:.3f}".format, "share": "{:.3f}".format,
           "mean_length": "{:.1f}".format}
    print("\nPoints rate per agent and opponent (draw = 1/2), 95% Wilson CI:")
    print(win_rates(df).to_string(index=False, formatters=fmt))
    print("\nFirst-mover points rate:")
    print(first_player_advantage(df).to_string(index=False, formatters=fmt))
    print("\nHow games ended (winner's conditions for OD-5):")
    print(end_conditions(df).to_string(index=False, formatters=fmt))
    return 0
