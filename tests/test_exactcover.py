"""General exact cover from Knuth's formats (DLX1, DLX2 colours, DLX3 bounds), on every backend."""

from __future__ import annotations

import itertools
import json
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import ROOT, one_line_error
from ubongo_cp.errors import InputError
from ubongo_cp.exactcover import (exact_cover_matrix, format_exact_cover, knuth_text, parse_exact_cover,
                                 read_exact_cover, verify_cover)
from ubongo_cp.solvers import check_backend, get_solver, solve, solver_names

DATA = ROOT / "tests" / "data" / "exact_cover"
KNUTH = DATA / "knuth_7_2_2_1_5.dlx"


@pytest.mark.parametrize("backend", solver_names())
def test_knuths_example_has_its_one_cover_on_every_backend(backend):
    # TAOCP 7.2.2.1 (5): the only exact cover is options 1, 4, 5 ('c e', 'a d f', 'b g'), file lines 4, 7, 8.
    result = solve(read_exact_cover(KNUTH), backend=backend)
    assert (result.count, result.complete) == (1, True)
    assert result.solutions == [{"line 4": ["c", "e"], "line 7": ["a", "d", "f"], "line 8": ["b", "g"]}]


def _brute_force(n_primary: int, n_items: int, options: list[list[int]]) -> int:
    """Exact covers by trying every set of options (primary exactly once, secondary at most once)."""
    total = 0
    for k in range(len(options) + 1):
        for chosen in itertools.combinations(options, k):
            cover = [0] * n_items
            for option in chosen:
                for i in option:
                    cover[i] += 1
            total += all(c == 1 for c in cover[:n_primary]) and all(c <= 1 for c in cover[n_primary:])
    return total


@st.composite
def matrices(draw):
    n_primary = draw(st.integers(1, 5))
    n_secondary = draw(st.integers(0, 3))
    n = n_primary + n_secondary
    options = draw(st.lists(st.lists(st.integers(0, n - 1), min_size=1, max_size=4, unique=True)
                            .filter(lambda o: min(o) < n_primary), min_size=1, max_size=9))
    return n_primary, n, options


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(matrices())
def test_every_backend_agrees_with_brute_force_on_random_matrices(case):
    n_primary, n, options = case
    names = [f"i{k}" for k in range(n)]
    matrix = exact_cover_matrix(names[:n_primary], names[n_primary:], [[names[i] for i in o] for o in options])
    expected = _brute_force(n_primary, n, options)
    for backend in solver_names():
        result = solve(matrix, backend=backend, keep=0)
        assert (result.count, result.complete) == (expected, True), backend
    # every cover passes the independent check, and the matrix written back in Knuth's format reads the same
    covers: list[list[int]] = []
    solve(matrix, backend="dlx", keep=0, on_solution=lambda options: covers.append(list(options)) or True)
    assert len(covers) == expected and all(verify_cover(matrix, c) is None for c in covers)
    assert solve(parse_exact_cover(knuth_text(matrix).text), backend="dlx", keep=0).count == expected


@pytest.mark.parametrize("text, line, message", [
    ("", None, "no item line"),
    ("| only a comment\n", None, "no item line"),
    ("a b | c | d\na\n", 1, "holds '|' twice"),
    ("a b |c |d\na\n", 1, "holds '|' twice"),
    ("a b a\na\n", 1, "item 'a' is named twice"),
    ("a b\nc:1 a\n", 2, "names unknown item 'c'"),
    ("a b | x\n\na b\nb q\n", 4, "names unknown item 'q'"),
    ("a b\na a\n", 2, "names item 'a' twice"),
    # a file written with commas, as a CSV: its items are one word
    ("a,b,c\na,b\nc\n", 2, "names unknown item 'a,b': items are separated by spaces or tabs, not commas"),
    ("a b c\na c\nb,c\n", 3, "names unknown item 'b,c': items are separated by spaces or tabs, not commas"),
    ("a b | x:y\na\n", 1, "only primary items take bounds"),
    ("a b | 2|x\na\n", 1, "only primary items take bounds"),
    ("a 3:2|b\na\n", 1, "bounds 3:2"),
    ("a 0|b\na\n", 1, "upper bound 0"),
    ("a x:2|b\na\n", 1, "bounds are written u:v|item"),
    ("a :2|b\na\n", 1, "bounds are written u:v|item"),
    ("a 2|\na\n", 1, "an item name is empty (bounds are written u:v|item: the name follows the '|')"),
    ("a 1:2:3|b\na\n", 1, "bounds are written u:v|item"),
    ("a 99999999999999|b\na\n", 1, "is over"),
    # digits of another script are no decimal bounds for Knuth's programs (once '\u0663|b' read as 3|b)
    ("a \u0663|b\na\n", 1, "bounds are written u:v|item or v|item, with decimal u and v"),
    ("a 1:\uff12|b\na\n", 1, "bounds are written u:v|item or v|item, with decimal u and v"),
    ("a b\na:1 b\n", 2, "gives primary item 'a' a colour"),
    ("a | x\na x:\n", 2, "is not item:colour"),
])
def test_bad_files_name_file_and_line(tmp_path, text, line, message):
    path = tmp_path / "bad.dlx"
    path.write_text(text)
    with pytest.raises(InputError) as err:
        read_exact_cover(path)
    assert err.value.path == str(path) and err.value.line == line
    assert message is None or message in err.value.message


