"""Pages generated at build time: the API reference and the rules with their code and tests.

Both are generated from the sources on every build (``builder-inited``), so
they cannot go stale:

* ``api/``: one page per public module (a module with ``__all__`` whose name
  has no leading underscore), one autodoc entry per name of its ``__all__``
  that the module defines; a name it re-exports links to where it is defined.
* ``rules/index.md``: the project's rules (:data:`RULES_FILE`, the copy of the
  shared rules file that the tests read too) where each rule id (``UP-2``, ``OD-3``, ...) lists the
  code that cites it (the documented function, class or module, with file and
  line) and the tests that cite it, each shown on ``rules/tests.md``.
"""

from __future__ import annotations

import ast
import hashlib
import importlib
import inspect
import re
import types
from collections import defaultdict
from pathlib import Path

RULE_ID = re.compile(r"\b(UP|UG|UD|OD|DN)-(\d+)\b")
RANGE = re.compile(r"\b(UP|UG|UD|OD|DN)-(\d+)\s*(?:…|\.\.\.?|–|-)\s*(?:\1-)?(\d+)\b")


# --------------------------------------------------------------------------- API
def public_modules(package_dir: Path) -> list[str]:
    """Dotted names of the public modules: a file with ``__all__``, no private part."""
    names = []
    for path in sorted(package_dir.rglob("*.py")):
        rel = path.relative_to(package_dir.parent).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if any(p.startswith("_") for p in parts):
            continue
        if "__all__" not in path.read_text(encoding="utf-8"):
            continue
        names.append(".".join(parts))
    return names


def _is_alias(obj) -> bool:
    """A type alias such as ``tuple[int, int]`` or ``Union[...]`` (documented as data)."""
    return isinstance(obj, types.GenericAlias) or (type(obj).__module__ == "typing" and not inspect.isclass(obj))


def _directive(module, name: str) -> str:
    obj = getattr(module, name)
    full = f"{module.__name__}.{name}"
    if inspect.isclass(obj) and not _is_alias(obj):
        kind = "autoexception" if issubclass(obj, BaseException) else "autoclass"
        return f".. {kind}:: {full}\n   :members:\n   :show-inheritance:\n"
    if callable(obj) and not _is_alias(obj):
        return f".. autofunction:: {full}\n"
    return f".. autodata:: {full}\n   :no-value:\n"


def _defined_here(module, name: str, tree: ast.Module) -> bool:
    obj = getattr(module, name)
    home = getattr(obj, "__module__", None)
    if (inspect.isclass(obj) or inspect.isfunction(obj)) and home is not None:
        return home == module.__name__
    for node in tree.body:      # data: assigned at the module's top level (not imported)
        targets = node.targets if isinstance(node, ast.Assign) else (
            [node.target] if isinstance(node, ast.AnnAssign) else [])
        if any(isinstance(t, ast.Name) and t.id == name for t in targets):
            return True
    return False


def _check_documented(module, names: list[str]) -> None:
    """Warn (an error under ``-W``) for a public name without a docstring or ``#:`` comment."""
    from sphinx.pycode import ModuleAnalyzer
    from sphinx.util import logging

    attr_docs = ModuleAnalyzer.for_module(module.__name__).find_attr_docs()
    for name in names:
        obj = getattr(module, name)
        if (inspect.isclass(obj) or callable(obj)) and not _is_alias(obj):
            ok = bool((inspect.getdoc(obj) or "").strip())
        else:
            ok = ("", name) in attr_docs
        if not ok:
            logging.getLogger(__name__).warning(
                "%s.%s is public (in __all__) but has no docstring (data: a #: comment above it)",
                module.__name__, name, location=module.__file__)


