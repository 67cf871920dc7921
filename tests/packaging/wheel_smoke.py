"""The built wheel serves: what an operator gets from ``pip install reelsmith``.

Builds the wheel from a copy of the sources, installs it (the core, no extras) into a fresh
venv in a temporary folder outside the source tree, and from there:

- checks the installed package has every file of ``src/reelsmith``, that the install is the
  core one (no matplotlib, no Ray) and that a command needing an extra says which one, with a
  non-zero exit;
- compiles the lab's kernels with ``reelsmith warm`` into a numba cache folder of its own (the
  installed package's folder is not where numba writes), which must announce each compile on
  stderr; then a simulation and an exact analysis in new processes must load them from that
  cache (no announcement);
- starts ``reelsmith serve`` on a free loopback port;
- loads the web client: ``/``, then every file it references, transitively (HTML ``src`` and
  ``href``, JavaScript imports, CSS ``url()`` and ``@import``), and every file of the installed
  ``web/`` folder; each must answer 200 with the content type of its kind;
- plays a round of each title the market offers through the API, as an operator and a player
  would: the operator creates and funds a player and opens a session, the player spins and
  plays the round to its end (free spins, then collect); the balance must be the deposit less
  the bets plus the wins, and the ledger balanced;
- stops the server.

Run it from a checkout (``python3 tests/packaging/wheel_smoke.py`` or ``make wheel-smoke``);
.ci/run runs it before ``make test``. It needs only the standard library and a package index
(or pip's cache) for the wheel's dependencies. Exit status 0 when everything held, 1 with the
first thing that did not.
"""

from __future__ import annotations

import html.parser
import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
import venv
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("pyproject.toml", "README.md", "src")
START_TIMEOUT_SECONDS = 120
#: The content type each kind of web file must be served with (the part before any ";").
CONTENT_TYPES = {
    ".html": {"text/html"},
    ".js": {"text/javascript", "application/javascript"},
    ".mjs": {"text/javascript", "application/javascript"},
    ".css": {"text/css"},
    ".svg": {"image/svg+xml"},
    ".png": {"image/png"},
    ".jpg": {"image/jpeg"},
    ".webp": {"image/webp"},
    ".ico": {"image/x-icon", "image/vnd.microsoft.icon"},
    ".json": {"application/json"},
    ".woff2": {"font/woff2"},
    ".woff": {"font/woff"},
    ".mp3": {"audio/mpeg"},
    ".ogg": {"audio/ogg"},
    ".opus": {"audio/ogg", "audio/opus"},
    ".wav": {"audio/wav", "audio/x-wav"},
    ".webm": {"audio/webm", "video/webm"},
}
# The modules of the extras: the core install must not have them.
EXTRA_MODULES = {"lab": "matplotlib", "cluster": "ray"}


class SmokeError(AssertionError):
    """Something an installed reelsmith must do, it did not."""


def step(message: str) -> None:
    print(f"wheel-smoke: {message}", flush=True)


