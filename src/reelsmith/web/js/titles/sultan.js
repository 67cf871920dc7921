/**
 * Sultan Spins: the bet ladder, the five gem pots above the reels for the current bet size
 * (rising as gems land), gem reveals (symbol, wild, wild reel, jackpot spin), the free-spins
 * ladder (level, multiplier, spins left) and the 5-spot collection meter.
 */
import { symbolSvg } from '../art/sprite.js';
import { filler } from '../art/sultan-symbols.js';
import { announce, h, label, sleep } from '../dom.js';
import { Stepper } from '../stepper.js';
import { flashBanner } from './banner.js';

const BET_STORE = 'reelsmith.bet.sultan-spins';

export class SultanUi {
  constructor(game) {
    this.game = game;
    this.money = game.money;
    this.theme = 'sultan';
    this.filler = filler;
    this.needsCarriedState = true;
    const doc = game.rules;
    this.names = Object.fromEntries(doc.symbols.map((s) => [s.id, s.name]));
    this.lines = doc.paylines.length;
    this.pots = doc.rules.jackpots.pots.map((p) => p.pot);
    this.levels = doc.rules.free_spins.levels;
    this.spots = 5;
    const maxStake = this.money.toMinor(game.market.max_stake);
    this.bets = game.gameMarket.bets.filter((b) => this.money.toMinor(b) <= maxStake);
    const saved = localStorage.getItem(BET_STORE);
    const fallback = this.bets.includes(doc.rules.bets.default) ? doc.rules.bets.default : this.bets[0];
    this.current = this.bets.includes(saved) ? saved : fallback;
    this.potMinor = [];
    this.capMinor = [];
    this.level = 0;
    this.onBetChange = () => {};
  }

  cell(symbol, reel) {
    if (symbol === 'gem') return symbolSvg('sultan', `gem-${this.pots[reel] ?? 'teal'}`);
    return symbolSvg('sultan', symbol);
  }

  name(symbol) {
    return this.names[symbol] ?? label(symbol);
  }