def write_api(srcdir: Path, root: Path) -> dict[str, set[str]]:
    """Write ``api/*.rst``; return the documented names per module."""
    out = srcdir / "api"
    out.mkdir(exist_ok=True)
    documented: dict[str, set[str]] = {}
    where: dict[int, str] = {}
    modules = public_modules(root / "ubongo_cp")
    pages = {}
    for modname in modules:
        module = importlib.import_module(modname)
        tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
        names = list(getattr(module, "__all__", []))
        own = [n for n in names if _defined_here(module, n, tree)]
        documented[modname] = set(own)
        _check_documented(module, own)
        for n in own:
            where[id(getattr(module, n))] = f"{modname}.{n}"
        pages[modname] = (module, names, own)
    for modname, (module, names, own) in pages.items():
        title = f"``{modname}``"
        lines = [title, "=" * len(title), "", f".. automodule:: {modname}", "   :no-members:", ""]
        others = [n for n in names if n not in own]
        if others:
            lines += ["Also exported here (documented where they are defined):", ""]
            for n in others:
                target = where.get(id(getattr(module, n)))
                lines.append(f"- :py:obj:`{n} <{target}>`" if target else f"- ``{n}``")
            lines.append("")
        for n in own:
            lines += [_directive(module, n)]
        text = "\n".join(lines) + "\n"
        page = out / f"{modname}.rst"
        if not page.exists() or page.read_text(encoding="utf-8") != text:
            page.write_text(text, encoding="utf-8")
    index = ["API reference", "=============", "",
             "Every public module (one with ``__all__``) and every name of its ``__all__``, "
             "generated from the docstrings (NumPy style; the examples in them are doctests that "
             "``make test`` runs).", "",
             ".. toctree::", "   :maxdepth: 1", ""]
    index += [f"   {m}" for m in modules]
    text = "\n".join(index) + "\n"
    if not (out / "index.rst").exists() or (out / "index.rst").read_text(encoding="utf-8") != text:
        (out / "index.rst").write_text(text, encoding="utf-8")
    return documented


# ------------------------------------------------------------------------- rules
def _ids_in(text: str) -> set[str]:
    ids = {f"{a}-{n}" for a, n in RULE_ID.findall(text)}
    for prefix, lo, hi in RANGE.findall(text):
        lo, hi = int(lo), int(hi)
        if lo < hi <= lo + 12:
            ids |= {f"{prefix}-{k}" for k in range(lo, hi + 1)}
    return ids


def _scopes(tree: ast.Module):
    """Yield (qualified name, first line, last line) of every def and class, outermost first."""
    def walk(nodes, prefix):
        for node in nodes:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                q = prefix + node.name
                yield q, node.lineno, node.end_lineno
                yield from walk(node.body, q + ".")
    yield from walk(tree.body, "")


def code_citations(root: Path):
    """Rule id -> sorted set of (file, qualified scope or '', first line of the scope or citation)."""
    cites = defaultdict(set)
    for path in sorted((root / "ubongo_cp").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        scopes = list(_scopes(ast.parse(text)))
        for lineno, line in enumerate(text.splitlines(), 1):
            for rid in _ids_in(line):
                inner = [s for s in scopes if s[1] <= lineno <= s[2]]
                q, first = (inner[-1][0], inner[-1][1]) if inner else ("", lineno)
                cites[rid].add((path.relative_to(root).as_posix(), q, first))
    return cites


def test_citations(root: Path):
    """Rule id -> set of (test file, test function); a module docstring citation cites every test."""
    cites = defaultdict(set)
    for path in sorted((root / "tests").glob("test_*.py")):
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text)
        lines = text.splitlines()
        tests = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))
                 and n.name.startswith(("test", "Test"))]
        # a section comment at column 0 ("# ----- UP-1") covers the tests down to the next one
        sections = [(k, _ids_in(ln)) for k, ln in enumerate(lines, 1)
                    if ln.startswith("#") and "---" in ln]
        for node in tests:
            first = node.lineno - len(node.decorator_list)
            src = "\n".join(lines[first - 1:node.end_lineno])
            above = [ids for k, ids in sections if k < first]
            for rid in _ids_in(src) | (above[-1] if above else set()):
                cites[rid].add((path.relative_to(root).as_posix(), node.name))
    return cites


def _anchor(*parts: str) -> str:
    return "-".join(re.sub(r"[^a-z0-9]+", "-", p.lower()).strip("-") for p in parts)