def run(command: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(command, capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        raise SmokeError(
            f"{' '.join(command)} exited {result.returncode}:\n{result.stdout}\n{result.stderr}"
        )
    return result


def build_wheel(work: Path, python: Path) -> Path:
    """The wheel, built from a copy of the sources (no build/ or egg-info left in the tree,
    none of an earlier build's files carried into this one). pip builds it in an isolated
    environment of its own, with the setuptools pyproject.toml asks for: nothing is installed
    into the venv of ``python``."""
    source = work / "source"
    source.mkdir()
    for name in SOURCES:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, source / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(path, source / name)
    dist = work / "dist"
    run([str(python), "-m", "pip", "wheel", "--no-deps", "-w", str(dist), str(source)])
    wheels = list(dist.glob("reelsmith-*.whl"))
    if len(wheels) != 1:
        raise SmokeError(f"expected one wheel in {dist}, found {[w.name for w in wheels]}")
    return wheels[0]


def fresh_venv(work: Path) -> Path:
    """A new venv outside the source tree; returns its bin folder."""
    target = work / "venv"
    venv.create(target, with_pip=True)
    return target / "bin"


def install(bin_dir: Path, wheel: Path) -> None:
    """The wheel, core only (no extras), with its dependencies."""
    run([str(bin_dir / "python"), "-m", "pip", "install", "--quiet", str(wheel)])


def check_installed(bin_dir: Path, work: Path) -> Path:
    """The package comes from the venv, not the source tree; the extras are absent and a
    command that needs one names it. Returns the installed package's folder."""
    modules = sorted(EXTRA_MODULES.values())
    probe = (
        "import importlib.util, json, reelsmith; "
        "print(json.dumps({'file': reelsmith.__file__, 'extras': {m: "
        f"importlib.util.find_spec(m) is not None for m in {modules!r}}}}}))"
    )
    found = json.loads(run([str(bin_dir / "python"), "-c", probe], cwd=work).stdout)
    package = Path(found["file"]).parent
    if not package.is_relative_to(work / "venv"):
        raise SmokeError(f"reelsmith was imported from {package}, not from the fresh venv")
    source = ROOT / "src" / "reelsmith"
    missing = sorted(
        str(file.relative_to(source))
        for file in source.rglob("*")
        if file.is_file()
        and "__pycache__" not in file.parts
        and not (package / file.relative_to(source)).is_file()
    )
    if missing:
        raise SmokeError(f"files of src/reelsmith missing from the installed package: {missing}")
    present = [module for module, there in found["extras"].items() if there]
    if present:
        raise SmokeError(f"the core install brought extras' modules: {', '.join(present)}")
    result = subprocess.run(
        [str(bin_dir / "reelsmith"), "analyze", "days-of-the-tsar", "--report", "par.html"],
        capture_output=True,
        text=True,
        cwd=work,
    )
    expected = "pip install 'reelsmith[lab]'"
    if result.returncode == 0 or expected not in result.stderr:
        raise SmokeError(
            f"analyze --report without the lab extra: exit {result.returncode}, "
            f"stderr {result.stderr!r} (expected a non-zero exit naming {expected})"
        )
    if (work / "par.html").exists():
        raise SmokeError("analyze --report wrote a file although the lab extra is missing")
    step(f"installed in {package}; no extras; {result.stderr.strip()}")
    return package


def check_warm(bin_dir: Path, work: Path) -> None:
    """``reelsmith warm`` compiles into the user's cache (here a folder of this run, through
    ``XDG_CACHE_HOME``) and says so; the commands that follow, each a new process, load the
    compiled code from there and announce nothing."""
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["XDG_CACHE_HOME"] = str(work / "cache")
    started = time.monotonic()
    warm = subprocess.run(
        [str(bin_dir / "reelsmith"), "warm"], capture_output=True, text=True, cwd=work, env=env
    )
    if warm.returncode != 0 or "compiling the simulation kernel" not in warm.stderr:
        raise SmokeError(
            f"reelsmith warm: exit {warm.returncode}, stderr {warm.stderr!r} (expected each "
            "compile announced)"
        )
    if not list((work / "cache" / "reelsmith" / "numba").rglob("*.nbi")):
        raise SmokeError("reelsmith warm cached nothing under XDG_CACHE_HOME/reelsmith/numba")
    step(f"reelsmith warm compiled the kernels ({time.monotonic() - started:.0f} s):")
    for line in (warm.stderr + warm.stdout).splitlines():
        step(f"  {line}")
    for command in (
        ["simulate", "aurora-fox", "--spins", "100000", "--seed", "1", "--workers", "1"],
        ["analyze", "days-of-the-tsar"],
    ):
        result = subprocess.run(
            [str(bin_dir / "reelsmith"), *command],
            capture_output=True,
            text=True,
            cwd=work,
            env=env,
        )
        if result.returncode != 0 or "compiling" in result.stderr:
            raise SmokeError(
                f"reelsmith {' '.join(command)} after warm: exit {result.returncode}, stderr "
                f"{result.stderr!r} (expected the cached code, no compiling)"
            )
    step("a simulation and an analysis after it loaded the compiled code from the cache")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Client:
    """HTTP to the server under test, with the reelsmith API's conventions."""

    def __init__(self, base: str, operator_key: str) -> None:
        self.base = base
        self.operator_key = operator_key
        self.token: str | None = None

    def get(self, path: str) -> tuple[int, dict[str, str], bytes]:
        request = urllib.request.Request(urllib.parse.urljoin(self.base, path))
        return self._send(request)

    def call(
        self,
        method: str,
        path: str,
        body: object = None,
        *,
        operator: bool = False,
        key: str | None = None,
    ) -> Any:
        headers = {"Content-Type": "application/json"}
        if operator:
            headers["X-API-Key"] = self.operator_key
        elif self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        if method == "POST":
            headers["Idempotency-Key"] = key or secrets.token_hex(12)
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self.base + path, data=data, headers=headers, method=method
        )
        status, _headers, payload = self._send(request)
        if status not in (200, 201):
            raise SmokeError(f"{method} {path} answered {status}: {payload[:500]!r}")
        return json.loads(payload)

    @staticmethod
    def _send(request: urllib.request.Request) -> tuple[int, dict[str, str], bytes]:
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, dict(response.headers.items()), response.read()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers.items()), error.read()


