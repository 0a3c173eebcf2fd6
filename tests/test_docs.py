"""Every example of the documentation site runs and prints what the page shows (issue 17).

A runnable page's (getting started, the tutorials) ```python blocks written as sessions (``>>>``) and its ```console
blocks (``$ ubongo-cp ...`` followed by the output) run as one doctest per
page, in order, in a fresh empty directory (``...`` in an output stands for
what varies: times, paths): a page gets its files from ``ubongo-cp examples``
as a user would. ``tests/test_packaging.py`` runs them again against the
installed wheel. The site itself
is built by ``make docs`` (``sphinx-build -W -n``); the generator of its rules
page is checked here against the sources it scans.
"""

from __future__ import annotations

import doctest
import importlib.util
import io
import json
import re
import shlex
import textwrap
from contextlib import redirect_stdout
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
BLOCK = re.compile(r"^```(python|console)\n(.*?)^```", re.S | re.M)


def _pages() -> list[Path]:
    """The pages written to be run: getting started and the tutorials (the other pages quote
    real runs of long or machine-dependent commands, e.g. whole decks and shell pipelines)."""
    pages = [DOCS / "getting-started.md", *sorted((DOCS / "tutorials").glob("*.md"))]
    return [p for p in pages
            if any(lang == "console" or ">>> " in body for lang, body in BLOCK.findall(p.read_text(encoding="utf-8")))]


def _session(text: str) -> str:
    """The page's examples as one doctest session; console commands become ``sh(...)`` calls."""
    out = []
    for lang, body in BLOCK.findall(text):
        if lang == "python":
            if ">>> " in body:
                out.append(body)
            continue
        for line in body.splitlines():
            if line.startswith("$ "):     # sh echoes the command: an output may then start with "..."
                out += [f">>> sh({line[2:]!r})", line]
            else:
                out.append(line if line.strip() else "<BLANKLINE>")
        out.append("")
    return "\n".join(out)


def sh(command: str) -> None:
    """Run one documented ``ubongo-cp`` command in this process; print its standard output."""
    from ubongo_cp.cli import main

    argv = shlex.split(command)
    assert argv[0] == "ubongo-cp", f"the docs run only ubongo-cp commands, not {command!r}"
    print("$ " + command)
    buf = io.StringIO()
    with redirect_stdout(buf):
        code = main(argv[1:])
    print(buf.getvalue(), end="")
    assert code == 0, f"{command!r} exited with status {code}"


def test_pages_found():
    names = {p.relative_to(DOCS).as_posix() for p in _pages()}
    assert {"getting-started.md", "tutorials/solve.md", "tutorials/design.md", "tutorials/batch.md",
            "tutorials/strategies.md", "tutorials/dask.md", "tutorials/games.md"} <= names


