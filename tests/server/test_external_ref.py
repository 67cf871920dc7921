"""An operator's player reference: kept in Unicode normal form C (two spellings of one text
are one player), and refused, with the character named, when it holds a control, format or
separator character (a newline, a terminal escape, a right-to-left override)."""

from __future__ import annotations

import unicodedata

import pytest

from reelsmith.server import inputs


def create(api, ref):
    return api.op(
        "POST", "/operator/players", {"external_ref": ref, "currency": "EUR", "market": "default"}
    )


def test_two_spellings_of_cafe_are_one_player(api):
    composed, combining = "caf\u00e9", "cafe\u0301"
    assert composed != combining
    first = create(api, combining)
    assert first.status_code == 201, first.text
    assert first.json()["external_ref"] == composed  # stored in normal form C
    second = create(api, composed)
    assert second.status_code == 409 and second.json()["code"] == "player_exists"
    assert second.json()["player_id"] == first.json()["id"]


@pytest.mark.parametrize(
    ("ref", "named"),
    [
        ("alice\nbob", "U+000A"),
        ("alice\r", "U+000D"),
        ("\x1b[31malice", "U+001B"),
        ("alice\u202egnp.exe", "U+202E (RIGHT-TO-LEFT OVERRIDE)"),
        ("al\u2066ice", "U+2066"),
        ("ali\u200bce", "U+200B (ZERO WIDTH SPACE)"),
        ("alice\u2028", "U+2028"),
        ("alice\tbob", "U+0009"),
    ],
)
def test_control_format_and_separator_characters_are_refused(api, ref, named):
    refused = create(api, ref)
    assert refused.status_code == 400, refused.text
    assert refused.json()["code"] == "invalid_external_ref"
    assert named in refused.json()["message"]


def test_the_length_is_counted_in_normal_form_c(api):
    # 128 letters with combining accents: 256 code points sent, 128 characters kept
    accented = "e\u0301" * 128
    made = create(api, accented)
    assert made.status_code == 201, made.text
    assert made.json()["external_ref"] == unicodedata.normalize("NFC", accented)
    too_long = create(api, "x" * 129)
    assert too_long.status_code == 400 and "1 to 128" in too_long.json()["message"]


def test_ordinary_references_in_any_script_are_kept():
    for ref in ("player-42", "Müller", "山田太郎", "علي", "o'brien@example.com", "a b"):
        assert inputs.external_ref(ref) == ref
