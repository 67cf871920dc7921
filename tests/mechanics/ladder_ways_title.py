# ruff: noqa: E501 - the rules page's messages are one sentence a line, as a title's messages file has them
"""The test suite's ladder on ways: 3 reels x 3 rows paid by ways (27 ways, 10 coins a spin at a
multiplier of 1), a wild, a gem that raises the local pot above its reel, and a bonus symbol that
starts a three-level free-spins ladder and fills its meter, as Sultan Spins' tables are, made
small: small enough to play every stop combination, and every gem's reveal, through live play."""

from __future__ import annotations

from pathlib import Path

MODEL = """\
id = "ladder-ways"
name = "Ladder Ways"
description = "A 3 column, 3 row slot machine paid by ways with three local gem jackpots and a three-level free spins ladder."
reels = 3
rows = 3
default_variant = "main"

[[symbols]]
id = "wild"
name = "Wild"
role = "wild"

[[symbols]]
id = "lion"
name = "Lion"
role = "regular"

[[symbols]]
id = "cup"
name = "Cup"
role = "regular"

[[symbols]]
id = "ten"
name = "Ten"
role = "regular"

[[symbols]]
id = "bonus"
name = "Bonus"
role = "bonus"

[[symbols]]
id = "gem"
name = "Gem"
role = "gem"

[ways]
cost = 20
min_run = 2

[ways_pays]
lion = { 2 = 1, 3 = 10 }
cup = { 3 = 4 }
ten = { 3 = 2 }

[bet]
levels = [1, 2, 5]
default = 1

[[jackpots]]
name = "teal"
reel = 1
seed = 2
cap = 6

[[jackpots]]
name = "blue"
reel = 2
seed = 3
cap = 10

[[jackpots]]
name = "red"
reel = 3
seed = 5
cap = 20

[ladder]
symbol = "bonus"
trigger = 3
reel_set = "free_spins"
levels = 3
spins_per_level = 3
multipliers = [1, 2, 3]
spots = 3
meter_feed = 2
"""

VARIANT = """\
id = "main"

[reel_sets.base]
strips = [
  [
    "lion", "ten", "cup", "gem", "ten", "cup", "wild", "ten", "bonus", "cup",
    "ten", "lion", "cup", "ten", "cup", "bonus", "lion", "cup", "ten", "cup",
  ],
  [
    "cup", "ten", "bonus", "lion", "ten", "cup", "ten", "cup", "lion", "gem",
    "ten", "wild", "cup", "bonus", "lion", "cup", "ten", "cup", "ten",
  ],
  [
    "ten", "cup", "lion", "bonus", "ten", "cup", "ten", "lion", "cup", "ten",
    "cup", "gem", "ten", "cup", "wild", "ten", "cup", "lion", "ten", "bonus",
    "ten",
  ],
]

[reel_sets.free_spins]
strips = [
  [
    "lion", "ten", "bonus", "cup", "wild", "ten", "gem", "cup", "ten", "lion",
    "cup", "ten",
  ],
  [
    "cup", "gem", "ten", "lion", "wild", "cup", "bonus", "ten", "lion", "ten",
    "cup",
  ],
  [
    "ten", "lion", "cup", "bonus", "ten", "wild", "cup", "ten", "gem", "cup",
    "lion", "ten", "cup",
  ],
]

[rules]
version = 2

[gem_reveal]
outcomes = ["ten", "cup", "lion", "wild", "wild_reel"]
weights = [6, 5, 3, 2, 1]

[figures]
rtp = {rtp}
"""

