/**
 * The title on the game screen, the same module for every title the server serves: what it is
 * comes from its description (the rules page: grid, paylines, symbols and their roles, bets,
 * pots, free spins and their levels, the gamble; the game list's entry: the bonus and gem
 * symbols and the meter where the title has a ladder), what happens in a round from its events
 * (`presenters/`), and how it looks from its look (`look.js`: art, theme, its own words).
 * Nothing here asks which title or which kind of title it is.
 *
 * It mounts the panels the presenters draw on, each where the description has its feature:
 * the free-spins counter (`presenters/free-spins.js`) where free spins are a count, the pots
 * (`presenters/pots.js`) where a gem raises a pot above each reel, the meter and ladder
 * (`presenters/ladder.js`) where free spins climb levels, the gamble offer and screen
 * (`gamble.js`) where the title has a gamble; its bet controls are the market's (`bets.js`).
 * `game.js` lists the interface it offers the game's flow; the presenters name the hooks they
 * call.
 */
import { symbolSvg } from './art/sprite.js';
import { betsOf } from './bets.js';
import { h, label } from './dom.js';
import { GambleScreen } from './gamble.js';
import { lookOf, stillScreen } from './look.js';
import { t } from './messages.js';
import { FreeSpinsPanel } from './presenters/free-spins.js';
import { HoldAndSpinPanel } from './presenters/hold-and-spin.js';
import { LadderPanel } from './presenters/ladder.js';
import { PotsPanel } from './presenters/pots.js';
import * as view from './roundview.js';

export class Title {
  constructor(game) {
    this.game = game;
    this.money = game.money;
    const doc = game.rules;
    const rules = doc.rules;
    const look = lookOf(game.info, doc);
    this.look = look;
    this.theme = look.theme;
    this.art = look.art;
    this.marks = look.marks;
    this.words = look.words;
    this.filler = look.art.filler ?? doc.symbols.map((s) => s.id);
    this.names = Object.fromEntries(doc.symbols.map((s) => [s.id, s.name]));
    this.lines = doc.paylines.length;
    this.wild = doc.symbols.find((s) => s.role === 'wild')?.id ?? null;
    this.scatter = doc.scatter?.symbol ?? null;
    this.bonus = doc.symbols.filter((s) => s.role === 'bonus').map((s) => s.id);
    // the game list's entry for a title whose free spins climb a ladder and whose gems raise pots
    const ladder = game.info.ladder ?? null;
    this.levels = ladder && rules.free_spins?.levels?.length ? rules.free_spins.levels : null;
    this.ladderBonus = ladder?.bonus_symbol ?? null;
    this.gem = ladder?.gem_symbol ?? null;
    this.spots = ladder?.spots ?? 0;
    this.meterFeed = ladder?.meter_feed ?? 0;
    const pots = this.gem ? (rules.jackpots?.pots ?? []) : [];
    // one pot above each reel, in reel order: a gem raises its reel's
    this.potIds = pots.map((p) => p.id);
    this.potNames = Object.fromEntries(pots.map((p) => [p.id, p.pot]));
    this.hasFreeSpins = Boolean(rules.free_spins) && !this.levels;
    this.hasGamble = Boolean(rules.gamble);
    this.hasHoldAndSpin = Boolean(rules.hold_and_spin);
    // a look may set its own win tiers (celebration.js), over the market's
    if (look.winTiers) this.winTiers = look.winTiers;
    this.bets = betsOf(game);
    this.carried = false;
  }

  /** Whether a bet change asks the server for the state it carries between rounds: where the
   * title has pots or a meter, or the server has sent such state. */
  get needsCarriedState() {
    return Boolean(this.pots || this.ladder) || this.carried;
  }

  set onBetChange(fn) {
    this.bets.onChange = fn;
  }

  // -- drawing ---------------------------------------------------------------------------

