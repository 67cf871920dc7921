"""The operator simulator and a seamless game server as real processes, for the wallet tests.

:class:`OperatorSim` runs ``reelsmith operator-sim`` on a free port with its own database and
key folder; :func:`seamless_server` a ``reelsmith serve`` (tests.reliability.live.LiveServer)
pointed at it. Requests to the simulator's wallet endpoints are signed here with the game's
key exactly as the game server signs them.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
import uuid
from pathlib import Path
from typing import Any

import httpx

from reelsmith.wallet.signing import SIGNATURE_HEADER, load_signer, load_verifier
from tests.reliability.live import OPERATOR_KEY, REELSMITH, LiveServer, free_port

TSAR = "days-of-the-tsar"
TSAR_BET = {"lines": 25, "coins_per_line": 1, "coin_size": "0.01"}  # 0.25 EUR
SUB = 1000  # sub-units per EUR cent (1/100,000 of a euro)


class OperatorSim:
    """``reelsmith operator-sim`` in its own process group."""

    def __init__(self, folder: Path, *extra: str) -> None:
        self.folder = folder
        self.keys = folder / "keys"
        self.database = folder / "operator.db"
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.extra = extra
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def start(self) -> OperatorSim:
        self.starts += 1
        log = (self.folder / f"operator-{self.starts}.log").open("wb")
        self.process = subprocess.Popen(
            [
                str(REELSMITH),
                "operator-sim",
                "--port",
                str(self.port),
                "--database",
                str(self.database),
                "--keys",
                str(self.keys),
                *self.extra,
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            env={**os.environ},
        )
        log.close()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"operator-sim exited with {self.process.returncode}")
            try:
                if httpx.get(f"{self.url}/health", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.05)
        raise RuntimeError("operator-sim did not answer")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()

    # -- admin ---------------------------------------------------------------------------------

    def admin(self, method: str, path: str, body: Any = None) -> Any:
        response = httpx.request(method, self.url + path, json=body, timeout=10)
        assert response.status_code in (200, 201), response.text
        return response.json()

    def player(self, user: str, balance: int, token: str = "tok", currency: str = "EUR") -> Any:
        return self.admin(
            "POST",
            "/admin/players",
            {"user": user, "currency": currency, "balance": balance, "token": token},
        )

    def balance(self, user: str) -> int:
        return int(self.admin("GET", f"/admin/players/{user}")["balance"])

    def transactions(self) -> list[dict[str, Any]]:
        return list(self.admin("GET", "/admin/transactions")["transactions"])

    def faults(self, **changes: Any) -> dict[str, Any]:
        return dict(self.admin("POST", "/admin/faults", changes))

    # -- signed wallet calls, as the game server makes them ----------------------------------

    def call(
        self, path: str, body: dict[str, Any], signature: str | None = None
    ) -> tuple[int, dict[str, Any] | None, httpx.Response]:
        raw = json.dumps(body).encode()
        signer = load_signer(self.keys / "game_private.pem")
        headers = {SIGNATURE_HEADER: signature if signature is not None else signer.sign(raw)}
        response = httpx.post(self.url + path, content=raw, headers=headers, timeout=10)
        if response.status_code != 200:
            return response.status_code, None, response
        load_verifier(self.keys / "operator_public.pem").verify(
            response.content, response.headers.get(SIGNATURE_HEADER)
        )
        return response.status_code, response.json(), response


def bet_body(user: str, amount: int, token: str = "tok", **more: Any) -> dict[str, Any]:
    return {
        "user": user,
        "token": token,
        "request_uuid": str(uuid.uuid4()),
        "transaction_uuid": str(uuid.uuid4()),
        "round": str(uuid.uuid4()),
        "round_closed": False,
        "currency": "EUR",
        "amount": amount,
        "is_free": False,
        "game_code": TSAR,
        **more,
    }


def seamless_server(sim: OperatorSim, database_url: str, log_dir: Path, **settings: str) -> Any:
    """A ``reelsmith serve`` whose players' money is at ``sim`` (not started)."""
    return LiveServer(
        database_url,
        log_dir,
        dev=False,
        wallet="seamless",
        seamless_url=sim.url,
        seamless_keys_dir=str(sim.keys),
        seamless_timeout_seconds=settings.pop("seamless_timeout_seconds", "1.0"),
        seamless_retry_seconds=settings.pop("seamless_retry_seconds", "0.2"),
        **settings,
    )


class GameClient:
    """The game server's operator and player APIs over plain httpx."""

    def __init__(self, url: str) -> None:
        self.http = httpx.Client(base_url=url, timeout=30)

    def operator(self, method: str, path: str, body: Any = None) -> httpx.Response:
        return self.http.request(
            method,
            path,
            json=body,
            headers={"X-API-Key": OPERATOR_KEY, "Idempotency-Key": str(uuid.uuid4())},
        )

    def new_player(self, user: str, operator_token: str = "tok") -> str:
        created = self.operator(
            "POST", "/operator/players", {"external_ref": user, "currency": "EUR"}
        )
        assert created.status_code == 201, created.text
        player_id = str(created.json()["id"])
        session = self.operator(
            "POST", f"/operator/players/{player_id}/sessions", {"operator_token": operator_token}
        )
        assert session.status_code == 201, session.text
        return str(session.json()["token"])

    def spin(self, token: str, key: str | None = None) -> httpx.Response:
        return self.http.post(
            f"/api/games/{TSAR}/spin",
            json={"bet": TSAR_BET, "gamble": False},
            headers={
                "Authorization": f"Bearer {token}",
                "Idempotency-Key": key or str(uuid.uuid4()),
            },
        )

    def step(self, token: str, round_id: str, action: str) -> httpx.Response:
        return self.http.post(
            f"/api/games/{TSAR}/rounds/{round_id}/{action}",
            json={},
            headers={"Authorization": f"Bearer {token}", "Idempotency-Key": str(uuid.uuid4())},
        )

    def play_round(self, token: str) -> httpx.Response:
        """A spin, then its free spins until the round is finished: the spin's answer (or the
        last step's), whatever its status."""
        response = self.spin(token)
        while response.status_code == 200 and response.json()["status"] == "open":
            round_id = response.json()["round_id"]
            response = self.step(token, round_id, "free-spin")
            if response.status_code == 409:
                response = self.step(token, round_id, "collect")
        return response