MESSAGES_EN = """\
[pots]
teal = "Teal"
blue = "Blue"
red = "Red"

[ladder]
wild_reel = "Wild reel (the whole reel turns wild)"
x_bet = "{times}x bet"

[ladder.general]
machine = "“{name}” is a {reels} columns and {rows} rows slot machine with {ways} ways to win."
paytable = "Winning combinations and payouts are made according to the paytable."
line_bets = "Way pays are in line bets: the bet divided by {lines}, for each way."
locked = "Once a spin has been initiated, the bet size for that round is locked and cannot be changed."
free_spins_bet = "Free spins play at the bet that triggered them."
rtp = "The theoretical RTP (return to player) in this game is {rtp}%, jackpots included, over the long run."
malfunction = "Malfunction voids all pays and plays."
malfunction_state = "A round voided by a malfunction returns its bet, and the pots and the collection meter stay as they were before the round."
lowered = "If your balance decreases so it becomes lower than the selected bet size, the bet size will automatically be lowered to the highest applicable bet size."
lowered_market = "The applicable bet sizes are those your market offers."
top_line = "The highest combination, {count} {symbol} symbols, pays {coins} line bets for each way."
largest_pot = "The largest jackpot, the {pot} Gem Jackpot, pays at most {bets}x bet."

[ladder.wild]
substitutes = "The Wild symbol substitutes for all paying symbols on the reels for ways wins."
not_bonus_or_gem = "The Wild symbol does not substitute for the Bonus or Gem symbols."

[ladder.jackpots]
above_each_reel = "Above each reel is a Jackpot and landing a Gem symbol on the reel always increases the prize of the corresponding pot by the bet size."
colours = "The pots are teal, blue and red, above reels 1 to 3."
independent = "Jackpots are independent to each bet size."
kept = "Each bet size's pots are kept between rounds and sessions."
reveal = "Once the Jackpot has been updated the gem will reveal one of the following: Normal symbol, Wild symbol, Wild reel or Jackpot spin."
jackpot_spin = "The Jackpot Spin is played out on the main game area and once a Jackpot has been won that prize will reset to its seed value."
never_multiplied = "Jackpots are never multiplied."
before_a_point = "All jackpots need to be won before a certain point:"
must_be_won_before = "{pot} Gem Jackpot must be won before {cap}x bet"
trigger_point = "Each pot hides a trigger point drawn at random above its seed and below that point; the gem that takes the pot to it reveals the Jackpot Spin."
latest = "A pot grows by one bet per gem, so it is won at the latest one bet below that point: the {pot} Gem Jackpot pays at most {bets}x bet."
in_free_spins = "The jackpot feature is active in the free spins too."

[ladder.free_spins]
trigger = "{count} or more Bonus symbols are needed to trigger the free spin round."
unlock = "Collecting {spots} Bonus symbols in the free spin game will unlock a new level."
levels = "The free spins features {levels} different levels which need to be played consecutively."
level = "Level {level}: {spins} Free Spins with {multiplier}x Multiplier"
includes_jackpots = "The Free Spins include the Local Jackpot Feature, and the multipliers apply only to the ways wins."
next_level = "After a level's last spin the next level is played if it is unlocked; otherwise the free spins end."
carried = "Bonus Symbols that are collected in free spins, which don’t unlock a new level will be stored and carried into the main game."
main_game = "{count} Bonus symbols landing in the main game will award 1 of the {spots} collection spots needed to unlock a new level."
meter = "The collection meter belongs to your bet size and is kept between rounds. The free spins start with the meter as you left it: a full meter unlocks level 2 at once."
full_meter = "Once level {levels} is unlocked, Bonus symbols fill the meter up to full, and a full meter is carried into the main game; Bonus symbols beyond a full meter are not kept."

[ladder.bets]
sizes = "Bet sizes: {sizes}."
market_may_offer_fewer = "Your market may offer fewer bet sizes."
"""