def _code_link(file: str, scope: str, line: int, documented: dict[str, set[str]]) -> str:
    """One citing place: the documented object (linked) or the scope's name, and its line."""
    mod = file[:-3].replace("/", ".")
    if mod.endswith(".__init__"):
        mod = mod[: -len(".__init__")]
    if scope and mod in documented:
        parts = scope.split(".")
        if parts[0] in documented[mod]:
            # the documented top-level name, down to its last public member (a class's, not a function's
            # local function)
            obj = getattr(importlib.import_module(mod), parts[0], None)
            depth = 1
            while depth < len(parts) and not parts[depth].startswith("_") and hasattr(obj, parts[depth]):
                obj = getattr(obj, parts[depth])
                depth += 1
            target = ".".join([mod] + parts[:depth])
            return f"{{py:obj}}`{scope} <{target}>` (l. {line})"
    if not scope and mod in documented:
        return f"{{py:mod}}`module docstring <{mod}>` (l. {line})"
    if mod in documented:
        return f"{{py:mod}}`{scope} <{mod}>` (l. {line})"
    return f"`{scope or 'module'}` (l. {line})"


#: The rules file, relative to the checkout: the project's one copy of the
#: shared ``RULES.md`` (``tests/conftest.py`` reads it where ``../shared`` is absent).
RULES_FILE = Path("tests") / "data" / "shared" / "RULES.md"


def write_rules(srcdir: Path, root: Path, documented: dict[str, set[str]]) -> None:
    out = srcdir / "rules"
    out.mkdir(exist_ok=True)
    code = code_citations(root)
    tests = test_citations(root)
    text = (root / RULES_FILE).read_text(encoding="utf-8")
    body: list[str] = []
    in_fence = False
    lines = text.splitlines()
    rule_start = re.compile(r"^- ((?:UP|UG|UD|OD|DN)-\d+) ")
    i = 0
    seen = []
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            in_fence = not in_fence
        m = None if in_fence else rule_start.match(line)
        if not m:
            body.append(line)
            i += 1
            continue
        rid = m.group(1)
        seen.append(rid)
        block = [f"- **{rid}**" + line[len(m.group(0)) - 1:]]
        i += 1
        while i < len(lines) and lines[i].startswith("  "):
            block.append(lines[i])
            i += 1
        body += [f"(rule-{rid.lower()})=", ""] + block
        by_file = defaultdict(list)             # the code, grouped by file: one line per file
        for file, scope, first in sorted(code.get(rid, ()), key=lambda t: (t[0], t[2])):
            if all(scope != sc for sc, _ in by_file[file]):
                by_file[file].append((scope, first))
        by_test_file = defaultdict(list)
        for f, name in sorted(tests.get(rid, ())):
            by_test_file[f].append(f"{{ref}}`{name} <{_anchor(Path(f).stem, name)}>`")
        body += ["", f"  - *Code* ({sum(map(len, by_file.values()))} places)" + ("" if by_file else ": none cites it")]
        for file, scopes in by_file.items():
            body.append(f"    - `{file}`: " + ", ".join(_code_link(file, sc, ln, documented) for sc, ln in scopes))
        body += [f"  - *Tests* ({sum(map(len, by_test_file.values()))})" + ("" if by_test_file else ": none cites it")]
        for f, names in by_test_file.items():
            body.append(f"    - `{f}`: " + ", ".join(names))
        body.append("")
    intro = ("```{note}\nGenerated at build time from `tests/data/shared/RULES.md` (the project's copy of "
             "the shared rules file) and a scan of `ubongo_cp/` and `tests/` for rule ids: every id "
             "lists the code and the tests that cite it, so the links follow the code.\n```\n")
    # the title line first, then the note
    first_heading = next(k for k, ln in enumerate(body) if ln.startswith("# "))
    body[first_heading + 1:first_heading + 1] = ["", intro]
    _write(out / "index.md", "\n".join(body) + "\n")

    # the tests, one section per test that cites a rule
    by_file = defaultdict(set)
    for _rid, items in tests.items():
        for f, name in items:
            by_file[f].add(name)
    rules_of = defaultdict(set)
    for rid, items in tests.items():
        for item in items:
            rules_of[item].add(rid)
    page = ["# Tests that check the rules", "",
            "Every test that cites a rule id, with its source (generated from `tests/`).", ""]
    for f in sorted(by_file):
        page += [f"## `{f}`", ""]
        src = (root / f).read_text(encoding="utf-8")
        order = {n.name: n.lineno for n in ast.parse(src).body if hasattr(n, "name")}
        for name in sorted(by_file[f], key=lambda n: order.get(n, 0)):
            rids = sorted(rules_of[(f, name)], key=_rule_key)
            page += [f"({_anchor(Path(f).stem, name)})=", f"### `{name}`", "",
                     "Rules: " + ", ".join(f"{{ref}}`{r} <rule-{r.lower()}>`" for r in rids), "",
                     f"```{{literalinclude}} ../../{f}", f":pyobject: {name}", ":language: python", "```", ""]
    _write(out / "tests.md", "\n".join(page) + "\n")


