"""Every registered solver against published counts, hand cases, the shipped decks and each other.

Each test body runs over the registry itself (``solver_names()``), so a new
solver is one line in :data:`ubongo_cp.solvers.registry.SOLVERS`. The
published counts (RULES.md §1) are asserted here and nowhere else; the
larger rectangles run only on the solvers that enumerate thousands of
tilings in about a second (read from the registry: the bitboard searches on
the first empty cell, the DLX family on the orbit decomposition), the 3x20
one on the DLX and bitboard families and every orbit decomposition (plain
CP-SAT and the CNF encoding need 3-45 s for it, see ``benchmarks/``).
"""

from __future__ import annotations

import math
import re
import subprocess
import sys
import time
import tomllib
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import PUZZLES, ROOT
from ubongo_cp.cards import load_card
from ubongo_cp.cover import build_instance, task_instance, verify_solution
from ubongo_cp.errors import InputError
from ubongo_cp.geometry import normalize
from ubongo_cp.pieces import Piece, Region, load_pieces, load_region
from ubongo_cp.solvers import SOLVERS, get_solver, solve, solver_names
from ubongo_cp.status import Status
from ubongo_cp.structs import replace

PENTS = load_pieces("pentominoes")
TETS = load_pieces("tetrominoes")
CLASSIC = load_pieces("classic")
NAMES = solver_names()


def _check(result, instance):
    """Every solution a solver returns passes the independent check (UP-2, UP-3)."""
    assert len(result.solutions) == len(result.option_solutions)
    for sol in result.solutions:
        assert verify_solution(instance.pieces, instance.region, sol) is None


def _fast_enumeration(spec) -> bool:
    """Enumerates thousands of pentomino tilings in about a second, or counts them on a decision diagram."""
    return (spec.family == "dlx" and spec.orbits) or spec.diagram or \
        (spec.family == "bitboard" and ("rule", "mrv") not in spec.options)


@dataclass(frozen=True)
class Published:
    pieces: str
    shape: tuple[int, int]
    count: int
    reduced: int
    runs_on: object  # SolverSpec -> bool

    def __str__(self) -> str:
        return f"{self.pieces}-{self.shape[0]}x{self.shape[1]}"


# RULES.md §1, "known external figures": fixed region, flips allowed (UP-3, UP-5).
PUBLISHED = [
    Published("pentominoes", (3, 20), 8, 2, lambda s: s.family in ("dlx", "bitboard") or s.orbits),
    Published("pentominoes", (4, 15), 1472, 368, _fast_enumeration),
    Published("pentominoes", (5, 12), 4040, 1010, _fast_enumeration),
    Published("pentominoes", (6, 10), 9356, 2339, _fast_enumeration),
    # The five tetrominoes tile neither 4x5 nor 2x10 (chessboard parity of T4).
    Published("tetrominoes", (4, 5), 0, 0, lambda s: True),
    Published("tetrominoes", (2, 10), 0, 0, lambda s: True),
]


@pytest.mark.parametrize("name, case", [(n, c) for c in PUBLISHED for n in NAMES if c.runs_on(SOLVERS[n])],
                         ids=str)
def test_published_counts(name, case):
    inst = build_instance(load_pieces(case.pieces).pieces, Region.rectangle(*case.shape))
    result = solve(inst, backend=name, keep=20)
    status = Status.SOLVED if case.count else Status.NO_SOLUTION
    assert (result.count, result.count_reduced, result.complete, result.status) == \
        (case.count, case.reduced, True, status)
    assert result.backend == name
    _check(result, inst)


@pytest.mark.parametrize("name", NAMES)
def test_hand_counted_cases(name):
    i2, i3 = CLASSIC["I2"], CLASSIC["I3"]
    # I3 twice in 2x3: only the two horizontal rows (vertical needs 3 rows) = 1 tiling;
    # swapping identical pieces is not a new solution (UP-5).
    assert solve(build_instance([i3, i3], Region.rectangle(2, 3)), backend=name).count == 1
    # Domino twice in 2x2: horizontal pair or vertical pair = 2, 1 up to the square's symmetry.
    r = solve(build_instance([i2, i2], Region.rectangle(2, 2)), backend=name)
    assert (r.count, r.count_reduced) == (2, 1)
    # L3 + I3 in 2x3: I3 lies along a row (3 cells), the other row is an I shape that L3 cannot fill.
    assert solve(build_instance([CLASSIC["L3"], i3], Region.rectangle(2, 3)), backend=name).count == 0
    # Area mismatch is caught before any search, with the reason (UP-4).
    r = solve(build_instance([i2], Region.rectangle(2, 2)), backend=name)
    assert r.status == Status.NO_SOLUTION and "area" in r.stats["reason"]


