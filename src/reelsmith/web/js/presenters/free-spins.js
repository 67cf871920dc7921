/**
 * The free spins' presenters and their panel: free spins awarded (`free_spins_awarded`: a base
 * screen's revealed awards drawn one by one on the trigger symbols, a free screen's retrigger
 * badges and "+n"), each free spin played (`free_spin`), the counter beside the reels (spins
 * left, of how many, the multiplier, the win so far), the intro and the outro.
 *
 * The panel is mounted by the title (`title.js`) where its free spins are a count (`ui.freeSpins`); the
 * title gives only how it looks and speaks: `theme`, `marks` (the CSS classes of a revealed
 * award and of the spins a retrigger adds), `words` through `say(word, params)`,
 * `triggerSymbol()` and `triggerCells(spin)` (the symbol that triggers and where it shows),
 * `retriggerBadges(spins, cells)` (where the spins added are shown).
 */
import { symbolSvg } from '../art/sprite.js';
import { announce, h, sleep } from '../dom.js';
import { t } from '../messages.js';
import { sceneLine, sceneTitle } from '../scenes.js';
import { freeSpinsOutro } from './outro.js';

/** Trigger cells in reel order, then row: the order their reveals are drawn in. */
const inReelOrder = (a, b) => a[1] - b[1] || a[0] - b[0];

/** Free spins awarded: the panel draws the award. */
export async function presentFreeSpinsAwarded(event, stage) {
  stage.awarded = true;
  await stage.ui.freeSpins?.awarded(event, stage);
}

/** A free spin was played: the counter is settled with the screen (`spin_won`). */
export function presentFreeSpin(event, stage) {
  stage.freeSpinsLeft = event.remaining;
}

export class FreeSpinsPanel {
  /** The panel of title `ui` (`title.js`: its game, money and look). */
  constructor(ui) {
    this.ui = ui;
    this.game = ui.game;
    this.money = ui.money;
  }

  /** The counter, hidden until a round has free spins, appended to `side`. */
  mount(side) {
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
    this.setWin(winMinor);
    const pop = this.counter.querySelector('#free-spins-plus');
    pop.textContent = plus;
    pop.classList.remove('pop');
    if (plus) {
      void pop.offsetWidth;
      pop.classList.add('pop');
    }
  }

  /** A free spin's reels start (`title.js` `beforeSpin`): the counter counts the spin in
   * play, as the server will once it is paid (the first of ten reads 9 left of 10), bought
   * or triggered alike; its screen then settles the counter with the round
   * (`settled`, a retrigger's "+n"). */
  spinStarted(round) {
    if (!round || !(round.free_spins_awarded > 0) || !(round.free_spins_remaining > 0)) return;
    const left = round.free_spins_remaining - 1;
    const leftEl = this.counter.querySelector('#free-spins-left');
    leftEl.textContent = this.money.count(left);
    leftEl.dataset.count = String(left);
  }

  /** The counter's win: the round's so far, in minor units. */
  setWin(minor) {
    const win = this.counter.querySelector('#free-spins-win');
    win.textContent = this.money.format(minor);
    win.dataset.minor = String(minor);
  }

  /** A free spin's cascade paid a screen (`cascade`): the counter's win climbs with the Win
   * meter to `minor` (the round's win before the spin and the chain's screens paid so far);
   * the chain's last screen is counted when the spin is paid (`settled`). */
  chainPaid(minor, stage) {
    if (stage.spin?.kind !== 'free' || this.counter.hidden) return;
    this.setWin(minor);
  }

  hide() {
    this.counter.hidden = true;
    this.game.root.classList.remove('in-free-spins');
  }

  /** The cells of the symbols that trigger free spins, in reel order (the title's). */
  triggerCells(spin) {
    return this.ui.triggerCells(spin);
  }

