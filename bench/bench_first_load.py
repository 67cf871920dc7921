"""The web client's first load at a simulated 4G: bytes, requests and time to the first spin
possible, optimised delivery beside plain delivery (the baseline) in the same run.

Starts the real server twice (``reelsmith serve --demo``, ``web_delivery`` "optimised" and
"plain"), and loads ``/#/play/days-of-the-tsar`` in Debian's headless Chromium with the
network throttled through the DevTools protocol (``Network.emulateNetworkConditions``:
9 Mbit/s down, 1.5 Mbit/s up, 170 ms round trip, the browser's cache on). A first visit has
an empty cache (a new browser context); a repeat visit loads the page again in the same
context, as a player who comes back. The figures come from the protocol's own events: every
request the page sent (the API's included), the bytes each response took on the wire
(``encodedDataLength``: headers and the body as sent, compressed or not), and the time from
the navigation's start until the game's Spin button can be pressed (the game idle, Spin
enabled, the loading screen gone). A file the browser takes from its cache without asking
the server is no request and no byte; a file it revalidates (a 304) is both. Each figure is
the median of ``BENCH_LOADS`` loads (3).
"""

from __future__ import annotations

import os
import socket
import statistics
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import BrowserContext, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = Path("/usr/bin/chromium")
LOADS = int(os.environ.get("BENCH_LOADS", "3"))
GAME = "days-of-the-tsar"
# a 4G profile: 9 Mbit/s down, 1.5 Mbit/s up, 170 ms round trip (Lighthouse's "slow 4G"
# throttling uses 1.6 Mbit/s down and 150 ms; this is a middling mobile network)
PROFILE = {
    "offline": False,
    "latency": 170,
    "downloadThroughput": 9_000_000 / 8,
    "uploadThroughput": 1_500_000 / 8,
}
READY = """() => {
  const game = document.querySelector('.game[data-state="idle"]');
  const spin = document.getElementById('spin');
  const ready = game && spin && !spin.disabled && document.body.dataset.loaded === 'true';
  if (ready && window.__firstSpinMs === undefined) window.__firstSpinMs = performance.now();
  return ready;
}"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def serve(delivery: str, *, dev: bool = False) -> Iterator[str]:
    """The real server on a free port and a fresh SQLite file; ``dev`` lets the page force
    draws (``window.reelsmith.forceNext``)."""
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        env = {
            **os.environ,
            "REELSMITH_DATABASE_URL": f"sqlite:///{folder}/bench.db",
            "REELSMITH_SECRET_KEY": "bench-first-load-secret",
            "REELSMITH_OPERATOR_API_KEY": "bench-first-load-operator",
            "REELSMITH_WEB_DELIVERY": delivery,
            "REELSMITH_DEMO_SESSIONS_BURST": "1000",
        }
        process = subprocess.Popen(
            [str(ROOT / ".venv/bin/reelsmith"), "serve", "--demo", "--port", str(port)]
            + (["--dev"] if dev else []),
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        url = f"http://127.0.0.1:{port}"
        try:
            for _ in range(600):
                try:
                    if httpx.get(f"{url}/healthz", timeout=0.5).status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.1)
            else:
                raise RuntimeError(f"the {delivery} server did not start")
            yield url
        finally:
            process.terminate()
            process.wait(timeout=20)


@dataclass
class Load:
    requests: int = 0
    static_requests: int = 0
    bytes: int = 0
    first_spin_ms: float = 0.0
    urls: list[str] = field(default_factory=list)


def load(context: BrowserContext, url: str) -> Load:
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", PROFILE)
    measured = Load()
    sent: dict[str, str] = {}
    cached: set[str] = set()

    def request(event: dict[str, Any]) -> None:
        sent[event["requestId"]] = event["request"]["url"]

    def from_cache(event: dict[str, Any]) -> None:
        cached.add(event["requestId"])

    def response(event: dict[str, Any]) -> None:
        if event["response"].get("fromDiskCache") or event["response"].get("fromMemoryCache"):
            cached.add(event["requestId"])

    def finished(event: dict[str, Any]) -> None:
        if event["requestId"] in cached:  # taken from the browser's cache: no request sent
            return
        address = sent.get(event["requestId"], "")
        measured.requests += 1
        measured.bytes += int(event["encodedDataLength"])
        measured.urls.append(address)
        if "/api/" not in address and "/demo/" not in address:
            measured.static_requests += 1

    cdp.on("Network.requestWillBeSent", request)
    cdp.on("Network.requestServedFromCache", from_cache)
    cdp.on("Network.responseReceived", response)
    cdp.on("Network.loadingFinished", finished)
    page.goto(f"{url}/#/play/{GAME}")
    page.wait_for_function(READY, polling="raf", timeout=120_000)
    measured.first_spin_ms = float(page.evaluate("() => window.__firstSpinMs"))
    page.wait_for_timeout(300)  # the last responses' events
    page.close()
    return measured


def median_load(loads: list[Load]) -> Load:
    return Load(
        requests=round(statistics.median(x.requests for x in loads)),
        static_requests=round(statistics.median(x.static_requests for x in loads)),
        bytes=round(statistics.median(x.bytes for x in loads)),
        first_spin_ms=statistics.median(x.first_spin_ms for x in loads),
    )


def measure(url: str, browser: Any) -> dict[str, Load]:
    first: list[Load] = []
    repeat: list[Load] = []
    for _ in range(LOADS):
        # bypass_csp: the readiness check is a function the page evaluates
        context = browser.new_context(
            viewport={"width": 390, "height": 844}, bypass_csp=True, locale="en-GB"
        )
        first.append(load(context, url))
        repeat.append(load(context, url))
        context.close()
    return {"first visit": median_load(first), "repeat visit": median_load(repeat)}


def main() -> None:
    if not CHROMIUM.exists():
        raise SystemExit(f"the first-load benchmark needs Debian's Chromium at {CHROMIUM}")
    results: dict[str, dict[str, Load]] = {}
    with sync_playwright() as driver:
        browser = driver.chromium.launch(
            executable_path=str(CHROMIUM), args=["--no-sandbox", "--disable-gpu"]
        )
        for delivery in ("plain", "optimised"):
            with serve(delivery) as url:
                load(browser.new_context(bypass_csp=True), url)  # warm the server up
                results[delivery] = measure(url, browser)
        browser.close()
    print(
        f"first load of /#/play/{GAME} in headless Chromium, simulated 4G: 9 Mbit/s down, "
        f"1.5 Mbit/s up, 170 ms round trip; median of {LOADS} loads"
    )
    print(
        f"{'delivery':<22}{'visit':<15}{'requests':>9}{'  of them files':>16}"
        f"{'KB on the wire':>16}{'first spin ms':>15}"
    )
    for delivery, label in (("plain", "plain (baseline)"), ("optimised", "optimised")):
        for visit, figures in results[delivery].items():
            print(
                f"{label:<22}{visit:<15}{figures.requests:>9}{figures.static_requests:>16}"
                f"{figures.bytes / 1024:>16.1f}{figures.first_spin_ms:>15.0f}"
            )


if __name__ == "__main__":
    main()
