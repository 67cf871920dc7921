/**
 * Any catalogue title (a model file alone on the server, whatever mechanics it composes: lines
 * or ways, cascades, scatters, free spins, the gamble): its bet controls (paylines where the
 * player chooses them, coins per line, coin size), the free-spins panel it mounts
 * (`presenters/free-spins.js`), the gamble offer where the title has one, and the round's view
 * read back for a resumed round and the history. The round itself is drawn by the presenters
 * (`presenters/`), one per event kind: nothing here asks what a title composes.
 *
 * A title's art and theme (`catalogue-art.js`) only draw it. A title whose art needs more than
 * a symbol file (Days of the Tsar, `tsar.js`) extends this class and sets these hooks, never
 * a rule:
 *
 *   loadArt(rules)      -> {theme, art}: the sprites' and CSS theme's name and the art
 *                          (`art.filler` spins on the reels; `art.hero` is the lobby's).
 *                          Default: the title's art file, or plain tiles (`catalogueArt`).
 *   frameClass          the game root's class for the shared catalogue look
 *                          (`title-catalogue`); null for a title with a stylesheet of its own.
 *   marks               the CSS classes of a trigger symbol landed (`landed`), of its
 *                          revealed award (`reveal`) and of the spins a retrigger adds (`extra`).
 *   spinKeys            the round view's names of a screen's keys where the model's `[view]`
 *                          renames them (`{scatter_positions: 'egg_positions'}`).
 *   words               message keys for what a title words its own way: a reveal badge's
 *                          name (`revealBadge`), the reveals announced (`revealed`), the intro's
 *                          line (`introReveals`), the history's notes (`historyReveals`,
 *                          `historyTrigger`, `historyRetrigger`); each gets `{count, reveals,
 *                          symbol, triggers}`; null says nothing.
 *   initialScreen()     the still screen before the first spin.
 *   retriggerBadges(spin, cells) -> [[row, reel, text]]: where the spins a retrigger adds
 *                          are shown (default: their number on the last trigger symbol).
 */
import { symbolSvg } from '../art/sprite.js';
import { h, label } from '../dom.js';
import { t } from '../messages.js';
import { FreeSpinsPanel } from '../presenters/free-spins.js';
import { Stepper } from '../stepper.js';
import { catalogueArt } from './catalogue-art.js';
import { GambleScreen } from './gamble.js';
import { stillScreen } from './screen.js';

/** The catalogue's own words (message keys); see `words` above. */
const WORDS = {
  revealBadge: null,
  revealed: 'catalogue.reveals',
  introReveals: null,
  historyReveals: 'history.reveals',
  historyTrigger: 'history.trigger',
  historyRetrigger: 'history.retrigger',
};

export class CatalogueUi {
  constructor(game) {
    this.game = game;
    this.money = game.money;
    const doc = game.rules;
    this.frameClass = 'title-catalogue';
    this.marks = { landed: 'scatter-landed', reveal: 'scatter-reveal', extra: 'scatter-extra' };
    this.spinKeys = {};
    this.words = { ...WORDS };
    const { theme, art } = this.loadArt(doc);
    this.theme = theme;
    this.art = art;
    this.filler = art.filler ?? doc.symbols.map((s) => s.id);
    this.needsCarriedState = false;
    this.betStore = `reelsmith.bet.${game.id}`;
    this.names = Object.fromEntries(doc.symbols.map((s) => [s.id, s.name]));
    this.scatter = doc.scatter?.symbol ?? null;
    this.bonus = doc.symbols.filter((s) => s.role === 'bonus').map((s) => s.id);
    this.hasGamble = Boolean(doc.rules.gamble);
    const bets = doc.rules.bets;
    this.limits = bets;
    this.coinSizes = game.gameMarket.coin_sizes;
    this.maxStakeMinor = this.money.toMinor(game.market.max_stake);
    const saved = this.loadBet();
    const fallbackSize = this.coinSizes.includes(bets.default.coin_size) ? bets.default.coin_size : this.coinSizes[0];
    this.current = {
      lines: this.within(saved?.lines, bets.lines) ?? bets.default.lines,
      coins_per_line: this.within(saved?.coins_per_line, bets.coins_per_line) ?? bets.default.coins_per_line,
      coin_size: this.coinSizes.includes(saved?.coin_size) ? saved.coin_size : fallbackSize,
    };
    if (this.totalMinor(this.current) > this.maxStakeMinor) {
      this.current = { lines: bets.default.lines, coins_per_line: 1, coin_size: this.coinSizes[0] };
    }
    this.onBetChange = () => {};
  }