  /** Free spins awarded (`free_spins_awarded`): a base screen's revealed awards drawn one by
   * one, or a free screen's retrigger badges and the counter's "+n". */
  async awarded(event, stage) {
    const { game } = this;
    const { round, spin } = stage;
    const ordered = [...this.triggerCells(spin)].sort(inReelOrder);
    if (spin.kind === 'base' && event.reveals.length) {
      await this.reveal(round, { ...spin, reveals: event.reveals }, ordered);
      stage.counted = true;
    } else if (spin.kind === 'free') {
      for (const [row, reel, text] of this.ui.retriggerBadges(event.spins, ordered)) game.grid.badge(row, reel, text, this.ui.marks.extra);
      this.setCounter(round, { plus: `+${event.spins}` });
      game.sound.play('extraSpin');
      announce(t('fs.extra', { count: event.spins }));
      await sleep(game.motion.ms('reveal'));
      stage.counted = true;
    }
  }

  /** The screen is paid (`spin_won`): the counter shows the round as it stands. */
  settled(stage) {
    if (!stage.counted) this.setCounter(stage.round);
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
      const badge = game.grid.badge(row, reel, String(value), this.ui.marks.reveal);
      const name = this.ui.say('revealBadge', { count: value });
      if (name) badge?.setAttribute('aria-label', name);
      this.renderCounter({ left: total, total, winMinor: 0, multiplier: round.free_spins_multiplier, plus: `+${value}` });
    }
    this.setCounter(round);
    const revealed = this.ui.say('revealed', { reveals: spin.reveals.join(', '), count: round.free_spins_awarded });
    if (revealed) announce(revealed);
    await sleep(ms);
  }

  /** The trigger symbols a screen shows (the view's count, else its trigger cells'). */
  triggerCount(spin) {
    return spin.triggers ?? this.triggerCells(spin).length;
  }

  /** The free spins won: the trigger symbols, the count and the multiplier; press Start. */
  async intro(round) {
    // a bought feature has no screen before its free spins: the trigger symbols it counts as
    const bought = this.ui.bought;
    const spin = round.spins[0]?.kind === 'base' ? round.spins[0] : { reveals: [], triggers: bought?.triggers ?? 0 };
    const symbol = this.ui.triggerSymbol();
    const shown = Math.min(this.triggerCount(spin), 6);
    const art = symbol
      ? h('div', { class: 'scene-eggs' }, ...Array.from({ length: shown }, (_, i) =>
          h('div', { class: 'scene-egg', html: symbolSvg(this.ui.theme, symbol) },
            spin.reveals[i] ? h('span', { class: 'scene-egg-value' }, String(spin.reveals[i])) : null)))
      : null;
    const multiplier = round.free_spins_multiplier;
    const reveals = spin.reveals.length ? this.ui.say('introReveals', { reveals: spin.reveals.join(' + ') }) : null;
    await this.game.scenes.run({
      id: 'free-spins-intro',
      cls: `scene-feature theme-${this.ui.theme}`,
      data: multiplier === undefined ? { spins: round.free_spins_awarded } : { spins: round.free_spins_awarded, multiplier },
      parts: [
        art,
        sceneTitle(t('fs.intro_title', { count: round.free_spins_awarded })),
        bought ? sceneLine(t('modes.bought_intro'), 'intro-bought') : null,
        reveals ? sceneLine(reveals) : null,
        multiplier > 1 ? sceneLine(t('fs.intro_multiplier', { multiplier }), 'intro-multiplier') : null,
      ].filter(Boolean),
      button: t('scene.start'),
      sound: 'featureIntro',
    });
    this.setCounter(round);
  }

  /** The free spins are over: the outro (`freeSpinsOutro`), then the counter goes away. */
  async outro(round) {
    const size = round.coin_size_minor;
    const total = round.spin_win_coins * size;
    const freeWin = round.free_spins_win_coins * size;
    const spins = round.spins.filter((s) => s.kind === 'free').length;
    await freeSpinsOutro(this.ui, { total, freeWin, betMinor: round.bet_minor, spins });
    this.hide();
  }

  showRound(round) {
    this.setCounter(round);
    const spin = round.spins.at(-1);
    if (spin?.kind === 'base' && spin.reveals.length) {
      const cells = [...this.triggerCells(spin)].sort(inReelOrder);
      cells.forEach(([row, reel], i) => spin.reveals[i] && this.game.grid.badge(row, reel, String(spin.reveals[i]), this.ui.marks.reveal));
    }
  }
}
