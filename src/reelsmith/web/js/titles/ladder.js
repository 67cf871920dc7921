/**
 * Any ladder title (the free-spins ladder with local pots, the server's `client: "ladder"`):
 * its bet sizes, the panels the presenters draw on (`presenters/pots.js`: a gem pot above each
 * reel for the current bet; `presenters/ladder.js`: the meter and the free-spins ladder), and
 * the round's view read back for a resumed round and the history. The round itself is drawn
 * by the presenters from its events; what this script knows comes from the rules page (grid,
 * paylines, pots and their names, levels) and the game list's `ladder` entry (the bonus and
 * gem symbols, the meter's spots and what fills one).
 *
 * A title's look is its art (`ladder-art.js`, chosen by game id, plain tiles without it); a
 * pot's colour is its art's, else its stylesheet's `.pot-<pot>`.
 */
import { symbolSvg } from '../art/sprite.js';
import { label } from '../dom.js';
import { t } from '../messages.js';
import { LadderPanel } from '../presenters/ladder.js';
import { PotsPanel } from '../presenters/pots.js';
import { Stepper } from '../stepper.js';
import { ladderArt } from './ladder-art.js';
import { stillScreen } from './screen.js';

export class LadderUi {
  constructor(game) {
    this.game = game;
    this.money = game.money;
    const doc = game.rules;
    const ladder = game.info.ladder;
    if (!ladder) throw new Error(`the game list gives the ladder title ${game.id} no ladder entry`);
    this.bonus = ladder.bonus_symbol;
    this.gem = ladder.gem_symbol;
    this.spots = ladder.spots;
    this.meterFeed = ladder.meter_feed;
    this.wild = doc.symbols.find((s) => s.role === 'wild')?.id;
    const { theme, art } = ladderArt(game.id, doc, this.gem);
    this.theme = theme;
    this.art = art;
    this.filler = art.filler ?? doc.symbols.map((s) => s.id);
    this.needsCarriedState = true;
    this.betStore = `reelsmith.bet.${game.id}`;
    this.names = Object.fromEntries(doc.symbols.map((s) => [s.id, s.name]));
    this.lines = doc.paylines.length;
    const pots = doc.rules.jackpots.pots;
    // one pot above each reel, in reel order (a ladder model's rule): a gem raises its reel's
    this.potIds = pots.map((p) => p.id);
    // the pots' names in the player's language, from the rules page
    this.potNames = Object.fromEntries(pots.map((p) => [p.id, p.pot]));
    this.levels = doc.rules.free_spins.levels;
    const maxStake = this.money.toMinor(game.market.max_stake);
    this.bets = game.gameMarket.bets.filter((b) => this.money.toMinor(b) <= maxStake);
    const saved = localStorage.getItem(this.betStore);
    const fallback = this.bets.includes(game.gameMarket.default_bet) ? game.gameMarket.default_bet : this.bets[0];
    this.current = this.bets.includes(saved) ? saved : fallback;
    this.onBetChange = () => {};
  }

  /** A gem is drawn in the colour of the pot above its reel. */
  cell(symbol, reel) {
    const pot = this.potIds[reel];
    return symbolSvg(this.theme, symbol === this.gem && pot ? this.gemOf(pot) : symbol);
  }

  /** The sprite of pot `pot`'s gem. */
  gemOf(pot) {
    return `${this.gem}-${pot}`;
  }

  name(symbol) {
    return this.names[symbol] ?? label(symbol);
  }

  potName(pot) {
    return this.potNames[pot] ?? label(pot);
  }

  /** The art's still screen, else `stillScreen`. */
  initialScreen() {
    return this.art.screen ?? stillScreen(this.game.rules, this.filler);
  }

  // -- bet ---------------------------------------------------------------------------

  bet() {
    return { bet: this.current };
  }

  betMinor() {
    return this.money.toMinor(this.current);
  }

  betFromRound(round) {
    return { bet: round.bet };
  }

  setBet(bet) {
    const amount = this.bets.find((b) => this.money.toMinor(b) === this.money.toMinor(bet.bet)) ?? bet.bet;
    this.current = amount;
    this.stepper.set(amount);
  }

