"""``simlib serve``: the what-if page.

The server runs on a free loopback port (in this process, or as the ``simlib serve``
command for Ctrl-C and the host warning); its HTTP API is driven with urllib, and the page
itself in headless Chromium (Debian's, driven by Playwright; skipped where Chromium is
missing, a failure in CI, see tests/chromium.py).  The page's figures are checked against
``simlib.compare`` on the same seeds (identical counts), its validation messages against
the messages the same values get from a tweak file, and its downloaded tweak by loading it.
The anytime-valid interval is checked by its coverage over many simulated runs, looked at
after every chunk.
"""
from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import numpy as np
import pytest

import chromium
import simlib
from simlib.core.games import get_game
from simlib.core.paired import newcombe_paired_interval
from simlib.core.ruleset import RulesetError
from simlib.serve.app import create_app
from simlib.serve.main import Background
from simlib.serve.stats import paired_difference_cs

TOKEN = "test-token-" + "x" * 12
UD_KEY, UD_VALUE = "horde.survivor.count", 200  # an integer value compare --set takes too
TD_KEY, TD_VALUE = "constants.track_length", 12
# what Debian's Chromium needs as root in a container, and nothing reaching the network
BROWSER_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


# =========================================================================== the interval
def test_paired_interval_covers_at_every_look():
    """Over 400 simulated runs of 4000 paired games looked at every 100 games, the
    anytime-valid interval misses the true difference at some look in at most 5 % of the
    runs; the fixed-n interval (Newcombe), looked at the same way, misses more often."""
    rng = np.random.default_rng(20261201)
    p_only_changed, p_only_base = 0.07, 0.04  # true difference +0.03
    runs, games, step = 400, 4000, 100
    cell = rng.choice(4, size=(runs, games), p=[0.3, p_only_base, p_only_changed,
                                                1 - 0.3 - p_only_base - p_only_changed])
    looks = np.arange(step, games + 1, step)
    c = np.cumsum(cell == 2, axis=1)[:, looks - 1]
    b = np.cumsum(cell == 1, axis=1)[:, looks - 1]
    a = np.cumsum(cell == 0, axis=1)[:, looks - 1]
    n = np.broadcast_to(looks, c.shape)
    truth = p_only_changed - p_only_base
    diff, low, high = paired_difference_cs(c, b, n)
    assert np.allclose(diff, (c - b) / n)
    missed = ((low > truth) | (high < truth)).any(axis=1).mean()
    _, nlow, nhigh = newcombe_paired_interval(a, c, b, n - a - b - c)  # A = changed
    missed_fixed = ((nlow > truth) | (nhigh < truth)).any(axis=1).mean()
    assert missed <= 0.05
    assert missed_fixed > missed
    assert np.all(low <= diff) and np.all(diff <= high)


def test_paired_interval_edges():
    d, lo, hi = paired_difference_cs([0, 5, 40, 0], [0, 0, 0, 0], [0, 5, 40, 50])
    assert np.isnan(d[0]) and lo[0] == -1 and hi[0] == 1  # no game yet: anything
    assert d[1] == 1.0 and lo[1] < 0 < hi[1]  # 5 games of 5: too few to tell, every look counts
    assert d[2] == 1.0 and 0 < lo[2] < 1 and hi[2] == pytest.approx(1.0)
    assert d[3] == 0.0 and lo[3] < 0 < hi[3]  # no discordant game: the sign is unknown
    with pytest.raises(ValueError):
        paired_difference_cs(3, 3, 5)


