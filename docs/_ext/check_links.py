"""Check the internal links of the built HTML site: every relative link's file and anchor exist.

External links (http, https, mailto, ...) are skipped: the build machine cannot reach them.
Usage: ``python docs/_ext/check_links.py docs/_build/html``; exit status 1 lists the broken links.
"""

from __future__ import annotations

import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.links: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for key in ("id", "name") if tag == "a" else ("id",):
            if a.get(key):
                self.ids.add(a[key])
        for key in ("href", "src"):
            if tag in ("a", "link", "img", "script", "source") and a.get(key):
                self.links.append(a[key])


def check(site: Path) -> list[str]:
    pages: dict[Path, _Page] = {}
    for path in site.rglob("*.html"):
        if "_static" in path.relative_to(site).parts:      # the theme's template macros, not pages
            continue
        page = _Page()
        page.feed(path.read_text(encoding="utf-8", errors="replace"))
        pages[path.resolve()] = page
    broken = []
    for path, page in sorted(pages.items()):
        for link in page.links:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc or link.startswith(("#", "javascript:")) and not link[1:]:
                continue
            target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
            if target.is_dir():
                target = target / "index.html"
            if not target.exists():
                broken.append(f"{path.relative_to(site.resolve())}: {link} (no such file)")
            elif parts.fragment and target.suffix == ".html":
                ids = pages[target].ids if target in pages else set()
                if unquote(parts.fragment) not in ids:
                    broken.append(f"{path.relative_to(site.resolve())}: {link} (no such anchor)")
    return broken


def main(argv: list[str]) -> int:
    site = Path(argv[1] if len(argv) > 1 else "docs/_build/html")
    broken = check(site)
    for line in broken:
        print(line)
    n = sum(1 for p in site.rglob("*.html") if "_static" not in p.relative_to(site).parts)
    print(f"internal links: {len(broken)} broken in {n} pages of {site}" if broken
          else f"internal links: all resolve in {n} pages of {site}")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