def start_server(bin_dir: Path, work: Path, port: int, operator_key: str) -> subprocess.Popen[str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("REELSMITH_")}
    env |= {
        "REELSMITH_OPERATOR_API_KEY": operator_key,
        "REELSMITH_SECRET_KEY": secrets.token_urlsafe(32),
    }
    log = (work / "serve.log").open("w")
    return subprocess.Popen(
        [str(bin_dir / "reelsmith"), "serve", "--host", "127.0.0.1", "--port", str(port),
         "--database-url", f"sqlite:///{work / 'reelsmith.db'}"],
        stdout=log,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=work,
        env=env,
    )  # fmt: skip


def wait_until_up(client: Client, server: subprocess.Popen[str], work: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT_SECONDS
    while time.monotonic() < deadline:
        if server.poll() is not None:
            log = (work / "serve.log").read_text()
            raise SmokeError(f"reelsmith serve exited {server.returncode}:\n{log}")
        try:
            status, _headers, _body = client.get("/healthz")
            if status == 200:
                return
        except OSError:
            pass
        time.sleep(0.25)
    raise SmokeError(f"reelsmith serve did not answer /healthz in {START_TIMEOUT_SECONDS} s")


class References(html.parser.HTMLParser):
    """The URLs an HTML page loads: ``src`` of any element, ``href`` of ``<link>``."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value and (name == "src" or (name == "href" and tag == "link")):
                self.found.append(value)


JS_IMPORT = re.compile(r"""(?:\bimport|\bexport)\s[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]""")
JS_BARE_IMPORT = re.compile(r"""\bimport\s*\(?\s*['"]([^'"]+)['"]""")
JS_WEB_PATH = re.compile(r"""['"`](/web/[^'"`\s$]+)['"`]""")
JS_BLOCK_COMMENT = re.compile(r"/\*.*?\*/", re.S)
JS_LINE_COMMENT = re.compile(r"^\s*//.*$", re.M)
CSS_URL = re.compile(r"""url\(\s*['"]?([^'")]+)['"]?\s*\)""")
FINGERPRINT = re.compile(r"\.[0-9a-f]{10}(\.\w+)$")
CSS_IMPORT = re.compile(r"""@import\s+['"]([^'"]+)['"]""")


def references(kind: str, text: str) -> Iterator[str]:
    if kind == ".html":
        parser = References()
        parser.feed(text)
        yield from parser.found
    elif kind in (".js", ".mjs"):
        # a path named in a comment is not loaded; a computed one (`${...}`) is not followed,
        # and the files it may name are served in the pass over the installed folder
        text = JS_LINE_COMMENT.sub("", JS_BLOCK_COMMENT.sub("", text))
        yield from JS_IMPORT.findall(text)
        yield from JS_BARE_IMPORT.findall(text)
        yield from JS_WEB_PATH.findall(text)
    elif kind == ".css":
        text = JS_BLOCK_COMMENT.sub("", text)
        yield from CSS_URL.findall(text)
        yield from CSS_IMPORT.findall(text)


def kind_of(path: str) -> str:
    return Path(urllib.parse.urlsplit(path).path).suffix.lower() or ".html"


def check_served(client: Client, path: str) -> bytes:
    status, headers, body = client.get(path)
    if status != 200:
        raise SmokeError(f"GET {path} answered {status}")
    kind = kind_of(path)
    allowed = CONTENT_TYPES.get(kind)
    if allowed is None:
        raise SmokeError(f"GET {path}: no content type known for {kind} files (add it)")
    content_type = headers.get("content-type", headers.get("Content-Type", ""))
    if content_type.split(";")[0].strip().lower() not in allowed:
        raise SmokeError(f"GET {path}: content type {content_type!r}, expected one of {allowed}")
    return body


def load_web_client(client: Client, package: Path) -> int:
    """Every file the client loads, from ``/`` on, then every file of the installed web/."""
    seen: set[str] = set()
    pending = ["/"]
    while pending:
        path = pending.pop()
        if path in seen:
            continue
        seen.add(path)
        body = check_served(client, path)
        base = urllib.parse.urljoin(client.base, path)
        for reference in references(kind_of(path), body.decode("utf-8")):
            url = urllib.parse.urlsplit(urllib.parse.urljoin(base, reference))
            if url.scheme in ("data", "blob") or url.netloc != urllib.parse.urlsplit(base).netloc:
                continue
            pending.append(url.path)
    web = package / "web"
    installed = {
        "/web/" + file.relative_to(web).as_posix()
        for file in web.rglob("*")
        if file.is_file() and "__pycache__" not in file.parts
    }
    for path in sorted(installed - seen):
        check_served(client, path)
    # optimised delivery names each file with its content's hash (a bundle after its entry:
    # js/main.<hash>.js holds js/main.js and its imports): each must come from a source file
    referenced = {FINGERPRINT.sub(r"\1", path) for path in seen if path.startswith("/web/")}
    missing = referenced - installed
    if missing:
        raise SmokeError(f"served but not in the installed web/ folder: {sorted(missing)}")
    step(f"web client: {len(seen)} files loaded from / on, {len(installed)} installed files served")
    return len(seen | installed)


def smoke_bet(market_game: dict[str, Any], rules: dict[str, Any]) -> dict[str, Any]:
    """The smallest bet the player's market allows for a title: a bet from its list, or one
    coin per unit (every payline; a ways game's cost) at the smallest coin size."""
    if market_game.get("bets"):
        return {"bet": market_game["bets"][0]}
    if market_game.get("coin_sizes"):
        # the bet's units: every payline, or a ways game's cost (its bets' fixed `lines`)
        bets = rules.get("rules", {}).get("bets", {})
        units = bets.get("lines", {}).get("max") if isinstance(bets, dict) else None
        return {
            "lines": units or len(rules["paylines"]),
            "coins_per_line": 1,
            "coin_size": market_game["coin_sizes"][0],
        }
    raise SmokeError(f"the market offers no bet for {market_game}")


def play_rounds(client: Client) -> list[str]:
    deposit = Decimal("100.00")
    player = client.call(
        "POST",
        "/operator/players",
        {"external_ref": f"smoke-{secrets.token_hex(4)}", "currency": "EUR", "market": "default"},
        operator=True,
    )
    client.call(
        "POST", f"/operator/players/{player['id']}/deposit", {"amount": str(deposit)}, operator=True
    )
    session = client.call("POST", f"/operator/players/{player['id']}/sessions", operator=True)
    client.token = session["token"]
    me = client.call("GET", "/api/me")
    titles = client.call("GET", "/api/games")["games"]
    if not titles:
        raise SmokeError("the default market offers no title")
    expected = deposit
    played = []
    for title in titles:
        game = title["id"]
        rules = client.call("GET", f"/api/games/{game}/rules")
        bet = smoke_bet(me["market"]["games"][game], rules)
        response = client.call("POST", f"/api/games/{game}/spin", {"bet": bet})
        steps = 1
        while response["round"]["phase"] not in ("complete", "voided"):
            phase = response["round"]["phase"]
            action = {"free_spins": "free-spin", "gamble": "collect"}.get(phase)
            if action is None:
                raise SmokeError(f"{game}: a round in phase {phase!r}, which the smoke cannot play")
            if steps > 500:
                raise SmokeError(f"{game}: the round did not end in {steps} steps")
            response = client.call(
                "POST", f"/api/games/{game}/rounds/{response['round_id']}/{action}", {}
            )
            steps += 1
        expected += Decimal(response["win"]["amount"]) - Decimal(response["bet"]["amount"])
        if response["round"]["phase"] == "voided":
            raise SmokeError(f"{game}: the round was voided: {response['round']}")
        if Decimal(response["balance"]["amount"]) != expected:
            raise SmokeError(
                f"{game}: balance {response['balance']['amount']}, expected {expected} "
                "(the deposit less the bets plus the wins)"
            )
        played.append(
            f"{game} bet {response['bet']['amount']} won {response['win']['amount']} "
            f"in {steps} step(s)"
        )
    books = client.call("GET", "/operator/ledger/verify", operator=True)
    if not books.get("ok"):
        raise SmokeError(f"the ledger does not balance after the rounds: {books}")
    step("rounds: " + "; ".join(played) + f"; balance {expected}, ledger balanced")
    return played


def stop(server: subprocess.Popen[str]) -> None:
    if server.poll() is None:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def main() -> int:
    started = time.monotonic()
    work = Path(tempfile.mkdtemp(prefix="reelsmith-wheel-"))
    server = None
    try:
        bin_dir = fresh_venv(work)
        wheel = build_wheel(work, bin_dir / "python")
        step(f"built {wheel.name} ({time.monotonic() - started:.0f} s)")
        install(bin_dir, wheel)
        step(f"installed it into a fresh venv ({time.monotonic() - started:.0f} s)")
        package = check_installed(bin_dir, work)
        check_warm(bin_dir, work)
        port = free_port()
        operator_key = secrets.token_urlsafe(24)
        client = Client(f"http://127.0.0.1:{port}", operator_key)
        server = start_server(bin_dir, work, port, operator_key)
        wait_until_up(client, server, work)
        step(f"serving on port {port}")
        load_web_client(client, package)
        play_rounds(client)
        stop(server)
        if server.returncode not in (0, -15):
            raise SmokeError(f"reelsmith serve ended with status {server.returncode}")
        step(f"passed ({time.monotonic() - started:.0f} s)")
        return 0
    except SmokeError as exc:
        print(f"wheel-smoke: FAILED: {exc}", file=sys.stderr, flush=True)
        log = work / "serve.log"
        if log.exists():
            print("--- server log (last 40 lines) ---", file=sys.stderr)
            print("\n".join(log.read_text().splitlines()[-40:]), file=sys.stderr)
        return 1
    finally:
        if server is not None:
            stop(server)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
