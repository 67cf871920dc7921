/**
 * The ladder's presenter and its panel: the collection meter (bonus symbols fill its spots),
 * the free-spins ladder (levels, multipliers, spins left), a level up's moment, the free
 * spins' intro and outro (`ladder_step`, every screen of a ladder title).
 *
 * The panel is mounted by the title (`title.js`) where its free spins climb levels (`ui.ladder`); it
 * gives `theme`, `ladderBonus` (the symbol that fills the meter), `spots`, `meterFeed` (how many
 * bonus symbols in a main-game spin fill a spot), `levels` (the rules page's), and
 * `spinWinMinor(spin, round)`.
 */
import { symbolSvg } from '../art/sprite.js';
import { h, sleep } from '../dom.js';
import { t } from '../messages.js';
import { sceneArt, sceneLine, sceneMs, sceneTitle } from '../scenes.js';
import { freeSpinsOutro } from './outro.js';

/** The screen's place on the ladder: the pots settled, the bonus symbols collected, the
 * level and a level up. */
export async function presentLadderStep(event, stage) {
  stage.ui.pots?.settle(stage);
  await stage.ui.ladder?.step(event, stage);
}

export class LadderPanel {
  /** The panel of title `ui` (`title.js`). */
  constructor(ui) {
    this.ui = ui;
    this.game = ui.game;
    this.money = ui.money;
    this.level = 0;
  }

  /** The meter, the ladder and its status line, appended to `side`. */
  mount(side) {
    this.meter = h('div', { class: 'meter-spots', id: 'meter', dataset: { filled: '0' }, role: 'img' });
    for (let i = 0; i < this.ui.spots; i += 1) {
      this.meter.append(h('span', { class: 'spot', html: symbolSvg(this.ui.theme, this.ui.ladderBonus) }));
    }
    this.list = h('ol', { class: 'ladder', id: 'ladder', hidden: true, 'aria-label': t('ladder.levels') });
    for (const level of this.ui.levels) {
      this.list.append(
        h(
          'li',
          { class: 'ladder-level', dataset: { level: level.level } },
          h('span', { class: 'ladder-name' }, t('fs.ladder_level', { level: level.level })),
          h('span', { class: 'ladder-mult' }, level.multiplier),
        ),
      );
    }
    this.ladderStatus = h(
      'p',
      { class: 'ladder-status', id: 'ladder-status', hidden: true },
      t('ladder.level'), h('b', { id: 'ladder-level' }, '1'),
      ' · ', h('b', { id: 'ladder-multiplier' }, '1x'),
      ' · ', h('b', { id: 'ladder-left', 'data-count': '0' }, '0'), t('ladder.spins_left'),
    );
    side.append(
      h('div', { class: 'collection' }, h('span', { class: 'collection-label' }, t('ladder.meter')), this.meter),
      this.list,
      this.ladderStatus,
    );
  }

  setMeter(filled) {
    this.meter.dataset.filled = String(filled);
    this.meter.setAttribute('aria-label', t('ladder.meter_label', { filled, spots: this.ui.spots }));
    [...this.meter.children].forEach((spot, i) => spot.classList.toggle('filled', i < filled));
  }

  setLadder(round) {
    const active = round && round.level > 0 && (round.phase === 'free_spins' || round.spins.at(-1)?.kind === 'free');
    this.list.hidden = !active;
    this.ladderStatus.hidden = !active;
    this.game.root.classList.toggle('in-free-spins', Boolean(active));
    if (!active) return;
    for (const li of this.list.children) {
      const n = Number(li.dataset.level);
      li.classList.toggle('current', n === round.level);
      li.classList.toggle('unlocked', n <= round.unlocked);
      li.classList.toggle('done', n < round.level);
    }
    this.ladderStatus.querySelector('#ladder-level').textContent = String(round.level);
    this.ladderStatus.querySelector('#ladder-multiplier').textContent = `${round.multiplier}x`;
    const left = this.ladderStatus.querySelector('#ladder-left');
    left.textContent = String(round.level_spins_left);
    left.dataset.count = String(round.level_spins_left);
  }

