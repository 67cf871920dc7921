"""The card gamble: guess the colour (x2) or the suit (x4) of a card from a fair 52-card deck.

Each gamble draws one card uniformly (one draw below 52: rank = value % 13, suit = value // 13,
so every colour has probability 1/2 and every suit 1/4; the gamble's return is exactly 100%).
"""

from __future__ import annotations

from dataclasses import dataclass

from reelsmith.rng import RandomSource

SUITS = ("hearts", "diamonds", "clubs", "spades")
COLOURS = ("red", "black")
SUIT_COLOUR = {"hearts": "red", "diamonds": "red", "clubs": "black", "spades": "black"}
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
CHOICES = COLOURS + SUITS
DECK_SIZE = 52


@dataclass(frozen=True, slots=True)
class Card:
    rank: str
    suit: str

    @property
    def colour(self) -> str:
        return SUIT_COLOUR[self.suit]

    def __str__(self) -> str:
        return f"{self.rank} of {self.suit}"

    @classmethod
    def from_index(cls, index: int) -> Card:
        if not 0 <= index < DECK_SIZE:
            raise ValueError(f"card index {index} is outside 0..51")
        return cls(RANKS[index % 13], SUITS[index // 13])

    @classmethod
    def parse(cls, text: str) -> Card:
        rank, _, suit = text.partition(" of ")
        if rank not in RANKS or suit not in SUITS:
            raise ValueError(f"not a card: {text!r}")
        return cls(rank, suit)


def draw_card(rng: RandomSource) -> Card:
    return Card.from_index(rng.randbelow(DECK_SIZE, "gamble_card"))


def is_colour(choice: str) -> bool:
    return choice in COLOURS


def guessed(choice: str, card: Card) -> bool:
    if choice in COLOURS:
        return card.colour == choice
    if choice in SUITS:
        return card.suit == choice
    raise ValueError(f"not a gamble choice: {choice!r}")
