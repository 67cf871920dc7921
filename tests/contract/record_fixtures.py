"""Record the contract suite's fixture rounds.

Run from the repository: ``.venv/bin/python -m tests.contract.record_fixtures [TITLE ...]``
(every title under contract, or only those named: a new title's fixtures are recorded without
writing the others' again).

For every title under contract (``tests/contract/titles.py``) a seeded player plays chains of
rounds through the live engine, by the game server's ``Title`` (bets from the market, the
carried state kept per bet key as the server keeps it, actions picked at random among those
offered, now and then the gamble declined). A round is kept when it shows a feature (see
each adapter's ``features``) that the rounds kept so far for its market and variant do not; a
round that stops to wait for the player (free spins to play, a win to gamble) is also
considered as the server stores it after its spin. Each kept round is stored with its full
record and its outcome (``tests/contract/rounds.py``) in ``fixtures/<title>.json``.

Then the same kind of player plays the title through the real game server (the app over a
scratch SQLite database, a seeded random source, every step a request) and the rows the
server wrote are kept as they are stored, in ``fixtures/<title>.server.json``: the round's
row (bet, status, record and view as JSON text, win) after a step that showed a feature
not yet kept (free spins and a won gamble both open and complete),
with the player's carried state rows (``game_states``: the state's JSON per bet key) as they
stood then.

The same seeds give the same fixtures. The files are committed and the tests never write
them: re-record only when the fixtures must grow (a new title, a new feature to cover), never
to make a changed outcome pass (docs/contract-tests.md).
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
import uuid
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import select

from reelsmith.rng import SeededSource
from reelsmith.server.app import create_app
from reelsmith.server.clock import ManualClock
from reelsmith.server.settings import Settings
from reelsmith.store.db import Database
from reelsmith.store.tables import game_states, rounds
from tests.contract.rounds import Player, chooser, outcome_of, record_of
from tests.contract.titles import (
    adapter,
    contract_titles,
    market_for,
    markets,
    server_title,
    variants,
)

FIXTURES = Path(__file__).parent / "fixtures"

#: Rounds a chain may play before it gives up on the features it has not met.
MAX_ROUNDS = 60_000


@dataclass(frozen=True)
class Chain:
    """One seeded player: its market, the variant it plays, and whether it must meet every
    feature the title requires (else it keeps what it meets in ``rounds`` rounds)."""

    market: str
    variant: str
    seed: int
    rounds: int
    complete: bool


def chains(game_id: str) -> list[Chain]:
    """Every variant in the default market (its own variant until every feature is met, the
    others for a while), and a while in each other market that offers the title."""
    default_variant = markets()["default"].game(game_id).variant
    plan = [Chain("default", default_variant, 1, MAX_ROUNDS, True)]
    plan += [
        Chain("default", v, 2 + i, 3_000, False)
        for i, v in enumerate(variants(game_id))
        if v != default_variant
    ]
    plan += [
        Chain(m, markets()[m].game(game_id).variant, 20 + i, 3_000, False)
        for i, m in enumerate(sorted(markets()))
        if m != "default" and game_id in markets()[m].games  # a market may decline a title
    ]
    return plan


def record_chain(game_id: str, chain: Chain) -> list[dict[str, Any]]:
    title = server_title(game_id)
    contract = adapter(game_id)
    market = market_for(chain.market, game_id, chain.variant)
    bets = contract.bets(market)
    rng = SeededSource(chain.seed)
    choose = chooser(chain.seed)
    pick = random.Random(-chain.seed)
    player = Player(title)
    covered: set[str] = set()
    kept: list[dict[str, Any]] = []
    for number in range(chain.rounds):
        # mostly one bet, so a carried state (pots, meter) builds up as a player's does
        raw_bet = bets[0] if pick.random() < 0.8 else pick.choice(bets)
        gamble = pick.random() >= 0.1
        steps = player.play(market, raw_bet, rng, choose, gamble=gamble)
        for round_ in [steps[-1], steps[0]] if len(steps) > 1 else steps:
            record = record_of(title, round_)
            outcome = outcome_of(title, market, round_)
            features = contract.features(record, outcome)
            if features - covered:
                covered |= features
                kept.append(
                    {
                        "name": f"{chain.market} {chain.variant} seed {chain.seed} "
                        f"round {number + 1}" + ("" if round_ is steps[-1] else " after its spin"),
                        "market": chain.market,
                        "variant": chain.variant,
                        "features": sorted(features),
                        "record": record,
                        "outcome": outcome,
                    }
                )
        if chain.complete and contract.required_features <= covered:
            break
    missing = contract.required_features - covered
    if chain.complete and missing:
        raise SystemExit(f"{game_id}: {chain} met no round with {sorted(missing)}")
    return kept


# ---------------------------------------------------------------------------------------
# Rows as the game server stores them
# ---------------------------------------------------------------------------------------

#: The columns of a round's row that say what was played (ids, players, balances and times
#: are the database's own and are made afresh when a row is put back).
ROW_COLUMNS = (
    "game",
    "variant",
    "currency",
    "bet_minor",
    "bet",
    "status",
    "record",
    "view",
    "win_minor",
    "resolved_by",
)
SERVER_ROUNDS = 5_000
#: Features kept both in an open row and in a complete one.
PER_STATUS = frozenset({"free_spins", "gamble_won"})
OPERATOR_KEY = "record-fixtures"


@contextmanager
def served(rng: SeededSource) -> Iterator[tuple[Any, Database]]:
    """The game server's app over a scratch SQLite database, and a client of it."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    with tempfile.TemporaryDirectory() as folder:
        db = Database(f"sqlite:///{folder}/rows.db")
        settings = Settings.load(
            secret_key="record-fixtures",
            operator_api_key=OPERATOR_KEY,
            rate_limit_per_second=1_000_000,
            rate_limit_burst=1_000_000,
        )
        app = create_app(settings, clock=ManualClock(), rng=rng, database=db, run_resolver=False)
        try:
            with TestClient(app) as client:
                yield client, db
        finally:
            db.dispose()