  /** A level up in free spins: its own moment, the ladder with the new multiplier. */
  async levelUp(round) {
    const { game } = this;
    await game.scenes.run({
      id: 'level-up',
      cls: `scene-level theme-${this.ui.theme}`,
      data: { level: round.level },
      parts: [
        sceneTitle(t('fs.level_up', { level: round.level })),
        sceneLine(t('fs.level_up_detail', { multiplier: `${round.multiplier}x`, spins: round.level_spins_left }), 'scene-multiplier'),
        this.ladderFigure(round),
      ],
      holdMs: sceneMs(game.motion, 'moment'),
      sound: 'levelUp',
      soundOptions: { level: round.level },
    });
  }

  /** The levels with their multipliers, the current one lit, the unlocked ones marked. */
  ladderFigure(round) {
    return h(
      'ol',
      { class: 'scene-ladder' },
      ...this.ui.levels.map((level) =>
        h(
          'li',
          {
            class: `${level.level === round.level ? 'current' : ''} ${level.level <= round.unlocked ? 'unlocked' : ''}`,
            dataset: { level: level.level },
          },
          h('span', { class: 'scene-ladder-name' }, t('fs.ladder_level', { level: level.level })),
          h('span', { class: 'scene-ladder-mult' }, `${level.multiplier}`),
        ),
      ),
    );
  }

  /** Free spins won: the ladder, the level, its spins and multiplier; the player presses Start. */
  async intro(round) {
    const levelInfo = this.ui.levels[round.level - 1];
    const parts = [
      sceneArt(symbolSvg(this.ui.theme, this.ui.ladderBonus)),
      sceneTitle(t('fs.intro_title', { count: round.level_spins_left })),
      sceneLine(t('fs.intro_level', { level: round.level, spins: levelInfo?.free_spins ?? round.level_spins_left, multiplier: `${round.multiplier}x` })),
      round.unlocked > round.level ? sceneLine(t('fs.intro_unlocked', { level: round.unlocked })) : null,
      this.ladderFigure(round),
    ].filter(Boolean);
    await this.game.scenes.run({
      id: 'free-spins-intro',
      cls: `scene-feature theme-${this.ui.theme}`,
      data: { spins: round.level_spins_left },
      parts,
      button: t('scene.start'),
      sound: 'featureIntro',
    });
  }

  /** The free spins are over: the outro (`freeSpinsOutro`), then the ladder goes away. */
  async outro(round) {
    const free = round.spins.slice(1);
    const freeWin = free.reduce((sum, spin) => sum + this.ui.spinWinMinor(spin, round), 0);
    await freeSpinsOutro(this.ui, { total: round.win_minor, freeWin, betMinor: round.bet_minor, spins: free.length });
    this.setLadder(null);
  }

  async collectBonus(spin, round) {
    const { game } = this;
    const bonusCells = [];
    spin.landed.forEach((row, r) => row.forEach((s, reel) => s === this.ui.ladderBonus && bonusCells.push([r, reel])));
    // a free spin collects every bonus symbol; a main-game spin fills a spot with exactly the
    // meter's feed of them
    const collects = spin.kind === 'free' ? spin.bonus > 0 : spin.bonus === this.ui.meterFeed;
    if (bonusCells.length && (collects || round.phase === 'free_spins')) {
      game.grid.mark(bonusCells, 'collected');
    }
    this.setMeter(spin.meter_after);
    if (collects) {
      this.meter.classList.remove('pop');
      void this.meter.offsetWidth;
      this.meter.classList.add('pop');
      await sleep(game.motion.ms('reveal') / 2);
    }
  }

  /** A screen's step (`ladder_step`): the bonus symbols collected, the level, a level up. */
  async step(event, stage) {
    const { round, spin } = stage;
    await this.collectBonus(spin, round);
    const previous = this.level;
    this.level = round.level;
    this.setLadder(round);
    if (spin.kind === 'free' && round.level > previous && previous > 0) await this.levelUp(round);
  }
}