  /** The title's art and theme, installed (a hook: see the top of this file). */
  loadArt(doc) {
    return catalogueArt(this.game.id, doc.symbols);
  }

  /** A screen's `key` (the catalogue's name) in the round's view, under the title's name. */
  spinField(spin, key) {
    return spin[this.spinKeys[key] ?? key];
  }

  /** The text of `words[word]` with `params`, or null where the title says nothing. */
  say(word, params) {
    const key = this.words[word];
    return key ? t(key, params) : null;
  }

  within(value, { min, max }) {
    return Number.isInteger(value) && value >= min && value <= max ? value : null;
  }

  loadBet() {
    try {
      return JSON.parse(localStorage.getItem(this.betStore) || 'null');
    } catch {
      return null;
    }
  }

  cell(symbol) {
    return symbolSvg(this.theme, symbol);
  }

  name(symbol) {
    return this.names[symbol] ?? label(symbol);
  }

  /** A still screen before the first spin (`stillScreen`). */
  initialScreen() {
    return stillScreen(this.game.rules, this.filler);
  }

  // -- bet ---------------------------------------------------------------------------

  totalMinor(bet) {
    return bet.lines * bet.coins_per_line * this.money.toMinor(bet.coin_size);
  }

  bet() {
    return { ...this.current };
  }

  betMinor() {
    return this.totalMinor(this.current);
  }

  betFromRound(round) {
    const { lines, coins_per_line: cpl, coin_size: size } = round.bet;
    return { lines, coins_per_line: cpl, coin_size: size };
  }

  setBet(bet) {
    this.current = { lines: bet.lines, coins_per_line: bet.coins_per_line, coin_size: String(bet.coin_size) };
    this.linesStepper.set(this.current.lines);
    this.coins.set(this.current.coins_per_line);
    this.size.set(this.current.coin_size);
    this.refreshSteppers();
  }

  /** Every bet with all paylines played, one per total (the fewest coins per line), within
   * the maximum stake, ascending: the total-bet picker's list (js/betpicker.js). */
  betOptions() {
    const lines = this.limits.lines.max;
    const byTotal = new Map();
    for (let coins = this.limits.coins_per_line.min; coins <= this.limits.coins_per_line.max; coins += 1) {
      for (const size of this.coinSizes) {
        const bet = { lines, coins_per_line: coins, coin_size: String(size) };
        const minor = this.totalMinor(bet);
        if (minor <= this.maxStakeMinor && !byTotal.has(minor)) byTotal.set(minor, { bet, minor });
      }
    }
    return [...byTotal.values()].sort((a, b) => a.minor - b.minor);
  }

  /** Take `bet` as the player's choice (the total-bet picker): shown, kept, announced. */
  chooseBet(bet) {
    this.setBet(bet);
    localStorage.setItem(this.betStore, JSON.stringify(this.current));
    this.onBetChange();
  }

  changed(key, value, { showLines = false } = {}) {
    this.current[key] = value;
    localStorage.setItem(this.betStore, JSON.stringify(this.current));
    this.refreshSteppers();
    if (showLines) {
      this.game.grid.showPaylines(Array.from({ length: this.current.lines }, (_, i) => i + 1));
      clearTimeout(this.linesTimer);
      this.linesTimer = setTimeout(() => this.game.grid.clearLines(), 1200);
    }
    this.onBetChange();
  }

  fits(change) {
    return this.totalMinor({ ...this.current, ...change }) <= this.maxStakeMinor;
  }

