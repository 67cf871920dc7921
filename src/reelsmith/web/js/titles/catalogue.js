/**
 * Any catalogue title (a model file alone on the server): paylines / coins per line / coin
 * size, the trigger symbols landing, revealed awards, free spins with their counter and
 * multiplier (retriggers add to it), line and scatter wins, and the gamble where the title has
 * one. Everything shown comes from the round's events and the rules page: the round's logic
 * and controls live here once, for every catalogue title.
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
import { announce, h, label, sleep } from '../dom.js';
import { t } from '../messages.js';
import { sceneLine, sceneTitle } from '../scenes.js';
import { Stepper } from '../stepper.js';
import { catalogueArt } from './catalogue-art.js';
import { GambleScreen } from './gamble.js';
import { freeSpinsOutro } from './outro.js';
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

/** Trigger cells in reel order, then row: the order their reveals are drawn in. */
const inReelOrder = (a, b) => a[1] - b[1] || a[0] - b[0];

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
    this.counter = h(
      'div',
      { class: 'fs-counter', id: 'free-spins', hidden: true },
      h('span', { class: 'fs-title' }, t('fs.title')),
      h(
        'span',
        { class: 'fs-figures' },
        h('span', { class: 'fs-left' }, h('b', { id: 'free-spins-left', 'data-count': '0' }, '0'), t('fs.left')),
        h('span', { class: 'fs-of' }, t('fs.of'), h('b', { id: 'free-spins-total' }, '0')),
        h('span', { class: 'fs-plus', id: 'free-spins-plus', 'aria-live': 'polite' }),
      ),
      h('span', { class: 'fs-multiplier', id: 'free-spins-multiplier', hidden: true }),
      h('span', { class: 'fs-win' }, `${t('fs.won')} `, h('output', { id: 'free-spins-win', 'data-minor': '0' }, this.money.format(0))),
    );
    side.append(this.counter);
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

  setCounter(round, { plus = '' } = {}) {
    const active = round && round.free_spins_awarded > 0;
    this.counter.hidden = !active;
    this.game.root.classList.toggle('in-free-spins', Boolean(active));
    if (!active) return;
    // The counter's win is the round's, as the Win meter shows it: the trigger's win included.
    this.renderCounter({
      left: round.free_spins_remaining,
      total: round.free_spins_awarded,
      winMinor: round.spin_win_coins * round.coin_size_minor,
      multiplier: round.free_spins_multiplier,
      plus,
    });
  }

  renderCounter({ left, total, winMinor, multiplier = 1, plus = '' }) {
    this.counter.hidden = false;
    const leftEl = this.counter.querySelector('#free-spins-left');
    leftEl.textContent = this.money.count(left);
    leftEl.dataset.count = String(left);
    this.counter.querySelector('#free-spins-total').textContent = this.money.count(total);
    const times = this.counter.querySelector('#free-spins-multiplier');
    times.hidden = !(multiplier > 1);
    times.textContent = `×${multiplier}`;
    times.setAttribute('aria-label', t('fs.multiplier_label', { multiplier }));
    const win = this.counter.querySelector('#free-spins-win');
    win.textContent = this.money.format(winMinor);
    win.dataset.minor = String(winMinor);
    const pop = this.counter.querySelector('#free-spins-plus');
    pop.textContent = plus;
    pop.classList.remove('pop');
    if (plus) {
      void pop.offsetWidth;
      pop.classList.add('pop');
    }
  }

  hideCounter() {
    this.counter.hidden = true;
    this.game.root.classList.remove('in-free-spins');
  }

  beforeSpin() {
    if (this.offer) this.offer.hidden = true;
    if (!this.game.round || this.game.round.phase !== 'free_spins') this.hideCounter();
  }

  /** The cells of the symbols that trigger free spins: the scatter's, else the bonus's. */
  triggerCells(spin) {
    if (this.scatter) return this.spinField(spin, 'scatter_positions');
    const cells = [];
    spin.screen.forEach((row, r) => row.forEach((symbol, reel) => this.bonus.includes(symbol) && cells.push([r, reel])));
    return cells;
  }

  // -- the presenters' hooks (js/presenters/) --------------------------------------------

  /** Free spins awarded (`free_spins_awarded`): a base screen's revealed awards drawn one by
   * one, or a free screen's retrigger badges and the counter's "+n". */
  async freeSpinsAwarded(event, stage) {
    const { game } = this;
    const { round, spin } = stage;
    const ordered = [...this.triggerCells(spin)].sort(inReelOrder);
    if (spin.kind === 'base' && event.reveals.length) {
      await this.reveal(round, { ...spin, reveals: event.reveals }, ordered);
      stage.counted = true;
    } else if (spin.kind === 'free') {
      const added = { ...spin, spins_added: event.spins };
      for (const [row, reel, text] of this.retriggerBadges(added, ordered)) game.grid.badge(row, reel, text, this.marks.extra);
      this.setCounter(round, { plus: `+${event.spins}` });
      game.sound.play('extraSpin');
      announce(t('fs.extra', { count: event.spins }));
      await sleep(game.motion.ms('reveal'));
      stage.counted = true;
    }
  }

  /** The screen is paid (`spin_won`): the counter shows the round as it stands. */
  spinSettled(stage) {
    if (!stage.counted) this.setCounter(stage.round);
  }

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

  /** A revealed award: each trigger symbol shows its spins, counted into the total. */
  async reveal(round, spin, cells) {
    const { game } = this;
    const ms = game.motion.ms('reveal');
    let total = 0;
    this.renderCounter({ left: 0, total: 0, winMinor: 0, multiplier: round.free_spins_multiplier });
    for (let i = 0; i < spin.reveals.length && i < cells.length; i += 1) {
      await sleep(ms);
      const [row, reel] = cells[i];
      const value = spin.reveals[i];
      total += value;
      game.sound.play('reveal', { n: i });
      const badge = game.grid.badge(row, reel, String(value), this.marks.reveal);
      const name = this.say('revealBadge', { count: value });
      if (name) badge?.setAttribute('aria-label', name);
      this.renderCounter({ left: total, total, winMinor: 0, multiplier: round.free_spins_multiplier, plus: `+${value}` });
    }
    this.setCounter(round);
    const revealed = this.say('revealed', { reveals: spin.reveals.join(', '), count: round.free_spins_awarded });
    if (revealed) announce(revealed);
    await sleep(ms);
  }

  // -- feature scenes ---------------------------------------------------------------------

  triggerSymbol() {
    return this.scatter ?? this.bonus[0] ?? null;
  }

  /** The trigger symbols a screen shows (the view's count, else its trigger cells'). */
  triggerCount(spin) {
    return this.spinField(spin, 'triggers') ?? this.triggerCells(spin).length;
  }

  /** The free spins won: the trigger symbols, the count and the multiplier; press Start. */
  async featureIntro(round) {
    const spin = round.spins[0];
    const symbol = this.triggerSymbol();
    const shown = Math.min(this.triggerCount(spin), 6);
    const art = symbol
      ? h('div', { class: 'scene-eggs' }, ...Array.from({ length: shown }, (_, i) =>
          h('div', { class: 'scene-egg', html: symbolSvg(this.theme, symbol) },
            spin.reveals[i] ? h('span', { class: 'scene-egg-value' }, String(spin.reveals[i])) : null)))
      : null;
    const multiplier = round.free_spins_multiplier;
    const reveals = spin.reveals.length ? this.say('introReveals', { reveals: spin.reveals.join(' + ') }) : null;
    await this.game.scenes.run({
      id: 'free-spins-intro',
      cls: `scene-feature theme-${this.theme}`,
      data: multiplier === undefined ? { spins: round.free_spins_awarded } : { spins: round.free_spins_awarded, multiplier },
      parts: [
        art,
        sceneTitle(t('fs.intro_title', { count: round.free_spins_awarded })),
        reveals ? sceneLine(reveals) : null,
        multiplier > 1 ? sceneLine(t('fs.intro_multiplier', { multiplier }), 'intro-multiplier') : null,
      ].filter(Boolean),
      button: t('scene.start'),
      sound: 'featureIntro',
    });
    this.setCounter(round);
  }

  /** The free spins are over: the outro (`freeSpinsOutro`), then the counter goes away. */
  async featureOutro(round) {
    const size = round.coin_size_minor;
    const total = round.spin_win_coins * size;
    const freeWin = round.free_spins_win_coins * size;
    await freeSpinsOutro(this, { total, freeWin, betMinor: round.bet_minor, spins: round.spins.length - 1 });
    this.hideCounter();
  }

  showRound(round) {
    this.setCounter(round);
    const spin = round.spins.at(-1);
    if (spin?.kind === 'base' && spin.reveals.length) {
      const cells = [...this.triggerCells(spin)].sort(inReelOrder);
      cells.forEach(([row, reel], i) => spin.reveals[i] && this.game.grid.badge(row, reel, String(spin.reveals[i]), this.marks.reveal));
    }
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
    const triggers = this.triggerCount(spin);
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
    this.hideCounter();
  }
}
