"""What a careless deployment must not expose: bodies past the limit (chunked too), pages
without security headers, world-readable database files, a database password in the output,
history pages that block the event loop. The transport's own limits (heads, timeouts,
connections) are tested against the real server in tests/reliability/test_transport.py."""

from __future__ import annotations

import logging
import os
import stat
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event
from typer.testing import CliRunner

from reelsmith.cli import app as cli
from reelsmith.server.headers import CLIENT_POLICY
from reelsmith.server.settings import Settings, SettingsError
from reelsmith.store.db import Database, redact_text, redact_url
from tests.server.conftest import build
from tests.server.forcing import TSAR_BET, tsar_no_win, tsar_trigger, tsar_win

GAME = "days-of-the-tsar"
PASSWORD = "s3cret-Pa55"
runner = CliRunner()


# -- bodies -------------------------------------------------------------------------------


def post_routes(api: Any) -> list[str]:
    """Every POST endpoint of the app, its path parameters filled in."""
    paths = []
    for route in api.client.app.routes:
        if "POST" in getattr(route, "methods", ()):
            path = route.path.replace("{game}", GAME)
            for name in ("player_id", "round_id", "autoplay_id"):
                path = path.replace("{" + name + "}", "x" * 8)
            paths.append(path)
    return sorted(paths)


def chunks(total: int) -> Iterator[bytes]:
    for _ in range(total // 8192):
        yield b" " * 8192


def test_chunked_bodies_past_the_limit_get_413_on_every_endpoint(sqlite_api):
    api = sqlite_api
    api.login(api.player())
    headers = {
        "X-API-Key": "test-operator-key",
        "Authorization": f"Bearer {api.token}",
        "Content-Type": "application/json",
        "Idempotency-Key": "chunked-413",
    }
    paths = post_routes(api)
    assert len(paths) >= 12 and f"/api/games/{GAME}/spin" in paths
    for path in paths:
        response = api.client.post(path, content=chunks(128 * 1024), headers=headers)
        assert response.status_code == 413, (path, response.text)
        assert response.json()["code"] == "body_too_large"
        assert response.headers["connection"] == "close"
        declared = api.client.post(path, content=b" " * (65_536 + 1), headers=headers)
        assert declared.status_code == 413, (path, declared.text)
    # a body under the limit is read as before
    spin = api.spin(GAME, TSAR_BET, tsar_no_win())
    assert spin.status_code == 200, spin.text


# -- security headers ---------------------------------------------------------------------


def test_every_response_carries_the_security_headers(sqlite_api):
    api = sqlite_api
    api.login(api.player())
    responses = {
        "page": api.client.get("/"),
        "script": api.client.get("/web/js/main.js"),
        "style": api.client.get("/web/css/base.css"),
        "api": api.as_player("GET", "/api/me"),
        "refusal": api.client.get("/api/me"),
        "missing": api.client.get("/nowhere"),
        "openapi": api.client.get("/openapi.json"),
        "nul path": api.client.get("/api/history/rounds/a%00b"),
        "too large": api.client.post("/operator/players", content=b"x" * 70_000),
    }
    for name, response in responses.items():
        headers = response.headers
        assert headers["content-security-policy"] == f"{CLIENT_POLICY}; frame-ancestors 'none'", (
            name
        )
        assert headers["x-frame-options"] == "DENY", name
        assert headers["x-content-type-options"] == "nosniff", name
        assert headers["referrer-policy"] == "no-referrer", name
    # the API explorer loads its scripts from a CDN: a policy of its own, still not framed
    docs = api.client.get("/docs").headers["content-security-policy"]
    assert "https://cdn.jsdelivr.net" in docs and docs.endswith("frame-ancestors 'none'")


@pytest.mark.parametrize(
    ("setting", "frame_option"),
    [("'self'", "SAMEORIGIN"), ("https://casino.example https://*.casino.example", None)],
)
def test_an_operator_names_who_may_frame_the_game(tmp_path, setting, frame_option):
    for api in build("sqlite", tmp_path, frame_ancestors=setting):
        headers = api.client.get("/").headers
        assert headers["content-security-policy"].endswith(f"frame-ancestors {setting}")
        assert headers.get("x-frame-options") == frame_option


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("frame_ancestors", "https://a.example; script-src *", "frame_ancestors"),
        ("frame_ancestors", "'none' https://a.example", "'none' cannot be combined"),
        ("max_header_bytes", "100", "max_header_bytes: must be at least 1024"),
        ("header_timeout_seconds", "0", "header_timeout_seconds"),
        ("max_connections", "0", "max_connections: must be at least 1"),
        ("keep_alive_timeout_seconds", "-1", "keep_alive_timeout_seconds"),
    ],
)
def test_settings_that_no_server_can_run_with_are_refused(name, value, message):
    with pytest.raises(SettingsError, match=message.replace("*", r"\*")):
        Settings.load(**{name: value})


