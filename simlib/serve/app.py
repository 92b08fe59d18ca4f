"""The what-if page's web app: Starlette routes over :mod:`simlib.serve.session`.

Why Starlette with htmx: the page is a form whose parts the server re-renders (a field's
row after an edit, the results twice a second while a run goes on), which is exactly what
htmx does with plain HTML attributes, so the page holds no application code of its own
and every figure it shows is rendered, and testable, in Python.  Starlette is the small,
well-kept ASGI toolkit under FastAPI (routing, forms, responses, lifespan) and uvicorn its
usual server; htmx (one file, 0BSD) is shipped in the package, so the page works offline.

Every request carries the access token printed with the URL: as ``?token=`` (the printed
URL; the page then keeps it in a same-site cookie), as the ``X-Simlib-Token`` header (the
page's own requests) or as that cookie.  Anything else gets 403.
"""
from __future__ import annotations

import contextlib
import html
import json
import math
import secrets
import threading
import urllib.parse
from pathlib import Path

import jinja2
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.base import BaseHTTPMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from ..core.games import game_names, get_game
from .plot import COLORS, difference_plot
from .report import comparison_report
from .session import KERNEL_LOCK, TWEAK_FILE, Page, Pages, SetupError, field_rows, local_rulesets, \
    tweak_toml

__all__ = ["create_app", "TOKEN_HEADER"]

TOKEN_HEADER = "X-Simlib-Token"
HERE = Path(__file__).parent
STATIC = {"htmx.min.js": "text/javascript", "page.css": "text/css"}
POLL_MS = 400


def _pct(x, digits: int = 1) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    return f"{100 * x:.{digits}f}"


def _pts(x, digits: int = 1) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    return f"{100 * x:+.{digits}f}"


def _env() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(HERE / "templates")),
                             autoescape=True, undefined=jinja2.StrictUndefined,
                             trim_blocks=True, lstrip_blocks=True)
    env.filters["pct"] = _pct
    env.filters["pts"] = _pts
    env.filters["tojson_attr"] = lambda v: json.dumps(v)
    return env


