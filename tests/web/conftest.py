"""Browser tests of the web client: the real server in a subprocess, Debian's Chromium driven
by Playwright (never a downloaded browser). Every test plays against the real API."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, sync_playwright

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
SECRET_KEY = "web-tests-secret-key-not-for-production"
OPERATOR_KEY = "web-tests-operator-key"
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 768}


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "web: browser tests of the web client (Playwright on Debian's Chromium)"
    )


# -- the server --------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _reelsmith() -> str:
    beside = Path(sys.executable).with_name("reelsmith")
    found = str(beside) if beside.exists() else shutil.which("reelsmith")
    if found is None:
        raise RuntimeError("the reelsmith command is not installed (make test sets up .venv)")
    return found


@dataclass
class Player:
    id: str
    token: str
    currency: str


@dataclass
class Server:
    url: str
    log: Path

    def client(self, token: str | None = None) -> httpx.Client:
        headers = {"X-API-Key": OPERATOR_KEY}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        return httpx.Client(base_url=self.url, headers=headers, timeout=10)

    def new_player(
        self, market: str = "default", currency: str = "EUR", balance: str = "1000.00"
    ) -> Player:
        """A player of its own for one test (through the operator API), with a session."""
        with self.client() as api:
            created = api.post(
                "/operator/players",
                json={
                    "external_ref": f"web-{uuid.uuid4()}",
                    "currency": currency,
                    "market": market,
                },
                headers={"Idempotency-Key": str(uuid.uuid4())},
            )
            created.raise_for_status()
            player_id = created.json()["id"]
            if balance != "0":
                api.post(
                    f"/operator/players/{player_id}/deposit",
                    json={"amount": balance},
                    headers={"Idempotency-Key": str(uuid.uuid4())},
                ).raise_for_status()
            session = api.post(f"/operator/players/{player_id}/sessions")
            session.raise_for_status()
            return Player(player_id, session.json()["token"], currency)

    def get(self, player: Player, path: str) -> Any:
        with self.client(player.token) as api:
            response = api.get(path)
            response.raise_for_status()
            return response.json()

    def post(self, player: Player, path: str, body: dict[str, Any]) -> Any:
        with self.client(player.token) as api:
            response = api.post(path, json=body, headers={"Idempotency-Key": str(uuid.uuid4())})
            response.raise_for_status()
            return response.json()


@contextlib.contextmanager
def run_server(tmp: Path, **settings: str) -> Iterator[Server]:
    port = _free_port()
    env = {
        **os.environ,
        "REELSMITH_DATABASE_URL": f"sqlite:///{tmp / 'web.db'}",
        "REELSMITH_SECRET_KEY": SECRET_KEY,
        "REELSMITH_OPERATOR_API_KEY": OPERATOR_KEY,
        **{f"REELSMITH_{key.upper()}": value for key, value in settings.items()},
    }
    log = tmp / "server.log"
    command = [_reelsmith(), "serve", "--demo", "--dev", "--port", str(port)]
    with log.open("wb") as out:
        process = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"the server exited:\n{log.read_text()[-3000:]}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                    break
            if time.monotonic() > deadline:
                raise RuntimeError(f"the server did not start:\n{log.read_text()[-3000:]}")
            time.sleep(0.1)
        yield Server(url, log)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with run_server(tmp_path_factory.mktemp("web-server")) as running:
        yield running


# -- the browser -------------------------------------------------------------------------------


# Playwright's sync API keeps an asyncio loop running in this thread while it is open, so it
# is opened per test module and closed after it: a process that runs other modules after these
# (make test's workers take whole files in any order) can then run asyncio again.
@pytest.fixture(scope="module")
def playwright_driver() -> Iterator[Playwright]:
    if not CHROMIUM.exists():
        pytest.skip(
            f"browser tests need Debian's Chromium at {CHROMIUM} (apt-get install chromium)"
        )
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="module")
def browser(playwright_driver: Playwright) -> Iterator[Browser]:
    launched = playwright_driver.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
    yield launched
    launched.close()


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    # bypass_csp: the tests' wait_for_function predicates are strings the page evaluates,
    # which the client's Content-Security-Policy forbids (no eval); test_security_headers
    # plays under the policy in a context of its own
    ctx = browser.new_context(
        viewport=DESKTOP, reduced_motion="reduce", locale="en-GB", bypass_csp=True
    )
    ctx.set_default_timeout(15_000)
    yield ctx
    ctx.close()


#: Kept by a policed page: every Content-Security-Policy violation it reports.
WATCH = """() => {
  window.__violations = [];
  document.addEventListener('securitypolicyviolation', (e) => {
    const where = `${e.sourceFile}:${e.lineNumber}`;
    window.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${where}`);
  });
}"""


@dataclass
class Policed:
    """A page under the server's Content-Security-Policy, and what it has said."""

    page: Page
    console: list[str]

    def violations(self) -> list[str]:
        found: list[str] = self.page.evaluate("() => window.__violations")
        return found + [text for text in self.console if "Content Security Policy" in text]


@pytest.fixture
def policed(browser: Browser) -> Iterator[Policed]:
    """A desktop page under the server's Content-Security-Policy (the shared context bypasses
    it), keeping its violations and console; the test fails if the page raised."""
    ctx = browser.new_context(viewport=DESKTOP, reduced_motion="reduce", locale="en-GB")
    ctx.set_default_timeout(15_000)
    ctx.add_init_script(f"({WATCH})()")
    opened = ctx.new_page()
    console: list[str] = []
    opened.on("console", lambda message: console.append(message.text))
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield Policed(opened, console)
    ctx.close()
    assert not errors, f"the page raised: {errors}"


@pytest.fixture
def page(context: BrowserContext) -> Iterator[Page]:
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    assert not errors, f"the page raised: {errors}"


# -- helpers shared by the tests ---------------------------------------------------------------


def open_game(page: Page, server: Server, player: Player, game: str, *, turbo: bool = True) -> None:
    """Launch the client as an operator would (token in the address), then open ``game``."""
    page.goto(f"{server.url}/?token={player.token}#/play/{game}")
    page.wait_for_selector(".game:not([data-state='loading'])")
    turbo_button = page.locator("#turbo")
    if turbo and turbo_button.count() and turbo_button.get_attribute("aria-pressed") != "true":
        turbo_button.click()


def wait_state(page: Page, *states: str, timeout: float = 20_000) -> None:
    selector = ", ".join(f".game[data-state='{s}']" for s in states)
    page.wait_for_selector(selector, timeout=timeout)


def force(page: Page, *draw_lists: list[int]) -> None:
    """Queue forced draws: each list goes with one of the next spin/free-spin/gamble POSTs
    (a collect draws nothing and leaves the queue alone)."""
    for draws in draw_lists:
        page.evaluate("(draws) => window.reelsmith.forceNext(draws)", draws)


def answers(page: Page, path: str) -> list[dict[str, Any]]:
    """The JSON answers to the page's requests whose URL ends with ``path``, from now on, in
    the order they arrive; read them through :func:`received`."""
    found: list[dict[str, Any]] = []
    page.on("response", lambda r: r.url.endswith(path) and found.append(r.json()))
    return found


def received(page: Page, found: list[dict[str, Any]], count: int) -> list[dict[str, Any]]:
    """``found`` once it holds ``count`` answers, or after 10 s with what it holds. The page
    may show what an answer brought before the test's handler of that answer has run (on a
    loaded machine), so a test that waited for the page waits here for its handler too."""
    deadline = time.monotonic() + 10
    while len(found) < count and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    return found


def record_badges(page: Page) -> None:
    """Keep every cell badge the reels show (egg reveals, +1 per egg): they last a moment."""
    page.evaluate(
        """() => {
          window.__badges = [];
          new MutationObserver((changes) => {
            for (const change of changes) for (const node of change.addedNodes) {
              if (node.nodeType !== 1) continue;
              const badge = '.cell-badge';
              const found = node.matches(badge) ? [node] : node.querySelectorAll(badge);
              for (const badge of found) window.__badges.push([badge.className, badge.textContent]);
            }
          }).observe(document.querySelector('.reels'), {childList: true, subtree: true});
        }"""
    )


def badges(page: Page, kind: str) -> list[str]:
    found: list[list[str]] = page.evaluate("() => window.__badges")
    return [text for classes, text in found if kind in classes.split()]


def minor(page: Page, selector: str) -> int:
    value = page.get_attribute(selector, "data-minor")
    assert value is not None, f"{selector} has no data-minor"
    return int(value)


def screenshot(page: Page, name: str) -> None:
    """Save the page at phone and desktop sizes (artifacts/screenshots/<name>-<size>.png)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    before = page.viewport_size
    for size, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        page.set_viewport_size(viewport)
        page.wait_for_timeout(150)
        page.screenshot(path=str(SCREENSHOTS / f"{name}-{size}.png"))
    if before:
        page.set_viewport_size(before)


def press_scene(page: Page, scene_id: str) -> None:
    """Press the button of a scene that waits for the player (a free-spins intro or outro)."""
    page.click(f"#{scene_id}-button")
    page.wait_for_selector(f"#{scene_id}", state="detached")


def record_scenes(page: Page) -> None:
    """Keep every scene shown ([id, tier]): a scene that holds by itself lasts a moment."""
    page.evaluate(
        """() => {
          window.__scenes = [];
          new MutationObserver((changes) => {
            for (const change of changes) for (const node of change.addedNodes) {
              if (node.nodeType === 1 && node.classList.contains('scene'))
                window.__scenes.push([node.id, node.dataset.tier ?? null]);
            }
          }).observe(document.querySelector('.scene-layer'), {childList: true});
        }"""
    )


def scenes_shown(page: Page) -> list[list[str | None]]:
    shown: list[list[str | None]] = page.evaluate("() => window.__scenes")
    return shown


def sounds(page: Page) -> list[str]:
    """The sound cues the game asked for so far (dev mode), heard or not."""
    cues: list[str] = page.evaluate("() => window.reelsmith.sounds()")
    return cues