def test_options_that_cover_no_primary_item_are_skipped():
    # As Knuth's programs do. Before: dlx/xcover counted 8, CP-SAT 32 and sat 12 on one matrix with two
    # empty options, so they were refused; skipped, every backend counts the one cover of a and b.
    m = exact_cover_matrix(["a", "b"], ["x"], [["a"], [], ["b"], ["x"], ["a", "b"]])
    assert m.skipped == ("option 2", "option 4") and m.option_labels == ("option 1", "option 3", "option 5")
    for backend in solver_names():
        assert solve(m, backend=backend, keep=0).count == 2, backend


# Knuth's own examples (the opening examples of his programs DLX1, DLX2 and DLX3), with the one solution
# each documents.
KNUTH_EXAMPLES = [
    ("knuth_dlx1_secondary.dlx", {"line 4": ["C", "E", "F"], "line 7": ["A", "D"], "line 8": ["B", "G"]}),
    ("knuth_dlx2_colours.dlx", {"line 5": ["A", "C", "X:1", "Y:1"], "line 7": ["B", "X:1"]}),
    ("knuth_dlx3_bounds.dlx", {"line 5": ["A", "C", "X:1", "Y:1"], "line 7": ["B", "X:1"],
                               "line 8": ["C", "Y:1"]}),
]


def _refusal(matrix, backend: str) -> str | None:
    """The message with which ``backend`` refuses ``matrix`` (colours, ranges, bounds it does not take), or None."""
    spec = get_solver(backend)
    if matrix.colours is not None and not spec.colours:
        return "does not take colours"
    if matrix.multiplicity is not None and not spec.ranges and any(0 < lo < hi for lo, hi in matrix.multiplicity.tolist()):
        return "takes bounds"
    if matrix.bounds is not None and not spec.bounds:
        return "does not take bounds"
    if matrix.bounds is not None and not spec.multiplicities:
        return "has no multiplicities"
    if spec.diagram and spec.name != "auto" and matrix.bounds is not None:  # ``auto`` counts these with the kernel
        bounds = matrix.bounds.tolist()
        if any(all(bounds[i] != [1, 1] for i in matrix._items(o)) for o in range(matrix.n_options)):
            return "takes only options that each cover an item of bounds"  # the diagram branches on those
    return None


@pytest.mark.parametrize("name, cover", KNUTH_EXAMPLES)
@pytest.mark.parametrize("backend", solver_names())
def test_knuths_dlx2_and_dlx3_examples_have_their_documented_solution(name, cover, backend):
    matrix = read_exact_cover(DATA / name)
    refusal = _refusal(matrix, backend)
    if refusal:
        with pytest.raises(InputError, match=refusal):
            solve(matrix, backend=backend)
        return
    result = solve(matrix, backend=backend)
    assert (result.count, result.complete, result.solutions) == (1, True, [cover])


def test_a_bounded_item_is_not_read_as_the_secondary_separator(run_cli, tmp_path):
    # 'x y 2|a' names three primary items, a covered twice: one cover {x a, y a}. Read as
    # 'x y 2 | a' it had no cover at all ("no exact cover", exit 0): a wrong answer.
    f = tmp_path / "bounded.dlx"
    f.write_text("x y 2|a\nx a\ny a\n")
    m = read_exact_cover(f)
    assert (m.item_names, m.n_primary, m.multiplicity.tolist()) == (("x", "y", "a"), 3, [[1, 1], [1, 1], [2, 2]])
    code, out, _ = run_cli("exact-cover", f, "--count", "--json")
    assert code == 0 and (json.loads(out)["count"], json.loads(out)["complete"]) == (1, True)


def test_the_empty_cover_is_printed_as_a_cover(run_cli, tmp_path):
    # a may be covered 0 or 1 times: the covers are {line 2} and {} (brute force: 2 of the 2 subsets)
    f = tmp_path / "empty.dlx"
    f.write_text("0:1|a\na\n")
    assert solve(read_exact_cover(f), backend="dlx").count == 2
    code, out, _ = run_cli("exact-cover", f, "--count")
    assert code == 0
    assert out.splitlines()[1:] == ["solution 1:", "  a  (line 2)", "solution 2:", "  (no option)"]