class Client:
    """One player of the served app, every call checked."""

    def __init__(self, client: Any) -> None:
        self.client = client
        operator = {"X-API-Key": OPERATOR_KEY}
        player = self.call(
            "POST",
            "/operator/players",
            operator,
            external_ref="fixtures",
            currency="EUR",
            market="default",
        )["id"]
        self.call("POST", f"/operator/players/{player}/deposit", operator, amount="1000000.00")
        token = self.call("POST", f"/operator/players/{player}/sessions", operator, key=False)
        self.player = player
        self.auth = {"Authorization": f"Bearer {token['token']}"}

    def call(
        self, method: str, path: str, headers: dict[str, str], key: bool = True, **body: Any
    ) -> Any:
        if key:
            headers = {**headers, "Idempotency-Key": uuid.uuid4().hex}
        response = self.client.request(method, path, json=body, headers=headers)
        if response.status_code >= 300:
            raise SystemExit(f"{method} {path}: {response.status_code} {response.text}")
        return response.json()

    def step(self, game: str, round_id: str | None, action: str, **body: Any) -> Any:
        if round_id is None:
            return self.call("POST", f"/api/games/{game}/spin", self.auth, **body)
        verb, _, choice = action.partition(" ")
        path = f"/api/games/{game}/rounds/{round_id}/{verb.replace('_', '-')}"
        return self.call("POST", path, self.auth, **({"choice": choice} if choice else {}))


def stored_rows(db: Database, round_id: str, game: str) -> dict[str, Any]:
    with db.engine.connect() as connection:
        row = connection.execute(select(rounds).where(rounds.c.id == round_id)).mappings().one()
        states = connection.execute(
            select(game_states.c.bet_key, game_states.c.state)
            .where(game_states.c.player_id == row["player_id"], game_states.c.game == game)
            .order_by(game_states.c.bet_key)
        ).all()
    return {
        "row": {column: row[column] for column in ROW_COLUMNS},
        "game_states": [{"bet_key": key, "state": state} for key, state in states],
    }


def record_server_rows(game_id: str) -> list[dict[str, Any]]:
    contract = adapter(game_id)
    market = markets()["default"]
    bets = contract.bets(market)
    choose = chooser(7)
    pick = random.Random(-7)
    covered: set[str] = set()
    kept: list[dict[str, Any]] = []
    with served(SeededSource(7)) as (client, db):
        player = Client(client)
        for number in range(SERVER_ROUNDS):
            raw_bet = bets[0] if pick.random() < 0.8 else pick.choice(bets)
            body: dict[str, Any] = {"bet": raw_bet}
            if pick.random() < 0.1:
                body["gamble"] = False
            response = player.step(game_id, None, "spin", **body)
            round_id = response["round_id"]
            step = 0
            while True:
                stored = stored_rows(db, round_id, game_id)
                row = stored["row"]
                features = contract.features(
                    json.loads(row["record"]), {"view": json.loads(row["view"])}
                )
                shown = features | {f"{f} ({row['status']})" for f in features & PER_STATUS}
                if shown - covered:
                    covered |= shown
                    kept.append(
                        {
                            "name": f"default seed 7 round {number + 1} step {step}",
                            "market": "default",
                            "features": sorted(features),
                            **stored,
                        }
                    )
                offered = response["round"]["actions_allowed"]
                if not offered:
                    break
                response = player.step(game_id, round_id, choose(offered))
                step += 1
            if contract.required_features <= covered:
                break
    return kept


def write(path: Path, document: dict[str, Any], listed: str) -> None:
    """Compact JSON, one entry of ``listed`` per line (small diffs when fixtures grow)."""
    head = {k: v for k, v in document.items() if k != listed}
    lines = [json.dumps(entry, sort_keys=True, separators=(",", ":")) for entry in document[listed]]
    text = (
        json.dumps(head, sort_keys=True)[:-1] + f', "{listed}": [\n' + ",\n".join(lines) + "\n]}\n"
    )
    json.loads(text)  # what is written reads back
    path.write_text(text)


def main(argv: list[str]) -> None:
    unknown = set(argv) - set(contract_titles())
    if unknown:
        raise SystemExit(f"not under contract: {', '.join(sorted(unknown))}")
    FIXTURES.mkdir(exist_ok=True)
    for game_id in argv or contract_titles():
        rounds = [entry for chain in chains(game_id) for entry in record_chain(game_id, chain)]
        path = FIXTURES / f"{game_id}.json"
        write(
            path,
            {"game": game_id, "recorded_by": "tests/contract/record_fixtures.py", "rounds": rounds},
            "rounds",
        )
        print(f"{path}: {len(rounds)} rounds, {path.stat().st_size:,} bytes", file=sys.stderr)
        rows = record_server_rows(game_id)
        path = FIXTURES / f"{game_id}.server.json"
        write(
            path,
            {"game": game_id, "recorded_by": "tests/contract/record_fixtures.py", "rows": rows},
            "rows",
        )
        print(f"{path}: {len(rows)} rows, {path.stat().st_size:,} bytes", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