  /** A symbol's sprite; a gem is drawn in the colour of the pot above its reel. */
  cell(symbol, reel) {
    const pot = this.potIds[reel];
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

  /** The text of `words[word]` with `params`, or null where the title says nothing. */
  say(word, params) {
    const key = this.words[word];
    return key ? t(key, params) : null;
  }

  /**
   * What each reel runs through while a `kind` screen (`base`, `free`) spins: the symbols its
   * strip in the reel set that screen plays carries (the rules page's `reel_symbols`; free
   * spins' set named by `rules.free_spins.reel_set`; a base screen played in an ante, the set
   * the ante names, `reelSet`; else the base set), those the art draws among them, so no reel
   * shows a symbol that never lands on it. Null where the page lists no reel sets (the
   * filler then runs on every reel).
   */
  reelFiller(kind = 'base', reelSet = null) {
    const sets = this.game.rules.reel_symbols;
    if (!sets) return null;
    const name = kind === 'free' ? (this.game.rules.rules.free_spins?.reel_set ?? 'base') : (reelSet ?? 'base');
    const reels = sets[name] ?? sets.base;
    if (!reels) return null;
    const drawn = new Set(this.filler);
    return reels.map((symbols) => {
      const shown = symbols.filter((s) => drawn.has(s));
      return shown.length ? shown : symbols;
    });
  }

  /** The art's still screen before the first spin, else `stillScreen`. */
  initialScreen() {
    return this.art.screen ?? stillScreen(this.game.rules, this.filler);
  }

  // -- bet (bets.js) ----------------------------------------------------------------------

  bet() {
    return this.bets.bet();
  }

  betMinor() {
    return this.bets.minor();
  }

  betFromRound(round) {
    return this.bets.fromRound(round);
  }

  setBet(bet) {
    this.bets.set(bet);
  }

  betOptions() {
    return this.bets.options();
  }

  chooseBet(bet) {
    this.bets.choose(bet);
  }

  mountControls(slot) {
    this.bets.mount(slot);
  }

  setEnabled(on) {
    this.bets.setEnabled(on);
  }

  // -- the panels the presenters draw on --------------------------------------------------

  mountFeature(top, side, overlay) {
    this.overlay = overlay;
    const root = this.game.root;
    if (this.bets.single) root.classList.add('bet-single');
    if (this.levels || this.potIds.length) root.classList.add('with-ladder'); // css/ladder.css
    else if (!this.look.stylesheet) root.classList.add('frame-shared'); // css/catalogue.css
    if (this.potIds.length) {
      this.pots = new PotsPanel(this);
      this.pots.mount(top);
    }
    if (this.levels) {
      this.ladder = new LadderPanel(this);
      this.ladder.mount(side);
    }
    if (this.hasFreeSpins) {
      this.freeSpins = new FreeSpinsPanel(this);
      this.freeSpins.mount(side);
    }
    if (this.hasHoldAndSpin) {
      this.holdAndSpin = new HoldAndSpinPanel(this);
      this.holdAndSpin.mount(side);
    }
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

  /** The state the server carries between rounds for the current bet (pots, meter). */
  applyCarried(carried) {
    this.carried = true;
    if (carried.pots_minor) this.pots?.setPots(carried.pots_minor, carried.caps_minor);
    if (carried.meter !== undefined) this.ladder?.setMeter(carried.meter);
  }

  /** An open round shown as it stands (resumed). */
  showRound(round) {
    if (round.pots_minor) this.pots?.setPots(round.pots_minor, round.caps_minor);
    if (this.ladder) {
      this.ladder.setMeter(round.meter);
      this.ladder.setLadder(round);
      this.ladder.level = round.level;
    }
    this.freeSpins?.showRound(round);
  }

  beforeSpin() {
    if (this.offer) this.offer.hidden = true;
    if (!this.game.round || this.game.round.phase !== 'free_spins') this.freeSpins?.hide();
    else this.freeSpins?.spinStarted(this.game.round);
    this.pots?.clearWildReels();
    this.holdAndSpin?.hide();
  }

  afterRound(round) {
    this.bought = null;
    if (this.offer) this.offer.hidden = true;
    this.freeSpins?.hide();
    if (round.pots_minor) this.pots?.setPots(round.pots_minor, round.caps_minor);
    if (this.ladder) {
      this.ladder.setMeter(round.meter);
      this.ladder.setLadder(null);
      this.ladder.level = 0;
    }
    this.pots?.clearWildReels();
  }

  /** As a reel lands, a gem on it raises its pot. */
  reelStopped(reel, stage) {
    this.pots?.raise(reel, stage);
  }

  /** The round is a bought feature (`feature_bought`): kept for the intro. */
  featureBought(event) {
    this.bought = event;
  }

  featureIntro(round) {
    return (this.ladder ?? this.freeSpins)?.intro(round);
  }

  featureOutro(round) {
    return (this.ladder ?? this.freeSpins)?.outro(round);
  }

  // -- the presenters' hooks (js/presenters/) --------------------------------------------

  /** The symbol that starts the free spins: the ladder's bonus, else the scatter, else the
   * first bonus symbol. */
  triggerSymbol() {
    return this.ladderBonus ?? this.scatter ?? this.bonus[0] ?? null;
  }

  /** Whether a `base`/`free` screen anticipates the trigger: not in a ladder's free spins,
   * where its symbols fill levels rather than trigger. */
  anticipates(kind) {
    return !(kind === 'free' && this.levels);
  }

  /** The wild (its weight drawn per ways screen is shown on it). */
  wildSymbol() {
    return this.wild;
  }

  /** The cells of the symbols that trigger free spins on `spin`'s screen, in reel order. */
  triggerCells(spin) {
    const symbols = this.scatter ? [this.scatter] : this.bonus;
    return symbols.flatMap((s) => view.cellsOf(spin.screen, s)).sort((a, b) => a[1] - b[1] || a[0] - b[0]);
  }

  /** Where the spins a free spin's trigger symbols added are shown: the look's choice, else
   * their number on the last of them. */
  retriggerBadges(spins, cells) {
    if (this.look.retrigger) return this.look.retrigger(spins, cells);
    const last = cells.at(-1);
    return last ? [[last[0], last[1], `+${spins}`]] : [];
  }

  // -- the round's view read back (roundview.js) ------------------------------------------

  roundWinMinor(round) {
    return view.roundWinMinor(round);
  }

  spinWinMinor(spin, round) {
    return view.coinsMinor(spin.win_coins, round, this.lines);
  }

  winItems(round) {
    return view.winItems(round, this);
  }

  chainItems(round) {
    return view.chainItems(round, this);
  }

  lastScreen(round) {
    return view.lastScreen(round);
  }

  /** What the history says of a spin beyond its wins: reveals, spins added, the multiplier. */
  spinNotes(spin, round) {
    if (!this.freeSpins) return [];
    const symbol = this.name(this.triggerSymbol() ?? '');
    const triggers = spin.triggers ?? this.triggerCells(spin).length;
    const notes = [];
    if (spin.reveals?.length) notes.push(this.say('historyReveals', { symbol, triggers, reveals: spin.reveals.join(' + '), count: round.free_spins_awarded }));
    else if (spin.kind === 'base' && spin.spins_added) notes.push(this.say('historyTrigger', { symbol, triggers, count: spin.spins_added }));
    if (spin.kind === 'free' && spin.spins_added) notes.push(this.say('historyRetrigger', { symbol, triggers, count: spin.spins_added }));
    if (spin.kind === 'free' && round.free_spins_multiplier > 1) notes.push(t('history.multiplier', { multiplier: round.free_spins_multiplier }));
    return notes.filter(Boolean);
  }

  // -- the gamble (where the title has one) -------------------------------------------------

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
}

/** The screen part of `info` (a game of `/api/games`) for `game`. */
export function createTitle(_info, game) {
  return new Title(game);
}
