"""The documentation is true: the site builds, its examples run, its commands exist.

* ``mkdocs build --strict`` builds the site (``docs/``, ``mkdocs.yml``) with warnings as
  errors: a broken link between pages, a missing anchor, a page left out of the
  navigation or a notebook that raises fails it.  The notebooks are executed by the build
  with a small game count and their pages must show figures.
* Every ```` ```python ```` block of the README and of the site's pages runs, page by page
  in one namespace (a page reads as one session), in a temporary folder; a block
  followed by an ```` ```output ```` block must print exactly that.
* Every ``simlib`` command shown (a line of a ```` ```bash ```` block, or a ``$ simlib``
  line of a recorded run) is accepted by the CLI's argument parser, and runs with a tiny
  game count unless it is one of the long instruments (``RUNNABLE``, ``SLOW``).
* No file of the repository cites a path outside it.
* The README is the front door: at most 300 lines, the two commands, and ``.ci/run``
  runs exactly its test command.
* A page of the built site, served over HTTP, renders in headless Chromium: a
  screenshot with content, no console message.
"""
from __future__ import annotations

import contextlib
import functools
import http.server
import io
import os
import re
import shlex
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import chromium

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
PAGES = [README] + sorted(p for p in DOCS.rglob("*.md") if "hooks" not in p.parts)
NOTEBOOK_GAMES = "120"  # games the notebooks play when the test builds the site

FENCE = re.compile(r"^```([\w+-]*)[^\n]*\n(.*?)^```[ \t]*$", re.S | re.M)


def blocks(path: Path) -> list[tuple[str, str, int]]:
    """(language, code, line) of each top-level fenced block of a page."""
    text = path.read_text(encoding="utf-8")
    return [(m.group(1), m.group(2), text.count("\n", 0, m.start()) + 1) for m in FENCE.finditer(text)]


def rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


# ============================================================================ the site
@pytest.fixture(scope="session")
def site(tmp_path_factory):
    try:
        import mkdocs  # noqa: F401
    except ImportError:
        message = "MkDocs is missing (pip install '.[test]' or '.[docs]' installs it)"
        if chromium.in_ci():
            pytest.fail(message + ": CI builds the site")
        pytest.skip(message)
    out = tmp_path_factory.mktemp("site")
    env = dict(os.environ, SIMLIB_NB_GAMES=NOTEBOOK_GAMES, NO_MKDOCS_2_WARNING="1")
    env.pop("SIMLIB_DOCS_NOTEBOOKS", None)  # the test builds the notebooks for real
    p = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(out)],
                       cwd=ROOT, env=env, capture_output=True, text=True, timeout=1500)
    # what the build printed, for the tests of its log (beside the site, not in it)
    (out.parent / "mkdocs-build.log").write_text(p.stdout + p.stderr, encoding="utf-8")
    assert p.returncode == 0, (p.stdout + p.stderr)[-6000:]
    return out


def test_site_builds_strict_with_every_page(site):
    for page in ("index.html", "getting-started/index.html", "games/until-daylight/index.html",
                 "games/till-dawn/index.html", "reference/simlib/index.html", "changelog/index.html"):
        assert (site / page).is_file(), page
    for md in DOCS.rglob("*.md"):
        if "hooks" in md.parts:
            continue
        stem = md.relative_to(DOCS).with_suffix("")
        html = site / (stem.parent if stem.name == "index" else stem) / "index.html"
        assert html.is_file(), f"{rel(md)} was not built"
    # the API reference comes from the docstrings
    ref = (site / "reference" / "simlib" / "index.html").read_text(encoding="utf-8")
    assert "simulate_precise" in ref and "Play a study of" in ref
    # the rule pages list every value of the reference rulesets, read when the site is built
    from simlib.games.until_daylight.ruleset import load_ruleset

    page = (site / "games" / "until-daylight" / "index.html").read_text(encoding="utf-8")
    assert "<!-- ruleset-table" not in page
    for key in load_ruleset("reference").describe().key:
        assert f"<code>{key}</code>" in page, key


