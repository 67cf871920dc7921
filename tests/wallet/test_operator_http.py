"""The game's HTTP/1.1 client to the operator (`OperatorClient`, `_Connection`) against a raw
socket server answering exactly the bytes a test scripts: a kept-alive connection reused, an
answer with a ``Content-Length``, chunked, or read until the connection closes, an interim
``100 Continue``, and every answer it cannot read whole (cut short, a bad status line, too
long, the connection closed) as no answer, the connection then dropped."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from reelsmith.wallet.seamless import MAX_ANSWER, NoAnswerError, OperatorClient
from reelsmith.wallet.signing import SIGNATURE_HEADER, ensure_keys, load_signer, load_verifier

Answer = Callable[[dict[str, Any], str], bytes]  # (request's JSON, signature) -> raw answer


class Scripted:
    """Reads each request whole (headers and a Content-Length body) and writes back what
    ``answer`` makes of it; ``close`` after it, or keeps the connection for the next."""

    def __init__(self, keys: Path) -> None:
        self.signer = load_signer(keys / "operator_private.pem")
        self.answer: Answer = lambda request, signature: b""
        self.close = False
        self.connections = 0
        self.heads: list[bytes] = []
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        threading.Thread(target=self._accept, daemon=True).start()

    def signed(self, body: bytes, head: str = "HTTP/1.1 200 OK", extra: str = "") -> bytes:
        return (
            f"{head}\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n"
            f"{SIGNATURE_HEADER}: {self.signer.sign(body)}\r\n{extra}\r\n"
        ).encode() + body

    def _accept(self) -> None:
        while True:
            try:
                sock, _ = self.listener.accept()
            except OSError:
                return
            self.connections += 1
            threading.Thread(target=self._serve, args=(sock,), daemon=True).start()

    def _serve(self, sock: socket.socket) -> None:
        reader = sock.makefile("rb")
        with sock, reader:
            while True:
                head = b""
                while not head.endswith(b"\r\n\r\n"):
                    line = reader.readline()
                    if not line:
                        return
                    head += line
                self.heads.append(head)
                fields = dict(
                    line.split(": ", 1) for line in head.decode().split("\r\n")[1:] if line
                )
                request = json.loads(reader.read(int(fields["Content-Length"])))
                sock.sendall(self.answer(request, fields[SIGNATURE_HEADER]))
                if self.close:
                    return


@pytest.fixture
def scripted(tmp_path: Path) -> Iterator[tuple[Scripted, OperatorClient]]:
    ensure_keys(tmp_path)
    operator = Scripted(tmp_path)
    client = OperatorClient(
        operator.url + "/wallet",
        load_signer(tmp_path / "game_private.pem"),
        load_verifier(tmp_path / "operator_public.pem"),
        timeout_seconds=2.0,
    )
    try:
        yield operator, client
    finally:
        client.close()
        operator.listener.close()


def ok(request: dict[str, Any]) -> bytes:
    return json.dumps(
        {
            "user": "u",
            "status": "RS_OK",
            "request_uuid": request["request_uuid"],
            "currency": "EUR",
            "balance": 975_000,
        }
    ).encode()


def body(n: int = 1) -> dict[str, Any]:
    return {"user": "u", "request_uuid": f"r-{n}", "transaction_uuid": f"t-{n}", "amount": 1}


def test_a_kept_alive_connection_carries_the_calls_signed(
    scripted: tuple[Scripted, OperatorClient], tmp_path: Path
) -> None:
    operator, client = scripted
    operator.answer = lambda request, signature: operator.signed(ok(request))
    for n in range(3):
        assert client.call("bet", body(n)).balance == 975_000
    assert operator.connections == 1
    head = operator.heads[0].decode()
    assert head.startswith("POST /wallet/transaction/bet HTTP/1.1\r\n")
    assert f"Host: 127.0.0.1:{operator.url.rsplit(':', 1)[1]}\r\n" in head
    # the body the operator received is the one signed, checked with the game's public key
    verifier = load_verifier(tmp_path / "game_public.pem")
    sent = json.dumps(body(0), separators=(",", ":")).encode()
    signature = head.split(f"{SIGNATURE_HEADER}: ", 1)[1].split("\r\n", 1)[0]
    verifier.verify(sent, signature)


def test_a_connection_the_operator_closes_is_replaced(
    scripted: tuple[Scripted, OperatorClient],
) -> None:
    operator, client = scripted
    operator.close = True  # closed after each answer, as the answer says
    operator.answer = lambda request, signature: operator.signed(
        ok(request), extra="Connection: close\r\n"
    )
    for n in range(3):
        assert client.call("bet", body(n)).status == "RS_OK"
    assert operator.connections == 3


def test_an_http_1_0_answer_closes_the_connection(
    scripted: tuple[Scripted, OperatorClient],
) -> None:
    operator, client = scripted
    operator.close = True
    operator.answer = lambda request, signature: operator.signed(ok(request), "HTTP/1.0 200 OK")
    assert client.call("bet", body(1)).status == "RS_OK"
    assert client.call("bet", body(2)).status == "RS_OK"
    assert operator.connections == 2


def test_a_chunked_answer_after_a_100_continue_is_read_whole(
    scripted: tuple[Scripted, OperatorClient],
) -> None:
    operator, client = scripted

    def chunked(request: dict[str, Any], signature: str) -> bytes:
        raw = ok(request)
        half = len(raw) // 2
        chunks = b"".join(
            b"%x;ext=1\r\n%s\r\n" % (len(part), part) for part in (raw[:half], raw[half:])
        )
        return (
            b"HTTP/1.1 100 Continue\r\n\r\n"
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n"
            + f"{SIGNATURE_HEADER}: {operator.signer.sign(raw)}\r\n\r\n".encode()
            + chunks
            + b"0\r\nTrailer: x\r\n\r\n"
        )

    operator.answer = chunked
    for n in range(2):
        assert client.call("win", body(n)).balance == 975_000
    assert operator.connections == 1


def test_an_answer_without_a_length_ends_with_the_connection(
    scripted: tuple[Scripted, OperatorClient],
) -> None:
    operator, client = scripted
    operator.close = True

    def until_close(request: dict[str, Any], signature: str) -> bytes:
        raw = ok(request)
        sign = operator.signer.sign(raw)
        return f"HTTP/1.1 200 OK\r\n{SIGNATURE_HEADER}: {sign}\r\n\r\n".encode() + raw

    operator.answer = until_close
    assert client.call("bet", body(1)).status == "RS_OK"
    assert client.call("bet", body(2)).status == "RS_OK"
    assert operator.connections == 2


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        (lambda s, raw: s.signed(raw)[:-5], "IncompleteRead"),  # cut short
        (lambda s, raw: b"", "RemoteDisconnected"),  # closed without an answer
        (lambda s, raw: b"SMTP ready\r\n\r\n", "BadStatusLine"),
        (lambda s, raw: b"HTTP/1.1 200 OK\r\nbroken\r\n\r\n", "HTTPException"),
        (lambda s, raw: b"HTTP/1.1 200 OK\r\nContent-Length: x\r\n\r\n", "HTTPException"),
        (lambda s, raw: b"HTTP/1.1 200 OK\r\n" + b"A" * 70_000 + b"\r\n\r\n", "LineTooLong"),
        (
            lambda s, raw: b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
            "IncompleteRead",
        ),
        (lambda s, raw: s.signed(b" " * (MAX_ANSWER + 1) + raw), "HTTPException"),  # too long
    ],
)
def test_an_answer_not_read_whole_is_no_answer_and_drops_the_connection(
    scripted: tuple[Scripted, OperatorClient], answer: Any, reason: str
) -> None:
    operator, client = scripted
    operator.close = True
    operator.answer = lambda request, signature: answer(operator, ok(request))
    with pytest.raises(NoAnswerError, match=reason):
        client.call("bet", body(1))
    operator.answer = lambda request, signature: operator.signed(ok(request))
    assert client.call("bet", body(2)).status == "RS_OK"  # on a new connection
    assert operator.connections == 2


def test_an_error_status_is_no_answer_on_a_connection_kept(
    scripted: tuple[Scripted, OperatorClient],
) -> None:
    operator, client = scripted
    operator.answer = lambda request, signature: operator.signed(ok(request), "HTTP/1.1 503 Busy")
    with pytest.raises(NoAnswerError, match="HTTP 503"):
        client.call("bet", body(1))
    operator.answer = lambda request, signature: operator.signed(ok(request))
    assert client.call("bet", body(2)).status == "RS_OK"
    assert operator.connections == 1
