/**
 * Days of the Tsar: paylines / coins per line / coin size, the egg reveal that decides the
 * free spins, the free-spins counter (+1 per egg during free spins), and the gamble offer.
 */
import { symbolSvg } from '../art/sprite.js';
import { filler } from '../art/tsar-symbols.js';
import { tierOf } from '../celebration.js';
import { announce, h, sleep } from '../dom.js';
import { t } from '../messages.js';
import { sceneAmount, sceneArt, sceneLine, sceneTitle } from '../scenes.js';
import { Stepper } from '../stepper.js';
import { GambleScreen } from './tsar-gamble.js';

const BET_STORE = 'reelsmith.bet.days-of-the-tsar';

export class TsarUi {
  constructor(game) {
    this.game = game;
    this.money = game.money;
    this.theme = 'tsar';
    this.filler = filler;
    this.needsCarriedState = false;
    this.names = Object.fromEntries(game.rules.symbols.map((s) => [s.id, s.name]));
    const bets = game.rules.rules.bets;
    this.limits = bets;
    this.coinSizes = game.gameMarket.coin_sizes;
    this.maxStakeMinor = this.money.toMinor(game.market.max_stake);
    const saved = this.loadBet();
    this.current = {
      lines: saved?.lines ?? bets.default.lines,
      coins_per_line: saved?.coins_per_line ?? bets.default.coins_per_line,
      coin_size: this.coinSizes.includes(saved?.coin_size) ? saved.coin_size : this.coinSizes.includes(bets.default.coin_size) ? bets.default.coin_size : this.coinSizes[0],
    };
    if (this.totalMinor(this.current) > this.maxStakeMinor) {
      this.current = { lines: bets.default.lines, coins_per_line: 1, coin_size: this.coinSizes[0] };
    }
    this.onBetChange = () => {};
  }

  loadBet() {
    try {
      return JSON.parse(localStorage.getItem(BET_STORE) || 'null');
    } catch {
      return null;
    }
  }

  cell(symbol) {
    return symbolSvg('tsar', symbol);
  }

  name(symbol) {
    return this.names[symbol] ?? symbol;
  }

  initialScreen() {
    return [
      ['tsarina', 'cathedral', 'statue', 'royal_seal', 'king'],
      ['ace', 'tsar', 'egg', 'queen', 'cathedral'],
      ['jack', 'ten', 'nine', 'tsarina', 'statue'],
    ];
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
    this.lines.set(this.current.lines);
    this.coins.set(this.current.coins_per_line);
    this.size.set(this.current.coin_size);
    this.refreshSteppers();
  }