# -- SQLite files -------------------------------------------------------------------------


def modes(directory: Path) -> dict[str, int]:
    return {p.name: stat.S_IMODE(p.stat().st_mode) for p in directory.iterdir()}


@pytest.mark.parametrize("umask", [0o022, 0o000])
def test_sqlite_files_are_owner_only_whatever_the_umask(tmp_path, umask):
    directory = tmp_path / "var" / "data"
    previous = os.umask(umask)
    try:
        for api in build("sqlite", tmp_path / "var" / "data"):
            api.login(api.player())
            assert api.spin(GAME, TSAR_BET, tsar_no_win()).status_code == 200
            found = modes(directory)
    finally:
        os.umask(previous)
    assert {"server.db", "server.db-wal", "server.db-shm", "server.db-writer"} <= set(found)
    assert all(mode == 0o600 for mode in found.values()), {k: oct(v) for k, v in found.items()}
    assert stat.S_IMODE(directory.stat().st_mode) == 0o700


def test_existing_world_readable_files_are_made_owner_only(tmp_path, caplog):
    path = tmp_path / "old.db"
    made = Database(f"sqlite:///{path}")
    made.migrate()  # the database and its writer lock
    made.dispose()
    for suffix in ("", "-writer"):
        os.chmod(f"{path}{suffix}", 0o644)
    os.chmod(tmp_path, 0o755)
    with caplog.at_level(logging.WARNING, logger="reelsmith.store"):
        Database(f"sqlite:///{path}").dispose()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(Path(f"{path}-writer").stat().st_mode) == 0o600
    text = caplog.text
    assert f"{path} was open to other users (mode 0644): made owner-only" in text
    assert "chmod 700" in text  # the directory is the operator's: named, not changed
    assert stat.S_IMODE(tmp_path.stat().st_mode) == 0o755


# -- the database password ----------------------------------------------------------------


def test_urls_are_shown_without_their_password():
    url = f"postgresql+psycopg://reelsmith:{PASSWORD}@db.internal:5432/reelsmith"
    assert redact_url(url) == "postgresql+psycopg://reelsmith:***@db.internal:5432/reelsmith"
    assert PASSWORD not in redact_text(f"failed for {url} ({PASSWORD})", url)
    assert redact_url("sqlite:///var/reelsmith.db") == "sqlite:///var/reelsmith.db"


def test_the_password_can_come_from_a_file(tmp_path):
    secret = tmp_path / "db-password"
    secret.write_text(PASSWORD + "\n")
    settings = Settings.load(
        database_url="postgresql+psycopg://reelsmith@db/reelsmith",
        database_password_file=str(secret),
    )
    assert settings.connect_url() == f"postgresql+psycopg://reelsmith:{PASSWORD}@db/reelsmith"
    assert PASSWORD not in settings.database_url
    with pytest.raises(SettingsError, match="keep one of them"):
        Settings.load(
            database_url="postgresql+psycopg://u:other@db/r", database_password_file=str(secret)
        ).connect_url()
    with pytest.raises(SettingsError, match="cannot read"):
        Settings.load(database_password_file=str(tmp_path / "missing")).connect_url()
    (tmp_path / "empty").write_text("")
    with pytest.raises(SettingsError, match="is empty"):
        Settings.load(database_password_file=str(tmp_path / "empty")).connect_url()