# =========================================================================== the server
def _request(base: str, path: str, data: dict | None = None, *, token: str | None = TOKEN,
             json_reply: bool = True, timeout: float = 60):
    headers = {"Accept": "application/json"} if json_reply else {}
    if token is not None:
        headers["X-Simlib-Token"] = token
    body = urllib.parse.urlencode(data).encode() if data is not None else None
    req = urllib.request.Request(base + path, data=body, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as f:
            status, text = f.status, f.read().decode()
    except urllib.error.HTTPError as exc:
        status, text = exc.code, exc.read().decode()
    if json_reply and text.startswith("{"):
        return status, json.loads(text)
    return status, text


class Client:
    def __init__(self, base: str):
        self.base = base

    def __call__(self, path, data=None, **kw):
        return _request(self.base, path, data, **kw)

    def new_page(self) -> str:
        status, text = self("/?token=" + TOKEN, token=None, json_reply=False)
        assert status == 200
        return re.search(r'id="page-id" name="page" value="([^"]+)"', text).group(1)

    def wait(self, page: str, cond, timeout: float = 600) -> dict:  # a cold compile is slow
        deadline = time.monotonic() + timeout
        while True:
            status, snap = self(f"/api/status?page={page}")
            assert status == 200, snap
            if cond(snap):
                return snap
            assert time.monotonic() < deadline, snap
            time.sleep(0.05)

    def stop(self, page: str) -> dict:
        assert self("/api/stop", {"page": page})[0] == 200
        return self.wait(page, lambda s: s["state"] != "running")


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """The folder the server was started in: a tweak file inside, another one outside."""
    root = tmp_path_factory.mktemp("serve")
    inside = root / "work"
    inside.mkdir()
    (inside / "mine.toml").write_text('base = "calibrated"\n[horde.survivor]\ncount = 150\n')
    (root / "outside.toml").write_text('[horde.survivor]\ncount = 150\n')
    (inside / "sneaky.toml").write_text(f'base = "{root / "outside.toml"}"\n')
    return inside


@pytest.fixture(scope="module")
def server(folder):
    app = create_app(token=TOKEN, folder=folder, cap=100_000)
    with Background(app) as srv:
        yield srv


@pytest.fixture
def client(server):
    return Client(f"http://127.0.0.1:{server.port}")


def _listening_addresses(port: int) -> list[str]:
    """Local addresses of the sockets listening on ``port`` (Linux's /proc/net/tcp*)."""
    out = []
    for name in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(name).read_text().splitlines()[1:]
        except OSError:
            continue
        for ln in lines:
            local, state = ln.split()[1], ln.split()[3]
            addr, p = local.rsplit(":", 1)
            if int(p, 16) == port and state == "0A":  # LISTEN
                if len(addr) == 8:
                    out.append(socket.inet_ntoa(bytes.fromhex(addr)[::-1]))
                else:
                    out.append(addr)
    return out


def test_binds_loopback_only(server):
    assert server.sock.getsockname()[0] == "127.0.0.1"
    if Path("/proc/net/tcp").exists():
        assert _listening_addresses(server.port) == ["127.0.0.1"]


def test_requests_without_the_token_are_refused(client):
    page = client.new_page()
    for path in ("/", "/static/htmx.min.js", f"/api/status?page={page}", f"/download/tweak?page={page}",
                 "/api/fields?page=" + page):
        assert client(path, token=None, json_reply=False)[0] == 403, path
        assert client(path, token="wrong", json_reply=False)[0] == 403, path
    assert client("/api/field", {"page": page, "key": UD_KEY, "value": "3"}, token=None)[0] == 403
    assert client(f"/api/status?page={page}")[1]["state"] == "idle"  # that change was not taken
    status, js = client("/static/htmx.min.js", json_reply=False)
    assert status == 200 and "htmx" in js


def test_fields_come_from_the_schema(client):
    page = client.new_page()
    status, reply = client(f"/api/fields?page={page}")
    assert status == 200
    rules = get_game("until_daylight").load_ruleset(None)
    fields = {f["key"]: f for f in reply["fields"]}
    assert list(fields) == list(rules.describe()["key"])
    f = fields[UD_KEY]
    schema = rules.field(UD_KEY)
    assert (f["type"], f["min"], f["max"]) == (schema.type, schema.min, schema.max)
    assert f["source"] == rules.source(UD_KEY)
    assert f["base"] == str(rules.get(UD_KEY))
    assert f["reference"] == str(get_game("until_daylight").load_ruleset("reference").get(UD_KEY))


@pytest.mark.parametrize("key,text", [("constants.rounds", "0"), (UD_KEY, "-3"), (UD_KEY, "many"),
                                      ("horde.monster.kept", "7"), ("horde.zombie.count", "3")])
def test_bad_values_get_the_file_validators_message(client, tmp_path, key, text):
    page = client.new_page()
    status, reply = client("/api/field", {"page": page, "key": key, "value": text})
    assert status == 400 and reply["ok"] is False
    # the message a tweak file holding the same value gets, with the file's name
    tweak = tmp_path / "whatif.toml"
    value = text if not text.lstrip("-").isdigit() else int(text)
    tweak.write_text(f"{key} = {json.dumps(value)}\n")
    with pytest.raises(RulesetError) as exc:
        get_game("until_daylight").load_ruleset(str(tweak))
    assert reply["error"] == str(exc.value).replace(str(tweak), "whatif.toml")
    # and no run started
    snap = client(f"/api/status?page={page}")[1]
    assert snap["state"] == "idle" and snap["run"] is None and reply["changes"] == {}


def test_a_base_outside_the_folder_is_refused(client, folder):
    page = client.new_page()
    for base in ("../outside.toml", str(folder.parent / "outside.toml"), "calibrated+../outside.toml",
                 "sneaky.toml"):
        status, reply = client("/api/setup", {"page": page, "base": base})
        assert status == 400 and "outside the folder" in reply["error"], (base, reply)
        assert reply["base"] == "calibrated"  # the page kept its setup
    status, reply = client("/api/setup", {"page": page, "base": "mine.toml", "players": "4"})
    assert status == 200 and reply["base"] == "mine.toml", reply
    fields = {f["key"]: f for f in client(f"/api/fields?page={page}")[1]["fields"]}
    assert fields[UD_KEY]["base"] == "150"


def test_runs_new_change_cap_and_tweak_download(folder, tmp_path):
    """One run per page (a new change replaces it), the cap ends a run, the downloaded
    tweak loads to the changed ruleset and repeats the page's numbers through compare."""
    app = create_app(token=TOKEN, folder=folder, cap=600, warm=False)
    with Background(app) as srv:
        c = Client(f"http://127.0.0.1:{srv.port}")
        page = c.new_page()
        assert c("/api/setup", {"page": page, "players": "4"})[0] == 200
        s1, r1 = c("/api/field", {"page": page, "key": UD_KEY, "value": "190"})
        assert s1 == 200 and r1["run"]
        s2, r2 = c("/api/field", {"page": page, "key": "constants.rounds", "value": "9"})
        assert s2 == 200 and r2["run"] != r1["run"]
        p = app.state.pages.get(page)
        snap = c.wait(page, lambda s: s["state"] == "done")
        assert snap["run"] == r2["run"] and snap["games"] == 600  # the cap
        assert "cap" in snap["message"]
        status, text = c(f"/download/tweak?page={page}", json_reply=False)
        assert status == 200 and 'base = "calibrated"' in text
        tweak = tmp_path / "whatif.toml"
        tweak.write_text(text)
        info = get_game("until_daylight")
        loaded = info.load_ruleset(str(tweak))
        assert loaded.fingerprint() == p.changed_rules().fingerprint()
        assert loaded.get(UD_KEY) == 190 and loaded.get("constants.rounds") == 9
        res = simlib.compare(600, players=4, rulesets=["calibrated", str(tweak)], seed=0)
        row = res.by_players.loc[4]
        got = snap["rows"][0]
        assert (got["base_wins"], got["changed_wins"], got["only_base"], got["only_changed"]) == \
            (row["wins_a"], row["wins_b"], row["only_a"], row["only_b"])
        status, html = c(f"/download/report?page={page}", json_reply=False)
        assert status == 200 and "What-if: Until Daylight" in html and "data:image/svg+xml" in html


def test_till_dawn_live_comparison_matches_compare(client):
    page = client.new_page()
    status, reply = client("/api/setup", {"page": page, "game": "till_dawn"})
    assert status == 200 and reply["base"] == "reference"
    assert client("/api/setup", {"page": page, "game": "till_dawn", "players": "4"})[0] == 200
    assert client("/api/field", {"page": page, "key": TD_KEY, "value": str(TD_VALUE)})[0] == 200
    client.wait(page, lambda s: s["games"] > 0)
    snap = client.stop(page)
    n = snap["games"]
    res = simlib.compare(n, players=4, game="till_dawn", sets={TD_KEY: TD_VALUE}, seed=0)
    rows = {(r["group"], r["key"]): r for r in snap["rows"]}
    assert set(rows) == {("players", 4)} | {("seat", s) for s in range(4)}
    for (group, key), r in rows.items():
        ref = (res.by_players if group == "players" else res.by_seat).loc[key]
        assert (r["games"], r["base_wins"], r["changed_wins"], r["both"], r["only_base"],
                r["only_changed"]) == (ref["games"], ref["wins_a"], ref["wins_b"], ref["both"],
                                       ref["only_a"], ref["only_b"]), (group, key)
        if r["games"]:  # one sign everywhere: B - A, changed minus base
            assert r["diff"] == pytest.approx(ref["diff"], abs=1e-12), (group, key)


# =========================================================================== the command
def _start_command(*args: str, cwd: Path) -> tuple[subprocess.Popen, str]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    cli = "import sys; from simlib.cli import main; sys.exit(main(sys.argv[1:]))"  # simlib serve ...
    proc = subprocess.Popen([sys.executable, "-c", cli, "serve", "--port", "0", "--token", TOKEN,
                             *args], cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env)
    lines = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        m = re.search(r"(http://\S+)", line)
        if m:
            return proc, m.group(1)
    proc.kill()
    raise AssertionError("no URL printed: " + "".join(lines) + proc.stderr.read())


def test_command_prints_url_and_ctrl_c_ends_the_run(tmp_path):
    proc, url = _start_command("--max-games", "10000000", cwd=tmp_path)
    try:
        parts = urllib.parse.urlsplit(url)
        assert parts.hostname == "127.0.0.1"
        assert urllib.parse.parse_qs(parts.query)["token"] == [TOKEN]
        if Path("/proc/net/tcp").exists():
            assert _listening_addresses(parts.port) == ["127.0.0.1"]
        c = Client(f"http://127.0.0.1:{parts.port}")
        page = c.new_page()
        assert c("/api/setup", {"page": page, "players": "4"})[0] == 200
        assert c("/api/field", {"page": page, "key": UD_KEY, "value": str(UD_VALUE)})[0] == 200
        c.wait(page, lambda s: s["games"] > 0)
        proc.send_signal(signal.SIGINT)
        rc = proc.wait(timeout=30)  # a run of 10 million games is cut short
        out = proc.stdout.read()
        assert rc == 0 and "stopped" in out
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdout.close()
        proc.stderr.close()


def test_command_warns_on_another_interface(tmp_path):
    proc, url = _start_command("--host", "127.0.0.2", "--no-warm", cwd=tmp_path)
    try:
        parts = urllib.parse.urlsplit(url)
        assert parts.hostname == "127.0.0.2"
        assert _request(f"http://127.0.0.2:{parts.port}", "/?token=" + TOKEN, token=None)[0] == 200
        if Path("/proc/net/tcp").exists():
            assert _listening_addresses(parts.port) == ["127.0.0.2"]
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=30) == 0
        err = proc.stderr.read()
        assert "warning: listening on 127.0.0.2" in err
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdout.close()
        proc.stderr.close()