  changed(key, value, { showLines = false } = {}) {
    this.current[key] = value;
    localStorage.setItem(BET_STORE, JSON.stringify(this.current));
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
    this.lines = new Stepper({
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
    slot.append(this.lines.element, this.coins.element, this.size.element);
  }

  refreshSteppers() {
    for (const s of [this.lines, this.coins, this.size]) s?.render();
  }

  setEnabled(on) {
    for (const s of [this.lines, this.coins, this.size]) s?.setEnabled(on);
  }

  applyCarried() {}

  // -- feature panels ------------------------------------------------------------------

  mountFeature(_top, side, overlay) {
    this.overlay = overlay;
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
      h('span', { class: 'fs-win' }, `${t('fs.won')} `, h('output', { id: 'free-spins-win', 'data-minor': '0' }, this.money.format(0))),
    );
    this.offer = h(
      'div',
      { class: 'gamble-offer', id: 'gamble-offer', hidden: true },
      h('span', { class: 'gamble-offer-text' }, t('gamble.offer')),
      h('button', { type: 'button', id: 'gamble', class: 'btn btn-accent', onclick: () => this.openGamble() }, t('gamble.title')),
      h('button', { type: 'button', id: 'collect-offer', class: 'btn', onclick: () => this.game.collect() }, t('gamble.collect')),
    );
    side.append(this.counter, this.offer);
    this.gambleScreen = new GambleScreen(this.game, this, overlay);
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
      plus,
    });
  }

  renderCounter({ left, total, winMinor, plus = '' }) {
    this.counter.hidden = false;
    const leftEl = this.counter.querySelector('#free-spins-left');
    leftEl.textContent = this.money.count(left);
    leftEl.dataset.count = String(left);
    this.counter.querySelector('#free-spins-total').textContent = this.money.count(total);
    const win = this.counter.querySelector('#free-spins-win');
    win.textContent = this.money.format(winMinor);
    win.dataset.minor = String(winMinor);
    this.popPlus(plus);
  }

  popPlus(text) {
    const plus = this.counter.querySelector('#free-spins-plus');
    plus.textContent = text;
    plus.classList.remove('pop');
    if (text) {
      void plus.offsetWidth;
      plus.classList.add('pop');
    }
  }

  hideCounter() {
    this.counter.hidden = true;
    this.game.root.classList.remove('in-free-spins');
  }

  beforeSpin() {
    this.offer.hidden = true;
    if (!this.game.round || this.game.round.phase !== 'free_spins') this.hideCounter();
  }

  // -- presenting a spin ----------------------------------------------------------------

  async presentSpin(resp, { startedAt }) {
    const { game } = this;
    const round = resp.round;
    const spin = round.spins.at(-1);
    const eggReels = new Set(spin.egg_positions.map(([, reel]) => reel));
    let eggsLanded = 0;
    await game.grid.land(spin.screen, {
      startedAt,
      minSpinMs: game.motion.ms('minSpin'),
      gapMs: game.motion.ms('reelGap'),
      onReelStop: (reel) => {
        game.sound.play('reelStop', { reel });
        if (!eggReels.has(reel)) return;
        eggsLanded += 1;
        game.sound.play('scatter', { n: eggsLanded });
        const [row] = spin.egg_positions.find(([, r]) => r === reel);
        game.grid.cellAt(row, reel)?.classList.add('egg-landed');
      },
    });
    const eggs = [...spin.egg_positions].sort((a, b) => a[1] - b[1]);
    if (spin.kind === 'base' && spin.reveals.length) {
      await this.revealEggs(round, spin, eggs);
    } else if (spin.kind === 'free' && spin.spins_added) {
      for (const [row, reel] of eggs) game.grid.badge(row, reel, '+1', 'egg-extra');
      this.setCounter(round, { plus: `+${spin.spins_added}` });
      game.sound.play('extraSpin');
      announce(t('fs.extra', { count: spin.spins_added }));
      await sleep(game.motion.ms('reveal'));
    } else {
      this.setCounter(round);
    }
  }

  async revealEggs(round, spin, eggs) {
    const { game } = this;
    const ms = game.motion.ms('reveal');
    let total = 0;
    this.renderCounter({ left: 0, total: 0, winMinor: 0 });
    for (let i = 0; i < eggs.length; i += 1) {
      await sleep(ms);
      const [row, reel] = eggs[i];
      const value = spin.reveals[i];
      total += value;
      game.sound.play('reveal', { n: i });
      const badge = game.grid.badge(row, reel, String(value), 'egg-reveal');
      badge?.setAttribute('aria-label', t('tsar.egg_reveals', { count: value }));
      this.renderCounter({ left: total, total, winMinor: 0, plus: `+${value}` });
    }
    this.setCounter(round);
    announce(t('tsar.eggs_reveal', { reveals: spin.reveals.join(', '), count: round.free_spins_awarded }));
    await sleep(ms);
  }

  // -- feature scenes ---------------------------------------------------------------------

  /** The free spins won: the eggs and their numbers, the count; the player presses Start. */
  async featureIntro(round) {
    const spin = round.spins[0];
    const eggs = h(
      'div',
      { class: 'scene-eggs' },
      ...spin.reveals.map((value) =>
        h('div', { class: 'scene-egg', html: symbolSvg('tsar', 'egg') }, h('span', { class: 'scene-egg-value' }, String(value))),
      ),
    );
    await this.game.scenes.run({
      id: 'free-spins-intro',
      cls: 'scene-feature theme-tsar',
      data: { spins: round.free_spins_awarded },
      parts: [
        eggs,
        sceneTitle(t('fs.intro_title', { count: round.free_spins_awarded })),
        sceneLine(t('fs.intro_eggs', { reveals: spin.reveals.join(' + ') })),
      ],
      button: t('scene.start'),
      sound: 'featureIntro',
    });
    this.setCounter(round);
  }

  /** The free spins are over: the round's total, counted up; the player presses Continue. */
  async featureOutro(round) {
    const { game } = this;
    const size = round.coin_size_minor;
    const total = round.spin_win_coins * size;
    const freeWin = round.free_spins_win_coins * size;
    const trigger = total - freeWin;
    const amount = sceneAmount('free-spins-outro-amount');
    const tier = tierOf(total, round.bet_minor, game.presenter.tiers);
    const parts = [
      sceneTitle(t('fs.outro_title')),
      tier ? sceneLine(t(`win.tier_${tier.id}`), 'tier-title') : null,
      amount,
      sceneLine(
        t('fs.outro_spins', { count: round.spins.length - 1, amount: this.money.format(freeWin) }),
        'outro-free',
      ),
      trigger > 0 ? sceneLine(t('fs.outro_trigger', { amount: this.money.format(trigger) }), 'outro-trigger') : null,
    ].filter(Boolean);
    await game.scenes.run({
      id: 'free-spins-outro',
      cls: `scene-feature scene-outro theme-tsar${tier ? ` tier-${tier.id}` : ''}`,
      data: { total },
      parts,
      count: { el: amount, to: total, ms: total > 0 ? game.motion.ms('countUp') * 1.5 : 0 },
      button: t('scene.continue'),
      particles: total > 0,
      sound: 'featureOutro',
    });
    this.hideCounter();
  }

  showRound(round) {
    this.setCounter(round);
    const spin = round.spins.at(-1);
    if (spin?.kind === 'base' && spin.reveals.length) {
      const eggs = [...spin.egg_positions].sort((a, b) => a[1] - b[1]);
      eggs.forEach(([row, reel], i) => this.game.grid.badge(row, reel, String(spin.reveals[i]), 'egg-reveal'));
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

  winItems(round) {
    const spin = round.spins?.at(-1);
    if (!spin) return [];
    const size = round.coin_size_minor;
    const items = spin.line_wins.map((w) => ({
      line: w.line,
      positions: w.positions,
      minor: w.coins * size,
      label: t('win.line', { line: w.line }),
      text: t('win.line_text', { line: w.line, count: w.count, symbol: this.name(w.symbol), amount: this.money.format(w.coins * size) }),
    }));
    if (spin.scatter_win) {
      items.push({
        positions: spin.egg_positions,
        minor: spin.scatter_win.coins * size,
        label: `${spin.scatter_win.count} × ${this.name('egg')}`,
        text: t('win.scatter_text', { count: spin.scatter_win.count, symbol: this.name('egg'), amount: this.money.format(spin.scatter_win.coins * size) }),
      });
    }
    return items;
  }

  lastScreen(round) {
    return round.spins.at(-1).screen;
  }

  /** What the history says of a spin beyond its wins: the eggs' reveals and extra spins. */
  spinNotes(spin, view) {
    const notes = [];
    if (spin.reveals?.length) notes.push(t('history.eggs', { reveals: spin.reveals.join(' + '), count: view.free_spins_awarded }));
    if (spin.kind === 'free' && spin.spins_added) notes.push(t('history.eggs_added', { count: spin.spins_added }));
    return notes;
  }

  // -- gamble ---------------------------------------------------------------------------

  offerGamble(round, { resumed }) {
    const offered = round.actions_allowed.some((a) => a.startsWith('gamble '));
    this.offer.hidden = !offered;
    this.offer.querySelector('.gamble-offer-text').textContent = t('gamble.offer_amount', { amount: this.money.format(round.win_minor) });
    if (resumed && round.gambles.length) this.openGamble();
  }

  openGamble() {
    if (!this.game.round || this.game.round.phase !== 'gamble') return;
    this.offer.hidden = true;
    this.gambleScreen.open(this.game.round);
  }

  closeGamble() {
    this.offer.hidden = true;
    this.gambleScreen.close();
  }

  afterRound() {
    this.offer.hidden = true;
    this.hideCounter();
  }
}
