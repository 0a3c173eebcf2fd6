"""The Orion Duel tile-set study: the published set against the seed set, from two tournament tables.

Run the two tournaments (same seed, so both sets play the same layouts and
agent seeds), then this script::

    ubongo-cp orion tournament --games 400 --agents random,greedy --seed 2026 \\
        --tiles published --out benchmarks/out/tour_published.csv
    ubongo-cp orion tournament --games 400 --agents random,greedy --seed 2026 \\
        --tiles seed --out benchmarks/out/tour_seed.csv
    python -m benchmarks.study_orion_tiles benchmarks/out/tour_published.csv benchmarks/out/tour_seed.csv

It prints one Markdown table: per pairing and tile set the first mover's
points rate (95 % Wilson interval, :mod:`ubongo_cp.games.stats`), the mean
game length in moves, and the share of games each way of ending decides
(:func:`ubongo_cp.games.orion.sim.end_conditions`).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pandas as pd

from ubongo_cp.games.orion.sim import end_conditions, first_player_advantage

#: Columns of the table: ways a game ends (``condition`` of the tournament table).
ENDINGS = ["W1", "W2", "W3", "W1+W2", "no move", "score", "draw"]


def compare(tables: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """One row per pairing and tile set: first-mover rate, interval, length, ending shares."""
    rows = []
    for name, df in tables.items():
        fpa = first_player_advantage(df).set_index("pairing")
        for pairing in fpa.index:
            if pairing == "all":
                continue
            a, b = pairing.split(" vs ")
            games = df[((df.agent == a) & (df.opponent == b)) | ((df.agent == b) & (df.opponent == a))]
            ends = end_conditions(games).set_index("condition")["share"]
            r = fpa.loc[pairing]
            row = {"pairing": pairing, "tiles": name, "games": int(r.games),
                   "first mover": f"{r.first_mover_rate:.3f} ({r.ci_low:.3f}–{r.ci_high:.3f})",
                   "length": f"{r.mean_length:.1f}"}
            other = 1.0 - sum(float(ends.get(e, 0.0)) for e in ENDINGS)
            row.update({e: f"{float(ends.get(e, 0.0)):.3f}" for e in ENDINGS})
            row["other"] = f"{other:.3f}"
            rows.append(row)
    return pd.DataFrame(rows).sort_values(["pairing", "tiles"], kind="stable")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tables", nargs="+", metavar="TABLE.csv",
                    help="tournament tables; the tile set is named after the file (tour_<set>.csv)")
    args = ap.parse_args(argv)
    tables = {Path(t).stem.removeprefix("tour_"): pd.read_csv(t) for t in args.tables}
    out = compare(tables)
    print("| " + " | ".join(out.columns) + " |")
    print("|" + "---|" * len(out.columns))
    for _, r in out.iterrows():
        print("| " + " | ".join(str(v) for v in r) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
