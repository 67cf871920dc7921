"""The operator simulator as a real process: its signature checks, request_uuid answers kept,
transaction_uuid processed once, the documented statuses, and each fault mode."""

from __future__ import annotations

import base64
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from reelsmith.wallet.signing import SignatureError, load_verifier
from tests.wallet.sim import OperatorSim, bet_body

START = 1_000_000  # 10.00 EUR in sub-units


@pytest.fixture(scope="module")
def sim(tmp_path_factory: pytest.TempPathFactory) -> Iterator[OperatorSim]:
    running = OperatorSim(tmp_path_factory.mktemp("sim"), "--hang-seconds", "0.6").start()
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
def user(sim: OperatorSim) -> str:
    name = f"u-{uuid.uuid4().hex[:8]}"
    sim.player(name, START)
    return name


def test_keys_are_generated_at_first_start_private_ones_for_their_owner_alone(
    sim: OperatorSim,
) -> None:
    names = sorted(path.name for path in sim.keys.iterdir())
    assert names == [
        "game_private.pem",
        "game_public.pem",
        "operator_private.pem",
        "operator_public.pem",
    ]
    assert (sim.keys / "game_private.pem").stat().st_mode & 0o077 == 0
    assert (sim.keys / "operator_private.pem").stat().st_mode & 0o077 == 0


def test_a_wrong_or_missing_signature_is_refused_and_moves_nothing(
    sim: OperatorSim, user: str
) -> None:
    forged = base64.b64encode(b"\0" * 256).decode()
    for signature in (forged, "", "not base64 !"):
        status, answer, _ = sim.call("/transaction/bet", bet_body(user, 1000), signature)
        assert status == 200 and answer is not None
        assert answer["status"] == "RS_ERROR_INVALID_SIGNATURE"
    # signed by the operator's key, not the game's: refused too
    body = bet_body(user, 1000)
    other = OperatorSim(sim.folder / "other")
    other.keys.mkdir(parents=True)
    from reelsmith.wallet.signing import ensure_keys, load_signer

    ensure_keys(other.keys)
    import json

    signature = load_signer(other.keys / "game_private.pem").sign(json.dumps(body).encode())
    _, answer, _ = sim.call("/transaction/bet", body, signature)
    assert answer is not None and answer["status"] == "RS_ERROR_INVALID_SIGNATURE"
    assert sim.balance(user) == START
    assert not [tx for tx in sim.transactions() if tx["user"] == user]


def test_every_answer_is_signed_by_the_operator(sim: OperatorSim, user: str) -> None:
    _, _, response = sim.call("/user/balance", {"user": user, "token": "tok", "request_uuid": "r"})
    verifier = load_verifier(sim.keys / "operator_public.pem")
    verifier.verify(response.content, response.headers["X-Hub88-Signature"])
    with pytest.raises(SignatureError):
        verifier.verify(response.content + b" ", response.headers["X-Hub88-Signature"])


def test_a_request_uuid_gets_its_first_answer_and_moves_money_once(
    sim: OperatorSim, user: str
) -> None:
    body = bet_body(user, 25_000)
    _, first, _ = sim.call("/transaction/bet", body)
    _, again, _ = sim.call("/transaction/bet", body)
    assert first is not None and first["status"] == "RS_OK"
    assert again == first
    assert sim.balance(user) == START - 25_000
    # the same request_uuid with another body: refused, nothing moved
    _, other, _ = sim.call("/transaction/bet", {**body, "amount": 1})
    assert other is not None and other["status"] == "RS_ERROR_WRONG_SYNTAX"
    assert sim.balance(user) == START - 25_000


def test_a_transaction_uuid_is_never_processed_twice(sim: OperatorSim, user: str) -> None:
    bet = bet_body(user, 25_000)
    sim.call("/transaction/bet", bet)
    repeat = {**bet, "request_uuid": str(uuid.uuid4())}
    _, answer, _ = sim.call("/transaction/bet", repeat)
    assert answer is not None and answer["status"] == "RS_ERROR_DUPLICATE_TRANSACTION"
    assert answer["balance"] == START - 25_000
    win = {
        **bet_body(user, 50_000),
        "reference_transaction_uuid": bet["transaction_uuid"],
        "round": bet["round"],
    }
    del win["token"]  # a win needs no token
    _, paid, _ = sim.call("/transaction/win", win)
    _, twice, _ = sim.call("/transaction/win", {**win, "request_uuid": str(uuid.uuid4())})
    assert paid is not None and paid["status"] == "RS_OK"
    assert twice is not None and twice["status"] == "RS_ERROR_DUPLICATE_TRANSACTION"
    assert sim.balance(user) == START - 25_000 + 50_000
    kinds = sorted(tx["kind"] for tx in sim.transactions() if tx["user"] == user)
    assert kinds == ["bet", "win"]