def test_zdd_refuses_an_option_without_a_once_covered_item_up_front_naming_its_line(run_cli, monkeypatch):
    # A B 2:3|C: line 6 (C X:0) covers only C [2..3] and a secondary item; the one cover is lines 5, 7, 8
    path = DATA / "knuth_dlx3_bounds.dlx"
    import ubongo_cp.solvers.zdd as zdd

    def no_build(*args, **kwargs):
        raise AssertionError("the diagram builder ran")

    monkeypatch.setattr(zdd, "_builder", no_build)  # refused before any work
    for backend in ("zdd", "zdd-symmetry"):
        with pytest.raises(InputError) as info:
            solve(read_exact_cover(path), backend=backend)
        assert (info.value.path, info.value.line) == (str(path), 6)
        why, _, fits = info.value.message.partition("; choose one of ")
        assert why == (f"backend {backend!r} takes only options that each cover an item of bounds [1..1] (the "
                       "decision diagram branches on those), and the option on this line covers none")
        assert {"auto", "dlx"} <= set(fits.split(", ")) and not {"zdd", "zdd-symmetry"} & set(fits.split(", "))
    monkeypatch.undo()  # auto tries the diagram, then counts on the kernel
    code, out, _ = run_cli("exact-cover", path, "--count", "--json", "--backend", "auto")
    data = json.loads(out)
    assert code == 0 and data["count"] == 1 and list(data["solutions"][0]) == ["line 5", "line 7", "line 8"]


def test_a_line_beginning_with_a_bar_after_spaces_is_a_comment_as_in_knuths_programs(run_cli, tmp_path):
    # DLX1 skips the spaces, then a line whose first character is '|' (a comment): ' s' is the item
    # line, s a primary item in no option (no option line follows): no cover
    m = parse_exact_cover(" | s\n s\n")
    assert (m.item_names, m.n_primary, m.n_options) == (("s",), 1, 0)
    f = tmp_path / "bar.dlx"
    f.write_text(" | s\n s\n")
    code, out, _ = run_cli("exact-cover", f, "--count")
    assert code == 0 and out.strip() == "no exact cover (primary item s is in no option)"
    # with a primary item first, s is secondary: 'a | s' with options 'a s' and 'a' has 2 covers
    assert solve(parse_exact_cover("a | s\na s\na\n"), backend="dlx").count == 2


def test_a_form_feed_in_a_comment_does_not_end_its_line(run_cli, tmp_path):
    # Knuth's programs read lines up to '\n'; a page break (form feed) or a Unicode line separator in a
    # comment is part of the comment. Once read as two lines: the text after it an option, and the lines
    # after it numbered one too far.
    for sep in ("\x0c", "\x1c", "\x85", "\u2028"):
        m = parse_exact_cover(f"a b\n| page{sep}b\na b\n")
        assert (m.n_options, m.option_labels) == (1, ("line 3",))
    f = tmp_path / "ff.dlx"
    f.write_text("a b\n| page 2\x0cwith more\nq\n")
    code, _, err = run_cli("exact-cover", f, "--count")
    assert code == 2 and err == f"ubongo-cp: error: {f}:3: option names unknown item 'q'\n"


def test_cli_names_a_burrtools_file_for_what_it_is(run_cli, tmp_path):
    # A BurrTools file (gzip-compressed XML) given to exact-cover was reported as "not UTF-8 text".
    puzzle = tmp_path / "dominoes.xmpuzzle"
    assert run_cli("export", "--pieces", "classic", "--region", "2x4", "--use", "I2,I2,I2,I2", "--out", puzzle)[0] == 0
    code, out, err = run_cli("exact-cover", puzzle, "--count")
    assert (code, out) == (2, "")
    one_line_error(code, err, f"{puzzle}: a BurrTools file, not an exact-cover instance: `ubongo-cp solve {puzzle}` "
                              "reads its pieces and result")
    assert run_cli("solve", puzzle, "--count", "--json")[0] == 0


def test_cli_warns_once_about_skipped_options(run_cli):
    code, out, err = run_cli("exact-cover", DATA / "knuth_dlx2_colours.dlx", "--count")
    assert code == 0 and out.startswith("1 exact cover")
    assert err.strip() == ("ubongo-cp: warning: 1 option covers no primary item and is skipped, as in Knuth's "
                           "programs (line 6)")


def _brute_force_general(n_primary, n, options, colours, bounds):
    """Covers of a matrix with colours and bounds, by trying every set of options.

    Primary item i: covered between bounds[i]; secondary item: by at most one option, or by any number
    that all give it the same colour.
    """
    return sum(_is_cover(n_primary, n, options, colours, bounds, chosen)
               for k in range(len(options) + 1) for chosen in itertools.combinations(range(len(options)), k))


def _is_cover(n_primary, n, options, colours, bounds, chosen) -> bool:
    """Whether the options ``chosen`` (indices) cover the items as :func:`_brute_force_general` asks."""
    hits = [[] for _ in range(n)]
    for o in chosen:
        for i, c in zip(options[o], colours[o]):
            hits[i].append(c)
    ok = all(bounds[i][0] <= len(hits[i]) <= bounds[i][1] for i in range(n_primary))
    return ok and all(len(h) <= 1 or (0 not in h and len(set(h)) == 1) for h in hits[n_primary:])


