"""Schemathesis against the OpenAPI spec: generated requests for every operation, and not one
5xx. Every refusal is a JSON ``{code, message}``.

The app runs in-process (ASGI) over SQLite and PostgreSQL, in dev mode (so forced draws are
exercised too), with a valid operator key, a valid player token, an Idempotency-Key and, for
most requests, path ids that exist (the player, an open and a finished round of each title, an
autoplay), so generated bodies reach the game and the wallet instead of stopping at 401/404.
One request in ten keeps schemathesis' own generated credentials, and one path id in five its
own generated id.
"""

from __future__ import annotations

import uuid
import warnings
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from tests.reliability import figures
from tests.server.conftest import OPERATOR_KEY, build
from tests.server.forcing import TSAR_BET, tsar_trigger, tsar_win

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    import schemathesis

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")  # per-request cookies

CREDENTIALS = ("x-api-key", "authorization", "idempotency-key")
KEEP = ("params", "json", "content", "data", "headers", "cookies")


def fuzz(kind: str, tmp_path: Any, target: int) -> Counter[int]:
    statuses: Counter[int] = Counter()
    failures: list[str] = []
    session = build(
        kind,
        tmp_path,
        rate_limit_per_second=1e9,
        rate_limit_burst=10**9,
        operator_failures_burst=10**9,  # generated keys are wrong: no throttling here
    )
    api = next(session)
    try:
        player = api.player(deposit="100000.00")
        api.login(player)
        valid = {
            "player_id": [player],
            "round_id": [
                api.spin("days-of-the-tsar", TSAR_BET, tsar_trigger()).json()["round_id"],
                api.spin("sultan-spins", {"bet": "1.00"}).json()["round_id"],
            ],
            "game": ["aurora-fox", "days-of-the-tsar", "sultan-spins"],
            "autoplay_id": [
                api.as_player(
                    "POST", "/api/games/days-of-the-tsar/autoplay", {"bet": TSAR_BET, "rounds": 9}
                ).json()["id"]
            ],
        }
        valid["campaign_id"] = [
            api.op(
                "POST",
                f"/operator/players/{player}/free-rounds",
                {
                    "game": "days-of-the-tsar",
                    "bet": TSAR_BET,
                    "rounds": 50,
                    "expires_at": "2026-01-08T00:00:00Z",
                },
            ).json()["campaign_id"]
        ]
        other = api.player(deposit="10.00")
        api.login(other)
        valid["round_id"].append(
            api.spin("days-of-the-tsar", TSAR_BET, tsar_win()).json()["round_id"]
        )
        api.login(player)
        schema = schemathesis.openapi.from_asgi("/openapi.json", api.client.app)
        operations = [result.ok() for result in schema.get_all_operations()]
        assert len(operations) >= 20

        def send(case: Any, data: st.DataObject) -> None:
            for name in list(case.path_parameters or {}):
                if name in valid and data.draw(st.integers(0, 4)) > 0:
                    case.path_parameters[name] = data.draw(st.sampled_from(valid[name]))
            kwargs = case.as_transport_kwargs()
            keep_generated = data.draw(st.integers(0, 9)) == 0
            headers = {
                k: v
                for k, v in (kwargs.get("headers") or {}).items()
                if keep_generated or k.lower() not in CREDENTIALS
            }
            present = {k.lower() for k in headers}
            defaults = {
                "X-API-Key": OPERATOR_KEY,
                "Authorization": f"Bearer {api.token}",
                "Idempotency-Key": uuid.uuid4().hex,
            }
            headers.update({k: v for k, v in defaults.items() if k.lower() not in present})
            # generated header values may hold any character: send their UTF-8 bytes
            kwargs["headers"] = {k: str(v).encode("utf-8") for k, v in headers.items()}
            method, url = kwargs.pop("method"), kwargs.pop("url")
            response = api.client.request(
                method, url, **{k: v for k, v in kwargs.items() if k in KEEP}
            )
            statuses[response.status_code] += 1
            if response.status_code >= 500:
                failures.append(f"{method} {url} {kwargs!r}: {response.text[:300]}")
            elif response.status_code >= 400:
                body = response.json()
                if not (isinstance(body, dict) and body.get("code") and body.get("message")):
                    failures.append(f"{method} {url}: a refusal without code and message")

        rounds = 0
        while sum(statuses.values()) < target:
            rounds += 1
            for operation in operations:
                run = settings(
                    max_examples=40,
                    deadline=None,
                    database=None,
                    phases=[Phase.generate],
                    suppress_health_check=list(HealthCheck),
                )(given(case=operation.as_strategy(), data=st.data())(send))
                run()
                # the operation may have ended the session or disabled the player
                api.op("POST", f"/operator/players/{player}/enable", key=None)
                api.login(player)
            assert rounds < 50
        # the server's own books are still straight after all that
        assert api.op("GET", "/operator/ledger/verify", key=None).json()["ok"]
        assert api.op("GET", "/operator/audit/verify", key=None).json()["ok"]
    finally:
        session.close()
    sent = sum(statuses.values())
    errors = sum(n for code, n in statuses.items() if code >= 500)
    figures.add("inputs", sent)
    figures.add("requests", sent)
    figures.add("server_errors", errors)
    spread = ", ".join(f"{code}: {n}" for code, n in sorted(statuses.items()))
    figures.note("schemathesis", f"{kind}: {sent} generated requests ({spread}), {errors} 5xx")
    assert failures == [], failures[:5]
    return statuses


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_schemathesis_finds_no_server_error(kind, tmp_path):
    fuzz(kind, tmp_path, 1_100)


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_schemathesis_long(kind, tmp_path):
    fuzz(kind, tmp_path, 10_000)