def _rule_key(rid: str):
    a, n = rid.split("-")
    return ("UP UG UD OD DN".split().index(a), int(n))


def _write(path: Path, text: str) -> None:
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def generate(app) -> None:
    srcdir = Path(app.srcdir)
    root = srcdir.parent
    documented = write_api(srcdir, root)
    write_rules(srcdir, root, documented)


# ------------------------------------------------- docstrings: citations, short references
def cite_module_references(app, what, name, obj, options, lines) -> None:
    """Point ``[1]_`` in a docstring without a References section at its module's References.

    numpydoc labels each docstring's citations by a hash of the object's name
    (``R<hash>-1``); a function that cites its module's reference list keeps
    the bare ``[1]_``, which would not resolve. Runs after numpydoc.
    """
    if what == "module" or not any(re.search(r"\[\d+\]_", ln) for ln in lines):
        return
    if any(re.match(r"^\s*\.\. \[\d+\]", ln) for ln in lines):
        return
    modname = getattr(obj, "__module__", None) or name.rsplit(".", 1)[0]
    module = importlib.import_module(modname) if modname else None
    doc = (module.__doc__ or "") if module else ""
    if not re.search(r"^\s*\.\. \[\d+\]", doc, re.M):
        return
    prefix = "R" + hashlib.sha256(modname.encode("utf8")).hexdigest()[:12]
    for i, ln in enumerate(lines):
        lines[i] = re.sub(r"\[(\d+)\]_", rf"[{prefix}-\1]_", ln)


ALIASES = {"pd": "pandas", "np": "numpy", "nx": "networkx"}


def resolve_short_names(app, env, node, contnode):
    """Resolve a Python cross-reference the docstrings write by a short name.

    ``:func:`piece_colours``` written in another module, ``pd.DataFrame`` in a
    string annotation: a unique documented ``ubongo_cp`` object whose name ends
    with the target gets the link; ``pd.``/``np.`` go to intersphinx as
    ``pandas.``/``numpy.``. A target that names an existing object of the
    package that is not public (a private helper, a module constant outside
    ``__all__``) is shown as code without a link. Anything else is left to
    warn (a broken reference fails the build).
    """
    if node.get("refdomain") != "py":
        return None
    target = node["reftarget"].lstrip("~.")
    head, _, rest = target.partition(".")
    if head in ALIASES and rest:
        from sphinx.ext import intersphinx
        node = node.deepcopy()
        node["reftarget"] = f"{ALIASES[head]}.{rest}"
        return intersphinx.missing_reference(app, env, node, contnode)
    domain = env.get_domain("py")
    objects = domain.objects
    modname = node.get("py:module") or ""
    from sphinx.util.nodes import make_refnode

    def link(key):
        entry = objects[key]
        return make_refnode(app.builder, node["refdoc"], entry.docname, entry.node_id, contnode, key)

    found = _lookup(target, modname, node.get("py:class"))
    if found is not None:
        home = _home(found)                     # a re-export or an inherited member: where it is documented
        return link(home) if home in objects else contnode   # not public: code without a link
    types_ = set(domain.objtypes_for_role(node["reftype"]) or ())
    suffix = "." + target
    hits = [k for k, e in objects.items()
            if k.startswith("ubongo_cp.") and k.endswith(suffix) and (not types_ or e.objtype in types_)]
    if len(hits) > 1 and modname:           # prefer the referring module, then its package
        pkg = modname.rsplit(".", 1)[0]
        hits = [k for k in hits if k.startswith(modname + ".")] or [k for k in hits if k.startswith(pkg + ".")]
    return link(hits[0]) if len(hits) == 1 else None