@st.composite
def coloured_bounded(draw):
    n_primary = draw(st.integers(1, 4))
    n_secondary = draw(st.integers(1, 3))
    n = n_primary + n_secondary
    options = draw(st.lists(st.lists(st.integers(0, n - 1), min_size=1, max_size=4, unique=True),
                            min_size=1, max_size=9))
    colours = [[draw(st.integers(0, 2)) if i >= n_primary else 0 for i in o] for o in options]
    bounds = [(1, 1)] * n_primary
    if draw(st.booleans()):
        bounds = [(lo, draw(st.integers(max(lo, 1), 3))) for lo in draw(st.lists(st.integers(0, 2),
                                                                                  min_size=n_primary,
                                                                                  max_size=n_primary))]
    return n_primary, n, options, colours, bounds


def _coloured_matrix(case):
    """The matrix of a :func:`coloured_bounded` case: items ``i0 .. i<n-1>``, the first ``n_primary`` primary."""
    n_primary, n, options, colours, bounds = case
    names = [f"i{k}" for k in range(n)]
    words = [[names[i] + (f":{c}" if c else "") for i, c in zip(o, cs)] for o, cs in zip(options, colours)]
    return exact_cover_matrix(names[:n_primary], names[n_primary:], words,
                              bounds={names[i]: b for i, b in enumerate(bounds)})


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(coloured_bounded())
def test_colours_and_bounds_agree_with_brute_force_on_every_backend(case):
    n_primary, n, options, colours, bounds = case
    matrix = _coloured_matrix(case)
    kept = [k for k, o in enumerate(options) if min(o) < n_primary]  # the others are skipped
    expected = _brute_force_general(n_primary, n, [options[k] for k in kept], [colours[k] for k in kept], bounds)
    for backend in solver_names():
        refusal = _refusal(matrix, backend)
        if refusal:  # refused before any work, with the reason foreseen
            with pytest.raises(InputError, match=refusal):
                check_backend(matrix, backend)
            continue
        result = solve(matrix, backend=backend, keep=0)
        assert (result.count, result.complete) == (expected, True), backend
    # every cover passes the independent check, and the matrix written back in Knuth's format reads the same
    covers: list[list[int]] = []
    solve(matrix, backend="dlx", keep=0, on_solution=lambda options: covers.append(list(options)) or True)
    assert len(covers) == expected and all(verify_cover(matrix, c) is None for c in covers)
    assert solve(parse_exact_cover(knuth_text(matrix).text), backend="dlx", keep=0).count == expected


@pytest.mark.parametrize("text, chosen, reason", [
    ("a b | s\na s\nb s\n", [0, 1], "item s is covered 2 times"),            # no colours in the matrix
    ("a b | s t\na s t:x\nb s t:x\n", [0, 1], "item s is covered 2 times"),  # t shares its colour, s has none
    ("a b | t\na t:x\nb t:y\n", [0, 1], "item t is covered 2 times"),        # two colours
    ("a b | t\na t:x\nb t:x\n", [0, 1], None),                               # one colour: shared
])
def test_the_independent_check_of_secondary_items(text, chosen, reason):
    assert verify_cover(parse_exact_cover(text), chosen) == reason


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(coloured_bounded())
def test_the_independent_check_agrees_with_brute_force_on_every_set_of_options(case):
    # verify_cover judges a solver's answer (bench checks every solution with it): on every set of options it
    # accepts exactly the covers. Once a secondary item of a matrix without colours covered twice raised
    # KeyError instead of saying so (a wrong solver's answer crashed the check).
    n_primary, n, options, colours, bounds = case
    matrix = _coloured_matrix(case)
    kept = [k for k, o in enumerate(options) if min(o) < n_primary]  # the matrix's options, in order
    for k in range(len(kept) + 1):
        for chosen in itertools.combinations(range(len(kept)), k):
            valid = _is_cover(n_primary, n, [options[o] for o in kept], [colours[o] for o in kept], bounds, chosen)
            assert (verify_cover(matrix, list(chosen)) is None) == valid, chosen


def test_a_primary_item_in_no_option_is_settled_without_search():
    result = solve(parse_exact_cover("a b c\na b\n"))
    assert result.count == 0 and result.complete and result.stats["reason"] == "primary item c is in no option"


def test_cli_counts_and_prints_json(run_cli, tmp_path):
    code, out, _ = run_cli("exact-cover", KNUTH, "--count", "--json")
    data = json.loads(out)
    assert code == 0 and (data["count"], data["complete"], data["status"]) == (1, True, "solved")
    code, out, _ = run_cli("exact-cover", KNUTH, "--count", "--json", "--max-solutions", "all", "--backend", "sat")
    assert json.loads(out)["solutions"] == data["solutions"]
    code, out, _ = run_cli("exact-cover", KNUTH)
    assert out.splitlines() == ["solution:", "  c e    (line 4)", "  a d f  (line 7)", "  b g    (line 8)"]
    bad = tmp_path / "bad.dlx"
    bad.write_text("a b\na c\n")
    code, _, err = run_cli("exact-cover", bad)
    assert code == 2 and err.strip() == f"ubongo-cp: error: {bad}:2: option names unknown item 'c'"