  initialScreen() {
    return [
      ['sultan', 'lamp', 'princess', 'dagger', 'king'],
      ['ace', 'wild', 'queen', 'bonus', 'jack'],
      ['lamp', 'ten', 'dagger', 'princess', 'ace'],
      ['queen', 'jack', 'king', 'ten', 'sultan'],
    ];
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

  mountControls(slot) {
    this.stepper = new Stepper({
      id: 'bet',
      label: 'Bet',
      values: this.bets,
      value: this.current,
      format: (v) => this.money.formatDecimal(v),
      onChange: (v) => {
        this.current = v;
        localStorage.setItem(BET_STORE, v);
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
    this.potEls = this.pots.map((name, i) =>
      h(
        'div',
        { class: `pot pot-${name}`, dataset: { pot: name, reel: i + 1 } },
        h('span', { class: 'pot-gem', html: symbolSvg('sultan', `gem-${name}`) }),
        h('span', { class: 'pot-name' }, `${label(name)}`),
        h('output', { class: 'pot-value' }, '—'),
        h('span', { class: 'pot-cap' }),
      ),
    );
    this.potsCaption = h('p', { class: 'pots-caption' });
    top.append(h('div', { class: 'pots', id: 'pots', role: 'group', 'aria-label': 'Gem jackpots' }, ...this.potEls), this.potsCaption);

    this.meter = h('div', { class: 'meter-spots', id: 'meter', dataset: { filled: '0' }, role: 'img' });
    for (let i = 0; i < this.spots; i += 1) {
      this.meter.append(h('span', { class: 'spot', html: symbolSvg('sultan', 'bonus') }));
    }
    this.ladder = h('ol', { class: 'ladder', id: 'ladder', hidden: true, 'aria-label': 'Free spins levels' });
    for (const level of this.levels) {
      this.ladder.append(
        h(
          'li',
          { class: 'ladder-level', dataset: { level: level.level } },
          h('span', { class: 'ladder-name' }, `Level ${level.level}`),
          h('span', { class: 'ladder-mult' }, level.multiplier),
        ),
      );
    }
    this.ladderStatus = h(
      'p',
      { class: 'ladder-status', id: 'ladder-status', hidden: true },
      'Level ', h('b', { id: 'ladder-level' }, '1'),
      ' · ', h('b', { id: 'ladder-multiplier' }, '1x'),
      ' · ', h('b', { id: 'ladder-left', 'data-count': '0' }, '0'), ' spins left',
    );
    side.append(
      h('div', { class: 'collection' }, h('span', { class: 'collection-label' }, 'Bonus meter'), this.meter),
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
      this.potEls[i].querySelector('.pot-cap').replaceChildren(h('span', { class: 'pot-cap-label' }, 'won by '), this.money.format(cap));
      this.potEls[i].dataset.capMinor = String(cap);
    });
    this.potsCaption.textContent = `Jackpots for the ${this.money.formatDecimal(this.current)} bet`;
  }

  setMeter(filled) {
    this.meter.dataset.filled = String(filled);
    this.meter.setAttribute('aria-label', `Bonus meter: ${filled} of ${this.spots} spots`);
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
    this.spots = carried.spots ?? this.spots;
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

  async presentSpin(resp, { startedAt }) {
    const { game } = this;
    const round = resp.round;
    const spin = round.spins.at(-1);
    const betMinor = round.bet_minor;
    const gems = new Map(spin.gems.map((g) => [g.reel - 1, g]));
    if (!this.capMinor.length) this.setPots(round.pots_minor, round.caps_minor);
    await game.grid.land(spin.landed, {
      startedAt,
      minSpinMs: game.motion.ms('minSpin'),
      gapMs: game.motion.ms('reelGap'),
      onReelStop: (reel) => {
        const gem = gems.get(reel);
        if (!gem) return;
        // The gem raises its pot by the bet as it lands.
        this.setPot(reel, gem.pot_after * betMinor, { pulse: true });
        game.grid.cellAt(gem.row, reel)?.classList.add('gem-landed');
      },
    });
    for (const gem of spin.gems) await this.revealGem(gem, spin, round);
    // The screen the lines were paid on.
    const shown = game.grid.screen;
    if (JSON.stringify(shown) !== JSON.stringify(spin.screen)) game.grid.show(spin.screen);
    spin.pots_after.forEach((pot, i) => this.setPot(i, pot * betMinor));
    await this.collectBonus(spin, round);
    const previous = this.level;
    this.level = round.level;
    this.setLadder(round);
    if (spin.kind === 'base' && round.phase === 'free_spins') {
      const levelInfo = this.levels[round.level - 1];
      await flashBanner(this.overlay, {
        title: 'Free spins',
        detail: `Level ${round.level} · ${levelInfo?.free_spins ?? 7} spins · ${round.multiplier}x${round.unlocked > 1 ? ` · level ${round.unlocked} unlocked` : ''}`,
        art: symbolSvg('sultan', 'bonus'),
        cls: 'banner-sultan',
        ms: game.motion.ms('banner'),
        id: 'free-spins-banner',
      });
    } else if (spin.kind === 'free' && round.level > previous && previous > 0) {
      await flashBanner(this.overlay, {
        title: `Level ${round.level}`,
        detail: `${round.multiplier}x multiplier · ${round.level_spins_left} spins`,
        cls: 'banner-sultan',
        ms: game.motion.ms('banner'),
      });
    } else if (spin.kind === 'free' && round.phase !== 'free_spins') {
      await flashBanner(this.overlay, {
        title: 'Free spins complete',
        detail: `Won ${this.money.format(round.win_minor)}`,
        cls: 'banner-sultan',
        ms: game.motion.ms('banner'),
      });
    }
  }

  async revealGem(gem, spin, round) {
    const { game } = this;
    const reel = gem.reel - 1;
    await sleep(game.motion.ms('reveal'));
    if (gem.reveal === 'jackpot') {
      const amount = gem.jackpot_bets * round.bet_minor;
      game.grid.cellAt(gem.row, reel)?.classList.add('jackpot-gem');
      this.potEls[reel].classList.add('won');
      announce(`${label(gem.jackpot)} jackpot! ${this.money.format(amount)}`);
      game.root.classList.add('jackpot-flash');
      await flashBanner(this.overlay, {
        title: `${label(gem.jackpot)} jackpot`,
        detail: this.money.format(amount),
        art: symbolSvg('sultan', `gem-${gem.jackpot}`),
        cls: `banner-jackpot pot-${gem.jackpot}`,
        ms: game.motion.ms('banner') * 2,
        id: 'jackpot-event',
      });
      game.root.classList.remove('jackpot-flash');
      this.potEls[reel].classList.remove('won');
      this.setPot(reel, spin.pots_after[reel] * round.bet_minor, { pulse: true });
      return;
    }
    if (gem.reveal === 'wild_reel') {
      for (let row = 0; row < game.grid.rows; row += 1) game.grid.setCell(row, reel, 'wild', 'reveal');
      game.grid.columns[reel].column.classList.add('wild-reel');
      announce(`Wild reel on reel ${gem.reel}`);
      return;
    }
    game.grid.setCell(gem.row, reel, gem.reveal, 'reveal');
  }

  async collectBonus(spin, round) {
    const { game } = this;
    const bonusCells = [];
    spin.landed.forEach((row, r) => row.forEach((s, reel) => s === 'bonus' && bonusCells.push([r, reel])));
    const collects = spin.kind === 'free' ? spin.bonus > 0 : spin.bonus === 2;
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
      text: `Line ${w.line}: ${w.count} × ${this.name(w.symbol)} pays ${this.money.format(this.coinsMinor(w.coins, round))}${spin.multiplier > 1 ? ` (${spin.multiplier}x)` : ''}`,
    }));
    for (const gem of spin.gems.filter((g) => g.reveal === 'jackpot')) {
      items.push({
        positions: [[gem.row, gem.reel - 1]],
        text: `${label(gem.jackpot)} jackpot pays ${this.money.format(gem.jackpot_bets * round.bet_minor)}`,
      });
    }
    return items;
  }

  lastScreen(round) {
    return round.spins.at(-1).screen;
  }
}
