/**
 * A title's bet controls, chosen by what the market offers for it (`/api/me`'s market games):
 *
 * - **coin bets** (`coin_sizes`): paylines, coins per line and coin size, each a stepper,
 *   within the rules page's `bets` (no paylines stepper where every bet plays the same lines,
 *   as a ways title's cost); the bet is `{lines, coins_per_line, coin_size}`;
 * - **bet sizes** (`bets`): one stepper over the market's bets; the bet is `{bet}`.
 *
 * Both keep the player's choice per title (localStorage), stay within the market's maximum
 * stake, and give the phones' total-bet picker (`betpicker.js`) its list (`options()`) and
 * take its choice (`choose(bet)`). `single` says the controls are one amount (the bar then
 * shows them in the total's place: the root class `bet-single`).
 */
import { Stepper } from './stepper.js';
import { t } from './messages.js';

/** The bet controls of `game` (its rules page, market and money). */
export function betsOf(game) {
  return game.gameMarket.coin_sizes?.length ? new CoinBets(game) : new SizeBets(game);
}

function stored(key) {
  try {
    return JSON.parse(localStorage.getItem(key) || 'null');
  } catch {
    return localStorage.getItem(key);
  }
}

/** Paylines x coins per line x coin size. */
export class CoinBets {
  constructor(game) {
    this.game = game;
    this.money = game.money;
    this.single = false;
    this.store = `reelsmith.bet.${game.id}`;
    const bets = game.rules.rules.bets;
    this.limits = bets;
    this.coinSizes = game.gameMarket.coin_sizes;
    this.maxStakeMinor = this.money.toMinor(game.market.max_stake);
    const saved = stored(this.store);
    const fallbackSize = this.coinSizes.includes(bets.default.coin_size) ? bets.default.coin_size : this.coinSizes[0];
    this.current = {
      lines: this.within(saved?.lines, bets.lines) ?? bets.default.lines,
      coins_per_line: this.within(saved?.coins_per_line, bets.coins_per_line) ?? bets.default.coins_per_line,
      coin_size: this.coinSizes.includes(saved?.coin_size) ? saved.coin_size : fallbackSize,
    };
    if (this.totalMinor(this.current) > this.maxStakeMinor) {
      this.current = { lines: bets.default.lines, coins_per_line: 1, coin_size: this.coinSizes[0] };
    }
    this.onChange = () => {};
  }

  within(value, { min, max }) {
    return Number.isInteger(value) && value >= min && value <= max ? value : null;
  }

  totalMinor(bet) {
    return bet.lines * bet.coins_per_line * this.money.toMinor(bet.coin_size);
  }

  bet() {
    return { ...this.current };
  }

  minor() {
    return this.totalMinor(this.current);
  }

  /** The bet a round was played at (its view's `bet`). */
  fromRound(round) {
    const { lines, coins_per_line: cpl, coin_size: size } = round.bet;
    return { lines, coins_per_line: cpl, coin_size: size };
  }

  set(bet) {
    this.current = { lines: bet.lines, coins_per_line: bet.coins_per_line, coin_size: String(bet.coin_size) };
    this.lines?.set(this.current.lines);
    this.coins?.set(this.current.coins_per_line);
    this.size?.set(this.current.coin_size);
    this.refresh();
  }

  /** Every bet with all paylines played, one per total (the fewest coins per line), within
   * the maximum stake, ascending: the total-bet picker's list. */
  options() {
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
  choose(bet) {
    this.set(bet);
    localStorage.setItem(this.store, JSON.stringify(this.current));
    this.onChange();
  }

  changed(key, value, { showLines = false } = {}) {
    this.current[key] = value;
    localStorage.setItem(this.store, JSON.stringify(this.current));
    this.refresh();
    if (showLines) {
      const grid = this.game.grid;
      grid.showPaylines(Array.from({ length: this.current.lines }, (_, i) => i + 1));
      clearTimeout(this.linesTimer);
      this.linesTimer = setTimeout(() => grid.clearLines(), 1200);
    }
    this.onChange();
  }

  fits(change) {
    return this.totalMinor({ ...this.current, ...change }) <= this.maxStakeMinor;
  }

  mount(slot) {
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
      // a title without paylines (ways, counts) multiplies its cost: the rules page's word
      label: t(this.game.rules.paylines?.length ? 'bet.coins_per_line' : 'bet.multiplier'),
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
    this.lines.element.hidden = this.limits.lines.min === this.limits.lines.max;
    slot.append(this.lines.element, this.coins.element, this.size.element);
  }

  refresh() {
    for (const s of [this.lines, this.coins, this.size]) s?.render();
  }

  setEnabled(on) {
    for (const s of [this.lines, this.coins, this.size]) s?.setEnabled(on);
  }
}

/** One of the market's bet sizes. */
export class SizeBets {
  constructor(game) {
    this.game = game;
    this.money = game.money;
    this.single = true;
    this.store = `reelsmith.bet.${game.id}`;
    const maxStake = this.money.toMinor(game.market.max_stake);
    this.sizes = game.gameMarket.bets.filter((b) => this.money.toMinor(b) <= maxStake);
    const saved = localStorage.getItem(this.store);
    const fallback = this.sizes.includes(game.gameMarket.default_bet) ? game.gameMarket.default_bet : this.sizes[0];
    this.current = this.sizes.includes(saved) ? saved : fallback;
    this.onChange = () => {};
  }

  bet() {
    return { bet: this.current };
  }

  minor() {
    return this.money.toMinor(this.current);
  }

  fromRound(round) {
    return { bet: round.bet };
  }

  set(bet) {
    const amount = this.sizes.find((b) => this.money.toMinor(b) === this.money.toMinor(bet.bet)) ?? bet.bet;
    this.current = amount;
    this.stepper?.set(amount);
  }

  /** The market's bet sizes, ascending: the total-bet picker's list. */
  options() {
    return this.sizes.map((bet) => ({ bet: { bet }, minor: this.money.toMinor(bet) })).sort((a, b) => a.minor - b.minor);
  }

  choose(bet) {
    this.set(bet);
    localStorage.setItem(this.store, this.current);
    this.onChange();
  }

  mount(slot) {
    this.stepper = new Stepper({
      id: 'bet',
      label: t('game.bet'),
      values: this.sizes,
      value: this.current,
      format: (v) => this.money.formatDecimal(v),
      onChange: (v) => {
        this.current = v;
        localStorage.setItem(this.store, v);
        this.onChange();
      },
    });
    slot.append(this.stepper.element);
  }

  setEnabled(on) {
    this.stepper?.setEnabled(on);
  }
}