def test_a_backend_that_cannot_take_the_matrix_is_refused_before_its_engine_loads(run_cli, tmp_path, monkeypatch):
    import ubongo_cp.cli.exactcover as command

    def no_engine(*args, **kwargs):
        raise AssertionError("the engine was loaded before the refusal")

    monkeypatch.setattr(command, "warm_engines", no_engine)
    bounded = tmp_path / "b.dlx"
    bounded.write_text("2:3|a b\na\na\na b\nb\n")
    code, out, err = run_cli("exact-cover", bounded, "--count", "--backend", "xcover")
    assert code == 2 and out == ""
    assert err.startswith("ubongo-cp: error: backend 'xcover' has no multiplicities: it cannot take items covered "
                          "a number of times between bounds; choose one of cpsat, ") and len(err.splitlines()) == 1
    # Only solvers that take the matrix's bounds are offered (the bitboard kernel takes none).
    offered = err.split("choose one of ")[1].strip().split(", ")
    assert "dlx" in offered and "bitboard" not in offered and "xcover" not in offered


@pytest.mark.slow
def test_compiling_xcover_shows_the_notice_and_no_numba_warning(tmp_path):
    # A machine's first use of xcover compiles it (numba); its own cast warnings are not the user's business.
    import os
    import subprocess
    import sys

    plain, bounded = tmp_path / "p.dlx", tmp_path / "b.dlx"
    plain.write_text("a b\na\nb\na b\n")
    bounded.write_text("2:3|a b\na\na\na b\nb\n")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}  # no cache yet: xcover is compiled

    def run(*argv):
        return subprocess.run([sys.executable, "-m", "ubongo_cp", "exact-cover", *map(str, argv)], cwd=ROOT,
                              env=env, capture_output=True, text=True, timeout=600)

    proc = run(bounded, "--count", "--backend", "xcover")  # refused at once, nothing compiled
    assert proc.returncode == 2 and proc.stderr.startswith("ubongo-cp: error: backend 'xcover' has no multiplicities")
    assert len(proc.stderr.splitlines()) == 1
    proc = run(plain, "--count", "--backend", "xcover")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == "compiling the search engine (once, about 25 s)\n"
    assert proc.stdout.startswith("2 exact covers [xcover, ")


