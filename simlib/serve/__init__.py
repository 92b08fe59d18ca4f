"""``simlib serve``: a local what-if page for designers (docs/designer/what-if.md).

:func:`create_app` builds the web app (Starlette), :func:`main` is the command; the page's
state (setup, changed values, the background run) lives in :mod:`simlib.serve.session`.
"""
from __future__ import annotations

__all__ = ["create_app", "main"]


def create_app(**kw):
    """The what-if page's ASGI app (see :func:`simlib.serve.app.create_app`)."""
    from .app import create_app as make

    return make(**kw)


def main(argv=None) -> int:
    """``simlib serve [--port N] [--host H] ...``; returns the exit status."""
    from .main import main as run

    return run(argv)
