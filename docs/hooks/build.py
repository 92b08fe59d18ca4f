"""MkDocs hook: the pages that come from outside ``docs/``.

* ``notebooks/*.ipynb`` are committed without outputs; each is executed here (nbclient,
  in a temporary folder, with ``SIMLIB_NB_GAMES`` games: 240 unless the environment says
  otherwise) and rendered as the page ``notebooks/<name>.md`` with its tables and figures.
  A notebook that raises fails the build; the build logs each notebook it runs (mkdocs'
  INFO lines).  ``SIMLIB_DOCS_NOTEBOOKS=0`` renders the
  notebooks' cells without running them (a quick preview with ``mkdocs serve``; the tests
  never set it).
* ``CHANGELOG.md`` (the repository root) becomes ``changelog.md``.
* ``<!-- ruleset-table: GAME -->`` in a page becomes the table of every value of that
  game's reference ruleset with its file and source tag (``describe()``),
  so the game pages never show a stale number.
* Every page of ``docs/games/`` that ``mkdocs.yml`` does not list yet is appended to the
  "Games" section, and every notebook not listed to the "Analyst's guide", so a new
  game's page or a new notebook appears as soon as it exists; a game package without a
  hand-written API reference page gets a generated one (its user-facing modules).
"""
from __future__ import annotations

import ast
import base64
import html
import importlib
import os
import re
import tempfile
import time
from pathlib import Path

from mkdocs.plugins import get_plugin_logger
from mkdocs.structure.files import File

ROOT = Path(__file__).resolve().parents[2]
# mkdocs' own logger: "INFO - [simlib] ..." lines while the build runs the notebooks
log = get_plugin_logger("simlib")
NOTEBOOK_GAMES = "240"


# ------------------------------------------------------------------------------- the nav
def on_config(config):
    games = [(f"games/{p.name}", _title(p)) for p in sorted((Path(config["docs_dir"]) / "games").glob("*.md"))]
    notebooks = [(f"notebooks/{p.stem}.md", "Notebook: " + _notebook_title(p))
                 for p in sorted((ROOT / "notebooks").glob("*.ipynb"))]
    references = [(f"reference/{name.replace('_', '-')}.md", title) for name, title, _ in game_references()]
    for section in config["nav"] or []:
        if isinstance(section, dict) and "Games" in section:
            _append_missing(section["Games"], games)
        if isinstance(section, dict) and "Analyst's guide" in section:
            _append_missing(section["Analyst's guide"], notebooks)
        if isinstance(section, dict) and "API reference" in section:
            _append_missing(section["API reference"], references)
    return config


# The modules of a game a user calls, in reading order (kernels, codes and the registration
# are internal).  A game without a hand-written reference page gets one with those it has.
REFERENCE_MODULES = ("ruleset", "api", "play", "step", "study", "exact", "policies", "trace", "ladder")


def game_references() -> list[tuple[str, str, list[str]]]:
    """(package, title, modules) of each game package whose reference page is generated."""
    out = []
    for pkg in sorted((ROOT / "simlib" / "games").iterdir()):
        if not (pkg / "__init__.py").is_file():
            continue
        if (ROOT / "docs" / "reference" / f"{pkg.name.replace('_', '-')}.md").exists():
            continue  # a hand-written page
        modules = [m for m in REFERENCE_MODULES if (pkg / f"{m}.py").is_file()]
        if modules:
            out.append((pkg.name, game_title(pkg), modules))
    return out


def game_title(pkg: Path) -> str:
    """The game's name as its registration spells it (``display_name``), as "Games" does."""
    registration = pkg / "game.py"
    if registration.is_file():  # read, not imported: the build imports no kernel
        for node in ast.walk(ast.parse(registration.read_text(encoding="utf-8"))):
            if isinstance(node, ast.keyword) and node.arg == "display_name" \
                    and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
                return node.value.value
    page = ROOT / "docs" / "games" / f"{pkg.name.replace('_', '-')}.md"
    return _title(page) if page.is_file() else pkg.name.replace("_", " ").title()


def _append_missing(entries: list, pages: list[tuple[str, str]]) -> None:
    listed = {next(iter(e.values())) if isinstance(e, dict) else e for e in entries}
    for rel, title in pages:
        if rel not in listed:
            entries.append({title: rel})


def _notebook_title(path: Path) -> str:
    import nbformat

    for cell in nbformat.read(path, as_version=4).cells:
        for line in cell.source.splitlines():
            if cell.cell_type == "markdown" and line.startswith("# "):
                return line[2:].strip()
    return path.stem


def _title(page: Path) -> str:
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return page.stem.replace("-", " ").title()


# ------------------------------------------------------------------------------ the files
def on_files(files, config):
    changelog = ROOT / "CHANGELOG.md"
    if changelog.exists():
        files.append(File.generated(config, "changelog.md",
                                    content=changelog.read_text(encoding="utf-8")))
    for name, title, modules in game_references():
        body = "".join(f"::: simlib.games.{name}.{m}\n\n" for m in modules)
        files.append(File.generated(config, f"reference/{name.replace('_', '-')}.md",
                                    content=f"# {title}\n\n{body}"))
    for nb_path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        files.append(File.generated(config, f"notebooks/{nb_path.stem}.md",
                                    content=render_notebook(nb_path)))
    return files