@pytest.mark.parametrize("name", NAMES)
def test_limit_and_first_solution(name):
    # I3 L4 P5 in 3x4: 20 tilings (every solver agrees, below); a limit cuts the search.
    inst = build_instance([CLASSIC[n] for n in ("I3", "L4", "P5")], Region.rectangle(3, 4))
    r = solve(inst, backend=name, limit=3)
    assert (r.count, r.complete, r.status, len(r.solutions)) == (3, False, Status.SOLVED, 3)
    assert len({tuple(s) for s in r.option_solutions}) == 3
    r1 = solve(inst, backend=name, limit=1)
    assert (r1.count, r1.complete, len(r1.solutions)) == (1, False, 1)
    _check(r, inst)
    _check(r1, inst)
    every = solve(inst, backend=name)
    assert (every.count, every.count_reduced, every.complete) == (20, 5, True)


@pytest.mark.parametrize("name", [n for n in NAMES if SOLVERS[n].stops_mid_search])
def test_time_limit_stops_the_search(name):
    # 8x8 without four cells of its top row has no symmetry and 9,864 tilings: it takes every
    # solver more than a second; 0.05 s cannot finish the count.
    region = Region(tuple((r, c) for r in range(8) for c in range(8) if r or c >= 4))
    inst = build_instance(PENTS.pieces, region)
    t0 = time.perf_counter()
    result = solve(inst, backend=name, time_limit=0.05, keep=0)
    assert (result.complete, result.count_reduced) == (False, None)
    assert result.count < 9864 and time.perf_counter() - t0 < 30
    assert result.status in (Status.SOLVED, Status.UNKNOWN)


def test_the_sat_backend_stops_near_its_time_limit_however_slow_a_conflict_is(monkeypatch):
    # CaDiCaL cannot be interrupted: the clock is read between slices of conflicts. On 6x10 a conflict took
    # 0.5 ms (2,000 conflicts in 0.8-1.0 s), so fixed slices of 2,000 ran solve(backend="sat",
    # time_limit=0.3) for 1.55 s. A stand-in solver that never finishes and spends 0.5 ms (then 5 ms) a
    # conflict on a stand-in clock: the search must end within a tenth of the limit past it.
    from ubongo_cp.solvers import cnf

    clock = [0.0]
    monkeypatch.setattr(cnf.time, "perf_counter", lambda: clock[0])

    class Endless:
        def __init__(self, seconds_per_conflict):
            self.per, self.budget, self.calls = seconds_per_conflict, 0, 0

        def conf_budget(self, budget):
            self.budget = budget

        def solve_limited(self):
            assert self.budget >= 1
            clock[0] += self.per * self.budget
            self.calls += 1
            return None

    for per in (0.0005, 0.005):
        clock[0] = 100.0
        sat = Endless(per)
        assert cnf.CnfBackend()._solve(sat, 100.3) is None
        assert 100.3 <= clock[0] < 100.33, (per, clock[0])


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("seconds", [math.inf, 1e308, 2**64, 10**400], ids=["inf", "1e308", "2**64", "10**400"])
def test_a_time_limit_no_clock_reaches_is_no_limit(name, seconds):
    # I3 L4 P5 in 3x4: 20 tilings, 5 up to symmetry (test_limit_and_first_solution). A limit beyond any
    # clock (math.inf, or more seconds than a float or the poll of the xcover child holds) lets every
    # solver finish; it was an OverflowError from the pipe's poll (xcover) or from float() (every solver).
    inst = build_instance([CLASSIC[n] for n in ("I3", "L4", "P5")], Region.rectangle(3, 4))
    r = solve(inst, backend=name, time_limit=seconds, keep=0)
    assert (r.count, r.count_reduced, r.complete) == (20, 5, True)