@pytest.mark.parametrize("page", _pages(), ids=lambda p: p.relative_to(DOCS).as_posix())
def test_page_examples_run(page, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MPLBACKEND", "Agg")
    failures = run_page(page)
    assert failures == 0, f"{page.relative_to(ROOT)}: {failures} example(s) failed (output above)"


def test_a_notebook_a_page_opens_is_offered_for_download():
    # Installed from a wheel, a user has no notebooks/ folder: what a page's ``jupyter lab X`` opens
    # (the command, not a comment for a checkout) is a file the page offers as a download, and it exists.
    opened = 0
    for page in _pages():
        text = page.read_text(encoding="utf-8")
        offered = {Path(target).name: (page.parent / target) for target in re.findall(r"\{download\}`[^`<]*<([^>]+)>`", text)}
        for block in re.findall(r"^```bash\n(.*?)^```", text, re.S | re.M):
            for line in block.splitlines():
                command = line.split("#")[0].split()
                if command[:2] == ["jupyter", "lab"]:
                    opened += 1
                    name = command[2] if len(command) > 2 else "."
                    assert name in offered, f"{page.name}: `jupyter lab {name}` opens no file the page offers"
                    assert offered[name].is_file(), f"{page.name}: the download {offered[name]} is missing"
    assert opened, "no page opens a notebook"


def _reference_pages() -> list[Path]:
    """The other pages with Python sessions (``>>>``): their sessions run too (their console blocks mostly quote
    long or machine-dependent runs; the quick ones are in ``REFERENCE_COMMANDS``)."""
    runnable = set(_pages())
    return [p for p in sorted(DOCS.rglob("*.md")) if "_build" not in p.parts and p not in runnable
            and any(lang == "python" and ">>> " in body for lang, body in BLOCK.findall(p.read_text(encoding="utf-8")))]


@pytest.mark.parametrize("page", _reference_pages(), ids=lambda p: p.relative_to(DOCS).as_posix())
def test_reference_page_sessions_run(page, tmp_path, monkeypatch):
    # e.g. the decision diagram's page: the 12,988,816 domino tilings of 8x8 (OEIS A004003), half of them with
    # the corner cell covered by the domino across (the reflection in the diagonal swaps the two ways).
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MPLBACKEND", "Agg")
    sessions = "\n".join(body for lang, body in BLOCK.findall(page.read_text(encoding="utf-8"))
                         if lang == "python" and ">>> " in body)
    test = doctest.DocTestParser().get_doctest(sessions, {}, page.name, str(page), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert test.examples and runner.failures == 0, f"{page.relative_to(ROOT)}: {runner.failures} example(s) failed"


def test_reference_pages_found():
    assert "diagram.md" in {p.relative_to(DOCS).as_posix() for p in _reference_pages()}


# The console examples of the reference pages that run in a moment on the shipped examples (``ubongo-cp examples
# --copy .``) or on files the page writes: each prints what its page shows, times aside (``0.064 s``). The
# other examples of these pages are long runs (a census, whole decks), random (``--estimate`` probes) or
# machine-dependent (time-limited questions), and are left to their pages' words.
REFERENCE_COMMANDS = {
    "commands.md": [
        "solve --pieces classic --region rect_3x4.txt --use L3,L4,I2 --max-empty 3 --count --max-solutions 1",
        "solve --pieces classic --region square.txt --use I2,I2 --count",
        "solve --pieces pentominoes --region rect_3x20.txt --count --backend dlx",
        "solve --pieces pentominoes --region rect_6x10.txt --count --max-solutions 1",
        "solve classic_X1_easy.toml --face 1",
        "solve --pieces tetrominoes --region rect_6x10.txt --use I,O,T,S,L,I,O,T,S,L,I,O,T,S,L",
        "solve --pieces pentominoes --region rect_6x10.txt --estimate",
        "analyze --pieces duel --region duel_board1.txt --k 3",
        "analyze --pieces duel --region duel_board1.txt --k 3 --max-empty 1",
        "analyze --pieces classic --region six_by_eight.txt --k 2",
        "census --pieces classic --k 4 --cells 20 --out c20",
        "export --pieces classic --region 2x4 --use I2,I2,I2,I2 --out dominoes.dlx",
        "exact-cover dominoes.dlx --count",
        "solve --pieces classic --region 2x4 --use I2,I2,I2,I2 --count",
        "exact-cover knuth5.dlx --count",
        "exact-cover bad_item.dlx",
    ],
    "formats.md": ["solve --pieces two_dominoes.txt --region 2x2 --count",
                   "export --pieces two_dominoes.txt --region 2x2 --out two_dominoes.dlx",
                   "exact-cover two_dominoes.dlx --count --max-solutions 1", "solve card_wrong_area.toml"],
    "domino.md": [
        "simulate domino --replay bad.json",
        "simulate domino --players 4 --games 1000 --agents random --seed 1 --first-player 3 --must-attach "
        "--stall-distance free_fields --stall-ties nobody",
    ],
    "orion.md": ['orion analyze bad_game.json; echo "exit $?"'],
}
_TIME = re.compile(r"\b\d+(?:\.\d+)? s\b")


def _page_commands(text: str) -> list[tuple[str, str]]:
    """A page's console commands (``$ ...``) in order, each with the output the page shows."""
    found = []
    for _lang, body in re.findall(r"^ *```(\w*)\n(.*?)^ *```", text, re.S | re.M):
        lines = textwrap.dedent(body).splitlines()
        starts = [i for i, line in enumerate(lines) if line.startswith("$ ")] + [len(lines)]
        for a, b in zip(starts, starts[1:]):
            found.append((lines[a][2:], "\n".join(lines[a + 1:b]).strip("\n") + "\n"))
    return found


@pytest.mark.parametrize("name", sorted(REFERENCE_COMMANDS))
def test_reference_page_commands_print_what_the_page_shows(name, tmp_path, monkeypatch):
    import subprocess
    from contextlib import redirect_stderr

    from ubongo_cp.cli import main

    monkeypatch.chdir(tmp_path)
    text = (DOCS / name).read_text(encoding="utf-8")
    with redirect_stdout(io.StringIO()):
        assert main(["examples", "--copy", "."]) == 0
    # the files a page writes: a TOML block after its file name ("`card.toml`:"), and its printf/for lines
    for file, body in re.findall(r"`([\w.-]+\.toml)`:\n\n```toml\n(.*?)^```", text, re.S | re.M):
        (tmp_path / file).write_text(body)
    if name == "domino.md":   # bad.json: the page's recorded game (seed 11) with move 10's action made 76
        with redirect_stdout(io.StringIO()):
            main(["simulate", "domino", "--players", "3", "--games", "1", "--agents", "careful,greedy,lookahead",
                  "--seed", "11", "--record", "game.json"])
        record = json.loads((tmp_path / "game.json").read_text())
        record["moves"][9] = {**record["moves"][9], "action": 76, "text": "attach 4-5 at end as 4|5"}
        record["moves"][9].pop("swap_depth", None)
        (tmp_path / "bad.json").write_text(json.dumps(record))
    if name == "orion.md":    # bad_game.json: the page's game (seed 3) with move 2 laid where move 1 lies
        with redirect_stdout(io.StringIO()):
            main(["orion", "play", "--p0", "greedy", "--p1", "random", "--seed", "3", "--save", "game.json"])
        record = json.loads((tmp_path / "game.json").read_text())
        record["moves"][1] = {**record["moves"][0], "player": 1}
        (tmp_path / "bad_game.json").write_text(json.dumps(record))
    wanted = REFERENCE_COMMANDS[name]
    checker, ran = doctest.OutputChecker(), []
    for command, shown in _page_commands(text):
        if command.startswith(("printf ", "for ")):
            subprocess.run(["bash", "-c", command], check=True)
        if not command.startswith("ubongo-cp ") or command[len("ubongo-cp "):] not in wanted:
            continue
        out = io.StringIO()
        argv, _, status = command.partition("; echo ")   # '; echo "exit $?"': the page shows the exit status
        with redirect_stdout(out), redirect_stderr(out):
            code = main(shlex.split(argv)[1:])
        if status:
            print(f"exit {code}", file=out)
        got, want = _TIME.sub("T s", out.getvalue()), _TIME.sub("T s", shown)
        assert checker.check_output(want, got, doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE), \
            f"{name}: $ {command}\npage:\n{shown}\ngot:\n{out.getvalue()}"
        ran.append(command[len("ubongo-cp "):])
    assert ran == wanted, f"{name}: examples not found on the page: {sorted(set(wanted) - set(ran))}"


def run_page(page: Path) -> int:
    """Run a page's examples in the current directory; the number of failed examples."""
    session = _session(page.read_text(encoding="utf-8"))
    test = doctest.DocTestParser().get_doctest(session, {"sh": sh}, page.name, str(page), 0)
    assert test.examples, f"{page}: no examples"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    return runner.failures


def _generator():
    spec = importlib.util.spec_from_file_location("ubongo_docs", DOCS / "_ext" / "ubongo_docs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_rule_links_follow_the_sources():
    # The rules page's links are computed from the code and the tests: check the scan against a
    # direct reading of two places that cite rules (a handicap rule in the Duel engine, and a test).
    gen = _generator()
    code = gen.code_citations(ROOT)
    tests = gen.test_citations(ROOT)
    duel = (ROOT / "ubongo_cp/games/duel/state.py").read_text().splitlines()
    lines = [i for i, ln in enumerate(duel, 1) if re.search(r"\bUD-7\b", ln)]
    assert lines, "the Duel engine cites UD-7"
    assert {ln for f, _, ln in code["UD-7"] if f == "ubongo_cp/games/duel/state.py"}
    for rid in ("UP-2", "UD-7", "OD-3", "DN-12"):
        assert tests[rid], f"no test cites {rid}"
        for file, name in tests[rid]:
            src = (ROOT / file).read_text()
            assert re.search(rf"^(def|class) {name}\b", src, re.M)
    assert gen._ids_in("OD-2…OD-5") == {"OD-2", "OD-3", "OD-4", "OD-5"}
    assert gen._ids_in("UP-2, UG-10") == {"UP-2", "UG-10"}


@pytest.mark.skipif(not (ROOT.parent / "shared" / "RULES.md").exists(), reason="no ../shared beside the checkout")
def test_the_rules_copy_is_the_shared_file():
    # One copy of the rules in the repository (read by the tests and the site); it must not
    # drift from the shared original where that sits beside the checkout.
    gen = _generator()
    assert (ROOT / gen.RULES_FILE).read_bytes() == (ROOT.parent / "shared" / "RULES.md").read_bytes()


def test_every_rule_id_of_the_rules_file_gets_an_anchor(tmp_path):
    gen = _generator()
    src = tmp_path / "docs"
    src.mkdir()
    rules = (ROOT / gen.RULES_FILE).read_text()
    gen.write_rules(src, ROOT, documented={})
    page = (src / "rules" / "index.md").read_text()
    ids = re.findall(r"^- ((?:UP|UG|UD|OD|DN)-\d+) ", rules, re.M)
    assert len(ids) >= 40
    assert sorted(re.findall(r"^\(rule-([a-z]+-\d+)\)=$", page, re.M)) == sorted(i.lower() for i in ids)


def _layout_checker():
    spec = importlib.util.spec_from_file_location("check_layout", DOCS / "_ext" / "check_layout.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
@pytest.mark.skipif(not (DOCS / "_build" / "html" / "tutorials" / "design.html").exists(),
                    reason="the site is not built (make docs)")
def test_code_blocks_fit_at_1280_px_in_a_headless_browser():
    # make docs runs the same check on every page; here the pages with the longest command lines.
    checker = _layout_checker()
    if checker.chromium() is None:
        pytest.skip("no Chromium (apt-get install chromium)")
    results, problems = checker.check(DOCS / "_build" / "html", 1280, ["tutorials/*.html", "commands.html"])
    assert not problems, "\n".join(problems)
    assert len(results) >= 8 and sum(r["code"] for r in results) > 50


def test_the_layout_check_sees_a_cut_block_and_an_empty_column(tmp_path):
    checker = _layout_checker()
    if checker.chromium() is None:
        pytest.skip("no Chromium (apt-get install chromium)")
    (tmp_path / "page.html").write_text(
        '<html><body><div class="bd-sidebar-primary" style="width:300px;float:left">Section Navigation</div>'
        '<div class="highlight"><pre style="width:200px;overflow:auto">$ ubongo-cp batch examples --out results '
        '--executor dask --jobs 2   # a comment nobody sees</pre></div>'
        '<div class="highlight"><pre style="width:600px;overflow:auto">short</pre></div></body></html>')
    results, problems = checker.check(tmp_path, 1280)
    assert [r["code"] for r in results] == [2]
    assert problems == ["page.html: a code block is cut at 1280 px: '$ ubongo-cp batch examples --out results "
                        "--executor dask --jobs 2   # '", "page.html: an empty left column takes 300 px"]