@pytest.mark.parametrize("name", sorted(p.stem for p in (ROOT / "notebooks").glob("*.ipynb")))
def test_notebooks_are_executed_into_the_site(site, name):
    page = (site / "notebooks" / name / "index.html").read_text(encoding="utf-8")
    assert "data:image/png;base64," in page  # its figures
    assert "Executed when this site was built" in page
    assert "Traceback" not in page


def test_the_build_says_which_notebook_it_runs(site):
    log = (site.parent / "mkdocs-build.log").read_text(encoding="utf-8")
    for nb in sorted((ROOT / "notebooks").glob("*.ipynb")):
        assert re.search(rf"INFO .*running notebook {re.escape(nb.name)} \({NOTEBOOK_GAMES} games\)", log), nb.name


# ====================================================== the API reference as it reads
# The pages rendered from the docstrings (reference/index.md is hand-written).
def _reference_pages(site) -> list[Path]:
    pages = sorted(p for p in (site / "reference").glob("*/index.html"))
    assert len(pages) >= 7, pages  # simlib, simlib.core and one per game
    return pages


RAW_ROLE = re.compile(r":(?:py:)?(?:func|meth|class|mod|attr|data|exc|obj|const):")


def reference_faults(page: str) -> list[str]:
    """What a reader would see wrong in a page rendered from docstrings: Sphinx roles
    printed raw, examples that Markdown read as nested blockquotes (``>>>``), and
    reStructuredText's ``::`` before a literal block."""
    faults = []
    # code (signatures, code blocks, inline code) may show anything; prose may not
    prose = re.sub(r"<pre\b.*?</pre>|<code\b.*?</code>", " ", page, flags=re.S)
    prose = re.sub(r"<[^>]+>", " ", prose)
    for m in RAW_ROLE.finditer(prose):
        faults.append("raw role: " + " ".join(prose[m.start():m.end() + 60].split()))
    if re.search(r"<blockquote>\s*<blockquote>", page):
        faults.append("nested blockquotes (a >>> example read as Markdown quotes)")
    if "&gt;&gt;&gt;" in prose or ">>>" in prose:
        faults.append("a >>> prompt outside a code block")
    if re.search(r"::\s*</p>", page):
        faults.append("reStructuredText '::' before a literal block")
    return faults


def test_reference_fault_finder_sees_the_faults_it_must():
    before = ("<p>As in :func:<code>simlib.simulate</code>.</p><blockquote><blockquote>"
              "<blockquote><p>import simlib res = simlib.simulate()</p></blockquote></blockquote>"
              "</blockquote><p>the table::</p>")
    found = reference_faults(before)
    assert len(found) == 3 and found[0].startswith("raw role: :func:"), found
    after = ('<p>As in <a href="#simlib.simulate"><code>simlib.simulate</code></a>.</p>'
             '<div class="highlight"><pre><code><span class="gp">&gt;&gt;&gt; </span>import simlib'
             "</code></pre></div><p>The roles (<code>:func:`x`</code>) become links.</p>")
    assert reference_faults(after) == []


def test_api_reference_renders_roles_as_links_and_examples_as_code(site):
    faults = {p.parent.name: reference_faults(p.read_text(encoding="utf-8")) for p in _reference_pages(site)}
    assert {k: v[:5] for k, v in faults.items() if v} == {}
    # the examples are there, as code: Python prompts in highlighted blocks
    simlib_page = (site / "reference" / "simlib" / "index.html").read_text(encoding="utf-8")
    assert simlib_page.count('<span class="gp">&gt;&gt;&gt; </span>') >= 5
    # a role became a link to the object it names
    assert re.search(r'<a class="autorefs autorefs-internal"[^>]*href="[^"]*#simlib\.simulate"', simlib_page)