  /** The market's bet sizes, ascending: the total-bet picker's list (js/betpicker.js). */
  betOptions() {
    return this.bets
      .map((bet) => ({ bet: { bet }, minor: this.money.toMinor(bet) }))
      .sort((a, b) => a.minor - b.minor);
  }

  /** Take `bet` as the player's choice (the total-bet picker): shown, kept, announced. */
  chooseBet(bet) {
    this.setBet(bet);
    localStorage.setItem(this.betStore, this.current);
    this.onBetChange();
  }

  mountControls(slot) {
    this.stepper = new Stepper({
      id: 'bet',
      label: t('game.bet'),
      values: this.bets,
      value: this.current,
      format: (v) => this.money.formatDecimal(v),
      onChange: (v) => {
        this.current = v;
        localStorage.setItem(this.betStore, v);
        this.onBetChange();
      },
    });
    slot.append(this.stepper.element);
  }

  setEnabled(on) {
    this.stepper?.setEnabled(on);
  }

  // -- the panels the presenters draw on (js/presenters/pots.js, ladder.js) ---------------

  mountFeature(top, side, overlay) {
    this.overlay = overlay;
    this.game.root.classList.add('title-ladder'); // the kind's layout (css/ladder.css)
    this.pots = new PotsPanel(this);
    this.pots.mount(top);
    this.ladder = new LadderPanel(this);
    this.ladder.mount(side);
  }

  applyCarried(carried) {
    this.pots.setPots(carried.pots_minor, carried.caps_minor);
    this.ladder.setMeter(carried.meter);
  }

  showRound(round) {
    this.pots.setPots(round.pots_minor, round.caps_minor);
    this.ladder.setMeter(round.meter);
    this.ladder.setLadder(round);
    this.ladder.level = round.level;
  }

  beforeSpin() {
    this.pots.clearWildReels();
  }

  afterRound(round) {
    this.pots.setPots(round.pots_minor, round.caps_minor);
    this.ladder.setMeter(round.meter);
    this.ladder.setLadder(null);
    this.ladder.level = 0;
    this.pots.clearWildReels();
  }

  /** As a reel lands, a gem on it raises its pot. */
  reelStopped(reel, stage) {
    this.pots.raise(reel, stage);
  }

  featureIntro(round) {
    return this.ladder.intro(round);
  }

  featureOutro(round) {
    return this.ladder.outro(round);
  }

  // -- the presenters' hooks (js/presenters/) --------------------------------------------

  /** The bonus symbol is the ladder's trigger: heard as it lands, anticipated in the main
   * game (three start the free spins; in them they fill levels). */
  triggerSymbol() {
    return this.bonus;
  }

  anticipates(kind) {
    return kind !== 'free';
  }

  // -- wins -----------------------------------------------------------------------------

  coinsMinor(coins, round) {
    return Math.round((coins * round.bet_minor) / this.lines);
  }

  roundWinMinor(round) {
    return round.win_minor;
  }

  spinWinMinor(spin, round) {
    return this.coinsMinor(spin.win_coins, round);
  }

  winItems(round) {
    const spin = round.spins?.at(-1);
    if (!spin) return [];
    const items = spin.line_wins.map((w) => ({
      line: w.line,
      positions: w.positions,
      minor: this.coinsMinor(w.coins, round),
      label: t('win.line', { line: w.line }),
      text: t(spin.multiplier > 1 ? 'win.line_text_multiplied' : 'win.line_text', { line: w.line, count: w.count, symbol: this.name(w.symbol), amount: this.money.format(this.coinsMinor(w.coins, round)), multiplier: spin.multiplier }),
    }));
    for (const gem of spin.gems.filter((g) => g.reveal === 'jackpot')) {
      items.push({
        positions: [[gem.row, gem.reel - 1]],
        minor: gem.jackpot_bets * round.bet_minor,
        label: t('feature.jackpot_won', { pot: this.potName(gem.jackpot) }),
        text: t('ladder.jackpot_pays', { pot: this.potName(gem.jackpot), amount: this.money.format(gem.jackpot_bets * round.bet_minor) }),
      });
    }
    return items;
  }

  lastScreen(round) {
    return round.spins.at(-1).screen;
  }
}
