"""``simlib serve``: start the what-if page's server and print its URL (with the token)."""
from __future__ import annotations

import argparse
import socket
import sys
from typing import Sequence

__all__ = ["main", "build_parser", "add_arguments", "LOOPBACK", "Background"]

LOOPBACK = ("127.0.0.1", "::1", "localhost")
DEFAULT_PORT = 8765
DEFAULT_CAP = 200_000


DESCRIPTION = ("A local what-if page: change a ruleset value in the browser and watch the "
               "paired difference against the base ruleset sharpen, game chunk after game "
               "chunk.  Open the printed URL (it carries the access token); Ctrl-C stops the "
               "server and its runs.  Ruleset files are read only from the current folder.")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="simlib serve", description=DESCRIPTION)
    add_arguments(p)
    return p


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The flags of ``simlib serve`` (also declared in ``simlib --help``'s parser)."""
    p.add_argument("--port", type=int, default=DEFAULT_PORT,
                   help=f"port to listen on (default {DEFAULT_PORT}; 0 picks a free port)")
    p.add_argument("--host", default="127.0.0.1",
                   help="interface to listen on (default 127.0.0.1, this machine only; anything "
                        "else lets other machines reach the page: a warning is printed)")
    p.add_argument("--game", default=None, metavar="NAME",
                   help="the game a new page opens with (default until-daylight)")
    p.add_argument("--max-games", type=int, default=DEFAULT_CAP, metavar="N",
                   help=f"games per ruleset a run plays at most (default {DEFAULT_CAP:,})")
    p.add_argument("--token", default=None,
                   help="the access token (default: a new random one; for scripts)")
    p.add_argument("--no-warm", action="store_true",
                   help="do not load the first game's kernels at start-up")
    return p


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(128)
    return sock


class Background:
    """The server on a thread of this process (tests, screenshots): ``with Background(app) as
    srv: srv.url``.  Binds ``host`` (loopback) on ``port`` (0: a free one)."""

    def __init__(self, app, host: str = "127.0.0.1", port: int = 0):
        import threading

        import uvicorn

        self.app = app
        self.sock = _bind(host, port)
        self.host, self.port = self.sock.getsockname()[:2]
        self.server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]},
                                       name="simlib-serve", daemon=True)

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/?token={self.app.state.token}"

    def __enter__(self) -> "Background":
        import time

        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started and self.thread.is_alive() and time.monotonic() < deadline:
            time.sleep(0.02)
        if not self.server.started:
            raise RuntimeError("the what-if server did not start")
        return self

    def __exit__(self, *exc) -> None:
        self.server.should_exit = True
        self.thread.join(30)
        self.sock.close()


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``simlib serve``; returns the exit status."""
    p = build_parser()
    try:
        a = p.parse_args(list(sys.argv[1:] if argv is None else argv))
    except SystemExit as exc:
        return int(exc.code or 0)
    if not 0 <= a.port <= 65535:
        sys.stderr.write(f"simlib serve: error: --port must be 0 to 65535; got {a.port}\n")
        return 2
    if a.max_games <= 0:
        sys.stderr.write(f"simlib serve: error: --max-games must be positive; got {a.max_games}\n")
        return 2
    if a.host not in LOOPBACK:
        sys.stderr.write(f"simlib serve: warning: listening on {a.host}: other machines that "
                         "reach it and have the URL's token can run games here and read the "
                         "ruleset files of this folder.  The default, 127.0.0.1, is this "
                         "machine only.\n")
    import uvicorn

    from .app import create_app

    try:
        app = create_app(token=a.token, cap=a.max_games, game=a.game, warm=not a.no_warm)
    except ValueError as exc:
        sys.stderr.write(f"simlib serve: error: {exc}\n")
        return 2
    try:
        sock = _bind(a.host, a.port)
    except OSError as exc:
        sys.stderr.write(f"simlib serve: error: cannot listen on {a.host}:{a.port} ({exc.strerror}); "
                         "try --port 0\n")
        return 2
    port = sock.getsockname()[1]
    shown = f"[{a.host}]" if ":" in a.host else a.host
    config = uvicorn.Config(app, log_level="warning", lifespan="on", timeout_graceful_shutdown=5)
    server = uvicorn.Server(config)
    try:
        sys.stdout.write(f"simlib serve: the what-if page is at\n    http://{shown}:{port}/?token="
                         f"{app.state.token}\n(Ctrl-C stops the server)\n")
        sys.stdout.flush()
        server.run(sockets=[sock])  # uvicorn turns Ctrl-C into a graceful shutdown (runs stopped)
    except KeyboardInterrupt:  # Ctrl-C before uvicorn took the signal, or a second one
        app.state.pages.shutdown()
    finally:
        sock.close()
    sys.stdout.write("simlib serve: stopped\n")
    return 0