@pytest.mark.parametrize("name", NAMES)
def test_a_keep_beyond_what_a_list_holds_keeps_every_solution(name):
    # I3 L4 P5 in 3x4: 20 tilings. keep=2**70 keeps all of them, as keep=10**6 does; on the decision
    # diagram it was a ValueError of itertools.islice (a stop beyond sys.maxsize).
    inst = build_instance([CLASSIC[n] for n in ("I3", "L4", "P5")], Region.rectangle(3, 4))
    r = solve(inst, backend=name, keep=2**70)
    assert (r.count, len(r.solutions), r.complete) == (20, 20, True)


CARDS = ["classic/01_hard.toml", "classic/17_easy.toml", "duel/3_B.toml"]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("card_file", CARDS)
def test_shipped_tasks_match_generator_record(name, card_file):
    # The generator recorded each task's count in [generator].solutions (UP-5 fixed count).
    path = PUZZLES / "decks" / card_file
    card = load_card(path)
    recorded = tomllib.loads(path.read_text())["generator"]["solutions"]
    for face in sorted(card.tasks)[:2]:
        inst = task_instance(card, face)
        result = solve(inst, backend=name)
        assert (result.count, result.complete) == (recorded[face - 1], True)
        first = solve(inst, backend=name, limit=1)
        assert (first.status, first.count) == (Status.SOLVED, 1)
        _check(result, inst)
        _check(first, inst)


