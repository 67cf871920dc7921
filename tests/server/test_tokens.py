"""Session tokens: a token's signature is checked once and its claims kept, but the expiry is
checked on every use, a refusal is never kept, and a token is only good for its own key."""

from __future__ import annotations

import pytest

from reelsmith.server import tokens


def test_a_kept_token_still_expires():
    token = tokens.sign("key", tokens.Claims("player", "session", 1_000))
    assert tokens.verify("key", token, 999).player_id == "player"
    assert tokens.verify("key", token, 999).session_id == "session"
    with pytest.raises(tokens.TokenError) as refused:
        tokens.verify("key", token, 1_000)
    assert refused.value.code == "session_expired"


def test_a_token_is_good_only_for_the_key_that_signed_it():
    token = tokens.sign("key", tokens.Claims("player", "session", 10**15))
    assert tokens.verify("key", token, 0).player_id == "player"  # checked, and kept
    for _ in range(2):  # refused each time, under another key
        with pytest.raises(tokens.TokenError) as refused:
            tokens.verify("another key", token, 0)
        assert refused.value.code == "invalid_token"


def test_a_tampered_token_is_refused_every_time():
    token = tokens.sign("key", tokens.Claims("player", "session", 10**15))
    body, signature = token.split(".")
    other = tokens.sign("key", tokens.Claims("someone-else", "session", 10**15))
    tampered = f"{other.split('.')[0]}.{signature}"
    for _ in range(2):
        with pytest.raises(tokens.TokenError) as refused:
            tokens.verify("key", tampered, 0)
        assert refused.value.code == "invalid_token"
    with pytest.raises(tokens.TokenError):
        tokens.verify("key", f"{body}.", 0)


@pytest.mark.parametrize(
    "spoil",
    [
        lambda body, sig: f"{body}!.{sig}",  # a character outside the alphabet
        lambda body, sig: f"{body}.{sig}*",
        lambda body, sig: f"{body}\n.{sig}",
        lambda body, sig: f"{body}.{sig}=",  # padding: the tokens carry none
        lambda body, sig: f"{body[:5]}+{body[6:]}.{sig}",  # the standard alphabet's + and /
        lambda body, sig: f"{body}.{sig[:-1]}{'p' if sig[-1] != 'p' else 'q'}",  # stray bits
    ],
)
def test_tokens_are_decoded_strictly(spoil):
    """Regression: the standard decoder skipped characters outside the alphabet, so a token
    with junk in it still verified."""
    token = tokens.sign("k", tokens.Claims("player", "session", 10**13))
    body, signature = token.split(".")
    assert tokens.verify("k", token, 0).player_id == "player"
    with pytest.raises(tokens.TokenError) as caught:
        tokens.verify("k", spoil(body, signature), 0)
    assert caught.value.code == "invalid_token"