def execute_notebook(path: Path):
    """The notebook run top to bottom in a temporary folder (what it writes stays there)."""
    import nbclient
    import nbformat

    nb = nbformat.read(path, as_version=4)
    saved = {k: os.environ.get(k) for k in ("SIMLIB_NB_GAMES", "MPLBACKEND", "PYTHONPATH")}
    os.environ["SIMLIB_NB_GAMES"] = saved["SIMLIB_NB_GAMES"] or NOTEBOOK_GAMES
    # a notebook runs for a minute or more: say which, so the build is not silent meanwhile
    log.info("running notebook %s (%s games) ...", path.name, os.environ["SIMLIB_NB_GAMES"])
    t0 = time.perf_counter()
    os.environ.pop("MPLBACKEND", None)  # the kernel's inline backend draws the figures
    # the kernel imports this checkout's simlib (the one the site documents), not an older install
    os.environ["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + [p for p in (saved["PYTHONPATH"] or "").split(os.pathsep) if p])
    try:
        with tempfile.TemporaryDirectory() as tmp:
            nbclient.NotebookClient(nb, timeout=900, kernel_name="python3",
                                    resources={"metadata": {"path": tmp}}).execute()
        log.info("notebook %s ran in %.0f s", path.name, time.perf_counter() - t0)
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    return nb


def render_notebook(path: Path) -> str:
    if os.environ.get("SIMLIB_DOCS_NOTEBOOKS", "1") == "0":
        import nbformat

        nb = nbformat.read(path, as_version=4)
        nb.cells.insert(1, nbformat.v4.new_markdown_cell(
            '!!! warning "Not executed in this preview (SIMLIB_DOCS_NOTEBOOKS=0)"'))
        for cell in nb.cells:
            cell.pop("outputs", None)
        return _render(nb, path, executed=False)
    return _render(execute_notebook(path), path, executed=True)


def _render(nb, path: Path, executed: bool) -> str:
    games = os.environ.get("SIMLIB_NB_GAMES") or NOTEBOOK_GAMES
    out: list[str] = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "markdown":
            out.append(cell.source)
            if i == 0 and executed:
                out.append(f'!!! note "Executed when this site was built"\n    With '
                           f'`SIMLIB_NB_GAMES={games}` (a small game count: read the numbers '
                           f'with their intervals). The notebook is `notebooks/{path.name}` '
                           'in the repository; run it with more games for sharper answers.')
            continue
        if cell.cell_type != "code":
            continue
        out.append(f"```python\n{cell.source}\n```")
        for o in _merged_stdout(cell.get("outputs", [])):
            out.append(_render_output(o))
    return "\n\n".join(x for x in out if x) + "\n"


def _merged_stdout(outputs) -> list:
    """Outputs without stderr (progress bars, warnings), consecutive prints as one block."""
    merged: list = []
    for o in outputs:
        if o.get("output_type") == "stream":
            if o.get("name") != "stdout" or not o.get("text", "").strip():
                continue
            if merged and merged[-1].get("output_type") == "stream":
                merged[-1] = {**merged[-1], "text": merged[-1]["text"] + o["text"]}
                continue
        merged.append(o)
    return merged


def _render_output(o) -> str:
    kind = o.get("output_type")
    if kind == "stream":
        return f"```text\n{o['text'].rstrip()}\n```"
    if kind == "error":  # nbclient raises first; kept for a notebook run with allow_errors
        raise RuntimeError(f"notebook error: {o.get('ename')}: {o.get('evalue')}")
    data = o.get("data", {})
    if "image/png" in data:
        png = data["image/png"]
        png = png if isinstance(png, str) else base64.b64encode(png).decode()
        return f'<img alt="figure" src="data:image/png;base64,{png.strip()}">'
    if "text/html" in data:
        return f'<div class="nb-output" markdown="0">\n{data["text/html"]}\n</div>'
    if "text/plain" in data:
        return f"```text\n{html.unescape(data['text/plain']).rstrip()}\n```"
    return ""


# ------------------------------------------------------------------------ ruleset tables
_TABLE = re.compile(r"<!-- ruleset-table: ([a-z_]+) -->")


def on_page_markdown(markdown, page, config, files):
    return _TABLE.sub(lambda m: ruleset_table(m.group(1)), markdown)


def reference_ruleset(game: str):
    """The game's reference ruleset (by name where the game names its presets)."""
    load = importlib.import_module(f"simlib.games.{game}.ruleset").load_ruleset
    try:
        return load("reference")
    except Exception:  # a game without named presets: its default is the reference
        return load()


def ruleset_table(game: str) -> str:
    rules = reference_ruleset(game)
    rows = ["| key | value | source | file |", "|---|---|---|---|"]
    for r in rules.describe().itertuples():
        value = str(r.value).replace("|", "\\|")
        rows.append(f"| `{r.key}` | `{value}` | `{r.source}` | `{r.file}` |")
    return ('<details markdown="1"><summary>Every value of the reference ruleset '
            f"({len(rows) - 2} values)</summary>\n\n" + "\n".join(rows) + "\n\n</details>")