_MISSING = object()


def _lookup(target: str, modname: str, classname: str | None):
    """(owner, attribute name, object) that ``target`` names from the referring module or class, or None."""
    bases = []
    if modname:
        if classname:
            bases.append(f"{modname}.{classname}.{target}")
        parts = modname.split(".")
        bases += [".".join(parts[:k]) + "." + target for k in range(len(parts), 0, -1)]
    bases.append(target)
    for full in bases:
        if not full.startswith("ubongo_cp"):
            continue
        bits = full.split(".")
        for cut in range(len(bits), 0, -1):
            try:
                owner = importlib.import_module(".".join(bits[:cut]))
            except ImportError:
                continue
            obj = owner
            for attr in bits[cut:]:
                owner, obj = obj, _attr(obj, attr)
                if obj is _MISSING:
                    break
            if obj is not _MISSING:
                return owner, bits[-1], obj
            break
    return None


def _attr(obj, name):
    value = getattr(obj, name, _MISSING)
    if value is _MISSING and inspect.isclass(obj):          # a dataclass field or annotated attribute
        for klass in obj.__mro__:
            if name in getattr(klass, "__annotations__", {}):
                return None
    return value


def _home(found) -> str:
    """The dotted name under which ``found`` would be documented: where it is defined."""
    owner, name, obj = found
    if inspect.ismodule(obj):
        return obj.__name__
    if inspect.isclass(owner):
        for klass in owner.__mro__:                 # the class that defines the member
            if name in vars(klass) or name in getattr(klass, "__annotations__", {}):
                return f"{klass.__module__}.{klass.__qualname__}.{name}"
    mod = getattr(obj, "__module__", None)
    qual = getattr(obj, "__qualname__", None)
    if mod and qual and (inspect.isclass(obj) or inspect.isfunction(obj)):
        return f"{mod}.{qual}"
    return f"{owner.__name__}.{name}" if inspect.ismodule(owner) else ""


def alias_signature(app, what, name, obj, options, signature, return_annotation):
    """A type alias (``Cell = tuple[int, int]``) has no call signature to format.

    numpydoc would make one (the alias is callable), and Sphinx 9 fails to store a
    processed signature for data without one; an empty, non-None result stops the
    event there and keeps the alias's signature empty.
    """
    if _is_alias(obj):
        return ()
    return None


def drop_unsourced_modules(app):
    """Keep viewcode's module index to modules it has a source page for.

    viewcode records a module it could not read (``builtins``, from a type alias)
    as ``False`` and still lists it in ``_modules/index.html``: a broken link.
    """
    modules = getattr(app.env, "_viewcode_modules", {})
    for name in [m for m, entry in modules.items() if entry is False]:
        del modules[name]
    return []


def viewcode_home(app, modname: str, fullname: str):
    """Source module of a documented object, for viewcode's [source] links.

    viewcode follows ``obj.__module__``, which an *instance* also has (its
    class's module): a ``GameFacts`` constant of ``games.ubongo.state`` would
    be looked for in ``games.base`` and break that module's back-links. Data
    stays in the module that documents it; classes and functions are followed.
    """
    try:
        obj = importlib.import_module(modname)
        for attr in fullname.split("."):
            obj = getattr(obj, attr)
    except (ImportError, AttributeError):
        return None
    if inspect.isclass(obj) or inspect.isroutine(obj) or inspect.ismodule(obj):
        return None
    return modname


def setup(app):
    app.setup_extension("numpydoc")
    app.connect("viewcode-follow-imported", viewcode_home)
    app.connect("html-collect-pages", drop_unsourced_modules, priority=400)
    app.connect("autodoc-process-signature", alias_signature, priority=400)
    app.connect("builder-inited", generate)
    app.connect("autodoc-process-docstring", cite_module_references, priority=600)
    app.connect("missing-reference", resolve_short_names, priority=600)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
