"""Check the built site's layout in a headless browser: at 1280 px every code block fits its column.

Usage::

    python docs/_ext/check_layout.py docs/_build/html [--width 1280] [--screenshots DIR] [--pages GLOB ...]

Loads every page (or the ``--pages`` globs) of the built site in headless Chromium, one after another
in a frame ``--width`` pixels wide, and measures, after layout: each code block's (``pre``) scroll
width against its visible width (a block whose end is hidden behind a scroll bar fails), the width of
the content column and of the left column, and whether the left column is empty ("Section Navigation"
with nothing under it fails). ``--screenshots DIR`` also saves a screenshot of each page named by the
``--shots`` globs (default: the tutorials and the commands page) for a look by eye.

Exit status 0 when every page passes, 1 with one line per problem, 0 with a note when no Chromium is
installed (``apt-get install chromium``; the check is then skipped, not failed).
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

#: Chromium's flags for a headless run on a machine without network or display (no first-run,
#: sync, background or component traffic).
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--allow-file-access-from-files", "--hide-scrollbars"]

#: Runs in a harness page: loads each page into a frame of the given width, measures, and writes the
#: results as JSON into the harness page (read back from --dump-dom).
HARNESS = """<!doctype html><html><body style="margin:0">
<iframe id="f" style="width:%(width)dpx;height:900px;border:0"></iframe>
<pre id="out">PENDING</pre>
<script>
const pages = %(pages)s;
const results = [];
const frame = document.getElementById("f");
function measure(doc) {
  const pres = [...doc.querySelectorAll("div.highlight pre, pre.literal-block")];
  const cut = pres.filter(p => p.scrollWidth > p.clientWidth + 1 && p.offsetParent !== null)
                  .map(p => (p.textContent.split("\\n").find(l => l.length > 40) || p.textContent).slice(0, 70));
  const article = doc.querySelector(".bd-article");
  const left = doc.querySelector(".bd-sidebar-primary");
  const leftWidth = left && left.offsetParent !== null ? left.getBoundingClientRect().width : 0;
  const leftText = left ? left.innerText.replace(/\\s+/g, " ").trim() : "";
  return {code: pres.length, cut: cut, article: article ? Math.round(article.getBoundingClientRect().width) : 0,
          left: Math.round(leftWidth), leftText: leftText.slice(0, 80)};
}
function next(i) {
  if (i >= pages.length) { document.getElementById("out").textContent = JSON.stringify(results); return; }
  frame.onload = () => setTimeout(() => {
    try { results.push(Object.assign({page: pages[i]}, measure(frame.contentDocument))); }
    catch (e) { results.push({page: pages[i], error: String(e)}); }
    next(i + 1);
  }, 150);
  frame.src = pages[i];
}
next(0);
</script></body></html>
"""


def chromium() -> str | None:
    """The Chromium executable, or None."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


def check(site: Path, width: int = 1280, pages: list[str] | None = None) -> tuple[list[dict], list[str]]:
    """Measure the pages; returns (measurements, problems)."""
    browser = chromium()
    assert browser is not None
    names = sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html")
                   if not p.name.startswith(("_", ".", "genindex", "search", "py-modindex"))
                   and "_modules/" not in p.relative_to(site).as_posix() and "_static/" not in p.as_posix())
    if pages:
        names = [n for n in names if any(fnmatch.fnmatch(n, g) for g in pages)]
    with tempfile.TemporaryDirectory(dir=site, prefix=".layout-") as tmp:
        harness = Path(tmp) / "harness.html"
        urls = [(site / n).resolve().as_uri() for n in names]
        harness.write_text(HARNESS % {"width": width, "pages": json.dumps(urls)}, encoding="utf-8")
        budget = str(max(20000, 1500 * len(urls)))
        out = subprocess.run([browser, *FLAGS, f"--virtual-time-budget={budget}", "--window-size=1400,1000",
                              "--dump-dom", harness.as_uri()], capture_output=True, text=True, timeout=900,
                             cwd=tmp, env={**os.environ, "HOME": tmp})
    match = re.search(r'<pre id="out">(.*?)</pre>', out.stdout, re.S)
    if not match or match.group(1).strip() == "PENDING":
        return [], [f"the browser measured nothing (exit {out.returncode}): {out.stderr.strip()[-300:]}"]
    results = json.loads(match.group(1).replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">"))
    problems = []
    for r, name in zip(results, names):
        if "error" in r:
            problems.append(f"{name}: could not be measured: {r['error']}")
            continue
        for line in r["cut"]:
            problems.append(f"{name}: a code block is cut at {width} px: {line!r}")
        if r["left"] > 0 and r["leftText"] in ("", "Section Navigation"):
            problems.append(f"{name}: an empty left column takes {r['left']} px")
    if len(results) != len(names):
        problems.append(f"measured {len(results)} of {len(names)} pages")
    return results, problems


def screenshots(site: Path, out: Path, globs: list[str], width: int = 1280) -> list[Path]:
    """Save a ``width`` x 1000 screenshot of each page matching ``globs`` into ``out``."""
    browser = chromium()
    assert browser is not None
    out.mkdir(parents=True, exist_ok=True)
    shots = []
    for page in sorted(site.rglob("*.html")):
        name = page.relative_to(site).as_posix()
        if not any(fnmatch.fnmatch(name, g) for g in globs):
            continue
        target = out / (name.replace("/", "_").removesuffix(".html") + ".png")
        with tempfile.TemporaryDirectory() as home:
            subprocess.run([browser, *FLAGS, f"--window-size={width},1000", "--virtual-time-budget=3000",
                            f"--screenshot={target}", page.resolve().as_uri()], capture_output=True, timeout=120,
                           cwd=home, env={**os.environ, "HOME": home})
        shots.append(target)
    return shots


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", type=Path, help="the built site (docs/_build/html)")
    parser.add_argument("--width", type=int, default=1280, help="window width in pixels (default 1280)")
    parser.add_argument("--pages", nargs="+", help="only pages matching these globs (relative to the site)")
    parser.add_argument("--screenshots", type=Path, metavar="DIR", help="also save screenshots here")
    parser.add_argument("--shots", nargs="+", default=["tutorials/*.html", "commands.html"],
                        help="pages to screenshot (globs)")
    args = parser.parse_args(argv)
    if chromium() is None:
        print("check_layout: no Chromium found (apt-get install chromium): layout not checked")
        return 0
    site = args.site.resolve()
    results, problems = check(site, args.width, args.pages)
    codes = sum(r.get("code", 0) for r in results)
    print(f"check_layout: {len(results)} page(s), {codes} code block(s) at {args.width} px: "
          + ("all fit" if not problems else f"{len(problems)} problem(s)"))
    for line in problems:
        print(f"  {line}")
    if args.screenshots:
        shots = screenshots(site, args.screenshots, args.shots, args.width)
        print(f"check_layout: {len(shots)} screenshot(s) in {args.screenshots}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