  mountControls(slot) {
    const range = ({ min, max }) => Array.from({ length: max - min + 1 }, (_, i) => min + i);
    this.linesStepper = new Stepper({
      id: 'lines',
      label: t('bet.paylines'),
      values: range(this.limits.lines),
      value: this.current.lines,
      format: (v) => String(v),
      allowed: (v) => this.fits({ lines: v }),
      onChange: (v) => this.changed('lines', v, { showLines: true }),
    });
    this.coins = new Stepper({
      id: 'coins',
      label: t('bet.coins_per_line'),
      values: range(this.limits.coins_per_line),
      value: this.current.coins_per_line,
      format: (v) => String(v),
      allowed: (v) => this.fits({ coins_per_line: v }),
      onChange: (v) => this.changed('coins_per_line', v),
    });
    this.size = new Stepper({
      id: 'coin-size',
      label: t('bet.coin_size'),
      values: this.coinSizes,
      value: this.current.coin_size,
      format: (v) => this.money.formatDecimal(v),
      allowed: (v) => this.fits({ coin_size: v }),
      onChange: (v) => this.changed('coin_size', v),
    });
    // a title whose every bet plays the same lines (a ways title's cost) offers no choice
    this.linesStepper.element.hidden = this.limits.lines.min === this.limits.lines.max;
    slot.append(this.linesStepper.element, this.coins.element, this.size.element);
  }

  refreshSteppers() {
    for (const s of [this.linesStepper, this.coins, this.size]) s?.render();
  }

  setEnabled(on) {
    for (const s of [this.linesStepper, this.coins, this.size]) s?.setEnabled(on);
  }

  applyCarried() {}

  // -- feature panels ------------------------------------------------------------------

  mountFeature(_top, side, overlay) {
    this.overlay = overlay;
    if (this.frameClass) this.game.root.classList.add(this.frameClass);
    this.freeSpins = new FreeSpinsPanel(this);
    this.freeSpins.mount(side);
    if (this.hasGamble) {
      this.offer = h(
        'div',
        { class: 'gamble-offer', id: 'gamble-offer', hidden: true },
        h('span', { class: 'gamble-offer-text' }, t('gamble.offer')),
        h('button', { type: 'button', id: 'gamble', class: 'btn btn-accent', onclick: () => this.openGamble() }, t('gamble.title')),
        h('button', { type: 'button', id: 'collect-offer', class: 'btn', onclick: () => this.game.collect() }, t('gamble.collect')),
      );
      side.append(this.offer);
      this.gambleScreen = new GambleScreen(this.game, this, overlay);
    }
  }

  beforeSpin() {
    if (this.offer) this.offer.hidden = true;
    if (!this.game.round || this.game.round.phase !== 'free_spins') this.freeSpins.hide();
  }

  // -- the presenters' hooks (js/presenters/) --------------------------------------------

  /** The wild (its weight drawn per ways screen is shown on it). */
  wildSymbol() {
    return this.game.rules.symbols.find((s) => s.role === 'wild')?.id ?? null;
  }

  /** Where the spins a free spin's trigger symbols added are shown: their number on the
   * last of them (`cells` in reel order). */
  retriggerBadges(spin, cells) {
    const last = cells.at(-1);
    return last ? [[last[0], last[1], `+${spin.spins_added}`]] : [];
  }

  // -- feature scenes (the free-spins panel's, js/presenters/free-spins.js) ----------------

  featureIntro(round) {
    return this.freeSpins.intro(round);
  }

  featureOutro(round) {
    return this.freeSpins.outro(round);
  }

  showRound(round) {
    this.freeSpins.showRound(round);
  }


  triggerSymbol() {
    return this.scatter ?? this.bonus[0] ?? null;
  }

  // -- wins -----------------------------------------------------------------------------

  roundWinMinor(round) {
    if (round.phase === 'free_spins') return round.spin_win_coins * round.coin_size_minor;
    return round.win_minor;
  }

  spinWinMinor(spin, round) {
    return spin.win_coins * round.coin_size_minor;
  }

  /** A spin's last screen: a cascade's final one, else the screen it stopped on. */
  lastPaid(spin) {
    return spin.cascade?.length ? spin.cascade.at(-1) : spin;
  }

