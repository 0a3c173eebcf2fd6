"""General exact cover from Knuth's plain format (issue 13 B.4), on every backend."""

from __future__ import annotations

import itertools
import json

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import ROOT
from ubongo_cp.errors import InputError
from ubongo_cp.exactcover import exact_cover_matrix, parse_exact_cover, read_exact_cover
from ubongo_cp.solvers import solve, solver_names

KNUTH = ROOT / "tests" / "data" / "exact_cover" / "knuth_7_2_2_1_5.dlx"


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


@pytest.mark.parametrize("text, line, message", [
    ("", None, "no item line"),
    ("| only a comment\n", None, "no item line"),
    ("a b | c | d\na\n", 1, "holds '|' twice"),
    ("a b a\na\n", 1, "item 'a' is named twice"),
    ("a b\nc:1 a\n", 2, None),
    ("a b | x\n\na b\nb q\n", 4, "names unknown item 'q'"),
    ("a b\na a\n", 2, "names item 'a' twice"),
    ("a b | x y\na b\nx y\n", 3, "covers no primary item"),
    ("a b | x:y\na\n", 1, "holds a space, '|' or ':'"),
])
def test_bad_files_name_file_and_line(tmp_path, text, line, message):
    path = tmp_path / "bad.dlx"
    path.write_text(text)
    with pytest.raises(InputError) as err:
        read_exact_cover(path)
    assert err.value.path == str(path) and err.value.line == line
    assert message is None or message in err.value.message


def test_python_options_that_cover_no_item_are_refused():
    # Before: dlx/xcover counted 8, CP-SAT 32 and sat 12 on one matrix with two empty options.
    with pytest.raises(InputError, match="option 2 covers no item"):
        exact_cover_matrix(["a", "b"], [], [["a"], [], ["b"], []])


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
