"""SAT backend: a plain CNF encoding of the exact-cover instance, solved with CaDiCaL.

The third solver family next to CP-SAT and DLX. The exact-cover instance of
:mod:`ubongo_cp.cover` is written as clauses over one Boolean per placement:

- variables: ``x[o]`` (DIMACS variable ``o + 1``) is true when placement
  (option) ``o`` is used;
- *at least one* placement covers each region cell (one clause, UP-2), and
  each piece type with one copy;
- *at most one* placement covers each cell or single-copy type: pairwise
  clauses for short lists, Sinz's sequential counter (ladder) from
  ``pysat.card`` for lists longer than :data:`PAIRWISE_MAX`;
- a piece type with ``k > 1`` identical copies has *exactly k* placements
  chosen (*at most k* with optional pieces): Sinz's sequential counter [1]_
  for ``<= k`` and for ``>= k`` (as ``<= n - k`` over the negated
  literals), ``pysat.card.CardEnc.equals``; O(n k) clauses and variables
  for a type with ``n`` placements. The copies are never told apart, so
  swapping identical pieces is not a new solution (UP-5).

Solutions are enumerated incrementally: after each model a *blocking
clause* over the placement variables of the solution (not the auxiliary
counter variables, which may take several values for one placement set)
forbids it, and the solver is called again. The time limit is checked
between slices of conflicts (``solve_limited``), each sized by the pace of
the one before to end well within the time left.

References
----------
.. [1] C. Sinz, "Towards an optimal CNF encoding of Boolean cardinality
   constraints", CP 2005, LNCS 3709, pp. 827-831 (sequential counter).
.. [2] A. Ignatiev, A. Morgado and J. Marques-Silva, "PySAT: A Python
   toolkit for prototyping with SAT oracles", SAT 2018 (``python-sat``).
.. [3] A. Biere et al., "CaDiCaL 2.0", CAV 2024 (the SAT solver used).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ..cover import ExactCoverInstance

__all__ = ["CnfBackend", "encode", "dimacs_text", "PAIRWISE_MAX", "DEFAULT_SAT_SOLVER"]

#: Longest literal list whose at-most-one is encoded pairwise (n(n-1)/2
#: binary clauses, no new variable); longer lists use the sequential counter
#: (3n clauses, n-1 new variables).
PAIRWISE_MAX = 6

#: python-sat solver name: CaDiCaL 1.9.5 (python-sat >= 1.8.dev).
DEFAULT_SAT_SOLVER = "cadical195"


def encode(instance: ExactCoverInstance) -> tuple[list[list[int]], int]:
    """Clauses of ``instance`` (see the module docstring) and the number of variables.

    Returns
    -------
    clauses : list of list of int
        DIMACS clauses; variable ``o + 1`` is option ``o``.
    n_vars : int
        Highest variable id used (placements plus counter variables).

    Examples
    --------
    One domino in a 1x2 region (one placement; items: two cells and the piece):

    >>> from ubongo_cp.pieces import Piece, Region
    >>> from ubongo_cp.cover import build_instance
    >>> inst = build_instance([Piece("D", ((0, 0), (0, 1)))], Region.rectangle(1, 2))
    >>> encode(inst)
    ([[1], [1], [1]], 1)
    """
    from pysat.card import CardEnc, EncType

    from .base import item_bounds

    clauses: list[list[int]] = []
    top = instance.n_options
    lo, hi = item_bounds(instance)
    colours = getattr(instance, "colours", None)
    for item, options in enumerate(instance.item_options):
        lits = [o + 1 for o in options]
        if colours is not None and item >= instance.n_primary:
            # A secondary item with colours (Algorithm C): one variable per colour, implied by the
            # options that give the item that colour; at most one of those and the plain options.
            plain: list[int] = []
            tinted: dict[int, list[int]] = {}
            for o in options:
                start = int(instance.indptr[o])
                c = int(colours[start + list(instance.option_items(o)).index(item)])
                (tinted.setdefault(c, []) if c else plain).append(o + 1)
            lits = plain
            for opts in tinted.values():
                top += 1
                clauses.extend([-v, top] for v in opts)
                lits.append(top)
        # Cells, then one item per piece type (k copies), then any other secondary items (a general
        # exact-cover matrix, ubongo_cp.exactcover): each of those at most once; a primary item of a
        # matrix may have bounds (Knuth's DLX3), a piece type a range of copies.
        low, high = lo[item], hi[item]
        if (low, high) not in ((1, 1), (0, 1)):
            # A type with k identical copies: exactly k (at most k when optional) of its placements (UP-5);
            # other bounds: at least low and at most high.
            if high < low or len(lits) < low:  # fewer placements than needed: unsatisfiable (x and not x)
                top += 1
                clauses.extend([[top], [-top]])
                continue
            if low == high:
                enc = CardEnc.equals(lits=lits, bound=low, top_id=top, encoding=EncType.seqcounter)
                clauses.extend(enc.clauses)
                top = max(top, enc.nv)
                continue
            if low > 0:
                enc = CardEnc.atleast(lits=lits, bound=low, top_id=top, encoding=EncType.seqcounter)
                clauses.extend(enc.clauses)
                top = max(top, enc.nv)
            if high < len(lits):
                enc = CardEnc.atmost(lits=lits, bound=high, top_id=top, encoding=EncType.seqcounter)
                clauses.extend(enc.clauses)
                top = max(top, enc.nv)
            continue
        # At least one placement covers each primary item (UP-2).
        if low == 1:
            clauses.append(list(lits))
        # At most one placement covers each item (no overlap; each piece once).
        if len(lits) <= 1:
            continue
        if len(lits) <= PAIRWISE_MAX:
            clauses.extend([-a, -b] for i, a in enumerate(lits) for b in lits[i + 1:])
        else:
            enc = CardEnc.atmost(lits=lits, bound=1, top_id=top, encoding=EncType.seqcounter)
            clauses.extend(enc.clauses)
            top = max(top, enc.nv)
    return clauses, top


def dimacs_text(instance: ExactCoverInstance, *, comments=()) -> str:
    """The encoding of :func:`encode` as a DIMACS CNF file, for an external SAT solver or model counter.

    Variable ``o + 1`` is option ``o`` (a model's true variables up to
    ``n_options`` are the chosen options). When the encoding adds counter
    variables, a ``c p show 1 ... n_options 0`` line names the option
    variables as the projection set: the counter variables need not be
    determined by the options, so a model counter must count projected on
    them to count covers (the model-counting competition's convention).

    Parameters
    ----------
    instance : ExactCoverInstance
        Or an :class:`~ubongo_cp.exactcover.ExactCoverMatrix`.
    comments : sequence of str
        Written first, each as one ``c`` comment line (:func:`ubongo_cp.io.comment_lines`).

    Returns
    -------
    str

    Examples
    --------
    >>> from ubongo_cp.exactcover import parse_exact_cover
    >>> print(dimacs_text(parse_exact_cover("a b\\na\\nb\\na b\\n")), end="")
    p cnf 3 4
    1 3 0
    -1 -3 0
    2 3 0
    -2 -3 0
    """
    from ..io import comment_lines

    clauses, n_vars = encode(instance)
    lines = comment_lines(comments, ".cnf")
    lines.append(f"p cnf {n_vars} {len(clauses)}")
    if n_vars > instance.n_options:
        lines.append("c p show " + " ".join(str(v) for v in range(1, instance.n_options + 1)) + " 0")
    lines.extend(" ".join(map(str, clause)) + " 0" for clause in clauses)
    return "\n".join(lines) + "\n"


@dataclass
class CnfBackend:
    """CaDiCaL on the CNF encoding, enumerating with blocking clauses.

    Follows the :class:`~ubongo_cp.solvers.base.Backend` protocol.

    Attributes
    ----------
    solver : str
        python-sat solver name (default :data:`DEFAULT_SAT_SOLVER`).
    conflict_budget : int
        With a time limit, the solver runs in slices of at most this many
        conflicts and the clock is read between slices (CaDiCaL in
        python-sat cannot be interrupted from another thread). The first
        slice has ``first_slice`` conflicts; each next one as many as the
        pace of the one before fits in half the time left, so that the
        search stops close to the limit however slow a conflict is.
    first_slice : int
        Conflicts of the first slice, before any pace is known.
    name : str
        ``"sat"``.

    Notes
    -----
    ``stats`` holds ``sat_calls`` (solver calls), ``variables``, ``clauses``
    (of the encoding, blocking clauses excluded), and CaDiCaL's accumulated
    ``conflicts``, ``decisions`` and ``propagations``. Each enumerated
    solution costs one incremental SAT call, so enumeration is O(solutions)
    calls; this backend is meant for comparison, not for large counts.
    """

    solver: str = DEFAULT_SAT_SOLVER
    conflict_budget: int = 2000
    first_slice: int = 20
    name: str = "sat"

    def run(self, instance, on_solution, *, time_limit=None, first_only=False):
        """Enumerate the instance's solutions; see the class docstring."""
        from pysat.solvers import Solver

        from .base import item_bounds

        clauses, n_vars = encode(instance)
        n_options = instance.n_options
        lo, hi = item_bounds(instance)
        slack = any(a < b for a, b in zip(lo[:instance.n_primary], hi[:instance.n_primary]))
        deadline = None if time_limit is None else time.perf_counter() + float(time_limit)
        calls = 0
        exhausted = timed_out = False
        with Solver(name=self.solver, bootstrap_with=clauses) as sat:
            while True:
                result = self._solve(sat, deadline)
                calls += 1
                if result is None:
                    timed_out = True
                    break
                if result is False:
                    exhausted = True
                    break
                model = sat.get_model()
                chosen = [v - 1 for v in model[:n_options] if v > 0]  # a variable in no clause is false
                if not on_solution(chosen):
                    break
                # Blocking clause over the placement variables of this solution: one of its options
                # left out (no other solution holds all of them when every primary item is covered a
                # fixed number of times); with bounds, or one of the other options added too.
                used = set(chosen)
                sat.add_clause([-(o + 1) for o in chosen] if not slack else
                               [-(o + 1) if o in used else o + 1 for o in range(n_options)])
            acc = sat.accum_stats() or {}
        stats = {"sat_calls": calls, "variables": n_vars, "clauses": len(clauses),
                 "conflicts": int(acc.get("conflicts", 0)), "decisions": int(acc.get("decisions", 0)),
                 "propagations": int(acc.get("propagations", 0))}
        if timed_out:
            stats["timed_out"] = True
        return exhausted, stats

    def _solve(self, sat, deadline) -> bool | None:
        """One SAT call; ``None`` when the deadline passed first (checked every conflict budget).

        python-sat's solvers catch Ctrl-C themselves and raise an error that
        says so; it becomes ``KeyboardInterrupt`` here.
        """
        try:
            if deadline is None:
                return sat.solve()
            budget = min(self.first_slice, self.conflict_budget)
            began = time.perf_counter()
            while began < deadline:
                sat.conf_budget(budget)
                result = sat.solve_limited()
                if result is not None:
                    return result
                now = time.perf_counter()
                # The next slice: the conflicts this one's pace fits in half the time left (a fixed budget of
                # 2,000 conflicts took 0.8 s a slice on 6x10, past a limit of 0.3 s by 1.2 s).
                pace = budget / max(now - began, 1e-6)
                budget = max(1, min(self.conflict_budget, int(pace * (deadline - now) / 2)))
                began = now
            return None
        except Exception as exc:
            if "keyboard interrupt" in str(exc).lower():
                raise KeyboardInterrupt from None
            raise