def create_app(*, token: str | None = None, folder: str | Path | None = None, cap: int = 200_000,
               game: str | None = None, warm: bool = True) -> Starlette:
    """The ASGI app.  ``token``: the access token (random by default: ``app.state.token``);
    ``folder``: where ruleset files may be read from (default: the current folder);
    ``cap``: games per ruleset a run plays at most; ``game``: the game a new page opens
    with; ``warm``: load that game's kernels at start-up, so the first figures come fast."""
    token = token or secrets.token_urlsafe(24)
    folder = Path(folder or Path.cwd()).resolve()
    first_game = get_game(game).name if game else game_names()[0]
    pages = Pages(folder, cap)
    env = _env()

    # ------------------------------------------------------------------ helpers
    def wants_json(request: Request) -> bool:
        return "application/json" in request.headers.get("accept", "")

    def render(name: str, **kw) -> str:
        return env.get_template(name).render(**kw)

    async def form(request: Request) -> dict:
        if request.method == "GET":
            return dict(request.query_params)
        # htmx posts application/x-www-form-urlencoded: parsed here (Starlette's form parser
        # needs python-multipart, a dependency for nothing the page sends)
        body = (await request.body())[:1_000_000].decode("utf-8", "replace")
        return dict(urllib.parse.parse_qsl(body, keep_blank_values=True))

    async def page_of(request: Request) -> tuple[Page | None, dict]:
        data = await form(request)
        pid = data.get("page") or request.query_params.get("page", "")
        return pages.get(pid), data

    def gone(request: Request) -> Response:
        msg = "this page is no longer known to the server (it restarted?): reload the page"
        if wants_json(request):
            return JSONResponse({"error": msg}, status_code=404)
        return HTMLResponse(f'<p class="error">{html.escape(msg)}</p>', status_code=404)

    def editor_html(page: Page, error: str = "") -> str:
        info = page.info
        games = [(n, get_game(n).display_name) for n in game_names()]
        bases = list(info.presets) + [p for p in local_rulesets(page.folder) if p not in info.presets]
        rows = field_rows(page.base, page.reference, page.changes)
        for r in rows:
            r["error"] = page.errors.get(r["key"], "")
        return render("editor.html.j2", page=page, info=info, games=games, bases=bases,
                      policies=info.policy_names(), rows=rows,
                      error=error or page.setup_error, tweak_file=TWEAK_FILE)

    def status(page: Page) -> dict:
        if page.run is None:
            return {"run": None, "state": "idle", "message": "change a value to start a comparison",
                    "games": 0, "cap": page.cap, "rows": [], "history": [], "changes": {}}
        snap = page.run.snapshot()
        snap["changes"] = {k: v for k, v in page.changes.items()}
        return snap

    def row_label(r: dict) -> str:
        return f"{r['key']} players" if r["group"] == "players" else f"seat {r['key']}"

    # ------------------------------------------------------------------ routes
    async def index(request: Request) -> Response:
        try:
            page = pages.new(request.query_params.get("game") or first_game)
        except SetupError as exc:
            return PlainTextResponse(str(exc), status_code=400)
        body = render("page.html.j2", page=page, token=token, editor=editor_html(page),
                      poll_ms=POLL_MS, info=page.info)
        resp = HTMLResponse(body)
        if request.query_params.get("token"):
            resp.set_cookie(cookie_name(request), token, httponly=True, samesite="strict")
        return resp

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC:
            return PlainTextResponse("not found", status_code=404)
        return Response((HERE / "static" / name).read_bytes(), media_type=STATIC[name],
                        headers={"Cache-Control": "private, max-age=3600"})

    async def api_setup(request: Request) -> Response:
        page, data = await page_of(request)
        if page is None:
            return gone(request)
        error = ""
        try:
            page.setup(game=data.get("game"), base=data.get("base"), players=data.get("players"),
                       policy=data.get("policy"), seats=data.get("seats"), seed=data.get("seed"))
        except SetupError as exc:
            error = str(exc)
        if wants_json(request):
            return JSONResponse({"ok": not error, "error": error or page.setup_error,
                                 "game": page.game, "base": page.base_spec,
                                 "players": page.players_text, "policy": page.policy,
                                 "seats": page.seats, "seed": page.seed,
                                 "changes": page.changes},
                                status_code=400 if error else 200)
        return HTMLResponse(editor_html(page, error))

    async def api_fields(request: Request) -> Response:
        page, _ = await page_of(request)
        if page is None:
            return gone(request)
        return JSONResponse({"game": page.game, "base": page.base_spec,
                             "fields": field_rows(page.base, page.reference, page.changes)})

    async def api_field(request: Request) -> Response:
        page, data = await page_of(request)
        if page is None:
            return gone(request)
        key = data.get("key", "")
        text = data.get("value", "")
        if data.get("reset"):
            text = next((r["base"] for r in field_rows(page.base) if r["key"] == key), text)
        error = page.set_value(key, text)
        if wants_json(request):
            return JSONResponse({"ok": error is None, "error": error, "changes": page.changes,
                                 "run": page.run.id if page.run else None},
                                status_code=400 if error else 200)
        rows = [r for r in field_rows(page.base, page.reference, page.changes) if r["key"] == key]
        if not rows:  # an unknown key (only a hand-made request sends one)
            return HTMLResponse(f'<p class="error">{html.escape(error or "unknown key")}</p>',
                                status_code=400)
        row = rows[0]
        row["error"] = error or ""
        if error:
            row["value"] = text
        return HTMLResponse(render("row.html.j2", r=row, page=page))

    async def api_stop(request: Request) -> Response:
        page, _ = await page_of(request)
        if page is None:
            return gone(request)
        page.stop()
        return JSONResponse({"ok": True}) if wants_json(request) else HTMLResponse("")

    async def api_restart(request: Request) -> Response:
        page, _ = await page_of(request)
        if page is None:
            return gone(request)
        try:
            page.restart()
        except ValueError as exc:
            return JSONResponse({"ok": False, "error": str(exc)}, status_code=400)
        return JSONResponse({"ok": True, "run": page.run.id if page.run else None}) \
            if wants_json(request) else HTMLResponse("")

    async def api_status(request: Request) -> Response:
        page, _ = await page_of(request)
        if page is None:
            return gone(request)
        snap = status(page)
        if wants_json(request):
            return JSONResponse(snap)
        labels = [row_label(r) for r in snap["rows"]]
        plot = difference_plot(snap["history"], labels)
        return HTMLResponse(render("results.html.j2", s=snap, page=page, plot=plot, labels=labels,
                                   colors=COLORS, token=token))

    async def download_tweak(request: Request) -> Response:
        page, _ = await page_of(request)
        if page is None:
            return gone(request)
        if not page.changes:
            return PlainTextResponse("no changed value to write", status_code=400)
        text = tweak_toml(page.info, page.base_spec, page.base, page.changes)
        return Response(text, media_type="application/toml",
                        headers={"Content-Disposition": f'attachment; filename="{TWEAK_FILE}"'})

    async def download_report(request: Request) -> Response:
        page, _ = await page_of(request)
        if page is None:
            return gone(request)
        try:
            rep = comparison_report(page)
        except ValueError as exc:
            return PlainTextResponse(str(exc), status_code=400)
        name = f"whatif-{page.info.cli_name}.html"
        return HTMLResponse(rep.render(),
                            headers={"Content-Disposition": f'attachment; filename="{name}"'})

    # ------------------------------------------------------------------ access and life
    def cookie_name(request: Request) -> str:
        return f"simlib_serve_{request.url.port or 0}"  # cookies ignore ports: one per server

    async def check_token(request: Request, call_next):
        given = request.query_params.get("token") or request.headers.get(TOKEN_HEADER) \
            or request.cookies.get(cookie_name(request)) or ""
        if not secrets.compare_digest(given.encode(), token.encode()):
            return PlainTextResponse("403 Forbidden: open the URL simlib serve printed (it carries "
                                     "the access token)", status_code=403)
        resp = await call_next(request)
        resp.headers["Cache-Control"] = resp.headers.get("Cache-Control", "no-store")
        resp.headers["X-Content-Type-Options"] = "nosniff"
        resp.headers["Referrer-Policy"] = "no-referrer"
        return resp

    def warm_up() -> None:
        """Load the first game's kernels (a game of each kernel the first run needs)."""
        with contextlib.suppress(Exception), KERNEL_LOCK:
            info = get_game(first_game)
            info.adapter(seed=0).outcomes(0, 1, None)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        if warm:
            threading.Thread(target=warm_up, name="simlib-serve-warm", daemon=True).start()
        try:
            yield
        finally:
            pages.shutdown()

    routes = [Route("/", index), Route("/static/{name}", static),
              Route("/api/setup", api_setup, methods=["POST"]),
              Route("/api/fields", api_fields), Route("/api/field", api_field, methods=["POST"]),
              Route("/api/stop", api_stop, methods=["POST"]),
              Route("/api/restart", api_restart, methods=["POST"]),
              Route("/api/status", api_status),
              Route("/download/tweak", download_tweak), Route("/download/report", download_report)]
    app = Starlette(routes=routes, middleware=[Middleware(BaseHTTPMiddleware, dispatch=check_token)],
                    lifespan=lifespan)
    app.state.token = token
    app.state.pages = pages
    app.state.folder = folder
    return app
