"""The operator's reports: per day, title, variant, model hash, market and currency, the rounds
and the money they moved, read from the ledger and the rounds so that they reconcile with the
ledger; and the realised return to player beside the title's theoretical one, with its 99%
band.

**Which version.** Every round records the hash of the exact model and variant it was played
on (:func:`reelsmith.engine.model.model_hash`); rows are kept apart by it, so that a change to
a title's mathematics never mixes the rounds of two versions in one row. ``model_hash`` is
null for rounds from before the hash was recorded.

**Which day.** A round and all the money it moved (its bet, wins, jackpot wins, refund) count
on the UTC day the round started, so a round is never split across two rows; summed over a
period, the money columns are exactly the ledger's postings to the titles' house accounts
(``game:<title>``) for the rounds started in it.

**The money** (minor units of the row's currency), from the ledger's postings to the title's
house account: ``bets`` taken, ``wins`` and ``jackpot_wins`` paid, ``refunds`` of voided
rounds, ``ggr`` = bets - wins - jackpot_wins - refunds (what the house kept: its account's
movement). ``free_round_wins`` is the part of wins and jackpot wins paid by rounds a
free-round campaign gave (no bet was taken for those). ``jackpot_contributions`` is what the
rounds added to the titles' local pots: a gem raises its pot by one bet (a title without pots
has none).

**The return to player.** ``rtp`` is the wins and jackpot wins of the completed rounds over
their stakes, free rounds included at their campaign's stake (their mathematics is the same)
and rounds with forced draws (dev mode) left out (their outcomes were chosen). The variant's
``[figures]`` give the theoretical ``rtp_theoretical`` and the standard deviation σ of one
round's return in bets; the realised figure of ``n`` rounds of equal stakes falls within
``rtp_theoretical ± 2.576·σ/√n`` 99 times in 100 (the band's lower end no lower than 0).
With stakes of different sizes the same holds with the effective count
``n = (Σ stake)² / Σ stake²`` (equal to the rounds for equal stakes), since each round's
return weighs as its stake. ``in_band`` is false when the realised figure lies outside. The
theoretical figures are those of the variant served now, so a row of rounds played on another
version of the model has none (null, and no band). The monitor (:func:`monitor`) checks the
whole period per title, variant, model hash, market and currency
(each day's row carries its own ``in_band`` too; at 99% about one day in a hundred falls
outside by chance).
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Any

from sqlalchemy import Connection, text

from reelsmith import mechanics
from reelsmith.money import Currency
from reelsmith.server.titles import Title

DAY_MS = 86_400_000
Z_99 = 2.576  # the two-sided 99% quantile of the normal law
MAX_DAYS = 366

Key = tuple[str, str, str, str, str, str]  # day, game, variant, model hash, market, currency

_ROUNDS = (
    "SELECT r.created_ms / 86400000 AS day, r.game, r.variant, r.model_hash, pl.market,"
    " r.currency, COUNT(*) AS rounds,"
    " SUM(CASE WHEN f.round_id IS NULL THEN 0 ELSE 1 END) AS free_rounds,"
    " SUM(CASE WHEN r.forced THEN 1 ELSE 0 END) AS forced_rounds,"
    " SUM(CASE WHEN r.status = 'complete' AND NOT r.forced THEN 1 ELSE 0 END) AS measured,"
    " SUM(CASE WHEN r.status = 'complete' AND NOT r.forced THEN r.bet_minor ELSE 0 END)"
    " AS stake,"
    " SUM(CASE WHEN r.status = 'complete' AND NOT r.forced"
    " THEN CAST(r.bet_minor AS DOUBLE PRECISION) * r.bet_minor ELSE 0 END) AS stake_sq,"
    " SUM(CASE WHEN r.status = 'complete' AND NOT r.forced THEN r.win_minor ELSE 0 END)"
    " AS returned"
    " FROM rounds r JOIN players pl ON pl.id = r.player_id"
    " LEFT JOIN free_round_plays f ON f.round_id = r.id"
    " WHERE r.created_ms >= :start AND r.created_ms < :end"
    " GROUP BY 1, 2, 3, 4, 5, 6"
)
# the postings to each title's house account for the rounds started in the period, by kind
_MONEY = (
    "SELECT r.created_ms / 86400000 AS day, r.game, r.variant, r.model_hash, pl.market,"
    " r.currency, t.kind, CASE WHEN f.round_id IS NULL THEN 0 ELSE 1 END AS free,"
    " SUM(p.amount) AS amount"
    " FROM ledger_transactions t JOIN postings p ON p.transaction_id = t.id"
    " JOIN accounts a ON a.id = p.account_id"
    " JOIN rounds r ON r.id = t.round_id"
    " JOIN players pl ON pl.id = r.player_id"
    " LEFT JOIN free_round_plays f ON f.round_id = r.id"
    " WHERE a.name = 'game:' || r.game AND r.created_ms >= :start AND r.created_ms < :end"
    " GROUP BY 1, 2, 3, 4, 5, 6, 7, 8"
)
_POT_ROUNDS = (
    "SELECT r.created_ms / 86400000 AS day, r.game, r.variant, r.model_hash, pl.market,"
    " r.currency, r.bet_minor, r.view FROM rounds r JOIN players pl ON pl.id = r.player_id"
    " WHERE r.game = :game AND r.status <> 'voided'"
    " AND r.created_ms >= :start AND r.created_ms < :end"
)

COLUMNS = (
    "day",
    "game",
    "variant",
    "model_hash",
    "market",
    "currency",
    "rounds",
    "free_rounds",
    "forced_rounds",
    "bets",
    "wins",
    "jackpot_wins",
    "refunds",
    "ggr",
    "free_round_wins",
    "jackpot_contributions",
    "rtp_rounds",
    "rtp",
    "rtp_theoretical",
    "rtp_band_low",
    "rtp_band_high",
    "in_band",
)


class ReportError(ValueError):
    """A report asked for with a bad period; the message names what is wrong."""


def parse_day(raw: str, name: str) -> date:
    """``raw`` (YYYY-MM-DD) as a date; :class:`ReportError` naming ``name`` otherwise."""
    try:
        return date.fromisoformat(raw.strip())
    except (ValueError, AttributeError):
        raise ReportError(f"{name} {raw!r} is not a date (YYYY-MM-DD)") from None


def period(start: str, end: str | None) -> tuple[date, date]:
    """The days ``start`` to ``end`` (both included; ``end`` defaults to ``start``)."""
    first = parse_day(start, "from")
    last = first if end is None else parse_day(end, "to")
    if last < first:
        raise ReportError(f"to ({last}) comes before from ({first})")
    if (last - first).days >= MAX_DAYS:
        raise ReportError(f"a report covers at most {MAX_DAYS} days")
    return first, last


def _ms(day: date) -> int:
    return int(datetime(day.year, day.month, day.day, tzinfo=UTC).timestamp() * 1000)


@dataclass
class _Sums:
    rounds: int = 0
    free_rounds: int = 0
    forced_rounds: int = 0
    bets: int = 0
    wins: int = 0
    jackpot_wins: int = 0
    refunds: int = 0
    free_round_wins: int = 0
    jackpot_contributions: int = 0
    measured: int = 0
    stake: int = 0
    stake_sq: float = 0.0
    returned: int = 0

    def add(self, other: _Sums) -> None:
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))


def theoretical(
    titles: Mapping[str, Title], game: str, variant: str, played_on: str | None = None
) -> tuple[float, float] | None:
    """The variant's theoretical RTP and the standard deviation of one round's return, in
    bets, as its ``[figures]`` state them (the exact analyser's); None when the title is not
    served, the figures do not give both, or the rounds were played on another version of
    the model (``played_on``, their model hash, is not the served variant's: the served
    figures are not theirs). Rounds with no recorded hash are held to the variant served."""
    title = titles.get(game)
    if title is None:
        return None
    found = title.model.variants.get(variant)
    if found is None:
        return None
    if played_on is not None and title.model_hash(variant) != played_on:
        return None
    rtp, sigma = found.figures.get("rtp"), found.figures.get("std_dev")
    if not isinstance(rtp, (int, float)) or not isinstance(sigma, (int, float)):
        return None
    return float(rtp), float(sigma)


def _row(key: tuple[str, ...], sums: _Sums, figures: tuple[float, float] | None) -> dict[str, Any]:
    currency = Currency.of(key[-1])
    # a day's row is keyed by (day, game, variant, model hash, market, currency); a period
    # total has no day
    names = COLUMNS[:6] if len(key) == 6 else COLUMNS[1:6]
    out: dict[str, Any] = {"day": None, **dict(zip(names, key, strict=True))}
    out["model_hash"] = out["model_hash"] or None  # "" in a key: no hash recorded
    money = {
        "bets": sums.bets,
        "wins": sums.wins,
        "jackpot_wins": sums.jackpot_wins,
        "refunds": sums.refunds,
        "ggr": sums.bets - sums.wins - sums.jackpot_wins - sums.refunds,
        "free_round_wins": sums.free_round_wins,
        "jackpot_contributions": sums.jackpot_contributions,
    }
    out.update(rounds=sums.rounds, free_rounds=sums.free_rounds, forced_rounds=sums.forced_rounds)
    for name, minor in money.items():
        out[name] = {"minor": minor, "amount": str(currency.to_decimal(minor))}
    out["rtp_rounds"] = sums.measured
    rtp = sums.returned / sums.stake if sums.stake else None
    out["rtp"] = None if rtp is None else round(rtp, 6)
    out["rtp_theoretical"] = None if figures is None else round(figures[0], 6)
    low = high = None
    if figures is not None and sums.stake and sums.stake_sq:
        effective = sums.stake**2 / sums.stake_sq
        half = Z_99 * figures[1] / math.sqrt(effective)
        # a return is never below 0: the band's lower end neither
        low, high = max(0.0, figures[0] - half), figures[0] + half
    out["rtp_band_low"] = None if low is None else round(low, 6)
    out["rtp_band_high"] = None if high is None else round(high, 6)
    out["in_band"] = (
        None if rtp is None or low is None or high is None else bool(low <= rtp <= high)
    )
    return out


@dataclass
class Report:
    start: date
    end: date
    days: list[dict[str, Any]] = field(default_factory=list)
    totals: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "from": self.start.isoformat(),
            "to": self.end.isoformat(),
            "days": self.days,
            "totals": self.totals,
        }

    def to_csv(self) -> str:
        """The day rows as CSV (a header, then one line a row), amounts as decimal text."""
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(COLUMNS)
        for row in self.days:
            writer.writerow(
                [
                    ""
                    if row[c] is None
                    else row[c]["amount"]
                    if isinstance(row[c], dict)
                    # booleans as true/false, like the JSON
                    else str(row[c]).lower()
                    if isinstance(row[c], bool)
                    else row[c]
                    for c in COLUMNS
                ]
            )
        return buffer.getvalue()

    def flagged(self) -> list[dict[str, Any]]:
        """The period totals whose realised RTP lies outside its 99% band."""
        return [row for row in self.totals if row["in_band"] is False]


def _contributing_games(titles: Mapping[str, Title]) -> dict[str, list[Any]]:
    """The titles a mechanic of which pays into jackpots from the stake, with each such
    mechanic's ``jackpot_contribution(view, bet_minor)`` (its server face's)."""
    found: dict[str, list[Any]] = {}
    for game, title in titles.items():
        readers = [
            face.jackpot_contribution
            for m in mechanics.declared(title.model.raw)
            if m.server is not None and hasattr(face := m.server_face(), "jackpot_contribution")
        ]
        if readers:
            found[game] = readers
    return found


def daily_report(
    connection: Connection, titles: Mapping[str, Title], start: date, end: date
) -> Report:
    """The report of the days ``start`` to ``end`` (UTC, both included); see the module's
    account of every figure."""
    params = {"start": _ms(start), "end": _ms(end + timedelta(days=1))}
    sums: dict[Key, _Sums] = defaultdict(_Sums)

    def key_of(row: Any) -> Key:
        day = date(1970, 1, 1) + timedelta(days=int(row.day))
        return (
            day.isoformat(),
            str(row.game),
            str(row.variant),
            str(row.model_hash or ""),  # "" sorts with the hashes; the row shows null
            str(row.market),
            str(row.currency),
        )

    for row in connection.execute(text(_ROUNDS), params):
        found = sums[key_of(row)]
        found.rounds += int(row.rounds)
        found.free_rounds += int(row.free_rounds or 0)
        found.forced_rounds += int(row.forced_rounds or 0)
        found.measured += int(row.measured or 0)
        found.stake += int(row.stake or 0)
        found.stake_sq += float(row.stake_sq or 0)
        found.returned += int(row.returned or 0)
    for row in connection.execute(text(_MONEY), params):
        found = sums[key_of(row)]
        amount = int(row.amount)
        if row.kind == "bet":
            found.bets += amount
        elif row.kind == "win":
            found.wins -= amount
        elif row.kind == "jackpot_win":
            found.jackpot_wins -= amount
        elif row.kind == "refund":
            found.refunds -= amount
        if row.free and row.kind in ("win", "jackpot_win"):
            found.free_round_wins -= amount
    for game, readers in _contributing_games(titles).items():
        # each round's view is read (its contributions are in it): streamed, never the period
        # at once
        streamed = text(_POT_ROUNDS).execution_options(stream_results=True, max_row_buffer=500)
        for row in connection.execute(streamed, {**params, "game": game}):
            view = json.loads(row.view)
            sums[key_of(row)].jackpot_contributions += sum(
                read(view, int(row.bet_minor)) for read in readers
            )
    report = Report(start, end)
    totals: dict[tuple[str, str, str, str, str], _Sums] = defaultdict(_Sums)
    for key in sorted(sums):
        figures = theoretical(titles, key[1], key[2], key[3] or None)
        report.days.append(_row(key, sums[key], figures))
        totals[key[1:]].add(sums[key])
    for total_key in sorted(totals):
        figures = theoretical(titles, total_key[0], total_key[1], total_key[2] or None)
        report.totals.append(_row(total_key, totals[total_key], figures))
    return report


def monitor(report: Report) -> dict[str, Any]:
    """The RTP monitor's answer: ``ok`` false when a title's realised RTP over the period
    left its 99% band (each such total listed in ``flagged``)."""
    flagged = report.flagged()
    checked = [row for row in report.totals if row["in_band"] is not None]
    return {
        "ok": not flagged,
        "from": report.start.isoformat(),
        "to": report.end.isoformat(),
        "checked": len(checked),
        "flagged": [
            {
                key: row[key]
                for key in (
                    "game",
                    "variant",
                    "model_hash",
                    "market",
                    "currency",
                    "rtp_rounds",
                    "rtp",
                    "rtp_theoretical",
                    "rtp_band_low",
                    "rtp_band_high",
                )
            }
            for row in flagged
        ],
    }