def test_every_game_has_a_reference_page_named_as_its_game_page(site):
    sys.path.insert(0, str(DOCS / "hooks"))
    try:
        import build
    finally:
        sys.path.pop(0)
    home = (site / "index.html").read_text(encoding="utf-8")

    def nav_title(href: str) -> str:
        m = re.search(rf'href="{re.escape(href)}"[^>]*>\s*<span class="md-ellipsis">\s*([^<]+?)\s*</span>', home)
        assert m, f"{href} is not in the navigation"
        return m.group(1)

    games = sorted(p for p in (ROOT / "simlib" / "games").iterdir() if (p / "game.py").is_file())
    assert len(games) >= 5
    for pkg in games:
        slug = pkg.name.replace("_", "-")
        ref = site / "reference" / slug / "index.html"
        assert ref.is_file(), f"no API reference page for {pkg.name}"
        assert f'id="simlib.games.{pkg.name}.' in ref.read_text(encoding="utf-8"), pkg.name
        title = build.game_title(pkg)
        assert nav_title(f"reference/{slug}/") == title
        game_pages = [p for p in (DOCS / "games").glob("*.md") if build._title(p) == title]
        assert len(game_pages) == 1, f"no game page titled {title!r}"
        assert nav_title(f"games/{game_pages[0].stem}/") == title


def _signature_defaults(path: Path, name: str) -> dict[str, str | None]:
    """Each parameter of ``name`` in ``path`` with its default as written (None: required)."""
    import ast

    fn = next(n for n in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
              if isinstance(n, ast.FunctionDef) and n.name == name)
    a = fn.args
    positional = a.posonlyargs + a.args
    defaults = [None] * (len(positional) - len(a.defaults)) + [ast.unparse(d) for d in a.defaults]
    out = dict(zip([x.arg for x in positional], defaults))
    out.update({x.arg: None if d is None else ast.unparse(d) for x, d in zip(a.kwonlyargs, a.kw_defaults)})
    return out


def _parameter_rows(page: str, anchor: str) -> list[tuple[str, str, str]]:
    """(name, description, default) of the first parameter table after ``anchor``."""
    start = page.index(f'id="{anchor}"')
    table = page[page.index("<table", start):page.index("</table>", start)]
    rows = []
    for tr in re.findall(r'<tr class="doc-section-item">(.*?)</tr>', table, re.S):
        cells = [" ".join(re.sub(r"<[^>]+>", " ", c).split()) for c in re.findall(r"<td>(.*?)</td>", tr, re.S)]
        rows.append((cells[0], cells[2], cells[-1]))
    return rows


def test_compare_parameter_table_is_true_to_its_signature(site):
    page = (site / "reference" / "simlib" / "index.html").read_text(encoding="utf-8")
    rows = _parameter_rows(page, "simlib.core.instruments.compare")
    signature = _signature_defaults(ROOT / "simlib" / "core" / "instruments.py", "compare")
    assert [r[0] for r in rows] == list(signature)  # every parameter, in the signature's order
    for name, _, default in rows:
        assert default == (signature[name] or "required"), name
    descriptions = [r[1] for r in rows]
    assert len(set(descriptions)) == len(descriptions), "parameters sharing one text"


# ============================================== nothing of the building machine shown
MACHINE_PATH = re.compile(r"(?<![\w.:/-])/(?:work|root|tmp|home)/")


def test_machine_path_pattern():
    for shown in ("wrote /tmp/tmp230ncecr/report.html", "<td>/work/main/data/x+/work/main/y</td>",
                  "python /root/.pyenv/versions/3.11.7/bin/x", "(/home/me/simlib)"):
        assert MACHINE_PATH.search(shown), shown
    for fine in ("https://example.org/tmp/x", "docs/tmp/x", "data/until_daylight/", "../old"):
        assert not MACHINE_PATH.search(fine), fine


