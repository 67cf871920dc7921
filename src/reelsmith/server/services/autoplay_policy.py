"""When an autoplay stops: a pure function of its limits, its counters and the step just
played. No database, no clock, no title: the autoplay service reads the step's outcome and
writes the verdict."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    """What the player (and the market) set the autoplay to stop on."""

    stop_on_feature: bool = False
    stop_on_jackpot: bool = False
    stop_on_win_above_minor: int | None = None
    loss_limit_minor: int | None = None


@dataclass(frozen=True)
class Step:
    """A round step played by the autoplay: ``bet_minor`` when it is the spin that started the
    round (None for a later step), whether it finished the round, whether it triggered a
    feature, and what it paid (``win_minor`` and ``jackpot_minor``, the round's whole pay
    when it finished it) or refunded."""

    bet_minor: int | None
    finished: bool
    feature_triggered: bool = False
    win_minor: int = 0
    jackpot_minor: int = 0
    refund_minor: int = 0


@dataclass(frozen=True)
class Counters:
    """Rounds left to start, and the net position (pays and refunds less bets) so far."""

    remaining: int
    net_minor: int


def count(counters: Counters, step: Step) -> Counters:
    """The counters after ``step``: the spin that starts a round counts it down and takes its
    bet from the net position; the step that finishes it adds what the round paid."""
    remaining, net = counters.remaining, counters.net_minor
    if step.bet_minor is not None:
        remaining -= 1
        net -= step.bet_minor
    if step.finished:
        net += step.win_minor + step.jackpot_minor + step.refund_minor
    return Counters(remaining, net)


def stop_reason(limits: Limits, after: Counters, step: Step) -> str | None:
    """Why an active autoplay ends with ``step`` (``after``: its counters counted with the
    step), or None if it goes on.

    A feature stops it on the spin that triggers it; a jackpot on the step that pays it. The
    step that finishes a round applies the other conditions to the round's whole win: a
    single win above the limit, then the loss limit (reached when the net loss is at least
    the limit), then the rounds all played (``rounds_done``, the one reason that is a
    finish rather than a stop)."""
    if step.bet_minor is not None and limits.stop_on_feature and step.feature_triggered:
        return "feature"
    if limits.stop_on_jackpot and step.jackpot_minor > 0:
        return "jackpot"
    if not step.finished:
        return None
    win = step.win_minor + step.jackpot_minor
    if limits.stop_on_win_above_minor is not None and win > limits.stop_on_win_above_minor:
        return "single_win_above"
    if limits.loss_limit_minor is not None and -after.net_minor >= limits.loss_limit_minor:
        return "loss_limit"
    if after.remaining <= 0:
        return "rounds_done"
    return None


def status_after(reason: str | None) -> str:
    """The autoplay's status once ``stop_reason`` answered ``reason``."""
    if reason is None:
        return "active"
    return "finished" if reason == "rounds_done" else "stopped"


def balance_changed(stop_on_balance_change: bool, left_minor: int | None, found_minor: int) -> bool:
    """Whether an autoplay that stops on a balance change finds a balance (``found_minor``)
    its own last step did not leave (``left_minor``): a deposit, a withdrawal, play outside
    it."""
    return stop_on_balance_change and left_minor is not None and left_minor != found_minor
