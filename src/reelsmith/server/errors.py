"""The refusals the server's parts raise, by kind, with no HTTP in them.

A refusal carries a stable ``code`` (what a client branches on), a ``message`` (for a person)
and extra fields that go into the answer beside them (``round_id``, ``autoplay``, ...). Its
class says what kind of refusal it is; `reelsmith.server.http_errors` is the one table that
turns a kind into an HTTP status.
"""

from __future__ import annotations


class DomainError(Exception):
    """A request refused, or a step that could not be done, with nothing written."""

    def __init__(self, code: str, message: str, **extra: object) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra = extra

    def body(self) -> dict[str, object]:
        return {"code": self.code, "message": self.message, **self.extra}


class InvalidInputError(DomainError):
    """The request itself is wrong: a field missing, malformed or out of range."""


class UnsupportedMediaError(InvalidInputError):
    """A body that is not declared as JSON."""


class BodyTooLargeError(DomainError):
    """A request body above the server's limit (refused before any route reads it)."""


class UnauthenticatedError(DomainError):
    """No credentials, wrong ones, or a session that is no longer live."""


class InsufficientBalanceError(DomainError):
    """The wallet does not cover the money the request moves."""


class NotAllowedError(DomainError):
    """The caller is known but may not do this (a game its market does not offer, autoplay
    where the market forbids it, a disabled player, dev-only input)."""


class NotFoundError(DomainError):
    """What the request names does not exist (or is not the caller's)."""


class ConflictError(DomainError):
    """The request is sound but the state refuses it now (a round open, a finished round, a
    key used for another request)."""


class RetryLaterError(DomainError):
    """Sound, but too soon: the same request may succeed after ``retry_after_ms``."""

    def __init__(self, code: str, message: str, retry_after_ms: int, **extra: object) -> None:
        super().__init__(code, message, retry_after_ms=retry_after_ms, **extra)
        self.retry_after_ms = retry_after_ms


class WalletUnavailableError(RetryLaterError):
    """The operator's wallet (seamless) gave no usable answer: nothing was played, and a bet
    it may have taken is rolled back. A new request may succeed once it answers again."""


class FaultError(DomainError):
    """Not the caller's doing: stored data that is unusable, or an engine failure. Logged
    where it is raised; nothing was applied."""


def not_found(what: str) -> NotFoundError:
    return NotFoundError("not_found", f"{what} was not found")


def remembered(refusal: DomainError) -> bool:
    """Whether an idempotency key remembers this refusal of its request's handler: every
    refusal decided once the key was claimed (the balance short, a round open or finished, a
    game not offered, a bet the market does not take, ...), so that a retry can never turn a
    refusal into a payment later; but not one that says to retry later (a minimum round
    duration) and not a fault (nothing was applied, and an operator may repair the cause)."""
    return not isinstance(refusal, (RetryLaterError, FaultError))