def test_built_site_shows_no_path_of_the_machine_that_built_it(site):
    bad = []
    for path in sorted(site.rglob("*")):
        if path.suffix not in {".html", ".json", ".xml", ".txt", ".md"} or not path.is_file():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        for m in MACHINE_PATH.finditer(text):
            bad.append(f"{path.relative_to(site)}: ...{text[max(0, m.start() - 60):m.end() + 40]!r}")
    assert bad == [], "\n".join(bad[:20])


# ================================================== pages that list the games list all
def test_pages_that_list_the_games_list_every_game():
    pages = sorted(p.stem for p in (DOCS / "games").glob("*.md"))
    packages = sorted(p.name for p in (ROOT / "simlib" / "games").iterdir() if (p / "game.py").is_file())
    assert len(pages) >= 5 and len(packages) >= 5
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    row = next(ln for ln in index.splitlines() if "how a game is played" in ln)
    rulesets = (DOCS / "designer" / "rulesets.md").read_text(encoding="utf-8")
    files = rulesets.split("## The files", 1)[1].split("\n## ", 1)[0]
    readme = README.read_text(encoding="utf-8")
    docs_table = readme.split("## Documentation", 1)[1].split("\n## ", 1)[0]
    architecture = (DOCS / "architecture.md").read_text(encoding="utf-8")
    for stem in pages:
        assert f"games/{stem}.md" in row, f"index.md's 'how a game is played' lacks {stem}"
        assert f"games/{stem}.md" in files, f"rulesets.md's 'The files' lacks {stem}"
        assert f"docs/games/{stem}.md" in docs_table, f"the README's docs table lacks {stem}"
        assert f"games/{stem}.md" in architecture, f"architecture.md lacks {stem}"
    for pkg in packages:
        assert f"`data/{pkg}/`" in files, f"rulesets.md's 'The files' lacks data/{pkg}/"
        assert pkg in architecture, f"architecture.md's picture lacks {pkg}"
    # the README's docs table links every page of the designer's and analyst's guides
    for guide in ("designer", "analyst"):
        for p in sorted((DOCS / guide).glob("*.md")):
            assert f"docs/{guide}/{p.name}" in docs_table, f"the README's docs table lacks {guide}/{p.name}"


# ===================================================================== examples run
# Pages whose Python blocks are fragments, not runnable examples, while their owner rewrites
# them: remove a page from here when its examples run.
FRAGMENTS: dict[str, str] = {}  # page -> why its Python blocks are fragments, not run


def _python_pages():
    return [p for p in PAGES if rel(p) not in FRAGMENTS
            and any(lang == "python" for lang, _, _ in blocks(p))]


@pytest.mark.parametrize("path", _python_pages(), ids=lambda p: rel(p))
def test_python_examples_run(path, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MPLBACKEND", "Agg")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    found = blocks(path)
    ns: dict = {"__name__": "__docs__"}
    ran = 0
    for i, (lang, code, line) in enumerate(found):
        if lang != "python":
            continue
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(code, f"{rel(path)}:{line}", "exec"), ns)
        ran += 1
        plt.close("all")
        nxt = found[i + 1] if i + 1 < len(found) else None
        if nxt and nxt[0] == "output":
            assert out.getvalue().strip() == nxt[1].strip(), f"{rel(path)}:{line} printed otherwise"
    assert ran


def test_every_output_block_follows_a_python_block():
    for path in PAGES:
        found = blocks(path)
        for i, (lang, _, line) in enumerate(found):
            if lang == "output":
                assert i > 0 and found[i - 1][0] == "python", f"{rel(path)}:{line}"


# ====================================================================== commands exist
def _commands():
    cmds = []
    for path in PAGES:
        for lang, code, line in blocks(path):
            text = code.replace("\\\n", " ")
            for k, ln in enumerate(text.splitlines()):
                ln = ln.strip()
                if lang == "text" and ln.startswith("$ simlib "):
                    ln = ln[2:]
                elif lang not in ("bash", "sh") or not ln.startswith("simlib "):
                    continue
                ln = ln.split("&&")[0]
                cmds.append(pytest.param(shlex.split(ln, comments=True)[1:], id=f"{rel(path)}:{line + k}"))
    return cmds


