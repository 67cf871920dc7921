"""Access: operator endpoints need the API key, player endpoints a signed unexpired token,
secrets come from configuration and are never committed, and requests are rate-limited per
player."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from reelsmith.server import tokens
from reelsmith.server.settings import Settings
from tests.reliability import figures
from tests.reliability.live import OPERATOR_KEY as LIVE_OPERATOR_KEY
from tests.reliability.live import SECRET as LIVE_SECRET
from tests.server.conftest import OPERATOR_KEY, SECRET, build

ROOT = Path(__file__).resolve().parents[2]
PUBLIC = {"/healthz", "/demo/session", "/openapi.json", "/docs", "/redoc", "/"}


def routes(app):
    for route in app.routes:
        methods = getattr(route, "methods", None) or set()
        path = getattr(route, "path", "")
        for method in methods - {"HEAD", "OPTIONS"}:
            if path not in PUBLIC and not path.startswith(("/web", "/docs")):
                yield method, path.replace("{", "").replace("}", "")


def test_every_operator_and_player_endpoint_needs_credentials(api):
    checked = 0
    for method, path in routes(api.client.app):
        if path.startswith("/operator") or path == "/metrics":
            for headers in ({}, {"X-API-Key": "wrong"}, {"X-API-Key": OPERATOR_KEY[:-1]}):
                api.clock.advance(seconds=1)  # a failure refilled: wrong keys are throttled
                response = api.client.request(method, path, headers=headers, json={})
                assert response.status_code == 401, (method, path, response.text)
                assert response.json()["code"] == "invalid_api_key"
                checked += 1
        elif path.startswith("/api"):
            for headers in ({}, {"Authorization": "Bearer x.y"}, {"X-API-Key": OPERATOR_KEY}):
                response = api.client.request(method, path, headers=headers, json={})
                assert response.status_code == 401, (method, path, response.text)
                checked += 1
    assert checked >= 40
    figures.add("inputs", checked)


def test_guessing_operator_keys_is_throttled(api):
    """Regression: 300 wrong operator keys in 0.2 s all got 401, none 429. Now an address
    gets ``operator_failures_burst`` wrong tries (20), then 429 with Retry-After for every
    operator request, the right key included, one try more per second of the server's
    clock."""
    codes = [
        api.client.get("/operator/ledger/verify", headers={"X-API-Key": f"guess-{i}"}).status_code
        for i in range(300)
    ]
    assert codes[:20] == [401] * 20 and set(codes[20:]) == {429}
    right = api.client.get("/operator/ledger/verify", headers={"X-API-Key": OPERATOR_KEY})
    assert right.status_code == 429 and int(right.headers["Retry-After"]) >= 1
    api.clock.advance(seconds=1)
    right = api.client.get("/operator/ledger/verify", headers={"X-API-Key": OPERATOR_KEY})
    assert right.status_code == 200
    figures.add("inputs", 302)
    figures.add("refusals", 302)


def test_tokens_expire_at_their_expiry(api):
    api.login(api.player())
    claims = tokens.verify(SECRET, api.token, api.clock.now_ms())
    api.clock.advance(ms=claims.expires_ms - api.clock.now_ms() - 1)
    assert api.as_player("GET", "/api/me").status_code == 200
    api.clock.advance(ms=1)
    response = api.as_player("GET", "/api/me")
    assert response.status_code == 401 and response.json()["code"] == "session_expired"


def test_secrets_come_from_configuration(monkeypatch):
    monkeypatch.setenv("REELSMITH_SECRET_KEY", "from-the-environment")
    monkeypatch.setenv("REELSMITH_OPERATOR_API_KEY", "operator-from-the-environment")
    settings = Settings.load()
    assert settings.secret_key == "from-the-environment" and not settings.generated
    monkeypatch.delenv("REELSMITH_SECRET_KEY")
    monkeypatch.delenv("REELSMITH_OPERATOR_API_KEY")
    one, two = Settings.load(), Settings.load()
    assert one.generated == ["secret_key", "operator_api_key"]
    assert one.secret_key != two.secret_key and len(one.secret_key) >= 32


def test_no_secret_is_committed():
    """The test keys live in tests/ only; no tracked file configures a real key."""
    tracked = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.split(b"\0")
    literals = [k.encode() for k in (OPERATOR_KEY, SECRET, LIVE_OPERATOR_KEY, LIVE_SECRET)]
    offenders = []
    for name in filter(None, tracked):
        path = ROOT / name.decode()
        if name.startswith(b"tests/") or not path.is_file():
            continue
        data = path.read_bytes()
        if any(literal in data for literal in literals):
            offenders.append(name.decode())
        if path.suffix in (".toml", ".env", ".ini", ".cfg") and (
            b"secret_key" in data or b"operator_api_key" in data
        ):
            offenders.append(name.decode())
    assert offenders == []


def test_rate_limit_is_per_player_and_covers_every_player_endpoint(tmp_path):
    for api in build("sqlite", tmp_path, rate_limit_per_second=0.001, rate_limit_burst=6):
        alice = api.player()
        api.login(alice)
        codes = [
            api.as_player("GET", "/api/me").status_code,
            api.as_player("GET", "/api/games").status_code,
            api.as_player("GET", "/api/history/rounds").status_code,
            api.spin("sultan-spins", {"bet": "1.00"}).status_code,
            api.as_player("GET", "/api/games/sultan-spins/state").status_code,
            api.as_player("GET", "/api/me").status_code,
        ]
        assert codes == [200] * 6
        before = api.balance(alice)
        limited = api.spin("sultan-spins", {"bet": "1.00"})
        assert limited.status_code == 429 and limited.json()["code"] == "rate_limited"
        assert int(limited.headers["Retry-After"]) >= 1
        assert api.balance(alice) == before  # a refused spin takes no bet
        api.login(api.player())  # another player is not held back by alice
        assert api.as_player("GET", "/api/me").status_code == 200


@pytest.mark.parametrize("field", ["secret_key", "operator_api_key"])
def test_several_workers_refuse_generated_keys(field, tmp_path, monkeypatch):
    """``serve --workers N`` needs shared keys: a generated one would differ per process."""
    other = "operator_api_key" if field == "secret_key" else "secret_key"
    monkeypatch.delenv(f"REELSMITH_{field.upper()}", raising=False)
    monkeypatch.setenv(f"REELSMITH_{other.upper()}", "a-configured-key")
    from typer.testing import CliRunner

    from reelsmith.cli import app

    result = CliRunner().invoke(
        app,
        ["serve", "--workers", "2", "--database-url", "postgresql+psycopg://nobody@127.0.0.1/x"],
    )
    assert result.exit_code != 0 and "must share their keys" in result.output
