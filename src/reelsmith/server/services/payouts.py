"""The payout audit: every stored round's payout re-derived from its recorded draws, under the
rules of its title, the variant in its record and the price its bet was taken at, and compared
with what the ledger moved for it.

A balanced ledger proves that no money was created or lost between accounts; it cannot see a
round paid the wrong amount (a win at another price, another variant's pays), since a wrong
payout is posted as carefully as a right one. This audit can: for each round it replays the
record through the title (as recall does), settles it at its own price (:class:`Price`) and
requires the player's wallet postings for the round (under the seamless wallet, the operator's
house account's), by kind, to be exactly those amounts:

- ``bet``: the bet the round was taken at (``rounds.bet_minor``), once; none for a round a
  free-round campaign gave (its stake was not charged);
- ``win``, ``jackpot_win``, ``refund``: the round's outcome at its price (an open round has
  none yet; a voided round returns its bet and pays nothing, its fault being outside its
  draws);
- ``rounds.win_minor``: the win and jackpot win paid.

Each round is re-derived on the version of its title it was played on (its ``model_hash``:
the title served, or the version kept when a server served it,
`reelsmith.server.services.versions`). A round whose title is not served, or whose version is
neither served nor kept, cannot be re-derived: it is listed as unchecked, and the audit is not
passed while any is. A round from before the hash was recorded is re-derived under the title
served.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, text

from reelsmith.server.services.stored import restore, stored_price
from reelsmith.server.services.versions import ModelVersions
from reelsmith.server.titles import Title
from reelsmith.wallet.seamless import ACCOUNT as SEAMLESS_ACCOUNT

#: Rounds read per page (their postings are read with them, in one query).
PAGE = 500

# ``free``: the round is one a free-round campaign gave (no bet was taken for it)
_ROUNDS = (
    "SELECT r.id, r.player_id, r.game, r.variant, r.model_hash, r.status, r.currency,"
    " r.bet_minor, r.win_minor, r.record, r.forced, f.campaign_id IS NOT NULL AS free"
    " FROM rounds r LEFT JOIN free_round_plays f ON f.round_id = r.id"
    " WHERE r.id > :after ORDER BY r.id LIMIT :page"
)
# The player's side of every ledger transaction of the page's rounds, by round and kind: the
# player's wallet, or under the seamless wallet the operator's house account (a round has one
# or the other, never both).
_POSTINGS = (
    "SELECT t.round_id, t.kind, SUM(p.amount) AS amount, COUNT(DISTINCT t.id) AS moves"
    " FROM ledger_transactions t JOIN postings p ON p.transaction_id = t.id"
    " JOIN accounts a ON a.id = p.account_id"
    f" WHERE (a.player_id IS NOT NULL OR a.name = '{SEAMLESS_ACCOUNT}')"
    " AND t.round_id >= :first AND t.round_id <= :last"
    " GROUP BY t.round_id, t.kind"
)

KINDS = ("bet", "win", "jackpot_win", "refund")


@dataclass
class PayoutReport:
    rounds: int = 0  # every stored round
    checked: int = 0  # re-derived and compared
    paid_minor: int = 0  # what the checked rounds paid (wins, jackpot wins, refunds)
    forced: int = 0  # rounds whose draws a player chose (dev mode): checked like the rest
    differences: list[dict[str, Any]] = field(default_factory=list)
    unchecked: list[dict[str, Any]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.differences and not self.unchecked

    def to_json(self, limit: int | None = None) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "rounds": self.rounds,
            "checked": self.checked,
            "paid_minor": self.paid_minor,
            "forced_rounds": self.forced,
            "differences": self.differences[:limit],
            "unchecked": self.unchecked[:limit],
        }


def _expected(title: Title, row: Any) -> dict[str, int]:
    """What the ledger must hold for ``row``'s round, by kind, in minor units."""
    bet = 0 if row["free"] else int(row["bet_minor"])
    if row["status"] == "voided":
        return {"bet": -bet, "win": 0, "jackpot_win": 0, "refund": bet}
    round_ = restore(title, row)
    outcome = title.outcome(stored_price(title, row, round_), round_)
    if outcome.status != row["status"]:
        raise ValueError(f"its draws replay to a {outcome.status} round, stored {row['status']}")
    return {
        "bet": -bet,
        "win": outcome.win_minor,
        "jackpot_win": outcome.jackpot_minor,
        "refund": outcome.refund_minor,
    }


def verify_payouts(connection: Connection, titles: Mapping[str, Title]) -> PayoutReport:
    """Re-derive every stored round's payout and compare it with the ledger (see the module's
    account); a page of rounds at a time, in the order of their ids."""
    report = PayoutReport()
    versions = ModelVersions(titles)
    after = ""
    while True:
        rows = [
            row._mapping
            for row in connection.execute(text(_ROUNDS), {"after": after, "page": PAGE})
        ]
        if not rows:
            return report
        after = str(rows[-1]["id"])
        moved: dict[str, dict[str, tuple[int, int]]] = defaultdict(dict)
        for posted in connection.execute(
            text(_POSTINGS), {"first": str(rows[0]["id"]), "last": after}
        ):
            moved[str(posted.round_id)][str(posted.kind)] = (int(posted.amount), int(posted.moves))
        for row in rows:
            report.rounds += 1
            report.forced += bool(row["forced"])
            _check(report, titles, versions, connection, row, moved.get(str(row["id"]), {}))


def _check(
    report: PayoutReport,
    titles: Mapping[str, Title],
    versions: ModelVersions,
    connection: Connection,
    row: Any,
    moved: dict[str, tuple[int, int]],
) -> None:
    round_id, game = str(row["id"]), str(row["game"])
    where = {"round_id": round_id, "player_id": str(row["player_id"]), "game": game}
    title = titles.get(game)
    if title is None:
        report.unchecked.append({**where, "reason": f"the title {game!r} is not served"})
        return
    played_on, variant = row["model_hash"], str(row["variant"])
    title = versions.title(connection, game, variant, played_on)
    if title is None:
        report.unchecked.append(
            {
                **where,
                "reason": f"played on model {played_on}, a version of {game} {variant} neither"
                " served nor kept",
            }
        )
        return
    try:
        expected = _expected(title, row)
    except Exception as exc:  # a record that does not replay, a bet that does not price it
        message = getattr(exc, "message", None) or str(exc)
        report.differences.append({**where, "problem": f"not re-derived: {message}"})
        return
    report.checked += 1
    problems = []
    for kind in (*KINDS, *sorted(set(moved) - set(KINDS))):
        amount, moves = moved.get(kind, (0, 0))
        want = expected.get(kind, 0)
        if amount != want:
            problems.append(f"{kind}: the ledger moved {amount}, the round's draws give {want}")
        elif kind == "bet" and moves != (0 if row["free"] else 1):
            problems.append(f"bet: taken {moves} times")
    paid = expected["win"] + expected["jackpot_win"]
    if row["status"] != "open" and int(row["win_minor"]) != paid:
        problems.append(f"win_minor: the round says {row['win_minor']}, its draws give {paid}")
    report.paid_minor += paid + expected["refund"]
    for problem in problems:
        report.differences.append({**where, "problem": problem})
