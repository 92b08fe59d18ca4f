"""Headless Chromium for the browser tests (the HTML report, a page of the documentation).

On a developer's machine without Chromium the tests skip, saying so; in CI (``CI`` set to
``true``, as ``.ci/run`` and CI services do) a missing Chromium is a failure, because the
browser tests are the one check that a person's view works.  ``.ci/run`` installs
Debian's ``chromium`` package when none is found.
"""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
# What works in a container as root: no sandbox, no GPU, and nothing that reaches the network
# on its own (updates, sync, QUIC probes), so a page's console holds only the page's messages.
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-extensions", "--hide-scrollbars", "--enable-logging=stderr", "--v=0")


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


def chromium() -> str:
    """The browser's path; skips the test without one (fails it in CI)."""
    for name in NAMES:
        path = shutil.which(name)
        if path:
            return path
    message = "no Chromium on this machine (Debian: apt-get install chromium)"
    if in_ci():
        pytest.fail(f"{message}; CI must run the browser tests (.ci/run installs it)")
    pytest.skip(message)


def run(url: str, profile: Path, *args: str, timeout: float = 180) -> subprocess.CompletedProcess:
    """Chromium on ``url`` with a new empty profile; ``args`` such as ``--screenshot=...``."""
    profile.mkdir(parents=True, exist_ok=True)
    cmd = [chromium(), *FLAGS, f"--user-data-dir={profile}", *args, url]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)


def console_lines(stderr: str) -> list[str]:
    """The page's console messages (errors and warnings included) among Chromium's log."""
    return [ln for ln in stderr.splitlines() if ":CONSOLE" in ln]


def screenshot_colors(path: Path, size: tuple[int, int]) -> int:
    """How many colours a downscaled screenshot holds (a blank page has one or two)."""
    from PIL import Image

    with Image.open(path) as im:
        assert im.size == size
        colors = im.convert("RGB").resize((size[0] // 10, size[1] // 10)).getcolors(maxcolors=100_000)
    return 0 if colors is None else len(colors)
