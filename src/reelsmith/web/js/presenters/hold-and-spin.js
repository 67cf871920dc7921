/**
 * The hold-and-spin's presenters and its counter: the feature starts (`hold_and_spin_start`:
 * the window's coins stick, lit, each showing its value as a badge, the other cells dimmed),
 * each respin lands coins on the empty cells or uses one respin up (`hold_and_spin_respin`: a
 * new coin is drawn on its cell, sticks and shows its value; the counter says the respins left
 * and the coins held), and the feature ends (`hold_and_spin_end`: the coins held, any jackpots
 * and the feature's pay). The screen's whole win, the feature's included, is settled by
 * `spin_won` as any screen's.
 *
 * The counter is mounted by the title (`title.js`) where its rules page has a hold-and-spin
 * (`ui.holdAndSpin`), in the row above the reels that a free-spins counter takes; it stays up
 * with the coins until the next spin.
 */
import { announce, h, sleep } from '../dom.js';
import { t } from '../messages.js';

/** A coin's badge text: a collector's ("COLLECT"), a multiplier's ("x2"), its value in total
 * bets ("5×") or its jackpot tier's name. */
function badgeText(coin) {
  if (coin.kind === 'collect') return t('hs.collect');
  if (coin.kind === 'multiplier') return t('hs.multiplier', { factor: coin.multiplier });
  return /^\d+$/.test(coin.value) ? `${coin.bets}×` : coin.value.toUpperCase();
}

/** A coin's jackpot tier (`mini`, ...), or null for a coin worth total bets, a collector or a
 * multiplier. */
const tierOf = (coin) => (coin.kind || /^\d+$/.test(coin.value) ? null : coin.value);

/** The badge's classes: a tier's, a collector's or a multiplier's look beside the coin's. */
function badgeClass(coin, tier) {
  if (tier) return `hs-coin hs-tier hs-tier-${tier}`;
  return coin.kind ? `hs-coin hs-${coin.kind}` : 'hs-coin';
}

/** The sprite of the coin symbol `symbol` carrying tier `tier` (`<symbol>-<tier>`) where the
 * title's art draws one (a lantern of the tier's colour), else null: the coin as it is. */
function tierArt(stage, symbol, tier) {
  if (!symbol || !tier) return null;
  const id = `${symbol}-${tier}`;
  return document.getElementById(`${stage.game.ui?.theme}-${id}`) ? id : null;
}

/** Each coin sticks: lit, with its value; a coin a respin landed is drawn on its cell first,
 * a jackpot tier's coin in its tier's art where the title has one. */
function stick(coins, stage, { landed = false } = {}) {
  const { grid } = stage.game;
  const symbol = stage.holdAndSpin?.symbol;
  for (const coin of coins) {
    const [row, reel] = coin.position;
    const tier = tierOf(coin);
    const tiered = tierArt(stage, symbol, tier);
    if (tiered) grid.setCell(row, reel, tiered, landed ? 'hs-land' : 'reveal');
    else if (landed && symbol) grid.setCell(row, reel, symbol, 'hs-land');
    grid.mark([[row, reel]], 'hs-held');
    grid.badge(row, reel, badgeText(coin), badgeClass(coin, tier));
  }
}

/** The coins stick with their values; the respins begin. */
export async function presentHoldAndSpinStart(event, stage) {
  const [row, reel] = event.held[0]?.position ?? [0, 0];
  // the coin symbol as the screen shows it: the one a landed coin is drawn as
  const symbol = stage.spin?.screen?.[row]?.[reel] ?? null;
  stage.holdAndSpin = { held: event.held.length, respins: event.respins, symbol };
  stage.game.grid.element.classList.add('hs-active');
  stick(event.held, stage);
  stage.ui.holdAndSpin?.show({ left: event.respins, held: event.held.length });
  announce(t('hs.start', { count: event.held.length, respins: event.respins }));
  await sleep(stage.game.motion.ms('reveal'));
}

/** One respin: the coins it landed (none: one respin used up) and the respins left. */
export async function presentHoldAndSpinRespin(event, stage) {
  // the empty cells spin a moment, then the coins they landed stick
  const reels = stage.game.grid.element;
  const ms = stage.game.motion.ms('reveal') * 1.5;
  reels.classList.add('hs-respinning');
  await sleep(ms / 2);
  reels.classList.remove('hs-respinning');
  stick(event.landed, stage, { landed: true });
  if (stage.holdAndSpin) stage.holdAndSpin.held += event.landed.length;
  const held = stage.holdAndSpin?.held ?? 0;
  stage.ui.holdAndSpin?.show({ left: event.respins_left, held, reset: event.landed.length > 0 });
  if (event.landed.length) stage.game.sound.play('reveal', { n: 0 });
  announce(t('hs.respin', { count: event.landed.length, left: event.respins_left }));
  await sleep(ms / 2);
}

/** The feature is over: what it pays, and the jackpots it won. */
export function presentHoldAndSpinEnd(event, stage) {
  stage.holdAndSpin = null;
  const jackpots = event.jackpots.map((tier) => tier.toUpperCase()).join(', ');
  // the counter says what the coins pay (a notice would lie over the win shown beside it)
  stage.ui.holdAndSpin?.show({ left: 0, held: event.coins_held, done: true, pays: event.total_bets, jackpots });
  const text = jackpots
    ? t('hs.end_jackpots', { count: event.coins_held, bets: event.total_bets, jackpots })
    : t('hs.end', { count: event.coins_held, bets: event.total_bets });
  announce(text);
}

/** The counter above the reels: the respins left and the coins held. */
export class HoldAndSpinPanel {
  constructor(ui) {
    this.ui = ui;
    this.game = ui.game;
  }

  mount(side) {
    this.left = h('b', { id: 'hs-respins', 'data-count': '0' }, '0');
    this.held = h('b', { id: 'hs-held', 'data-count': '0' }, '0');
    this.counter = h(
      'div',
      { class: 'fs-counter hs-counter', id: 'hold-and-spin', hidden: true },
      h('span', { class: 'fs-title' }, t('hs.title')),
      h('span', { class: 'hs-respins' }, this.left, ` ${t('hs.respins_left')}`),
      h('span', { class: 'hs-held' }, this.held, ` ${t('hs.coins_held')}`),
    );
    this.pays = h('span', { class: 'hs-pays', id: 'hs-pays', hidden: true });
    this.counter.append(this.pays);
    side.append(this.counter);
  }

  show({ left, held, reset = false, done = false, pays = null, jackpots = '' }) {
    this.counter.hidden = false;
    this.pays.hidden = pays === null;
    this.pays.textContent = pays === null ? '' : t(jackpots ? 'hs.pays_jackpots' : 'hs.pays', { bets: this.game.money.count(pays), jackpots });
    this.pays.dataset.bets = pays === null ? '' : String(pays);
    this.counter.classList.toggle('hs-done', done);
    this.left.textContent = this.game.money.count(left);
    this.left.dataset.count = String(left);
    this.held.textContent = this.game.money.count(held);
    this.held.dataset.count = String(held);
    this.left.classList.remove('pop');
    if (reset) {
      void this.left.offsetWidth;
      this.left.classList.add('pop');
    }
  }

  /** A new spin: the coins and the counter go. */
  hide() {
    this.counter.hidden = true;
    this.game.grid.element.classList.remove('hs-active');
  }
}