def test_a_bet_is_refused_as_documented(sim: OperatorSim, user: str) -> None:
    cases = {
        "RS_ERROR_NOT_ENOUGH_MONEY": bet_body(user, START + 1),
        "RS_ERROR_INVALID_TOKEN": bet_body(user, 1000, token="wrong"),
        "RS_ERROR_WRONG_CURRENCY": bet_body(user, 1000, currency="USD"),
        "RS_ERROR_WRONG_TYPES": bet_body(user, 10.5),  # not a whole number of sub-units
        "RS_ERROR_WRONG_SYNTAX": {
            k: v for k, v in bet_body(user, 1000).items() if k != "transaction_uuid"
        },
    }
    for status, body in cases.items():
        _, answer, _ = sim.call("/transaction/bet", body)
        assert answer is not None and answer["status"] == status, (status, answer)
    sim.admin("POST", f"/admin/players/{user}/token", {"token": "old", "token_ttl_seconds": -1})
    _, answer, _ = sim.call("/transaction/bet", bet_body(user, 1000, token="old"))
    assert answer is not None and answer["status"] == "RS_ERROR_TOKEN_EXPIRED"
    assert sim.balance(user) == START


def test_a_rollback_refunds_its_bet_once_and_one_of_an_unknown_bet_bars_it(
    sim: OperatorSim, user: str
) -> None:
    bet = bet_body(user, 30_000)
    sim.call("/transaction/bet", bet)
    rollback = {
        "user": user,
        "request_uuid": str(uuid.uuid4()),
        "transaction_uuid": str(uuid.uuid4()),
        "reference_transaction_uuid": bet["transaction_uuid"],
        "round": bet["round"],
        "round_closed": True,
    }
    _, first, _ = sim.call("/transaction/rollback", rollback)
    _, second, _ = sim.call(
        "/transaction/rollback", {**rollback, "request_uuid": str(uuid.uuid4())}
    )
    assert first is not None and first["status"] == "RS_OK"
    assert second is not None and second["status"] == "RS_ERROR_DUPLICATE_TRANSACTION"
    assert sim.balance(user) == START
    # a win of a rolled back bet is refused
    win = {**bet_body(user, 5), "reference_transaction_uuid": bet["transaction_uuid"]}
    _, refused, _ = sim.call("/transaction/win", win)
    assert refused is not None and refused["status"] == "RS_ERROR_TRANSACTION_DOES_NOT_EXIST"
    # the rollback of a bet never seen: answered so, and the bet, arriving late, refused
    late = bet_body(user, 40_000)
    _, unknown, _ = sim.call(
        "/transaction/rollback",
        {
            **rollback,
            "request_uuid": str(uuid.uuid4()),
            "transaction_uuid": str(uuid.uuid4()),
            "reference_transaction_uuid": late["transaction_uuid"],
        },
    )
    assert unknown is not None and unknown["status"] == "RS_ERROR_TRANSACTION_DOES_NOT_EXIST"
    _, barred, _ = sim.call("/transaction/bet", late)
    assert barred is not None and barred["status"] == "RS_ERROR_DUPLICATE_TRANSACTION"
    assert sim.balance(user) == START


@pytest.mark.parametrize(
    ("mode", "answered", "moved"),
    [
        ("timeout", False, False),
        ("error", False, False),
        ("slow", True, True),
        ("twice", True, True),
        ("lose", False, True),
        ("truncate", False, True),
    ],
)
def test_each_fault_mode(
    sim: OperatorSim, user: str, mode: str, answered: bool, moved: bool
) -> None:
    before = sim.faults()["counts"].get(mode, 0)
    sim.faults(fail_rate=1.0, modes=[mode], slow_seconds=0.3, calls=["bet"])
    try:
        started = time.monotonic()
        body = bet_body(user, 10_000)
        try:
            status, answer, _ = sim.call("/transaction/bet", body)
        except httpx.RemoteProtocolError:  # truncate: the answer cut short mid-body
            status, answer = 200, None
        elapsed = time.monotonic() - started
    finally:
        sim.faults(fail_rate=0.0)
    assert sim.faults()["counts"][mode] == before + 1
    if answered:
        assert answer is not None and answer["status"] == "RS_OK"
    else:
        assert answer is None
    if mode == "slow":
        assert elapsed >= 0.3
    if mode in ("timeout", "lose"):
        assert status == 504 and elapsed >= 0.6
    if mode == "error":
        assert status == 500
    assert sim.balance(user) == (START - 10_000 if moved else START)
    # the request repeated (faults off): its first answer if it was processed, else processed now
    _, again, _ = sim.call("/transaction/bet", body)
    assert again is not None and again["status"] == "RS_OK"
    assert sim.balance(user) == START - 10_000
    assert len([tx for tx in sim.transactions() if tx["user"] == user]) == 1


def test_bad_admin_input_is_refused_by_name(sim: OperatorSim) -> None:
    response = httpx.post(f"{sim.url}/admin/players", json={"user": "x", "currency": "euro"})
    assert response.status_code == 400 and "ISO 4217" in response.json()["error"]
    response = httpx.post(f"{sim.url}/admin/faults", json={"modes": ["meteor"]})
    assert response.status_code == 400 and "meteor" in response.json()["error"]
    response = httpx.post(
        f"{sim.url}/admin/players", json={"user": "y", "currency": "EUR", "balance": -5}
    )
    assert response.status_code == 400 and "balance" in response.json()["error"]


def test_the_command_refuses_a_bad_fault_rate(tmp_path: Path) -> None:
    import subprocess

    from tests.reliability.live import REELSMITH

    done = subprocess.run(
        [
            str(REELSMITH),
            "operator-sim",
            "--database",
            str(tmp_path / "o.db"),
            "--keys",
            str(tmp_path / "k"),
            "--fail-rate",
            "1.5",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "fail_rate 1.5 is not between 0 and 1" in done.stderr
