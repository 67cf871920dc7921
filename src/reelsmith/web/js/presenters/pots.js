/**
 * The pots' presenters and their panel: a pot above each reel for the current bet (its value
 * and what it was won at before), a gem raising its reel's pot as it lands and revealing a
 * symbol, a wild, a wild reel or the jackpot spin (`gem_revealed`), the pots after a screen
 * (`pot_won`, and every screen's `ladder_step`). A pot won is a win item of its own.
 *
 * The panel is mounted by the title (`title.js`) where a gem raises a pot above each reel
 * (`ui.pots`); it gives how the title looks and speaks: `theme`, `gem` and `gemOf(pot)` (the gem's
 * sprite per pot), `pots` (the pot ids, reel by reel), `potName(pot)`, `art.potColours`,
 * `wild`, `overlay`, `betMinor()` (the bet, for the pots' caption).
 */
import { symbolSvg } from '../art/sprite.js';
import { announce, h, sleep } from '../dom.js';
import { t } from '../messages.js';
import { sceneAmount, sceneArt, sceneLine, sceneMs, sceneTitle } from '../scenes.js';

/** A gem raised its pot and revealed something; a pot won is a win item of its own. */
export async function presentGemRevealed(event, stage) {
  await stage.ui.pots?.reveal(event, stage);
  if (event.reveal !== 'jackpot') return;
  const minor = event.jackpot_bets * stage.round.bet_minor;
  const pot = stage.ui.potName?.(event.jackpot) ?? event.jackpot;
  stage.jackpots.push({
    positions: [[event.row, event.reel - 1]],
    minor,
    label: t('feature.jackpot_won', { pot }),
    text: t('ladder.jackpot_pays', { pot, amount: stage.game.money.format(minor) }),
  });
  // the jackpot's scene has counted this part of the win up already
  stage.presentedMinor = (stage.presentedMinor ?? 0) + minor;
}

/** Pots were paid: the pots are settled with the screen (`ladder_step`, `settle`). */
export function presentPotWon(event, stage) {
  stage.potsAfter = event.pots_after;
}

export class PotsPanel {
  /** The panel of title `ui` (`title.js`). */
  constructor(ui) {
    this.ui = ui;
    this.game = ui.game;
    this.money = ui.money;
    this.potMinor = [];
    this.capMinor = [];
  }

  /** The pots, one above each reel, and their caption, appended to `top`. */
  mount(top) {
    const colours = this.ui.art.potColours ?? {};
    this.potEls = this.ui.potIds.map((name, i) => {
      const pot = h(
        'div',
        { class: `pot pot-${name}`, dataset: { pot: name, reel: i + 1 } },
        h('span', { class: 'pot-gem', html: symbolSvg(this.ui.theme, this.ui.gemOf(name)) }),
        h('span', { class: 'pot-name' }, this.ui.potName(name)),
        h('output', { class: 'pot-value' }, '—'),
        h('span', { class: 'pot-cap' }),
      );
      if (colours[name]) pot.style.setProperty('--pot', colours[name]);
      return pot;
    });
    this.potsCaption = h('p', { class: 'pots-caption' });
    const potsEl = h('div', { class: 'pots', id: 'pots', role: 'group', 'aria-label': t('ladder.pots') }, ...this.potEls);
    potsEl.style.setProperty('--pots', String(this.ui.potIds.length));
    top.append(potsEl, this.potsCaption);
  }

  /** Pot `index` at `minor`; `pulse` as a gem raises it. */
  setPot(index, minor, { pulse = false } = {}) {
    this.potMinor[index] = minor;
    const el = this.potEls[index];
    const out = el.querySelector('.pot-value');
    out.textContent = this.money.format(minor);
    el.dataset.minor = String(minor);
    if (pulse) {
      el.classList.remove('rise');
      void el.offsetWidth;
      el.classList.add('rise');
    }
  }

  /** Every pot and what it was won at before, for the current bet. */
  setPots(potsMinor, capsMinor) {
    potsMinor.forEach((minor, i) => this.setPot(i, minor));
    capsMinor.forEach((cap, i) => {
      this.capMinor[i] = cap;
      this.potEls[i].querySelector('.pot-cap').replaceChildren(h('span', { class: 'pot-cap-label' }, t('ladder.won_before')), this.money.format(cap));
      this.potEls[i].dataset.capMinor = String(cap);
    });
    this.potsCaption.textContent = t('ladder.pots_caption', { bet: this.money.format(this.ui.betMinor()) });
  }

  /** A gem's reveal on `spin` of `round`: a symbol, a wild reel (its moment) or the jackpot
   * spin. */
  async revealOf(gem, spin, round) {
    const { game } = this;
    const reel = gem.reel - 1;
    await sleep(game.motion.ms('reveal'));
    game.sound.play('reveal', { n: reel });
    if (gem.reveal === 'jackpot') {
      await this.jackpotSpin(gem, spin, round);
      return;
    }
    if (gem.reveal === 'wild_reel') {
      for (let row = 0; row < game.grid.rows; row += 1) game.grid.setCell(row, reel, this.ui.wild, 'reveal');
      game.grid.columns[reel].column.classList.add('wild-reel');
      announce(t('ladder.wild_reel_on', { reel: gem.reel }));
      await this.wildReelMoment(reel);
      return;
    }
    game.grid.setCell(gem.row, reel, gem.reveal, 'reveal');
  }