def test_a_file_counted_in_the_dancing_cells_kernel_loads_no_numpy(tmp_path):
    # The pentominoes in 8x8 minus its centre 2x2, written as Knuth's programs read them (cells row by row): the
    # count chooses the most constrained item, counted in the dancing-cells kernel from the file's plain arrays.
    # numpy's import (about 0.08 s of CPU) took a third of that whole count; it is loaded only for a row of
    # solutions. The count is the published 520, as the dlx backend counts it in this process.
    import subprocess
    import sys

    from ubongo_cp.cover import build_instance
    from ubongo_cp.pieces import Region, load_pieces

    square = [(r, c) for r in range(8) for c in range(8)]
    inst = build_instance(list(load_pieces("pentominoes").pieces),
                          Region(tuple(c for c in square if not (3 <= c[0] <= 4 and 3 <= c[1] <= 4))))
    path = tmp_path / "8x8-2x2.dlx"
    path.write_text(knuth_text(inst).text)
    assert solve(read_exact_cover(path), backend="dlx", keep=0, reduce=False).count == 520
    code = ("import sys; from ubongo_cp.cli import main; rc = main(['exact-cover', sys.argv[1], '--count', "
            "'--max-solutions', '0', '--no-progress']); print('numpy' in sys.modules); sys.exit(rc)")
    proc = subprocess.run([sys.executable, "-c", code, str(path)], cwd=ROOT, capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("520 exact covers [bitboard: dlx, ") and proc.stdout.endswith("\nFalse\n")


def test_exact_cover_runs_on_bitboard_by_default_and_on_dlx_for_bounds(run_cli):
    # As docs/commands.md says: a first cover and --count on bitboard; dlx where its kernel cannot take the matrix.
    from ubongo_cp.solvers.registry import choose

    bounded = DATA / "knuth_dlx3_bounds.dlx"
    assert choose("first", read_exact_cover(KNUTH)) == "bitboard"  # what exact-cover runs without --backend
    assert choose("first", read_exact_cover(bounded)) == "dlx"
    code, out, _ = run_cli("exact-cover", KNUTH, "--count")
    assert code == 0 and out.startswith("1 exact cover [bitboard, ")
    code, out, _ = run_cli("exact-cover", bounded, "--count")
    assert code == 0 and out.startswith("1 exact cover [dlx, ")


def test_a_cube_puzzle_in_knuths_format_counts_the_same_and_its_solutions_check():
    """The Soma pieces L, Z, A, B in a 2x2x4 box, written in Knuth's format (cells named by layer, row and
    column), read back and counted by another path; the kernel's solutions pass the bench's check."""
    from ubongo_cp.bench.check import check_solution
    from ubongo_cp.cover import build_instance
    from ubongo_cp.pieces import load_pieces, parse_region

    soma = load_pieces("soma")
    region = parse_region("grid: cube\n####\n####\n---\n####\n####\n")
    inst = build_instance([soma[n] for n in ("L", "Z", "A", "B")], region)
    out = knuth_text(inst)
    assert out.text.split("\n", 1)[0].split()[:2] == ["l0r0c0", "l0r0c1"]
    direct = solve(inst, backend="dlx", keep=5)
    from_text = solve(parse_exact_cover(out.text), backend="dlx", keep=0, reduce=False)
    assert direct.count > 0 and from_text.count == direct.count * out.copies_factor

    built = SimpleNamespace(pieces=inst.pieces, region=region, instance=inst)  # what the bench built
    assert all(check_solution(built, sol) is None for sol in direct.solutions)


@pytest.mark.parametrize("text, line, word", [
    ("a\xa0b c\na\xa0b\nc\n", 1, "item name 'a\\xa0b' holds U+00A0 (NO-BREAK SPACE)"),
    ("a b c\na\u3000b\nc\n", 2, "item name 'a\\u3000b' holds U+3000 (IDEOGRAPHIC SPACE)"),
    ("a b\n\xa0| no comment\na b\n", 2, "item name '\\xa0|' holds U+00A0"),
    ("a | x\na x:0\u20021\n", 2, "colour '0\\u20021' holds U+2002 (EN SPACE)"),
])
def test_only_ascii_spaces_separate_words_as_in_knuths_programs(run_cli, tmp_path, text, line, word):
    # Knuth's programs split at C's isspace (ASCII): 'a\xa0b' is one word, never the items a and b (as
    # str.split read it: three items and two options, a silent other instance)
    f = tmp_path / "nbsp.dlx"
    f.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as err:
        read_exact_cover(f)
    assert (err.value.path, err.value.line) == (str(f), line)
    assert err.value.message.startswith(word)
    assert err.value.message.endswith("words are separated by ASCII spaces and tabs only, as in Knuth's programs, "
                                      "and hold no other space")
    code, out, errtext = run_cli("exact-cover", f, "--count")
    one_line_error(code, errtext, f"ubongo-cp: error: {f}:{line}: {word}")
    assert out == ""
    # ASCII blanks around and between words (tab, vertical tab, form feed) still separate
    m = parse_exact_cover("a\tb\x0bc\n\ta b \n\x0cc\n")
    assert (m.item_names, m.n_options) == (("a", "b", "c"), 2)


@pytest.mark.parametrize("ranges, max_empty, optional", [
    ({"D": (0, 6)}, 0, ()),
    ({"D": (1, 3), "L": (0, 4)}, 3, ()),
    ({}, 2, ()),
    ({}, 0, tuple((r, c) for r in (1, 2) for c in range(4))),
])
def test_a_puzzle_with_ranges_empty_or_optional_cells_in_knuths_format_counts_the_same(ranges, max_empty, optional):
    """Knuth's text of a puzzle whose pieces are used a range of times (DLX3 bounds on the type's item), with
    cells left empty or with optional cells (secondary items), read back: its covers are the puzzle's, times
    the orderings of the identical pieces it names one item each."""
    from ubongo_cp.cover import build_instance
    from ubongo_cp.pieces import Piece, Region

    domino, ell = Piece("D", ((0, 0), (0, 1))), Piece("L", ((0, 0), (1, 0), (1, 1)))
    region = Region(tuple((r, c) for r in range(3) for c in range(4) if (r, c) not in optional), optional=optional)
    inst = build_instance([domino, domino, ell, ell], region, ranges=dict(ranges), max_empty=max_empty)
    out = knuth_text(inst)
    direct = solve(inst, backend="dlx", keep=0, reduce=False)
    from_text = solve(parse_exact_cover(out.text), backend="dlx", keep=0, reduce=False)
    assert direct.count > 0 and from_text.count == direct.count * out.copies_factor


# A comment that holds a line break (a suite's instance name, a file's path) once wrote its second line as a line of
# the problem: bench gave an external solver a file whose item line was the rest of the instance's name.
@pytest.mark.parametrize("text", ["a b c\na b\nc\nb c\na\n", "a b 1:2|c | s\na s:x\nb c\nc s:x\na b c\n"])
def test_a_comment_holding_line_breaks_stays_a_comment(text):
    from ubongo_cp.solvers.cnf import dimacs_text

    matrix = parse_exact_cover(text)
    comments = ["suite x\nb c d", "two\r\nthree\rfour", ""]
    written = knuth_text(matrix, comments=comments).text
    assert written.splitlines()[:3] == ["| suite x b c d", "| two three four", "|"]
    again = parse_exact_cover(written)
    assert again.item_names == matrix.item_names and again.n_options == matrix.n_options
    count = solve(matrix, backend="dlx", keep=0).count
    assert count == solve(again, backend="dlx", keep=0).count == len(list(_brute_covers(matrix)))
    cnf = dimacs_text(matrix, comments=comments).splitlines()
    assert cnf[:3] == ["c suite x b c d", "c two three four", "c"] and cnf[3].startswith("p cnf ")


def _brute_covers(matrix):
    """Every set of options that verify_cover accepts (a small matrix only)."""
    for r in range(matrix.n_options + 1):
        for chosen in itertools.combinations(range(matrix.n_options), r):
            if verify_cover(matrix, chosen) is None:
                yield chosen



# The public functions of the module, called with the wrong types: each once raised what its inside met (an
# AttributeError, a TypeError, an IndexError), or wrote or accepted something wrong (a negative n_primary wrote
# an item line missing the last item; option 2.5 was taken for option 2, a valid cover).
@pytest.mark.parametrize("call, message", [
    (lambda: exact_cover_matrix(["a", "b"], [], [[0], [1]]), "option 1: an item is named by a string, got int 0"),
    (lambda: exact_cover_matrix(None, [], [["a"]]), "primary items must be a sequence of item names, got NoneType"),
    (lambda: exact_cover_matrix([1, 2], [], [["a"]]), "primary items: an item is named by a string, got int 1"),
    (lambda: exact_cover_matrix(["a"], [], None),
     "options must be a sequence of options (each a sequence of item names), got NoneType"),
    (lambda: exact_cover_matrix(["a"], [], [["a"], None]), "option 2 must be a sequence of item names, got NoneType"),
    (lambda: exact_cover_matrix(["a"], [], [["a"], ["a"]], labels=["x"]), "2 options but 1 label"),
    (lambda: exact_cover_matrix(["a"], [], [["a"]], bounds={"a": "1:2"}),
     "bounds of item 'a' must be a pair (lo, hi), got '1:2'"),
    (lambda: exact_cover_matrix([""], [], [[""]]), "an item name is empty"),
    (lambda: parse_exact_cover(b"a\na\n"), "parse_exact_cover reads text (a str), got bytes"),
    (lambda: parse_exact_cover(None), "parse_exact_cover reads text (a str), got NoneType"),
    (lambda: verify_cover(parse_exact_cover("a b\na\nb\na b\n"), None),
     "verify_cover needs a sequence of option numbers, got NoneType"),
    (lambda: format_exact_cover(["a", "b"], 2, [[0], [5]]), "option 2 names item 5 of 2 (0 to 1)"),
    (lambda: format_exact_cover(["a", "b"], -1, [[0], [1]]), "n_primary must be 1 to 2 (the items), got -1"),
    (lambda: format_exact_cover(["a", "b"], 5, [[0], [1]]), "n_primary must be 1 to 2 (the items), got 5"),
    (lambda: knuth_text(None), "knuth_text needs an exact-cover instance"),
])
def test_public_functions_refuse_wrong_types_with_a_message(call, message):
    with pytest.raises(InputError) as info:
        call()
    assert message in str(info.value), str(info.value)


@pytest.mark.parametrize("chosen, reason", [
    ([2.5], "option 2.5 is not an option number"),
    (["2"], "option '2' is not an option number"),
    ([True], "option True is not an option number"),
    ([2], None),                                     # {a b}: by hand
])
def test_the_independent_check_takes_only_option_numbers(chosen, reason):
    assert verify_cover(parse_exact_cover("a b\na\nb\na b\n"), chosen) == reason


# 19,999 primary items, each an option of its own, and one option covering them all: 2 covers, which xcover and sat
# count at once. The dancing-cells engine's saved states would take 1.5 GiB: the refusal once named no file and
# came from inside the engine, after it was chosen by default.
def test_an_instance_too_deep_for_the_dancing_cells_engine_is_refused_naming_the_file(run_cli, tmp_path):
    names = [f"i{k}" for k in range(19_999)]
    f = tmp_path / "deep.dlx"
    f.write_text(" ".join(names) + "\n" + " ".join(names) + "\n" + "".join(f"{n}\n" for n in names))
    for backend in ([], ["--backend", "dlx"], ["--backend", "dlx-symmetry"]):
        code, out, err = run_cli("exact-cover", f, "--count", *backend)
        one_line_error(code, err, f"{f}: ", "1.5 GiB", "choose one of", "xcover", "sat")
    code, out, err = run_cli("exact-cover", f, "--count", "--backend", "xcover")
    assert code == 0 and out.startswith("2 exact covers"), err   # the option of all, or each item on its own


# Knuth's programs read a line with fgets (it ends at "\n" only) and skip isspace between words, "\r" included:
# a carriage return is a blank, never a line end. Counts confirmed with Knuth's DLX1.
@pytest.mark.parametrize("text, options, count", [
    ("a b c\na\rb\nc\na\nb\n", [["a", "b"], ["c"], ["a"], ["b"]], 2),    # "a\rb" is the option a b (DLX1: 2)
    ("a b c\n| note\rb c\na\nb c\n", [["a"], ["b", "c"]], 1),             # the "b c" after "\r" is comment
    ("a\rb c\na b\nc\n", [["a", "b"], ["c"]], 1),                          # the item line names a, b and c
    ("a b c\r\na b\r\nc\r\na\r\nb\r\n", [["a", "b"], ["c"], ["a"], ["b"]], 2),   # Windows line ends
])
def test_a_carriage_return_is_a_blank_in_knuths_format_as_in_his_programs(tmp_path, run_cli, text, options, count):
    f = tmp_path / "cr.dlx"
    f.write_bytes(text.encode())
    for m in (parse_exact_cover(text), read_exact_cover(f)):
        assert m.item_names == ("a", "b", "c")
        assert [[m.item_names[i] for i in m.option_items(j)] for j in range(m.n_options)] == options
        assert solve(m, backend="dlx", keep=0).count == count
    code, out, _ = run_cli("exact-cover", f, "--count")
    assert code == 0 and out.startswith(f"{count} exact cover")


def test_instances_and_matrices_built_alike_are_equal_and_hashable():
    # Both compared by identity: two built the same way were unequal, and a set held both.
    from ubongo_cp.cover import build_instance
    from ubongo_cp.pieces import load_pieces, load_region

    pentominoes = list(load_pieces("pentominoes").pieces)
    region = load_region(ROOT / "puzzles" / "examples" / "rect_6x10.txt")
    a, b = build_instance(pentominoes, region), build_instance(pentominoes, region)
    assert a is not b and a == b and hash(a) == hash(b) and len({a, b}) == 1 and {a: 1}[b] == 1
    assert a != build_instance(pentominoes, region, mode="fixed")                  # other options
    assert a != build_instance(pentominoes[:11], region, optional_pieces=True)     # other pieces and rules
    assert a != build_instance(pentominoes, region, optional_pieces=True)          # the same options, other rules
    assert a.assign([("X", [(0, 1), (1, 0), (1, 1), (1, 2), (2, 1)])]) != a           # fewer options
    knuth = ROOT / "puzzles" / "bench" / "knuth" / "queens4.dlx"
    m, again = read_exact_cover(knuth), parse_exact_cover("| a copy, not read from the file\n" + knuth.read_text())
    assert m is not again and m == again and hash(m) == hash(again) and len({m, again}) == 1
    assert m.path != again.path and m.option_lines != again.option_lines   # where they came from: not compared
    base = "a b c | s\na s:x\nb s:y\nc\n"
    assert parse_exact_cover(base) == parse_exact_cover(base.replace("\nc\n", "\n| skipped: no primary item\nc\n"))
    for other in ("a b c | s\na s:y\nb s:y\nc\n",     # a colour
                  "a b 2|c | s\na s:x\nb s:y\nc\n",   # a bound
                  "a b c | s\nb s:y\na s:x\nc\n",     # the options' order
                  "a b c | s\ns:x a\nb s:y\nc\n",     # an option's items' order
                  "a c b | s\na s:x\nb s:y\nc\n",     # the items' order
                  "a b | c s\na s:x\nb s:y\nc\n"):    # a primary item made secondary
        assert parse_exact_cover(other) != parse_exact_cover(base), other
    assert m != a and a != m and m != "queens4"


def test_a_file_whose_lines_end_in_a_lone_carriage_return_says_so(run_cli, tmp_path):
    # An old Mac text file (lines ended by "\r" alone) is one line to Knuth's programs and to this reader: it was
    # refused for whatever that line then held ("secondary item 'e:1': only primary items take bounds ..."), with
    # no word of the line ends.
    lines = ["a b c d | e", "a b", "c d e:1", "a c", "b d", "b d e:2"]
    mac, unix, windows = (tmp_path / name for name in ("mac.dlx", "unix.dlx", "windows.dlx"))
    for path, end in ((mac, "\r"), (unix, "\n"), (windows, "\r\n")):
        path.write_bytes((end.join(lines) + end).encode())
    said = (f"{mac}:1: secondary item 'e:1': only primary items take bounds (u:v|item), and an item name holds no "
            "'|' or ':'; its lines end in a lone carriage return (\\r, as an old Mac text file's), which ends no line "
            "in Knuth's format: save it with \\n line ends")
    assert run_cli("exact-cover", mac) == (2, "", f"ubongo-cp: error: {said}\n")
    with pytest.raises(InputError) as exc:
        read_exact_cover(mac)
    assert str(exc.value) == said
    for path in (unix, windows):   # the same instance: a b + c d e:1, a c + b d, and a c + b d e:2
        code, out, err = run_cli("exact-cover", path, "--count")
        assert code == 0 and out.startswith("3 exact covers"), err