UNREACHABLE = f"postgresql+psycopg://reelsmith:{PASSWORD}@127.0.0.1:9/reelsmith"


def test_audit_verify_does_not_print_the_password(tmp_path, monkeypatch):
    result = runner.invoke(cli, ["audit", "verify", "--database-url", UNREACHABLE])
    assert result.exit_code == 2
    assert "cannot read postgresql+psycopg://reelsmith:***@127.0.0.1:9" in result.stderr
    assert PASSWORD not in result.output + result.stderr
    # the password from a file, the URL from the environment
    secret = tmp_path / "db-password"
    secret.write_text(PASSWORD)
    monkeypatch.setenv("REELSMITH_DATABASE_URL", UNREACHABLE.replace(f":{PASSWORD}", ""))
    monkeypatch.setenv("REELSMITH_DATABASE_PASSWORD_FILE", str(secret))
    result = runner.invoke(cli, ["audit", "verify"])
    assert result.exit_code == 2 and "cannot read" in result.stderr
    assert PASSWORD not in result.output + result.stderr


def test_serve_prints_no_password_and_warns_of_the_command_line(tmp_path):
    reelsmith = Path(sys.executable).with_name("reelsmith")
    env = {k: v for k, v in os.environ.items() if not k.startswith("REELSMITH_")}
    done = subprocess.run(
        [str(reelsmith), "serve", "--port", "9", "--database-url", UNREACHABLE],
        env={**env, "REELSMITH_SECRET_KEY": "s", "REELSMITH_OPERATOR_API_KEY": "k"},
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    output = done.stdout + done.stderr
    assert done.returncode != 0  # nothing to connect to
    assert "postgresql+psycopg://reelsmith:***@127.0.0.1:9/reelsmith" in output
    assert "process list" in output  # the warning: use the environment or a file
    assert PASSWORD not in output


# -- history ------------------------------------------------------------------------------


def test_history_pages_take_two_queries_and_run_off_the_loop(api, monkeypatch):
    api.login(player := api.player(deposit="1000.00"))
    ids = []
    for forced in (tsar_trigger(), tsar_no_win(), tsar_win(), tsar_no_win()):
        body = api.spin(GAME, TSAR_BET, forced).json()
        while body["status"] == "open":
            allowed = body["round"]["actions_allowed"]
            body = api.act(
                GAME, body["round_id"], "free-spin" if allowed == ["free_spin"] else "collect"
            ).json()
        ids.append(body["round_id"])
    statements: list[str] = []
    threads: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(statement)
        threads.append(threading.current_thread().name)

    event.listen(api.db.engine, "before_cursor_execute", count)
    try:
        page = api.as_player("GET", "/api/history/rounds", params={"limit": 10})
    finally:
        event.remove(api.db.engine, "before_cursor_execute", count)
    assert page.status_code == 200
    rounds = page.json()["rounds"]
    assert [r["round_id"] for r in rounds] == ids[::-1]
    assert sum(len(r["steps"]) for r in rounds) > len(rounds)  # free spins and collects
    round_queries = [s for s in statements if "FROM rounds" in s or "FROM round_steps" in s]
    assert len(round_queries) == 2, round_queries  # however many rounds and steps
    assert threads and all(name.startswith("reelsmith-reader") for name in threads), threads
    # each round of the page as the one-round recall gives it
    for entry in rounds:
        alone = api.as_player("GET", f"/api/history/rounds/{entry['round_id']}").json()
        assert entry == alone and entry["free_round"] is None  # paid rounds
    assert api.balance(player) == rounds[0]["balance_after_minor"]
