"""The screenshot of docs/designer/what-if.md: ``python tests/serve_screenshot.py docs/what_if.png``.

The what-if page in headless Chromium (Debian's, driven by Playwright, as in
tests/test_serve.py), Until Daylight at 4 players, ``horde.survivor.count`` changed to 200
against the calibrated preset, a few seconds into the run.
"""
from __future__ import annotations

import sys
import tempfile

from test_serve import BROWSER_FLAGS

from simlib.serve.app import create_app
from simlib.serve.main import Background


def main(out: str, seconds: float = 6.0) -> None:
    from playwright.sync_api import sync_playwright

    import chromium

    with Background(create_app()) as srv, sync_playwright() as pw, \
            tempfile.TemporaryDirectory() as profile:
        ctx = pw.chromium.launch_persistent_context(
            profile, executable_path=chromium.chromium(), headless=True, args=BROWSER_FLAGS,
            viewport={"width": 1400, "height": 760})
        page = ctx.new_page()
        page.goto(srv.url)
        with page.expect_response(lambda r: "/api/setup" in r.url):
            page.fill("#players", "4")
            page.press("#players", "Tab")
        page.fill("#filter", "survivor")
        box = page.locator('tr[data-key="horde.survivor.count"] input[name=value]')
        with page.expect_response(lambda r: "/api/field" in r.url):
            box.fill("200")
            box.press("Tab")
        page.wait_for_selector("#figures", timeout=600_000)
        page.wait_for_timeout(seconds * 1000)
        page.locator("#filter").focus()
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=out)
        ctx.close()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "what_if.png")