# Random small instances: random regions in a strip and rectangles (symmetric, so that
# the orbit decomposition and the reduced count meet), tiled by random multisets of
# classic pieces or tetrominoes (copies of one name: UP-5), some with an area mismatch.
@st.composite
def small_instances(draw):
    if draw(st.booleans()):
        h = draw(st.integers(2, 3))
        w = draw(st.integers(h, 5))
        chosen, total = [], 0
        while total < h * w:
            fits = [p for p in CLASSIC.pieces if p.size <= h * w - total]
            if not fits:
                break
            chosen.append(draw(st.sampled_from(fits)))
            total += chosen[-1].size
        if total != h * w:
            chosen.append(CLASSIC["I2"])  # an area mismatch: the pre-check case
        return build_instance(chosen, Region.rectangle(h, w))
    source = draw(st.sampled_from([CLASSIC, TETS]))
    pieces = source.select(draw(st.lists(st.sampled_from(source.names), min_size=1, max_size=4)))
    area = sum(p.size for p in pieces)
    width = draw(st.integers(1, 6))
    cells = [(i // width, i % width) for i in range(area + draw(st.integers(0, 4)))]
    drop = set(draw(st.lists(st.sampled_from(cells), unique=True, min_size=len(cells) - area,
                             max_size=len(cells) - area)))
    region_cells = [c for c in cells if c not in drop] or cells[:area]
    return build_instance(pieces, Region(normalize(region_cells)))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_instances())
def test_every_solver_agrees_on_random_instances(inst):
    expected = solve(inst, backend="xcover", keep=0)  # plain search, no symmetry used: the reference
    for name in NAMES:
        got = solve(inst, backend=name, keep=3)
        assert (got.count, got.count_reduced, got.complete) == \
            (expected.count, expected.count_reduced, True), name
        _check(got, inst)


def test_many_identical_pieces_are_one_counter():
    # 9 O4 tile a 6x6 board one way: one item [9..9] (Algorithm M; a counter in the bitboard
    # search), so each search meets that tiling once (it met it 9! = 362,880 times with one
    # item per copy) and makes exactly the 9 forced placements.
    o4 = CLASSIC["O4"]
    for name in ("dlx", "bitboard", "bitboard-mrv"):
        result = solve(build_instance([o4] * 9, Region.rectangle(6, 6)), backend=name)
        assert (result.count, result.count_reduced, result.complete, result.stats["nodes"]) == (1, 1, True, 9)
    assert solve(build_instance([o4] * 9, Region.rectangle(6, 6))).backend == "bitboard-symmetry"
    assert solve(build_instance([o4] * 9, Region.rectangle(6, 6)), limit=1).backend == "bitboard"
    # The decision diagram's rule: the diagram, which finishes within the rule's trial (one state per
    # cell row pair).
    auto = solve(build_instance([o4] * 9, Region.rectangle(6, 6)), backend="auto")
    assert (auto.backend, auto.stats["engine"], auto.count) == ("auto", "zdd", 1)
    assert "within the trial" in auto.stats["rule"]


def test_the_default_falls_back_to_dancing_cells_beyond_256_cells():
    # 65 dominoes in a 10x13 rectangle: 130 cells, the bitboard's; 129 I2 in 258 cells are not: their count asks the
    # auto rule, as the bitboard's counts of copies do, and distinct pieces count on dlx-symmetry.
    i2 = CLASSIC["I2"]
    small = build_instance([i2] * 3, Region.rectangle(1, 6))
    big = build_instance([i2] * 129, Region.rectangle(1, 258))
    assert solve(small).backend == "bitboard-symmetry"
    result = solve(big)   # copies: the auto rule's (its kernel dlx-symmetry; the diagram ends within its trial)
    assert (result.backend, result.stats["engine"], result.count, result.count_reduced) == ("auto", "zdd", 1, 1)
    assert solve(big, limit=1).backend == "dlx"
    bars = [Piece("I256", tuple((0, c) for c in range(256))), i2]   # distinct pieces: the kernel's stand-in
    result = solve(build_instance(bars, Region.rectangle(1, 258)))
    assert (result.backend, result.count, result.count_reduced) == ("dlx-symmetry", 2, 1)
    with pytest.raises(InputError, match="258 cell items"):
        solve(big, backend="bitboard")


# ---------------------------------------------------------------- the registry
def test_unknown_name_and_bad_limit_have_one_message():
    inst = build_instance(TETS.pieces, Region.rectangle(4, 5))
    with pytest.raises(InputError) as err:
        solve(inst, backend="nope")
    assert str(err.value) == f"unknown backend 'nope'; choose one of {', '.join(NAMES)}"
    with pytest.raises(InputError, match="limit must be a whole number of at least 1, got 0"):
        solve(inst, backend="dlx", limit=0)


@pytest.mark.parametrize("kwargs, message", [
    ({"fixed": [-1]}, "a fixed placement must be a whole number of at least 0, got -1"),  # not the last option
    ({"fixed": [10**9]}, "fixed placement 1000000000 is not an option of the instance (it has 161)"),
    ({"fixed": [3, 3]}, "a fixed placement is given twice"),
    ({"limit": 2.5}, "limit must be a whole number of at least 1, got 2.5"),
    ({"keep": "x"}, "keep must be a whole number of at least 0, got 'x'"),
    ({"keep": -1}, "keep must be a whole number of at least 0, got -1"),
    ({"sample": "3"}, "the number of samples must be a whole number of at least 0, got '3'"),
    ({"time_limit": -1}, "time_limit must be a number of seconds above 0, got -1"),
    ({"memory_limit": -5}, "memory_limit must be a whole number of at least 1, got -5"),
])
def test_bad_arguments_of_solve_are_named(kwargs, message):
    inst = build_instance(TETS.pieces, Region.rectangle(4, 5))
    with pytest.raises(InputError) as err:
        solve(inst, **kwargs)
    assert str(err.value) == message
    with pytest.raises(InputError, match="solve needs an exact-cover instance .* got str"):
        solve("classic")
    with pytest.raises(InputError, match="build_instance needs a sequence of pieces .* got str"):
        build_instance("classic", Region.rectangle(4, 5))
    with pytest.raises(InputError, match="build_instance needs a region .* got str"):
        build_instance(TETS.pieces, "4x5")


@pytest.mark.parametrize("name", NAMES)
def test_every_spec_makes_a_backend(name):
    spec = get_solver(name)
    backend = spec.make()
    assert callable(backend.run) and spec.module.startswith("ubongo_cp.solvers.")
    assert spec.family in ("cpsat", "dlx", "bitboard", "sat", "zdd") and spec.summary
    if spec.cardinality:
        assert spec.make(cardinality=3).cardinality == 3


@pytest.mark.parametrize("name", NAMES)
def test_reported_counters_match_the_registry(name):
    # What the registry says a solver reports is what it reports (the rating relies on it):
    # the search-tree size of its search on the task itself, counted by the kernel alone.
    # The 3x4 rectangle is symmetric, so the orbit decompositions search smaller trees.
    from ubongo_cp.solvers.bitboard import BitSearch
    from ubongo_cp.solvers.dancing import count

    inst = build_instance([CLASSIC[n] for n in ("I3", "L4", "P5")], Region.rectangle(3, 4))
    spec = SOLVERS[name]
    if spec.family == "bitboard":
        options = dict(spec.options)
        search = BitSearch(inst, rule=options.get("rule", "first"), prune=options.get("prune", True))
        search.start()
        search.run()
        tree = search.nodes
    else:
        tree = count(inst.indptr, inst.indices, inst.n_items, inst.n_secondary)[1]
    stats = solve(inst, backend=name).stats
    assert (stats.get("nodes") == tree) == spec.reports_nodes
    if SOLVERS[name].reports_branches:
        assert stats["branches"] >= 0 and stats["conflicts"] >= 0


def test_a_new_solver_is_one_registry_entry(monkeypatch):
    # Registered once, a solver works in solve and analyze at once; what it cannot do
    # (here: secondary items) is refused by the front function with a clear message.
    from ubongo_cp.analyze import analyze

    monkeypatch.setitem(SOLVERS, "dlx-copy", replace(SOLVERS["dlx"], name="dlx-copy"))
    inst = build_instance(PENTS.pieces, Region.rectangle(3, 20))
    assert solve(inst, backend="dlx-copy").backend == "dlx-copy"
    board = load_region(PUZZLES / "examples" / "duel_board1.txt")
    assert analyze(load_pieces("duel").pieces, board, 3, backend="dlx-copy").total_solutions == 14
    monkeypatch.setitem(SOLVERS, "primary-only", replace(SOLVERS["dlx"], name="primary-only", secondary_items=False))
    with pytest.raises(InputError, match="backend 'primary-only' cannot enumerate covers with optional pieces"):
        analyze(load_pieces("duel").pieces, board, 3, backend="primary-only")


def test_importing_the_solvers_loads_no_search_engine():
    # Start-up time: the registry and `ubongo-cp --help` import neither OR-Tools nor numba.
    code = ("import sys\nfrom ubongo_cp.solvers import solver_names, get_solver\n"
            "from ubongo_cp.cli import build_parser\nbuild_parser()\nget_solver('cpsat'); solver_names()\n"
            "print(sorted(m for m in ('ortools', 'numba', 'pysat', 'xcover') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"


# ------------------------------------------------------------------ the commands
def test_every_command_rejects_an_unknown_name_with_one_message(run_cli, tmp_path):
    region = str(PUZZLES / "examples" / "duel_board1.txt")
    card = str(PUZZLES / "examples" / "classic_X1_easy.toml")
    errors = set()
    for argv in (["solve", card, "--backend", "foo"],
                 ["solve", "--pieces", "duel", "--region", region, "--backend", "foo"],
                 ["analyze", "--pieces", "duel", "--region", region, "--k", "3", "--backend", "foo"],
                 ["batch", str(PUZZLES / "examples"), "--out", str(tmp_path / "o"), "--backend", "foo"]):
        code, out, err = run_cli(*argv)
        assert code == 2 and out == "", argv
        errors.add(err)
    assert errors == {f"ubongo-cp: error: unknown backend 'foo'; choose one of {', '.join(NAMES)}\n"}
    assert not (tmp_path / "o").exists()  # rejected before any work


@pytest.mark.parametrize("name", NAMES)
def test_every_command_accepts_every_name(run_cli, name):
    region = str(PUZZLES / "examples" / "duel_board1.txt")
    code, out, err = run_cli("analyze", "--pieces", "duel", "--region", region, "--k", "3", "--backend", name)
    assert code == 0 and f"13 of 495 area-matching 3-subsets tile the 16-cell region (14 solutions) [{name}," in out
    code, out, err = run_cli("solve", str(PUZZLES / "examples" / "classic_X1_easy.toml"), "--face", "1",
                             "--backend", name)
    # the bracket names the strategy, and the road when it picks one (auto: zdd or dlx-symmetry)
    assert code == 0 and re.search(rf"  1 solution \[{name}(: (zdd|dlx-symmetry))?, ", out), (out, err)


def test_a_tally_counts_every_cover_on_every_solver():
    # The tally (solutions per set of piece types used) on a symmetric region, where the symmetry
    # solvers search one cover per orbit: each cover is counted, not one per orbit (3x20 by the 12
    # pentominoes: 8 tilings, RULES.md §1; the symmetry searches tallied 2, diagrams and CP-SAT's
    # orbit search none at all). 4x4 by I, O, L, L: the plain dancing-cells count is the reference.
    assert solve(build_instance(PENTS.pieces, Region.rectangle(3, 20)), keep=0, tally=True).tally == \
        {tuple(range(12)): 8}
    inst = build_instance([TETS["I"], TETS["O"], TETS["L"], TETS["L"]], Region.rectangle(4, 4))
    reference = solve(inst, backend="dlx", keep=0, reduce=False).count
    assert reference > 0
    for name in NAMES:
        got = solve(inst, backend=name, keep=0, tally=True)
        assert (got.count, got.tally) == (reference, {(0, 1, 2): reference}), name


@pytest.mark.parametrize("arguments", [{"reduce": "no"}, {"tally": 1}, {"frequencies": None},
                                       {"tally": True, "sample": 2}, {"tally": True, "frequencies": True}])
def test_solve_refuses_a_flag_that_is_not_a_bool_and_a_tally_it_cannot_give(arguments):
    inst = build_instance([TETS["O"]], Region.rectangle(2, 2))
    with pytest.raises(InputError, match="True or False|tally"):
        solve(inst, **arguments)


def test_a_numpy_seed_draws_as_the_same_int():
    import numpy as np

    inst = build_instance([CLASSIC["I2"]] * 4, Region.rectangle(2, 4))
    drawn = solve(inst, sample=3, seed=3).solutions
    assert solve(inst, sample=3, seed=np.int64(3)).solutions == drawn   # was a TypeError from random.Random
    assert solve(inst, backend="zdd", sample=3, seed=np.uint8(3)).solutions == drawn


def test_an_id_that_is_not_an_option_or_a_type_of_the_instance_is_one_error_naming_it():
    # Negative ids read the table from its end: option_cells(-1) gave [], solution_dict([-1]) {'Z': []} and
    # type_piece(-1) the last piece; ids past the end were a numpy IndexError.
    instance = build_instance(load_pieces("pentominoes").pieces, Region.rectangle(3, 20))
    assert instance.n_options == 1236 and instance.n_types == 12
    i_row = instance.fix([("I", [(0, 0), (0, 1), (0, 2), (0, 3), (0, 4)])])[0]
    assert instance.option_cells(i_row) == [(0, 0), (0, 1), (0, 2), (0, 3), (0, 4)]
    assert instance.solution_dict([i_row]) == {"I": [(0, 0), (0, 1), (0, 2), (0, 3), (0, 4)]}
    assert instance.type_piece(1).name == "I"
    calls = [lambda: instance.option_cells(-1), lambda: instance.option_items(-1),
             lambda: instance.solution_dict([i_row, -1])]
    for call in calls:
        with pytest.raises(InputError, match=r"^an option id must be a whole number of at least 0, got -1$"):
            call()
    for call in (lambda: instance.option_cells(1236), lambda: instance.option_items(1236),
                 lambda: instance.solution_dict([i_row, 1236])):
        with pytest.raises(InputError, match=r"^option 1236 is not an option of the instance \(it has 1236\)$"):
            call()
    with pytest.raises(InputError, match=r"^a piece type must be a whole number of at least 0, got -1$"):
        instance.type_piece(-1)
    with pytest.raises(InputError, match=r"^piece type 12 is not a type of the instance \(it has 12: 0 \.\. 11\)$"):
        instance.type_piece(12)


@pytest.mark.parametrize("method", ["fix", "assign"])
@pytest.mark.parametrize("placements, shown", [
    (("I2", [(0, 0), (0, 1)]), "('I2', [(0, 0), (0, 1)])"),   # one pair, not a list of them: a ValueError before
    ("I2", "'I2'"),
    ([("I2", 5)], "('I2', 5)"),                               # a TypeError from iterating 5, before
    (3, "3"),
])
def test_fixed_placements_that_are_not_a_list_of_pairs_are_one_error_naming_them(method, placements, shown):
    instance = build_instance([load_pieces("classic")["I2"]] * 2, Region.rectangle(2, 2))
    with pytest.raises(InputError) as info:
        getattr(instance, method)(placements)
    assert str(info.value) == (f'{method} takes a list of (piece name, cells) pairs, e.g. [("I2", [(0, 0), (0, 1)])], '
                               f"got {shown}")
    # the right form: the top row's domino, one placement left for the other (the bottom row)
    pairs = iter([("I2", [(0, 0), (0, 1)])])
    if method == "fix":
        assert instance.option_cells(instance.fix(pairs)[0]) == [(0, 0), (0, 1)]
    else:
        assert solve(instance.assign(pairs)).count == 1
