"""Griffe extension for the API reference: simlib's docstrings as Markdown reads them.

The docstrings are numpydoc with two reStructuredText habits Markdown does not know:

* Sphinx roles (``:func:`sweep```, ``:class:`~simlib.core.tables.Tables```) become
  mkdocs-autorefs cross-references to the full path of the object they name, resolved
  from the docstring's own scope as Python would (``sweep`` in ``simlib.core.instruments``
  is ``simlib.core.instruments.sweep``; ``~`` shows the last name only).  A name outside
  simlib (``pandas.Series``) stays code without a link: the site has no page for it.  A
  simlib name that resolves to nothing is a broken reference: a warning, which fails the
  strict build as a broken link between pages does.
* Doctest runs (``>>> ...`` lines and their output) outside a fenced block become fenced
  ``pycon`` blocks; Markdown would read a ``>>>`` line as three nested blockquotes.
* A literal block (a paragraph ending ``::`` and the indented lines after it) becomes a
  fenced block (``python`` when it parses as Python, else ``text``) after a paragraph
  ending ``:``.

mkdocs.yml loads this file as the Python handler's extension; the docstrings in the code
stay plain numpydoc for ``help()`` and an editor.
"""
from __future__ import annotations

import ast
import logging
import re
import textwrap
from typing import Any

import griffe

# a warning under "mkdocs" fails the strict build
log = logging.getLogger("mkdocs.plugins.simlib.docstrings")

PACKAGE = "simlib"
# Names ``simlib`` serves lazily (``simlib.__getattr__``), by the module that defines them.
LAZY_MODULES = ("simlib.core.instruments", "simlib.core.skill")

ROLE = re.compile(r":(?:py:)?(func|meth|class|mod|attr|data|exc|obj|const):`(~?)([\w.]+)(?:\(\))?`")


class SphinxToMarkdown(griffe.Extension):
    """Rewrite every docstring of the package once it is fully loaded (names resolve)."""

    def on_package(self, *, pkg: griffe.Module, loader: griffe.GriffeLoader, **kwargs: Any) -> None:
        if pkg.path != PACKAGE:
            return
        for obj in _walk(pkg):
            if obj.docstring is not None:
                obj.docstring.value = fence_literal_blocks(fence_doctests(
                    ROLE.sub(lambda m, o=obj: _reference(m, o, loader), obj.docstring.value)))


def _walk(obj):
    yield obj
    for member in obj.members.values():
        if not member.is_alias:
            yield from _walk(member)


def _exists(path: str, loader) -> bool:
    try:
        loader.modules_collection[path]
    except (KeyError, griffe.AliasResolutionError, griffe.CyclicAliasError):
        return False
    return True


def resolve(name: str, obj, loader) -> str | None:
    """The full path of ``name`` as written in ``obj``'s docstring, or None outside simlib."""
    if name.startswith("."):  # relative to the package of the docstring's module
        module = obj if obj.is_module else obj.module
        base = module.path if module.is_init_module else module.parent.path
        dots = len(name) - len(name.lstrip("."))
        base = base.rsplit(".", dots - 1)[0] if dots > 1 else base
        name = f"{base}.{name.lstrip('.')}"
    head, _, rest = name.partition(".")
    if head == PACKAGE:
        candidates = [name] + [f"{m}.{rest}" for m in LAZY_MODULES if "." not in rest]
    else:
        try:
            full = obj.resolve(head)
        except griffe.NameResolutionError:
            full = None
        if full is None or not full.startswith(PACKAGE + "."):
            if full is None and _exists(f"{PACKAGE}.{name}", loader):
                full = PACKAGE  # a name written from the package root ("core.tables.Tables")
                rest = name
            else:
                return None  # the standard library, numpy, pandas...: no page on this site
        candidates = [f"{full}.{rest}" if rest else full]
    for path in candidates:
        if _exists(path, loader):
            return _canonical(path, loader)
    log.warning("%s: the docstring names %r, which is no object of %s", obj.path, name, PACKAGE)
    return None


def _canonical(path: str, loader) -> str:
    """Where the reference documents the object: where it is defined (an import
    re-exported elsewhere points home), and for a member without a docstring (the
    reference shows only documented objects) its nearest documented owner; a name bound
    to another (``GameAdapter = StudyAdapter``) points to that one."""
    target = loader.modules_collection[path]
    seen = set()
    while True:
        target = target.final_target if target.is_alias else target
        if target.is_module or target.docstring is not None or target.path in seen:
            return target.path
        seen.add(target.path)
        value = getattr(target, "value", None)
        if target.is_attribute and value is not None and re.fullmatch(r"[\w.]+", str(value)):
            try:
                bound = target.parent.resolve(str(value).split(".")[0])
                target = loader.modules_collection[bound + str(value)[len(str(value).split(".")[0]):]]
                continue
            except (griffe.NameResolutionError, KeyError):
                pass
        target = target.parent


def _reference(m: re.Match, obj, loader) -> str:
    _, tilde, name = m.groups()
    shown = name.rsplit(".", 1)[-1] if tilde else name.lstrip(".")
    path = resolve(name, obj, loader)
    return f"[`{shown}`][{path}]" if path else f"`{shown}`"


FENCE = re.compile(r"^\s*(```|~~~)")


def fence_doctests(text: str) -> str:
    """Each run of ``>>>`` lines (with its ``...`` lines and printed output) fenced as pycon."""
    out: list[str] = []
    lines = text.split("\n")
    in_fence = False
    i = 0
    while i < len(lines):
        line = lines[i]
        if FENCE.match(line):
            in_fence = not in_fence
        if in_fence or not line.lstrip().startswith(">>>"):
            out.append(line)
            i += 1
            continue
        indent = line[: len(line) - len(line.lstrip())]
        run = []
        while i < len(lines) and lines[i].strip() and lines[i].startswith(indent):
            run.append(lines[i][len(indent):])
            i += 1
        if out and out[-1].strip():
            out.append("")  # a fence opens a block of its own
        out += [f"{indent}```pycon", *(indent + r for r in run), f"{indent}```"]
        if i < len(lines) and lines[i].strip():
            out.append("")
    return "\n".join(out)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def fence_literal_blocks(text: str) -> str:
    """reStructuredText's ``paragraph::`` + indented block as a fenced block."""
    lines = text.split("\n")
    out: list[str] = []
    in_fence = False
    i = 0
    while i < len(lines):
        line = lines[i]
        if FENCE.match(line):
            in_fence = not in_fence
        starts = (not in_fence and line.rstrip().endswith("::") and i + 2 < len(lines)
                  and not lines[i + 1].strip() and lines[i + 2].strip()
                  and _indent(lines[i + 2]) > _indent(line))
        if not starts:
            out.append(line)
            i += 1
            continue
        head = line.rstrip()[:-2].rstrip()
        if head.strip():
            out.append(head + ":")
        j = i + 2
        while j < len(lines) and (not lines[j].strip() or _indent(lines[j]) > _indent(line)):
            j += 1
        while not lines[j - 1].strip():
            j -= 1
        block = textwrap.dedent("\n".join(lines[i + 2:j]))
        try:
            ast.parse(block)
            lang = "python"
        except SyntaxError:
            lang = "text"
        pad = line[: _indent(line)]
        out += ["", f"{pad}```{lang}", *(pad + b if b else b for b in block.split("\n")), f"{pad}```"]
        i = j
        if i < len(lines) and lines[i].strip():
            out.append("")
    return "\n".join(out)
