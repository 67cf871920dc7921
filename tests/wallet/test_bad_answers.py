"""Bad answers from the operator's side reach the game's client as no answer, each named: a
balance in another sub-unit, another currency, an unknown status, another request's answer, a
body that is not JSON, an unsigned answer. A hostile operator (a real HTTP server on loopback,
signing with the operator's key whatever it is told to answer) stands in for a broken casino;
the faithful one is `reelsmith operator-sim`."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from reelsmith.money import Currency
from reelsmith.wallet.seamless import NoAnswerError, OperatorClient, from_sub_units, to_sub_units
from reelsmith.wallet.signing import SIGNATURE_HEADER, ensure_keys, load_signer, load_verifier


class Hostile:
    """Answers every POST with ``answer`` (bytes or a JSON value), signed unless told not."""

    def __init__(self, keys: Path) -> None:
        self.signer = load_signer(keys / "operator_private.pem")
        self.answer: Any = {}
        self.sign = True
        hostile = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers["Content-Length"])
                request = json.loads(self.rfile.read(length))
                answer = hostile.answer
                if callable(answer):
                    answer = answer(request)
                body = answer if isinstance(answer, bytes) else json.dumps(answer).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                if hostile.sign:
                    self.send_header(SIGNATURE_HEADER, hostile.signer.sign(body))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


@pytest.fixture
def hostile(tmp_path: Path) -> Iterator[tuple[Hostile, OperatorClient]]:
    ensure_keys(tmp_path)
    operator = Hostile(tmp_path)
    client = OperatorClient(
        operator.url,
        load_signer(tmp_path / "game_private.pem"),
        load_verifier(tmp_path / "operator_public.pem"),
        timeout_seconds=2.0,
    )
    try:
        yield operator, client
    finally:
        client.close()
        operator.server.shutdown()


def body() -> dict[str, Any]:
    return {"user": "u", "request_uuid": "r-1", "transaction_uuid": "t-1", "amount": 25_000}


def ok(request: dict[str, Any], **changes: Any) -> dict[str, Any]:
    return {
        "user": "u",
        "status": "RS_OK",
        "request_uuid": request["request_uuid"],
        "currency": "EUR",
        "balance": 975_000,
        **changes,
    }


def test_a_sound_answer_is_read(hostile: tuple[Hostile, OperatorClient]) -> None:
    operator, client = hostile
    operator.answer = ok
    answer = client.call("bet", body())
    assert (answer.status, answer.balance, answer.currency) == ("RS_OK", 975_000, "EUR")


@pytest.mark.parametrize(
    ("answer", "sign", "reason"),
    [
        (lambda r: ok(r, status="RS_MAYBE"), True, "unknown status 'RS_MAYBE'"),
        (lambda r: ok(r, request_uuid="other"), True, "for another request_uuid"),
        (lambda r: ok(r, balance="975000"), True, "RS_OK without a whole balance"),
        (lambda r: ok(r, balance=-1), True, "RS_OK without a whole balance"),
        (b"{not json", True, "not JSON"),
        (b"[1, 2]", True, "not a JSON object"),
        (ok, False, "the X-Hub88-Signature header is missing"),
    ],
)
def test_a_bad_answer_is_no_answer_named(
    hostile: tuple[Hostile, OperatorClient], answer: Any, sign: bool, reason: str
) -> None:
    operator, client = hostile
    operator.answer, operator.sign = answer, sign
    with pytest.raises(NoAnswerError, match=reason):
        client.call("bet", body())


def test_an_amount_in_another_sub_unit_is_refused() -> None:
    euro, yen = Currency.of("EUR"), Currency.of("JPY")
    assert to_sub_units(25, euro) == 25_000 and from_sub_units(25_000, euro) == 25
    assert to_sub_units(3, yen) == 300_000 and from_sub_units(300_000, yen) == 3
    with pytest.raises(NoAnswerError, match="not a whole number of EUR minor units"):
        from_sub_units(25, euro)  # an operator counting in cents, not 1/100,000
    with pytest.raises(NoAnswerError, match="not a whole number of sub-units"):
        from_sub_units(2.5, euro)
    with pytest.raises(NoAnswerError, match="not a whole number of sub-units"):
        from_sub_units(True, euro)