# =========================================================================== the page
def _playwright():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        if chromium.in_ci():
            pytest.fail("playwright is missing; CI installs it with the test extras")
        pytest.skip("playwright is not installed (pip install -e '.[test]')")
    return sync_playwright


def test_page_in_headless_chromium(server, client, tmp_path):
    """Change a value in the page, wait for the first figures, check them against
    simlib.compare on the same seeds, download the tweak and load it; close the browser
    mid-run and find the server still serving."""
    browser_path = chromium.chromium()  # skips without Chromium (a failure in CI)
    sync_playwright = _playwright()
    with sync_playwright() as pw:
        ctx = pw.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=browser_path, headless=True,
            args=BROWSER_FLAGS, accept_downloads=True, viewport={"width": 1400, "height": 900})
        try:
            page = ctx.new_page()
            problems = []
            page.on("console", lambda m: problems.append(m.text) if m.type in ("error", "warning") else None)
            page.on("pageerror", lambda e: problems.append(str(e)))
            requests = []
            page.on("request", lambda r: requests.append(r.url))
            page.goto(server.url)
            with page.expect_response(lambda r: "/api/setup" in r.url):
                page.fill("#players", "4")
                page.press("#players", "Tab")
            page.fill("#filter", "survivor")
            box = page.locator(f'tr[data-key="{UD_KEY}"] input[name=value]')
            with page.expect_response(lambda r: "/api/field" in r.url):
                box.fill(str(UD_VALUE))
                box.press("Tab")
            t0 = time.monotonic()
            page.wait_for_selector('#figures tr[data-group="players"][data-key="4"]', timeout=600_000)
            print(f"first figures in the page {time.monotonic() - t0:.2f} s after the change")
            assert page.locator(f'tr[data-key="{UD_KEY}"]').get_attribute("class").startswith("changed")
            page.click("#stop")
            page.wait_for_selector('#status[data-state="stopped"]', timeout=30_000)
            page.wait_for_timeout(3 * 400)  # a poll after the stop: the final figures
            row = page.locator('#figures tr[data-group="players"][data-key="4"]')
            got = {k: int(row.get_attribute(f"data-{k}"))
                   for k in ("games", "base-wins", "changed-wins", "both", "only-base", "only-changed")}
            ref = simlib.compare(got["games"], players=4, sets={UD_KEY: UD_VALUE}, seed=0).by_players.loc[4]
            assert got == {"games": ref["games"], "base-wins": ref["wins_a"], "changed-wins": ref["wins_b"],
                           "both": ref["both"], "only-base": ref["only_a"], "only-changed": ref["only_b"]}
            assert page.locator("svg.plot polyline").count() == 1

            with page.expect_download() as dl:
                page.click("#download-tweak")
            tweak = tmp_path / "whatif.toml"
            dl.value.save_as(tweak)
            rules = get_game("until_daylight").load_ruleset(str(tweak))
            assert rules.get(UD_KEY) == UD_VALUE and rules.lineage.startswith("calibrated+")
            with page.expect_download() as dl:
                page.click("#download-report")
            report = tmp_path / "report.html"
            dl.value.save_as(report)
            assert "Changed minus base" in report.read_text()

            # a bad value: the validator's message in the page, the run stays stopped
            rounds = page.locator('tr[data-key="constants.rounds"] input[name=value]')
            page.fill("#filter", "rounds")
            with page.expect_response(lambda r: "/api/field" in r.url):
                rounds.fill("0")
                rounds.press("Tab")
            msg = page.locator('tr[data-key="constants.rounds"] .error').inner_text()
            assert msg.startswith("whatif.toml: constants.rounds:")
            assert page.locator("#status").get_attribute("data-state") == "stopped"

            # restart, then close the browser mid-run
            page.click("#restart")
            page.wait_for_selector('#status[data-state="running"]', timeout=30_000)
            local = {urllib.parse.urlsplit(u).hostname for u in requests}
            assert local == {"127.0.0.1"}  # nothing fetched from the network
            assert problems == []
        finally:
            ctx.close()
    assert client(f"/api/status?page={client.new_page()}")[0] == 200  # the server goes on