MESSAGES_DE = """\
[pots]
teal = "Türkis"
blue = "Blau"
red = "Rot"

[ladder]
wild_reel = "Wild-Walze (die ganze Walze wird wild)"
x_bet = "{times}-facher Einsatz"

[ladder.general]
machine = "„{name}“ ist ein Spielautomat mit {reels} Walzen, {rows} Reihen und {ways} Gewinnwegen."
paytable = "Gewinnkombinationen und Auszahlungen richten sich nach der Gewinntabelle."
line_bets = "Gewinnwege zahlen in Linieneinsätzen: dem Einsatz geteilt durch {lines}, je Gewinnweg."
locked = "Sobald eine Drehung begonnen hat, ist der Einsatz dieser Runde festgelegt und kann nicht geändert werden."
free_spins_bet = "Freispiele laufen mit dem Einsatz, der sie ausgelöst hat."
rtp = "Die theoretische Auszahlungsquote (RTP) dieses Spiels beträgt auf lange Sicht {rtp}\u00a0%, Jackpots eingeschlossen."
malfunction = "Bei Fehlfunktionen werden alle Auszahlungen und Spiele ungültig."
malfunction_state = "Eine durch eine Fehlfunktion ungültige Runde erstattet ihren Einsatz, und die Jackpots und die Bonusanzeige bleiben, wie sie vor der Runde waren."
lowered = "Sinkt Ihr Guthaben unter den gewählten Einsatz, wird der Einsatz automatisch auf den höchsten möglichen Einsatz gesenkt."
lowered_market = "Möglich sind die Einsätze, die Ihr Markt anbietet."
top_line = "Die höchste Kombination, {count} {symbol}-Symbole, zahlt {coins} Linieneinsätze je Gewinnweg."
largest_pot = "Der größte Jackpot, der {pot}-Jackpot, zahlt höchstens das {bets}-Fache des Einsatzes."

[ladder.wild]
substitutes = "Das Wild-Symbol ersetzt für Gewinnwege alle zahlenden Symbole auf den Walzen."
not_bonus_or_gem = "Das Wild-Symbol ersetzt weder das Bonus- noch das Edelstein-Symbol."

[ladder.jackpots]
above_each_reel = "Über jeder Walze liegt ein Jackpot, und ein Edelstein-Symbol auf der Walze erhöht den Gewinn des zugehörigen Jackpots immer um den Einsatz."
colours = "Die Jackpots sind türkis, blau und rot, über den Walzen 1 bis 3."
independent = "Die Jackpots gelten jeweils für einen Einsatz."
kept = "Die Jackpots jedes Einsatzes bleiben zwischen Runden und Sitzungen erhalten."
reveal = "Nachdem der Jackpot erhöht wurde, zeigt der Edelstein eines der folgenden Ergebnisse: ein normales Symbol, ein Wild-Symbol, eine Wild-Walze oder den Jackpot-Dreh."
jackpot_spin = "Der Jackpot-Dreh wird auf der Hauptspielfläche ausgespielt, und sobald ein Jackpot gewonnen wurde, wird dieser Gewinn auf seinen Startwert zurückgesetzt."
never_multiplied = "Jackpots werden nie multipliziert."
before_a_point = "Alle Jackpots müssen vor einem bestimmten Punkt gewonnen werden:"
must_be_won_before = "Der {pot}-Jackpot muss vor dem {cap}-fachen Einsatz gewonnen werden"
trigger_point = "Jeder Jackpot verbirgt einen Auslösepunkt, zufällig gezogen über seinem Startwert und unter diesem Punkt; der Edelstein, der den Jackpot dorthin bringt, zeigt den Jackpot-Dreh."
latest = "Ein Jackpot wächst pro Edelstein um einen Einsatz und wird daher spätestens einen Einsatz unter diesem Punkt gewonnen: Der {pot}-Jackpot zahlt höchstens das {bets}-Fache des Einsatzes."
in_free_spins = "Das Jackpot-Feature ist auch in den Freispielen aktiv."

[ladder.free_spins]
trigger = "{count} oder mehr Bonus-Symbole lösen die Freispielrunde aus."
unlock = "Wer in den Freispielen {spots} Bonus-Symbole sammelt, schaltet eine neue Stufe frei."
levels = "Die Freispiele haben {levels} Stufen, die nacheinander gespielt werden."
level = "Stufe {level}: {spins} Freispiele mit {multiplier}-fachem Multiplikator"
includes_jackpots = "Die Freispiele enthalten das lokale Jackpot-Feature, und die Multiplikatoren gelten nur für Gewinnwege."
next_level = "Nach dem letzten Freispiel einer Stufe wird die nächste Stufe gespielt, wenn sie freigeschaltet ist; andernfalls enden die Freispiele."
carried = "In den Freispielen gesammelte Bonus-Symbole, die keine neue Stufe freischalten, werden gespeichert und ins Hauptspiel übernommen."
main_game = "{count} Bonus-Symbole im Hauptspiel bringen 1 der {spots} Sammelplätze, die für eine neue Stufe nötig sind."
meter = "Die Bonusanzeige gehört zu Ihrem Einsatz und bleibt zwischen Runden erhalten. Die Freispiele beginnen mit der Bonusanzeige, wie Sie sie verlassen haben: Eine volle Bonusanzeige schaltet sofort Stufe 2 frei."
full_meter = "Ist Stufe {levels} freigeschaltet, füllen Bonus-Symbole die Bonusanzeige bis zum Rand, und eine volle Bonusanzeige wird ins Hauptspiel übernommen; Bonus-Symbole über eine volle Bonusanzeige hinaus verfallen."

[ladder.bets]
sizes = "Einsätze: {sizes}."
market_may_offer_fewer = "Ihr Markt bietet möglicherweise weniger Einsätze an."
"""


def ladder_ways(folder: Path, *, rtp: str = "2.1481248172", model: str = MODEL) -> Path:
    """Write the title into ``folder`` (``rtp``: the figure its variant states)."""
    (folder / "variants").mkdir(parents=True)
    (folder / "model.toml").write_text(model, encoding="utf-8")
    (folder / "variants" / "main.toml").write_text(VARIANT.replace("{rtp}", rtp), encoding="utf-8")
    (folder / "messages.en.toml").write_text(MESSAGES_EN, encoding="utf-8")
    (folder / "messages.de.toml").write_text(MESSAGES_DE, encoding="utf-8")
    return folder