  /** The wins of a round's last screen, from the round's view (a resumed round and the
   * history, which have no events to play): lines, ways and the scatter. */
  winItems(round) {
    const spin = round.spins?.at(-1);
    return spin ? this.screenItems(this.lastPaid(spin), round) : [];
  }

  /** The wins of every screen of a round's last spin (a cascade's chain in order): what the
   * history tells of the spin. */
  chainItems(round) {
    const spin = round.spins?.at(-1);
    if (!spin) return [];
    return [spin, ...(spin.cascade ?? [])].flatMap((paid) => this.screenItems(paid, round));
  }

  /** The wins of one screen (a spin's, or a cascade step's) of `round`. */
  screenItems(paid, round) {
    const size = round.coin_size_minor;
    const items = (paid.line_wins ?? []).map((w) => ({
      line: w.line,
      positions: w.positions,
      minor: w.coins * size,
      label: t('win.line', { line: w.line }),
      text: t('win.line_text', { line: w.line, count: w.count, symbol: this.name(w.symbol), amount: this.money.format(w.coins * size) }),
    }));
    for (const w of paid.way_wins ?? []) {
      const ways = t('win.ways', { count: w.ways });
      items.push({
        positions: w.positions,
        minor: w.coins * size,
        label: `${w.count} × ${this.name(w.symbol)}`,
        text: t('win.way_text', { count: w.count, symbol: this.name(w.symbol), ways, amount: this.money.format(w.coins * size) }),
      });
    }
    for (const w of paid.count_wins ?? []) {
      items.push({
        positions: w.positions,
        minor: w.coins * size,
        label: `${w.count} × ${this.name(w.symbol)}`,
        text: t('win.count_text', { count: w.count, symbol: this.name(w.symbol), amount: this.money.format(w.coins * size) }),
      });
    }
    if (paid.scatter_win && this.scatter) {
      const name = this.name(this.scatter);
      items.push({
        positions: this.spinField(paid, 'scatter_positions'),
        minor: paid.scatter_win.coins * size,
        label: `${paid.scatter_win.count} × ${name}`,
        text: t('win.scatter_text', { count: paid.scatter_win.count, symbol: name, amount: this.money.format(paid.scatter_win.coins * size) }),
      });
    }
    return items;
  }

  lastScreen(round) {
    return this.lastPaid(round.spins.at(-1)).screen;
  }

  /** What the history says of a spin beyond its wins: reveals, spins added, the multiplier. */
  spinNotes(spin, view) {
    const symbol = this.name(this.triggerSymbol() ?? '');
    const triggers = this.freeSpins.triggerCount(spin);
    const notes = [];
    if (spin.reveals?.length) notes.push(this.say('historyReveals', { symbol, triggers, reveals: spin.reveals.join(' + '), count: view.free_spins_awarded }));
    else if (spin.kind === 'base' && spin.spins_added) notes.push(this.say('historyTrigger', { symbol, triggers, count: spin.spins_added }));
    if (spin.kind === 'free' && spin.spins_added) notes.push(this.say('historyRetrigger', { symbol, triggers, count: spin.spins_added }));
    if (spin.kind === 'free' && view.free_spins_multiplier > 1) notes.push(t('history.multiplier', { multiplier: view.free_spins_multiplier }));
    return notes.filter(Boolean);
  }

  // -- gamble (titles that have one) ------------------------------------------------------

  offerGamble(round, { resumed }) {
    if (!this.offer) return;
    const offered = round.actions_allowed.some((a) => a.startsWith('gamble '));
    this.offer.hidden = !offered;
    this.offer.querySelector('.gamble-offer-text').textContent = t('gamble.offer_amount', { amount: this.money.format(round.win_minor) });
    if (resumed && round.gambles.length) this.openGamble();
  }

  openGamble() {
    if (!this.gambleScreen || !this.game.round || this.game.round.phase !== 'gamble') return;
    this.offer.hidden = true;
    this.gambleScreen.open(this.game.round);
  }

  closeGamble() {
    if (!this.gambleScreen) return;
    this.offer.hidden = true;
    this.gambleScreen.close();
  }

  afterRound() {
    if (this.offer) this.offer.hidden = true;
    this.freeSpins.hide();
  }
}