@pytest.mark.parametrize("argv", _commands())
def test_shown_commands_parse(argv):
    from simlib.cli import build_parser

    if argv and argv[0] == "bench":  # simlib bench hands its flags to the bench's own parser
        from simlib.cli import main

        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
            main(["bench", "--help"])  # argparse prints the options and exits: nothing measured
        assert "--guard" in out.getvalue()
        for flag in (a for a in argv[1:] if a.startswith("-")):  # its values are the user's
            assert re.search(rf"(^|\s){re.escape(flag)}\b", out.getvalue()), f"simlib bench {flag}"
        return
    try:
        build_parser().parse_args(argv)
    except SystemExit as e:  # argparse's error exit
        pytest.fail(f"simlib {' '.join(argv)}: rejected by the CLI (exit {e.code})")


# What a shown command may run here: these subcommands with a tiny game count; calibrate,
# sensitivity, bench and tune-policy are parsed only (each is minutes of measuring or
# searching whatever the game count), as are commands that need a cluster or a search player.
RUNNABLE = {"simulate", "compare", "sweep", "trace", "report", "games", "rules"}
SLOW = re.compile(r"rollout|clairvoyant|--scheduler|--backend")
TINY = {"--games": "16", "--max-games": "32"}


def _tiny(argv: list[str]) -> list[str]:
    """The command with a tiny game count, its files in the working folder, no progress bar."""
    out = list(argv)
    for i, a in enumerate(out[:-1]):
        if a in TINY:
            out[i + 1] = TINY[a]
        elif a in ("--out", "--html", "--plot"):
            out[i + 1] = Path(out[i + 1]).name
    if out[0] in ("simulate", "compare", "sweep"):
        out += [] if "--games" in out or "--precision" in out else ["--games", TINY["--games"]]
        out += ["--no-progress"] + (["--force"] if "--out" in out else [])
    return out


def _runnable_pages():
    pages = {}
    for param in _commands():
        argv = param.values[0]
        if argv and argv[0] in RUNNABLE and not SLOW.search(" ".join(argv)):
            pages.setdefault(param.id.rsplit(":", 1)[0], []).append(argv)
    return sorted(pages.items())


@pytest.mark.parametrize("page, commands", _runnable_pages(), ids=[p for p, _ in _runnable_pages()])
def test_shown_commands_run_with_a_tiny_game_count(page, commands, tmp_path, monkeypatch, capsys):
    from simlib.cli import main

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MPLBACKEND", "Agg")
    for argv in commands:  # in the page's order: a report reads the study written before it
        argv = _tiny(argv)
        code = main(argv)
        out, err = capsys.readouterr()
        assert code == 0, f"{page}: simlib {' '.join(argv)} exited {code}: {err[-800:]}"
        assert out.strip() or argv[0] == "report", f"simlib {' '.join(argv)} printed nothing"


def _recorded_runs():
    runs = []
    for path in PAGES:
        for lang, code, line in blocks(path):
            first, _, shown = code.partition("\n")
            if lang == "text" and first.startswith("$ simlib ") and not SLOW.search(first):
                argv = shlex.split(first[2:], comments=True)[1:]
                if argv[0] in RUNNABLE:
                    runs.append(pytest.param(argv, shown, id=f"{rel(path)}:{line}"))
    return runs