  /** A wild reel's moment: the reel lights up under its name, with its own sound. */
  async wildReelMoment(reel) {
    const { game } = this;
    game.sound.play('wildReel');
    const tag = h('span', { class: 'reel-moment wild-reel-tag', id: 'wild-reel-moment', dataset: { reel } }, t('feature.wild_reel'));
    const column = game.grid.columns[reel].column;
    const frame = this.ui.overlay.parentElement.getBoundingClientRect();
    const box = column.getBoundingClientRect();
    tag.style.left = `${box.left - frame.left + box.width / 2}px`;
    tag.style.top = `${box.top - frame.top + box.height / 2}px`;
    this.ui.overlay.parentElement.append(tag);
    await sleep(sceneMs(game.motion, 'moment'));
    tag.remove();
  }

  /**
   * The jackpot spin, played out on the main game area before the pot is paid: the reels
   * spin again on gems alone and stop, reel by reel, all showing the won pot's gem; then the
   * pot's scene counts the prize up; the pot resets and the spin's own screen comes back.
   */
  async jackpotSpin(gem, spin, round) {
    const { game } = this;
    const reel = gem.reel - 1;
    const amount = gem.jackpot_bets * round.bet_minor;
    const grid = game.grid;
    const screen = grid.screen.map((row) => [...row]);
    const wildReels = grid.columns.map(({ column }) => column.classList.contains('wild-reel'));
    this.potEls[reel].classList.add('won');
    game.root.classList.add('jackpot-spin');
    game.root.dataset.jackpotSpin = gem.jackpot;
    const title = h('p', { class: 'reel-moment jackpot-spin-tag', id: 'jackpot-spin' }, t('feature.jackpot_spin'));
    this.ui.overlay.append(title);
    announce(`${t('feature.jackpot_spin')}: ${this.ui.potName(gem.jackpot)}`);
    const startedAt = performance.now();
    // the rules' gems-only spin: the reels run through the pots' gems alone
    grid.startSpin({ only: this.ui.potIds.map((pot) => this.ui.gemOf(pot)) });
    game.sound.play('jackpotSpin');
    const won = this.ui.gemOf(gem.jackpot);
    await grid.land(screen.map((row) => row.map(() => won)), {
      startedAt,
      minSpinMs: sceneMs(game.motion, 'moment'),
      gapMs: game.motion.ms('reelGap') * 1.5,
      onReelStop: (r) => game.sound.play('reelStop', { reel: r }),
    });
    title.remove();
    const value = sceneAmount('jackpot-amount');
    await game.scenes.run({
      id: 'jackpot-event',
      cls: `scene-jackpot pot-${gem.jackpot} theme-${this.ui.theme}`,
      data: { pot: gem.jackpot, minor: amount },
      parts: [
        sceneArt(symbolSvg(this.ui.theme, won)),
        sceneTitle(t('feature.jackpot_won', { pot: this.ui.potName(gem.jackpot) })),
        value,
        sceneLine(t('win.skip'), 'scene-hint'),
      ],
      count: { el: value, to: amount, ms: game.motion.reduced ? 0 : sceneMs(game.motion, 'count') },
      holdMs: sceneMs(game.motion, 'hold'),
      particles: true,
      sound: 'jackpot',
    });
    announce(t('ladder.jackpot_announce', { pot: this.ui.potName(gem.jackpot), amount: this.money.format(amount) }));
    grid.show(screen);
    wildReels.forEach((on, r) => grid.columns[r].column.classList.toggle('wild-reel', on));
    grid.cellAt(gem.row, reel)?.classList.add('jackpot-gem');
    game.root.classList.remove('jackpot-spin');
    delete game.root.dataset.jackpotSpin;
    this.potEls[reel].classList.remove('won');
    this.setPot(reel, spin.pots_after[reel] * round.bet_minor, { pulse: true });
  }

  /** As reel `reel` lands, a gem on it raises its pot by the bet (its `gem_revealed`). */
  raise(reel, stage) {
    const { game } = this;
    const { round } = stage;
    if (!this.capMinor.length) this.setPots(round.pots_minor, round.caps_minor);
    const gem = stage.events.find((e) => e.type === 'gem_revealed' && e.reel - 1 === reel);
    if (!gem) return;
    game.sound.play('potRaise', { reel });
    this.setPot(reel, gem.pot_after * round.bet_minor, { pulse: true });
    game.grid.cellAt(gem.row, reel)?.classList.add('gem-landed');
  }

  /** A gem's reveal (`gem_revealed`). */
  async reveal(event, stage) {
    await this.revealOf(event, stage.spin, stage.round);
  }

  /** The screen is settled: the screen its lines were paid on (its reveals made) and every
   * pot after its gems. */
  settle(stage) {
    const { game } = this;
    const { round, spin } = stage;
    if (JSON.stringify(game.grid.screen) !== JSON.stringify(spin.screen)) game.grid.show(spin.screen);
    spin.pots_after.forEach((pot, i) => this.setPot(i, pot * round.bet_minor));
  }

  /** A new screen spins: the wild reels go. */
  clearWildReels() {
    for (const { column } of this.game.grid.columns) column.classList.remove('wild-reel');
  }
}
