/**
 * Any ladder title (the free-spins ladder with local pots, the server's `client: "ladder"`):
 * the bet sizes, a gem pot above each reel for the current bet size (rising as gems land),
 * gem reveals (symbol, wild, wild reel, jackpot spin), the free-spins ladder (level,
 * multiplier, spins left) and the collection meter. Everything shown comes from the round's
 * events, the rules page (grid, paylines, pots and their names, levels) and the game list's
 * `ladder` entry (the bonus and gem symbols, the meter's spots and what fills one); the words
 * are the client's catalogues' (`ladder.*`, `fs.*`) and the title's (symbol and pot names).
 *
 * A title's look is its art (`ladder-art.js`, chosen by game id, plain tiles without it); a
 * pot's colour is its art's, else its stylesheet's `.pot-<pot>`.
 */
import { symbolSvg } from '../art/sprite.js';
import { announce, h, label, sleep } from '../dom.js';
import { t } from '../messages.js';
import { sceneAmount, sceneArt, sceneLine, sceneMs, sceneTitle } from '../scenes.js';
import { Stepper } from '../stepper.js';
import { ladderArt } from './ladder-art.js';
import { freeSpinsOutro } from './outro.js';
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
    this.pots = pots.map((p) => p.id);
    // the pots' names in the player's language, from the rules page
    this.potNames = Object.fromEntries(pots.map((p) => [p.id, p.pot]));
    this.levels = doc.rules.free_spins.levels;
    const maxStake = this.money.toMinor(game.market.max_stake);
    this.bets = game.gameMarket.bets.filter((b) => this.money.toMinor(b) <= maxStake);
    const saved = localStorage.getItem(this.betStore);
    const fallback = this.bets.includes(game.gameMarket.default_bet) ? game.gameMarket.default_bet : this.bets[0];
    this.current = this.bets.includes(saved) ? saved : fallback;
    this.potMinor = [];
    this.capMinor = [];
    this.level = 0;
    this.onBetChange = () => {};
  }

  /** A gem is drawn in the colour of the pot above its reel. */
  cell(symbol, reel) {
    const pot = this.pots[reel];
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

  // -- pots, meter, ladder ---------------------------------------------------------------

  mountFeature(top, side, overlay) {
    this.overlay = overlay;
    this.game.root.classList.add('title-ladder'); // the kind's layout (css/ladder.css)
    const colours = this.art.potColours ?? {};
    this.potEls = this.pots.map((name, i) => {
      const pot = h(
        'div',
        { class: `pot pot-${name}`, dataset: { pot: name, reel: i + 1 } },
        h('span', { class: 'pot-gem', html: symbolSvg(this.theme, this.gemOf(name)) }),
        h('span', { class: 'pot-name' }, this.potName(name)),
        h('output', { class: 'pot-value' }, '—'),
        h('span', { class: 'pot-cap' }),
      );
      if (colours[name]) pot.style.setProperty('--pot', colours[name]);
      return pot;
    });
    this.potsCaption = h('p', { class: 'pots-caption' });
    const potsEl = h('div', { class: 'pots', id: 'pots', role: 'group', 'aria-label': t('ladder.pots') }, ...this.potEls);
    potsEl.style.setProperty('--pots', String(this.pots.length));
    top.append(potsEl, this.potsCaption);

    this.meter = h('div', { class: 'meter-spots', id: 'meter', dataset: { filled: '0' }, role: 'img' });
    for (let i = 0; i < this.spots; i += 1) {
      this.meter.append(h('span', { class: 'spot', html: symbolSvg(this.theme, this.bonus) }));
    }
    this.ladder = h('ol', { class: 'ladder', id: 'ladder', hidden: true, 'aria-label': t('ladder.levels') });
    for (const level of this.levels) {
      this.ladder.append(
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
      this.ladder,
      this.ladderStatus,
    );
  }

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

  setPots(potsMinor, capsMinor) {
    potsMinor.forEach((minor, i) => this.setPot(i, minor));
    capsMinor.forEach((cap, i) => {
      this.capMinor[i] = cap;
      this.potEls[i].querySelector('.pot-cap').replaceChildren(h('span', { class: 'pot-cap-label' }, t('ladder.won_before')), this.money.format(cap));
      this.potEls[i].dataset.capMinor = String(cap);
    });
    this.potsCaption.textContent = t('ladder.pots_caption', { bet: this.money.formatDecimal(this.current) });
  }

  setMeter(filled) {
    this.meter.dataset.filled = String(filled);
    this.meter.setAttribute('aria-label', t('ladder.meter_label', { filled, spots: this.spots }));
    [...this.meter.children].forEach((spot, i) => spot.classList.toggle('filled', i < filled));
  }

  setLadder(round) {
    const active = round && round.level > 0 && (round.phase === 'free_spins' || round.spins.at(-1)?.kind === 'free');
    this.ladder.hidden = !active;
    this.ladderStatus.hidden = !active;
    this.game.root.classList.toggle('in-free-spins', Boolean(active));
    if (!active) return;
    for (const li of this.ladder.children) {
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

  applyCarried(carried) {
    this.setPots(carried.pots_minor, carried.caps_minor);
    this.setMeter(carried.meter);
  }

  showRound(round) {
    this.setPots(round.pots_minor, round.caps_minor);
    this.setMeter(round.meter);
    this.setLadder(round);
    this.level = round.level;
  }

  beforeSpin() {
    for (const { column } of this.game.grid.columns) column.classList.remove('wild-reel');
  }

  // -- presenting a spin ----------------------------------------------------------------

  // -- the presenters' hooks (js/presenters/) --------------------------------------------

  /** The bonus symbol is the ladder's trigger: heard as it lands, anticipated in the main
   * game (three start the free spins; in them they fill levels). */
  triggerSymbol() {
    return this.bonus;
  }

  anticipates(kind) {
    return kind !== 'free';
  }

  /** As a reel lands, a gem on it raises its pot by the bet (`gem_revealed` of that reel). */
  reelStopped(reel, stage) {
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
  async revealGem(event, stage) {
    await this.revealGemOf(event, stage.spin, stage.round);
  }

  jackpotName(pot) {
    return this.potName(pot);
  }

  /** The screen's place on the ladder (`ladder_step`): the screen the lines were paid on,
   * the pots after its gems, the bonus symbols collected, the level and a level up. */
  async ladderStep(event, stage) {
    const { game } = this;
    const { round, spin } = stage;
    const shown = game.grid.screen;
    if (JSON.stringify(shown) !== JSON.stringify(spin.screen)) game.grid.show(spin.screen);
    spin.pots_after.forEach((pot, i) => this.setPot(i, pot * round.bet_minor));
    await this.collectBonus(spin, round);
    const previous = this.level;
    this.level = round.level;
    this.setLadder(round);
    if (spin.kind === 'free' && round.level > previous && previous > 0) await this.levelUp(round);
  }

  async revealGemOf(gem, spin, round) {
    const { game } = this;
    const reel = gem.reel - 1;
    await sleep(game.motion.ms('reveal'));
    game.sound.play('reveal', { n: reel });
    if (gem.reveal === 'jackpot') {
      await this.jackpotSpin(gem, spin, round);
      return;
    }
    if (gem.reveal === 'wild_reel') {
      for (let row = 0; row < game.grid.rows; row += 1) game.grid.setCell(row, reel, this.wild, 'reveal');
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
    const frame = this.overlay.parentElement.getBoundingClientRect();
    const box = column.getBoundingClientRect();
    tag.style.left = `${box.left - frame.left + box.width / 2}px`;
    tag.style.top = `${box.top - frame.top + box.height / 2}px`;
    this.overlay.parentElement.append(tag);
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
    this.overlay.append(title);
    announce(`${t('feature.jackpot_spin')}: ${this.potName(gem.jackpot)}`);
    const startedAt = performance.now();
    // the rules' gems-only spin: the reels run through the pots' gems alone
    grid.startSpin({ only: this.pots.map((pot) => this.gemOf(pot)) });
    game.sound.play('jackpotSpin');
    const won = this.gemOf(gem.jackpot);
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
      cls: `scene-jackpot pot-${gem.jackpot} theme-${this.theme}`,
      data: { pot: gem.jackpot, minor: amount },
      parts: [
        sceneArt(symbolSvg(this.theme, won)),
        sceneTitle(t('feature.jackpot_won', { pot: this.potName(gem.jackpot) })),
        value,
        sceneLine(t('win.skip'), 'scene-hint'),
      ],
      count: { el: value, to: amount, ms: game.motion.reduced ? 0 : sceneMs(game.motion, 'count') },
      holdMs: sceneMs(game.motion, 'hold'),
      particles: true,
      sound: 'jackpot',
    });
    announce(t('ladder.jackpot_announce', { pot: this.potName(gem.jackpot), amount: this.money.format(amount) }));
    grid.show(screen);
    wildReels.forEach((on, r) => grid.columns[r].column.classList.toggle('wild-reel', on));
    grid.cellAt(gem.row, reel)?.classList.add('jackpot-gem');
    game.root.classList.remove('jackpot-spin');
    delete game.root.dataset.jackpotSpin;
    this.potEls[reel].classList.remove('won');
    this.setPot(reel, spin.pots_after[reel] * round.bet_minor, { pulse: true });
  }

  /** A level up in free spins: its own moment, the ladder with the new multiplier. */
  async levelUp(round) {
    const { game } = this;
    await game.scenes.run({
      id: 'level-up',
      cls: `scene-level theme-${this.theme}`,
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
      ...this.levels.map((level) =>
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

  // -- feature scenes ---------------------------------------------------------------------

  /** Free spins won: the ladder, the level, its spins and multiplier; the player presses Start. */
  async featureIntro(round) {
    const levelInfo = this.levels[round.level - 1];
    const parts = [
      sceneArt(symbolSvg(this.theme, this.bonus)),
      sceneTitle(t('fs.intro_title', { count: round.level_spins_left })),
      sceneLine(t('fs.intro_level', { level: round.level, spins: levelInfo?.free_spins ?? round.level_spins_left, multiplier: `${round.multiplier}x` })),
      round.unlocked > round.level ? sceneLine(t('fs.intro_unlocked', { level: round.unlocked })) : null,
      this.ladderFigure(round),
    ].filter(Boolean);
    await this.game.scenes.run({
      id: 'free-spins-intro',
      cls: `scene-feature theme-${this.theme}`,
      data: { spins: round.level_spins_left },
      parts,
      button: t('scene.start'),
      sound: 'featureIntro',
    });
  }

  /** The free spins are over: the outro (`freeSpinsOutro`), then the ladder goes away. */
  async featureOutro(round) {
    const free = round.spins.slice(1);
    const freeWin = free.reduce((sum, spin) => sum + this.spinWinMinor(spin, round), 0);
    await freeSpinsOutro(this, { total: round.win_minor, freeWin, betMinor: round.bet_minor, spins: free.length });
    this.setLadder(null);
  }

  async collectBonus(spin, round) {
    const { game } = this;
    const bonusCells = [];
    spin.landed.forEach((row, r) => row.forEach((s, reel) => s === this.bonus && bonusCells.push([r, reel])));
    // a free spin collects every bonus symbol; a main-game spin fills a spot with exactly the
    // meter's feed of them
    const collects = spin.kind === 'free' ? spin.bonus > 0 : spin.bonus === this.meterFeed;
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

  afterRound(round) {
    this.setPots(round.pots_minor, round.caps_minor);
    this.setMeter(round.meter);
    this.setLadder(null);
    this.level = 0;
    for (const { column } of this.game.grid.columns) column.classList.remove('wild-reel');
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