@pytest.mark.parametrize("argv, shown", _recorded_runs())
def test_recorded_runs_have_the_sections_the_command_prints(argv, shown, tmp_path, monkeypatch, capsys):
    """A recorded output's section titles (``== ... ==``) are what the command prints today."""
    from simlib.cli import main

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MPLBACKEND", "Agg")
    assert main(_tiny(argv)) == 0
    if argv[0] == "rules":  # no games played: the very lines (spacing aside), the rule kept
        lines = [" ".join(ln.split()) for ln in capsys.readouterr().out.splitlines()]
        want = [" ".join(ln.split()) for ln in shown.splitlines()]
        assert [ln for ln in want if not set(ln) <= {"-"}] == \
            [ln for ln in lines[:len(want)] if not set(ln) <= {"-"}]
        return
    printed = {ln.strip() for ln in capsys.readouterr().out.splitlines()}
    titles = [ln.strip() for ln in shown.splitlines() if re.match(r"\s*== .* ==$", ln)]
    if not titles:  # one table (a sweep): its column titles
        titles = [" ".join(ln.split()) for ln in shown.splitlines() if " win % " in ln][:1]
        printed = {" ".join(ln.split()) for ln in printed}
    assert titles, "a recorded run without a table title"
    assert [t for t in titles if t not in printed] == []


def test_commands_are_found():
    assert len(_commands()) >= 30


# ================================================================ nothing cited outside
OUTSIDE = re.compile("|".join([
    r"shared/" + r"(rules|seeds)",   # the engine specifications and rulebooks of the workspace
    r"\.\./" + r"(shared|seeds)",
    r"(?<![\w/.])seeds/",
    r"/" + r"work/",
]))
# Files whose owners are rewriting them as this test is written: remove a name once its
# file is clean (the test then covers it like every other file).
PENDING: set[str] = set()  # files still to be cleaned of outside citations (none)


def _repository_files():
    try:  # the repository's files (tracked or new, not ignored) ...
        p = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                           cwd=ROOT, capture_output=True, text=True, check=True)
        names = p.stdout.splitlines()
    except (OSError, subprocess.CalledProcessError):  # ... or, outside a git checkout, the tree
        skip = {".git", "site", "build", "dist", "__pycache__", ".pytest_cache"}
        names = [str(q.relative_to(ROOT)) for q in ROOT.rglob("*")
                 if not skip & set(q.relative_to(ROOT).parts) and ".egg-info" not in str(q)]
    for name in names:
        path = ROOT / name
        if path.suffix in {".py", ".md", ".toml", ".txt", ".ipynb", ".yml", ".cfg", ".j2", ""} \
                and path.is_file() and name not in PENDING and name != "tests/test_docs.py":
            yield name, path


def test_no_file_cites_a_path_outside_the_repository():
    bad = []
    for name, path in _repository_files():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for k, line in enumerate(text.splitlines(), 1):
            if OUTSIDE.search(line):
                bad.append(f"{name}:{k}: {line.strip()[:100]}")
    assert bad == [], "\n".join(bad)


def test_the_outside_pattern_catches_what_it_must():
    for cited in ("the rules in shared/" + "rules/x.md", "(../seeds/" + "rulebook.txt)",
                  "`seeds/" + "rulebook.txt`", "/work/" + "shared"):
        assert OUTSIDE.search(cited), cited
    assert not OUTSIDE.search("data/until_daylight/horde.toml, the docs' games/till-dawn.md")


# =========================================================================== README
def _readme_block(after: str) -> str:
    text = README.read_text(encoding="utf-8")
    m = re.search(re.escape(after) + r".*?```bash\n(.*?)```", text, re.S)
    assert m, f"no command after {after!r}"
    return m.group(1).strip()


def test_readme_is_a_front_door():
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 300
    assert not re.search(r"20\d\d-\d\d-\d\d", text), "dated figures belong in CHANGELOG.md or the docs"
    main = _readme_block("Install everything and run the main job")
    assert main.startswith("python -m pip install") and "simlib simulate" in main


def test_readme_links_point_into_the_repository():
    text = README.read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text)
    assert links
    for target in links:
        assert not re.match(r"[a-z]+:", target), f"README links outside: {target}"
        assert (ROOT / target).exists(), f"README links to a missing file: {target}"


