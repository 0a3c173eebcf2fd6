"""Every answer checked: solutions verified independently, answers compared with the expected one and across solvers.

A run's answer is *wrong* when

- a solution it gave fails the independent check
  (:func:`ubongo_cp.verify.verify_solution` for a polyomino instance,
  re-derived from the piece shapes; :func:`ubongo_cp.exactcover.verify_cover`
  for a matrix), or its listing disagrees with its own count;
- it differs from the suite's expected answer;
- with no expected answer, it is refuted by the solutions other runs gave
  on the same instance and question, each verified independently: it found
  no solution, or counts fewer than a run listed (``solutions_checked``);
- with no expected answer, it differs from what most of the other solvers
  answered (each solver votes with its most common answer over its
  repeats).

With no expected answer and no majority, the runs that still differ are
not wrong but *disagree* (``disagree``): none of them is verified right.
A wrong run, or one that disagrees, never counts as solved
(:mod:`ubongo_cp.bench.report`). The answer compared is
solvable or not (``first``), the count (``count``), or the count, the
number of tiling subsets and a hash of every subset's count (``analyze``).
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from typing import Any, Sequence

from ..io import text_lines
from ..status import Status

__all__ = ["check_solution", "subsets_digest", "external_answer", "expected_mismatch", "answer_key", "finalize"]

#: At most this many listed solutions of one run are verified one by one (all are counted and merged).
MAX_VERIFIED = 20_000


def check_solution(built, solution) -> str | None:
    """Independent check of one solution; ``None`` if valid, else the reason.

    ``solution`` is piece copy -> cells for a polyomino instance, a list of
    option ids for a matrix.
    """
    if built.pieces is None:
        from ..exactcover import verify_cover

        if not isinstance(solution, list):
            return "a solution of a matrix must be a list of options"
        return verify_cover(built.instance, solution)
    from ..verify import verify_solution

    if not isinstance(solution, dict):
        return "a solution must map pieces to cells"
    cells: dict[str, Sequence[tuple[int, ...]]] = {
        str(key): [tuple(int(v) for v in c) for c in value] for key, value in solution.items()}
    return verify_solution(built.pieces, built.region, cells, mode=built.instance.mode,
                           optional_pieces=built.instance.optional_pieces)


def subsets_digest(subset_counts: dict[str, int]) -> str:
    """A short hash of an analysis: every tiling subset (piece names, space-separated) with its count."""
    text = json.dumps(sorted(subset_counts.items()))
    return hashlib.sha1(text.encode()).hexdigest()[:12]


def external_answer(built, knuth, reply, question: str, k: int | None) -> dict[str, Any]:
    """Turn an adapter's :class:`~.external.Reply` into an answer like :func:`.worker.answer`'s.

    Solutions are mapped back to the instance's options (through the written
    file, ``knuth``, or the CNF's option variables), merged when the plain
    format's copies of identical pieces repeat them, and checked.

    Returns
    -------
    dict
        ``status``, ``count``, ``subsets``, ``subset_counts``, ``verified``
        (a listed solution was checked and all checked were valid),
        ``solutions_checked`` (how many distinct solutions were checked, when
        all were valid),
        ``invalid`` (why the answer contradicts itself or a solution fails
        the check) and ``error`` (the output could not be used).
    """
    if reply.error:
        return {"status": Status.ERROR, "error": reply.error}
    if question != "first" and not reply.counts_all:
        return {"status": Status.ERROR, "error": "the program answers satisfiability only; it cannot count"}
    factor = knuth.copies_factor if knuth is not None else 1
    solutions, unknown = _map_solutions(built, knuth, reply)
    out: dict[str, Any] = {"verified": None, "invalid": None}
    if unknown:
        out["invalid"] = f"a solution names an option not in the instance ({unknown})"
    checked = []
    for options in solutions[:MAX_VERIFIED]:
        if built.pieces is not None:
            placed = built.instance.solution_dict(options)
            checked.append(check_solution(built, {key: [list(c) for c in cells] for key, cells in placed.items()}))
        else:
            checked.append(check_solution(built, list(options)))
    if checked:
        bad = [c for c in checked if c is not None]
        out["verified"] = not bad
        out["solutions_checked"] = 0 if bad else len(checked)
        if bad and not out["invalid"]:
            out["invalid"] = f"invalid solution: {bad[0]}"
    if question == "first":
        solvable = (reply.count or 0) > 0 or bool(solutions)
        return {**out, "status": Status.SOLVED if solvable else Status.NO_SOLUTION, "count": int(solvable)}
    if question == "analyze":
        if reply.count is not None and len(solutions) < reply.count // factor:
            return {**out, "status": Status.ERROR,
                    "error": f"the program listed {len(solutions)} of its {reply.count} solutions; 'analyze' "
                             "needs every one (Knuth's programs: m1)"}
        counts: Counter = Counter()
        names = [built.instance.type_piece(t).name for t in range(built.instance.n_types)]
        for options in solutions:
            if len(options) == k:
                counts[" ".join(sorted((names[int(built.instance.option_type[o])] for o in options),
                                       key=names.index))] += 1
        subsets = dict(counts)
        return {**out, "status": Status.SOLVED if subsets else Status.NO_SOLUTION, "count": sum(subsets.values()),
                "subsets": len(subsets), "subset_counts": subsets}
    count = reply.count if reply.count is not None else len(solutions)
    if count % factor:
        out["invalid"] = out["invalid"] or (f"count {count} of the plain-format file is not a multiple of {factor}, "
                                            "the orderings of identical pieces")
    count //= factor
    if len(solutions) > count and not out["invalid"]:  # a program may list fewer (e.g. every m-th)
        out["invalid"] = f"lists {len(solutions)} distinct solutions but counts {count}"
    status = Status.SOLVED if count else Status.NO_SOLUTION
    if not reply.complete:
        return {**out, "status": Status.TIMEOUT, "count": None, "error": "the program stopped early"}
    return {**out, "status": status, "count": count}


def _map_solutions(built, knuth, reply) -> tuple[list[tuple[int, ...]], str | None]:
    """The reply's solutions as sorted tuples of instance option ids, each once; and an option not found.

    A solution that names the same items twice (options written alike, which an item with bounds lets a
    cover choose together) gets the lines of that text in turn, so that it is not read as one option
    chosen twice.
    """
    n = built.instance.n_options
    lookup: dict[frozenset, list[int]] = {}
    lines: list[int] = []
    if knuth is not None:
        lines = knuth.option_of_line
        rows = [ln for ln in text_lines(knuth.text) if ln.strip() and not ln.lstrip().startswith("|")][1:]
        for j, row in enumerate(rows):
            names = row.split()
            for key in {frozenset(names), frozenset(name[:8] for name in names)}:  # Knuth's programs print 8
                lookup.setdefault(key, []).append(j)
    out: dict[tuple[int, ...], None] = {}
    for solution in reply.solutions:
        options = []
        taken: Counter = Counter()
        for option in solution:
            if reply.kind == "vars":
                if 0 < option <= n:
                    options.append(option - 1)
                continue
            found = option - 1 if reply.kind == "lines" else _next_line(lookup, frozenset(option), taken)
            if found is None or not 0 <= found < len(lines):
                return [], f"option number {option}" if reply.kind == "lines" else " ".join(option)
            options.append(lines[found])
        out.setdefault(tuple(sorted(options)), None)
    return list(out), None


def _next_line(lookup: dict, key: frozenset, taken: Counter) -> int | None:
    """The next line written as ``key`` not yet taken by this solution (the last one again when all are)."""
    found = lookup.get(key)
    if not found:
        return None
    taken[key] += 1
    return found[min(taken[key], len(found)) - 1]


def expected_mismatch(question: str, expected: int | None, expected_subsets: int | None, count, subsets) -> str | None:
    """How a definite answer differs from the expected one; ``None`` when it agrees or nothing is expected.

    Examples
    --------
    >>> expected_mismatch("count", 92, None, 91, None)
    'count 91, expected 92'
    >>> expected_mismatch("first", 0, None, 1, None)
    'found a solution, expected none'
    """
    if question == "first":
        if expected is None or count is None or (count > 0) == (expected > 0):
            return None
        return "found a solution, expected none" if count else "found no solution, expected one"
    problems = []
    if expected is not None and count is not None and int(count) != expected:
        problems.append(f"count {int(count)}, expected {expected}")
    if question == "analyze" and expected_subsets is not None and subsets is not None and int(subsets) != expected_subsets:
        problems.append(f"{int(subsets)} tiling subsets, expected {expected_subsets}")
    return "; ".join(problems) or None


def answer_key(question: str, count, subsets, digest) -> str:
    """The answer compared across solvers: ``solvable``/``unsolvable``, the count, or count/subsets/hash."""
    if question == "first":
        return "solvable" if count else "unsolvable"
    if question == "analyze":
        return f"{int(count)} tilings in {int(subsets)} subsets #{digest}"
    return str(int(count))


def finalize(table):
    """Fill the ``wrong``, ``disagree`` and ``check`` columns of a run table (see the module docstring); returns it.

    A run is judged when it gave a definite answer (status ``solved`` or
    ``no solution``). ``check`` says why a run is wrong, or with which
    solvers it disagrees; the other runs keep the note of their own check
    (e.g. a solution not verified).
    """
    import pandas as pd

    table = table.copy()
    definite = table["status"].isin([Status.SOLVED.value, Status.NO_SOLUTION.value])
    invalid = table["invalid"].fillna("").astype(str)
    wrong = definite & (invalid != "")
    disagree = pd.Series(False, index=table.index)
    check = invalid.where(wrong, "")
    keys = pd.Series("", index=table.index, dtype=object)
    for i in table.index[definite & ~wrong]:
        row = table.loc[i]
        mismatch = expected_mismatch(row["question"], _opt(row["expected"]), _opt(row["expected_subsets"]),
                                     _opt(row["count"]), _opt(row["subsets"]))
        if mismatch:
            wrong[i] = True
            check[i] = mismatch
        else:
            keys[i] = answer_key(row["question"], _opt(row["count"]), _opt(row["subsets"]), row["answer_digest"])
    judged = definite & ~wrong & table["expected"].isna()
    for _, group in table[judged].groupby(["suite", "instance", "question"], sort=False):
        summary = ", ".join(f"{s}: {keys[g.index[0]]}" for s, g in group.groupby("solver", sort=False))
        refuted = _refuted(group)
        for i, why in refuted.items():
            wrong[i] = True
            check[i] = f"{why}: {summary}"
        group = group.drop(index=list(refuted))
        votes = Counter()
        for _, runs in group.groupby("solver", sort=False):
            votes[Counter(keys[runs.index]).most_common(1)[0][0]] += 1
        if len(votes) < 2:
            continue
        ranked = votes.most_common()
        majority = ranked[0][0] if ranked[0][1] > ranked[1][1] else None
        for i in group.index:
            if majority is None:
                disagree[i] = True
                check[i] = f"solvers disagree: {summary}"
            elif keys[i] != majority:
                wrong[i] = True
                check[i] = f"disagrees with the majority ({majority}): {summary}"
    table["wrong"] = wrong.astype(bool)
    table["disagree"] = disagree.astype(bool)
    table["check"] = check
    return table


def _refuted(group) -> dict:
    """The runs of one task (``first`` or ``count``) that solutions verified independently prove wrong: those
    answering no solution, or fewer than another run listed and had every one checked; index -> why."""
    question = group["question"].iloc[0]
    if question not in ("first", "count"):
        return {}
    listed = {i: _opt(group.loc[i, "solutions_checked"]) or 0 for i in group.index}
    best = max(listed, key=lambda i: listed[i], default=None)
    if best is None or not listed[best]:
        return {}
    most, solver = listed[best], group.loc[best, "solver"]
    out = {}
    for i in group.index:
        count = _opt(group.loc[i, "count"])
        if count is None:
            continue
        if question == "first" and count == 0:
            out[i] = f"found no solution, but {solver} gave one that is verified"
        elif question == "count" and count < most:
            out[i] = f"count {count}, but {solver} listed {most} distinct solutions, each verified"
    return out


def _opt(value):
    """A table cell as a Python value, None for a missing one."""
    import pandas as pd

    if value is None or (not isinstance(value, str) and pd.isna(value)):
        return None
    return int(value) if isinstance(value, (int, float)) or hasattr(value, "item") else value