def test_ci_runs_exactly_the_readme_test_command():
    test_cmd = _readme_block("Install everything and run the tests")
    assert test_cmd == 'python -m pip install ".[test]" && python -m pytest -n 2 --dist loadfile'
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert ci[-1].strip() == test_cmd  # the last thing CI does is the README's command
    assert os.access(ROOT / ".ci" / "run", os.X_OK)


# ====================================================================== in a browser
@pytest.fixture(scope="module")
def served(site):
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(site))
    handler.log_message = lambda *a, **k: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize("page, heading", [("getting-started/", "Getting started"),
                                           ("notebooks/01_win_rates/", "a first look at win rates")])
def test_docs_page_in_headless_chromium(served, tmp_path, page, heading):
    url = f"{served}/{page}"
    shot = tmp_path / "shot.png"
    p = chromium.run(url, tmp_path / "profile", "--virtual-time-budget=5000", f"--screenshot={shot}",
                     "--window-size=1200,1800")  # the screenshot after the page's scripts ran
    assert p.returncode == 0, p.stderr[-2000:]
    assert chromium.console_lines(p.stderr) == []  # no error, no warning from the page
    assert chromium.screenshot_colors(shot, (1200, 1800)) > 50  # not a blank page
    p = chromium.run(url, tmp_path / "profile2", "--virtual-time-budget=5000", "--dump-dom")
    assert p.returncode == 0, p.stderr[-2000:]
    assert chromium.console_lines(p.stderr) == []
    dom = p.stdout
    assert re.search(r"<h1[^>]*>[^<]*" + re.escape(heading), dom, re.I), "the page's title is missing"
    assert 'class="md-nav' in dom  # the theme rendered (navigation), not a bare page
    if page.startswith("notebooks/"):
        assert dom.count("data:image/png;base64,") >= 2


# ================================================ the game pages' numbers are the data's
def _reference(game: str):
    sys.path.insert(0, str(DOCS / "hooks"))
    try:
        import build
    finally:
        sys.path.pop(0)
    return build.reference_ruleset(game)


def test_until_daylight_page_states_the_reference_numbers():
    rules = _reference("until_daylight")
    page = (DOCS / "games" / "until-daylight.md").read_text(encoding="utf-8")
    for name in ("pillar", "hipster", "trigger", "haggler", "drifter", "psycho"):
        row = re.search(rf"^\| {name.title()} \| (\d+) \| (\d+) \|", page, re.M)
        assert row, f"no row for {name}"
        assert int(row.group(1)) == rules.get(f"characters.{name}.health"), name
        assert int(row.group(2)) == rules.get(f"characters.{name}.slots"), name
    flat = " ".join(page.split())  # sentences as read, whatever the line breaks
    horde = re.search(r"(\d+) Wanderers, (\d+) Raiders, (\d+) Brutes, (\d+) Monsters, (\d+) Survivors", flat)
    assert horde
    for n, enemy in zip(horde.groups(), ("wanderer", "raider", "brute", "monster", "survivor")):
        assert int(n) == rules.get(f"horde.{enemy}.count"), enemy
    faces = rules.get("dice.combat.faces")
    assert f"{faces['H']} H, {faces['B']} B, {faces['X']} X" in flat


def test_till_dawn_page_states_the_reference_numbers():
    rules = _reference("till_dawn")
    page = " ".join((DOCS / "games" / "till-dawn.md").read_text(encoding="utf-8").split())
    p = {k: rules.get(f"powers.{k}.count") for k in ("double_feeding", "cancel", "copy", "protection")}
    assert (f"**Powers** ({sum(p.values())}): double {p['double_feeding']}, cancel {p['cancel']}, "
            f"copy {p['copy']}, protection {p['protection']}") in page
    e = {k: rules.get(f"events.{k}.count") for k in ("protection", "double_feeding", "heal")}
    assert (f"**Events** ({sum(e.values())}): protection {e['protection']}, double "
            f"{e['double_feeding']}, heal (+{rules.get('events.heal.amount')}) {e['heal']}") in page
    assert f"**Night track**: {rules.get('constants.track_length')} spaces" in page
