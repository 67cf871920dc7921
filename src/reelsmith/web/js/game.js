/**
 * One title's screen and its round flow, shared by every title: spin, free spins, the gamble,
 * autoplay, resume of an open round, errors. A step's answer is played from its events, each
 * through its kind's presenter (`presenters/index.js`): the reels stopping, wins, cascades,
 * gems, awards, ladder steps. The title (`title.js`, one module for every title: its art and
 * theme, bet controls and the panels the presenters draw on, from its description) offers:
 *
 *   theme, reels, rows, filler, cell(symbol, reel), name(symbol)
 *   mountControls(slot), mountFeature(top, side, overlay), bet(), betMinor(), setBet(json),
 *   setEnabled(on), onBetChange (set by the game), applyCarried(carried),
 *   betOptions() and chooseBet(bet) (the phones' total-bet picker, js/betpicker.js),
 *   showRound(round), roundWinMinor(round), winItems(round) (a resumed round and the
 *   history, which replay no events), lastScreen(round), afterRound(resp),
 *   and the presenters' hooks (each presenter module names the ones it calls)
 */
import { ApiError } from './api.js';
import { AutoplayDialog } from './autoplay.js';
import { BetPicker } from './betpicker.js';
import { WinPresenter } from './celebration.js';
import { announce, h, sleep } from './dom.js';
import { mountFullscreenButton } from './fullscreen.js';
import { HistoryDialog } from './history.js';
import { GameMenu } from './menu.js';
import { describe, language, t } from './messages.js';
import { ModesPanel } from './modes.js';
import { ReelGrid } from './reels.js';
import { RulesDialog } from './rules.js';
import { Scenes } from './scenes.js';
import { sound } from './sound.js';
import { mountMuteButton, mountSoundControls } from './soundui.js';
import { newStage, playStep } from './presenters/index.js';
import { mark } from './timeline.js';
import { createTitle } from './title.js';
import { WinMeter } from './winmeter.js';

/** The bar's icons (shown instead of the words where the bar is narrow). */
const ICONS = {
  autoplay:
    '<svg viewBox="0 0 24 24" width="22" height="22"><path d="M12 4a8 8 0 1 0 7.75 10" fill="none" stroke="currentColor" stroke-width="2.4" stroke-linecap="round"/><path d="M14.5 2.5 20 4l-2 5.2" fill="none" stroke="currentColor" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round"/><path d="M10 8.5v7l5.5-3.5z" fill="currentColor"/></svg>',
  turbo: '<svg viewBox="0 0 24 24" width="22" height="22"><path d="M13.5 2 5 13.5h6L9.5 22 19 9.5h-6.2z" fill="currentColor"/></svg>',
};

/** Why an autoplay stopped, by the server's stop reason: keys of the message catalogue. */
const STOP_MESSAGES = {
  feature: 'autoplay.stopped_feature',
  single_win_above: 'autoplay.stopped_single_win_above',
  loss_limit: 'autoplay.stopped_loss_limit',
  rounds_done: 'autoplay.stopped_rounds_done',
  player: 'autoplay.stopped_player',
  replaced: 'autoplay.stopped_replaced',
  jackpot: 'autoplay.stopped_jackpot',
  balance_changed: 'autoplay.stopped_balance',
};

export class Game {
  constructor(app, info) {
    this.app = app;
    this.info = info;
    this.id = info.id;
    this.name = info.name;
    this.api = app.api;
    this.money = app.money;
    this.motion = app.motion;
    this.market = app.market;
    this.gameMarket = app.market.games[this.id];
    this.round = null;
    this.roundId = null;
    this.state = 'loading';
    this.autoplay = null;
    this.autoStop = false;
    this.cycleToken = 0;
    this.gambleOpen = false;
    this.destroyed = false;
    this.dialogs = [];
    this.sound = sound;
  }

  // ---------------------------------------------------------------------------------
  // building the screen
  // ---------------------------------------------------------------------------------

  async mount(view) {
    this.rules = await this.api.get(`/api/games/${this.id}/rules?lang=${language()}`);
    this.ui = createTitle(this.info, this);
    this.grid = new ReelGrid({
      reels: this.rules.reels,
      rows: this.rules.rows,
      paylines: this.rules.paylines,
      cell: (symbol, reel) => this.ui.cell(symbol, reel),
      name: (symbol) => this.ui.name(symbol),
      filler: this.ui.filler,
    });
    this.win = null;
    this.build(view);
    this.ui.onBetChange = () => this.betChanged();
    await this.loadState({ first: true });
  }

  build(view) {
    const theme = this.ui.theme;
    this.top = h('div', { class: 'stage-top' });
    this.side = h('div', { class: 'stage-feature' });
    this.overlay = h('div', { class: 'stage-overlay', 'aria-live': 'polite' });
    this.caption = h('p', { class: 'win-caption', id: 'win-caption', 'aria-live': 'polite' });
    this.spinButton = h(
      'button',
      { type: 'button', id: 'spin', class: 'spin-button', onclick: () => this.primary() },
      h('span', { class: 'spin-icon', 'aria-hidden': 'true' }),
      h('span', { class: 'spin-label' }, t('game.spin')),
    );
    const winOutput = h('output', { id: 'win', class: 'meter-value', 'data-minor': '0' });
    const betOutput = h('output', { id: 'bet-total', class: 'meter-value' });
    this.betOutput = betOutput;
    const betSlot = h('div', { class: 'bet-controls', dataset: { bar: 'bet' } });
    if (this.market.autoplay) {
      this.autoplayButton = h(
        'button',
        { type: 'button', id: 'autoplay', class: 'btn bar-btn', dataset: { bar: 'autoplay' }, 'aria-label': t('game.autoplay'), onclick: () => this.openAutoplay() },
        h('span', { class: 'bar-icon', 'aria-hidden': 'true', html: ICONS.autoplay }),
        h('span', { class: 'bar-text' }, t('game.autoplay')),
      );
    }
    if (this.market.turbo) {
      this.turboButton = h(
        'button',
        {
          type: 'button',
          id: 'turbo',
          class: 'btn bar-btn',
          dataset: { bar: 'turbo' },
          'aria-pressed': String(this.motion.turbo),
          'aria-label': t('game.turbo'),
          onclick: () => this.toggleTurbo(),
        },
        h('span', { class: 'bar-icon', 'aria-hidden': 'true', html: ICONS.turbo }),
        h('span', { class: 'bar-text' }, t('game.turbo')),
      );
    }
    this.menuButton = h(
      'button',
      {
        type: 'button',
        id: 'menu',
        class: 'btn bar-btn menu-button',
        dataset: { bar: 'menu' },
        'aria-haspopup': 'dialog',
        'aria-label': t('menu.open'),
        onclick: () => this.openMenu(),
      },
      h('span', { class: 'menu-icon', 'aria-hidden': 'true' }),
    );
    this.autoplayStatus = h(
      'div',
      { class: 'autoplay-status', id: 'autoplay-status', hidden: true, role: 'status' },
      h('span', { class: 'autoplay-remaining' }),
      h(
        'span',
        { class: 'autoplay-count', 'aria-hidden': 'true' },
        h('span', { class: 'autoplay-count-icon', html: ICONS.autoplay }),
        h('span', { class: 'autoplay-count-text' }),
      ),
      h('button', { type: 'button', id: 'autoplay-stop', class: 'btn btn-small', onclick: () => this.stopAutoplay() }, t('game.autoplay_stop')),
    );
    this.sessionSlot = h('div', { class: 'game-session' });
    this.balanceSlot = h('div', { class: 'meter meter-balance', dataset: { bar: 'balance' } });
    this.root = h(
      'section',
      { class: `game theme-${theme}`, 'data-game': this.id, 'data-state': 'loading', 'aria-label': this.name },
      h(
        'header',
        { class: 'game-head' },
        this.sessionSlot,
        h('div', { class: 'game-head-centre' }, h('h1', { class: 'game-title' }, this.name), this.autoplayStatus),
      ),
      h(
        'div',
        { class: 'stage' },
        this.top,
        this.side,
        h('div', { class: 'reel-frame' }, this.grid.element, this.overlay),
        this.caption,
      ),
      h(
        'div',
        { class: 'controls', id: 'controls' },
        this.menuButton,
        this.balanceSlot,
        betSlot,
        h('div', { class: 'meter meter-bet', dataset: { bar: 'total' } }, h('span', { class: 'meter-label' }, t('game.bet')), betOutput),
        h('div', { class: 'meter meter-win', dataset: { bar: 'win' } }, h('span', { class: 'meter-label' }, t('game.win')), winOutput),
        this.autoplayButton ?? null,
        h('div', { class: 'spin-slot', dataset: { bar: 'spin' } }, this.spinButton),
        this.turboButton ?? null,
      ),
    );
    view.replaceChildren(this.root);
    const bar = this.root.querySelector('.controls');
    // --bar-h: the bar's height; --reels-foot: from the reel window's bottom edge to the
    // screen's, so a notice lies over the foot of the reels inside their frame, not across it
    this.barSize = new ResizeObserver(() => {
      document.body.style.setProperty('--bar-h', `${bar.offsetHeight}px`);
      const reels = this.grid.element.getBoundingClientRect();
      if (reels.height) document.body.style.setProperty('--reels-foot', `${Math.round(innerHeight - reels.bottom)}px`);
    });
    this.barSize.observe(bar);
    this.barSize.observe(this.grid.element);
    this.app.placeSessionInfo(this.sessionSlot, this.balanceSlot);
    this.menu = new GameMenu(this);
    this.soundUi = mountSoundControls(this.sound, this.menu.slot('sound'));
    this.muteUi = mountMuteButton(this.sound);
    this.fullscreenUi = mountFullscreenButton();
    this.root
      .querySelector('.game-head')
      .append(h('div', { class: 'head-tools' }, this.fullscreenUi?.element ?? null, this.muteUi.element));
    this.win = new WinMeter(winOutput, this.money);
    this.ui.mountControls(betSlot);
    if (this.ui.betOptions) {
      this.betPicker = new BetPicker({ ui: this.ui, money: this.money });
      betSlot.append(this.betPicker.element);
      this.dialogs.push(this.betPicker);
    }
    this.ui.mountFeature(this.top, this.side, this.overlay);
    // the bet modes the market sells for the title (js/modes.js): an ante, a bought feature
    if (this.info.modes?.length) {
      this.modes = new ModesPanel(this, this.info.modes);
      this.side.prepend(this.modes.element);
      this.root.classList.add('with-modes');
      this.dialogs.push(this.modes);
    }
    this.scenes = new Scenes(this);
    this.dialogs.push(this.scenes);
    this.presenter = new WinPresenter(this);
    this.sound.music(theme);
    this.updateBetOutput();
    this.grid.show(this.ui.initialScreen());
  }

  destroy() {
    this.app.placeSessionInfo(null, null);
    this.destroyed = true;
    this.autoStop = true;
    this.cycleToken += 1;
    for (const dialog of this.dialogs) dialog.remove();
    this.soundUi?.destroy();
    this.muteUi?.destroy();
    this.fullscreenUi?.destroy();
    this.barSize?.disconnect();
    this.sound.music(null);
  }

  updateBetOutput() {
    // what a spin costs: the bet, times the ante's price where the ante is on
    const minor = this.modes?.spinMinor(this.ui.betMinor(), { autoplay: Boolean(this.autoplay) }) ?? this.ui.betMinor();
    this.betOutput.textContent = this.money.format(minor);
    this.betOutput.dataset.minor = String(minor);
    const balance = this.app.balanceMinor;
    this.betOutput.classList.toggle('over-balance', balance !== null && minor > balance);
    this.betPicker?.render();
    this.modes?.render();
  }

  // ---------------------------------------------------------------------------------
  // state
  // ---------------------------------------------------------------------------------

  /** idle | busy | spinning | feature | paused | gamble */
  setState(state) {
    this.state = state;
    const shown = this.autoplay ? 'autoplay' : state;
    this.root.dataset.state = shown;
    const label = this.spinButton.querySelector('.spin-label');
    let text = t('game.spin');
    let disabled = false;
    if (this.autoplay) text = t('game.stop');
    else if (state === 'spinning') {
      text = t('game.spin');
      disabled = !this.market.slam_stop;
      if (this.market.slam_stop) text = t('game.stop');
    } else if (state === 'paused') text = t('game.continue');
    else if (state === 'busy' || state === 'feature' || state === 'loading') disabled = true;
    label.textContent = text;
    this.spinButton.classList.toggle('long-label', text.length > 5);
    this.spinButton.classList.toggle('longer-label', text.length > 6);
    this.spinButton.disabled = disabled;
    this.spinButton.classList.toggle('is-stop', Boolean(this.autoplay) || (state === 'spinning' && this.market.slam_stop));
    const betLocked = state !== 'idle' && state !== 'gamble';
    this.ui.setEnabled(!betLocked && !this.autoplay);
    this.betPicker?.setEnabled(!betLocked && !this.autoplay);
    this.modes?.setEnabled(state === 'idle' && !this.autoplay && !this.gambleOpen);
    this.modes?.setShown(!(this.round && this.round.phase === 'free_spins'));
    if (this.autoplayButton) this.autoplayButton.disabled = Boolean(this.autoplay) || !['idle', 'gamble'].includes(state);
  }

  /** Whether a reality check may be shown now: not while a round step runs. */
  get interruptible() {
    return !this.autoplay && ['idle', 'gamble', 'paused'].includes(this.state);
  }

  get ready() {
    return !this.autoplay && (this.state === 'idle' || this.state === 'gamble');
  }

  // ---------------------------------------------------------------------------------
  // server state: resume an open round, carried state, active autoplay
  // ---------------------------------------------------------------------------------

  async loadState({ first = false } = {}) {
    let state;
    try {
      const bet = encodeURIComponent(JSON.stringify(this.ui.bet()));
      state = await this.api.get(`/api/games/${this.id}/state?bet=${bet}`);
    } catch (error) {
      this.app.handleError(error);
      this.setState('idle');
      return;
    }
    this.app.setBalance(state.balance.minor);
    const open = state.open_round;
    if (open) {
      this.round = open.round;
      this.roundId = open.round_id;
      this.ui.setBet(this.ui.betFromRound(open.round));
      this.updateBetOutput();
      // a bought feature's round has no screen until its first free spin
      if (open.round.spins.length) this.grid.show(this.ui.lastScreen(open.round));
      this.ui.showRound(open.round);
      this.showWinItems(open.round, { cycle: true });
      this.win.set(this.ui.roundWinMinor(open.round));
      if (open.round.phase === 'free_spins') {
        this.setState('paused');
        this.app.messages.notice(t('game.free_spins_waiting'), 6000);
      } else if (open.round.phase === 'gamble') {
        this.setState('gamble');
        this.ui.offerGamble?.(open.round, { resumed: true });
        this.app.messages.notice(t('game.win_waiting'), 6000);
      }
    } else {
      this.round = null;
      this.roundId = null;
      if (state.carried_state) this.ui.applyCarried(state.carried_state);
      this.setState('idle');
    }
    if (state.autoplay && state.autoplay.status === 'active' && first && !open) {
      const remaining = state.autoplay.remaining;
      this.app.messages.show(t('game.autoplay_active', { count: remaining }), {
        kind: 'info',
        actions: [
          { label: t('game.autoplay_resume'), run: () => { this.app.messages.clear(); this.runAutoplay(state.autoplay); } },
          { label: t('game.autoplay_stop_it'), run: () => this.stopServerAutoplay(state.autoplay.id) },
        ],
      });
    }
  }

  async refreshBalance() {
    try {
      const me = await this.api.get('/api/me');
      this.app.setBalance(me.balance.minor);
      this.app.setSessionNet(me.session_net);
    } catch (error) {
      this.app.handleError(error);
    }
  }

  async betChanged() {
    this.updateBetOutput();
    if (this.round) return;
    if (!this.ui.needsCarriedState) return;
    try {
      const bet = encodeURIComponent(JSON.stringify(this.ui.bet()));
      const state = await this.api.get(`/api/games/${this.id}/state?bet=${bet}`);
      if (state.carried_state) this.ui.applyCarried(state.carried_state);
    } catch (error) {
      this.app.handleError(error);
    }
  }

  // ---------------------------------------------------------------------------------
  // the main button (and the space bar)
  // ---------------------------------------------------------------------------------

  async primary() {
    if (this.scenes?.press()) return; // a scene showing takes the press (skip, start, go on)
    if (this.autoplay) return this.stopAutoplay();
    if (this.state === 'spinning') {
      if (this.market.slam_stop) this.grid.hurry();
      return;
    }
    if (this.state === 'paused') {
      this.app.messages.clear();
      return this.playOut();
    }
    if (!this.ready || this.gambleOpen) return;
    this.app.messages.clear();
    if (this.state === 'gamble') {
      this.setState('busy');
      const collected = await this.collect();
      if (!collected) return;
    }
    return this.playRound();
  }

  /** Spin, then play the round out (free spins) and offer the gamble. */
  async playRound({ mode = null } = {}) {
    const resp = await this.spin({ mode });
    if (!resp) return;
    await this.playOut();
  }

  /** Buy the feature `mode` (its price confirmed by the player, js/modes.js): the round starts
   * in its free spins, played through the same presenters as any. */
  async buyFeature(mode) {
    if (!this.ready || this.gambleOpen) return;
    this.app.messages.clear();
    if (this.state === 'gamble') {
      this.setState('busy');
      const collected = await this.collect();
      if (!collected) return;
    }
    return this.playRound({ mode });
  }

  /** Continue the open round: free spins, then the gamble offer or the end of the round. */
  async playOut({ auto = false } = {}) {
    const inFeature = this.round?.phase === 'free_spins';
    // the intro after the screen that triggered the feature, or after a bought feature (no
    // screen yet)
    const started = !this.round?.spins.length || this.round.spins.at(-1).kind === 'base';
    if (inFeature && started) await this.ui.featureIntro?.(this.round);
    while (this.round && this.round.phase === 'free_spins' && !this.destroyed) {
      this.setState('feature');
      await sleep(this.motion.ms('freePause'));
      const resp = await this.freeSpin();
      if (!resp) {
        this.setState('paused');
        return false;
      }
    }
    if (inFeature && this.round && this.round.phase !== 'free_spins') await this.ui.featureOutro?.(this.round);
    if (this.round && this.round.phase === 'gamble') {
      if (auto) return this.collect();
      this.setState('gamble');
      this.ui.offerGamble?.(this.round, { resumed: false });
      return true;
    }
    this.roundDone();
    return true;
  }

  roundDone() {
    if (this.round) this.ui.afterRound?.(this.round);
    this.round = null;
    this.roundId = null;
    this.setState('idle');
    this.updateBetOutput();
  }

  // ---------------------------------------------------------------------------------
  // round steps
  // ---------------------------------------------------------------------------------

  /** Start a round: the base game, the ante where it is on, or `mode` (a bought feature). */
  async spin({ autoplayId = null, mode = null } = {}) {
    // a reality check that is due is answered before a new round starts
    if (this.app.reality && !(await this.app.reality.beforeRound())) return null;
    if (this.destroyed) return null;
    const bet = this.ui.bet();
    const played = mode ?? this.modes?.spinMode({ autoplay: Boolean(autoplayId) }) ?? null;
    if (played) {
      // a mode's round is never lowered to the balance: say why it cannot start
      const sold = this.info.modes.find((m) => m.name === played);
      const trouble = this.modes.problem(sold, this.ui.betMinor());
      if (trouble) {
        this.app.messages.show(this.modes.message(trouble), { kind: 'warning' });
        return null;
      }
    }
    this.setState('busy');
    await this.app.gate.wait();
    if (this.destroyed) return null;
    this.cycleToken += 1;
    this.caption.textContent = '';
    this.win.set(0);
    // a round the player starts: the notices of the one before (an autoplay stopped) go, so
    // none lies over this round's win
    if (!autoplayId) this.app.messages.clearNotices();
    this.ui.beforeSpin?.();
    this.setState('spinning');
    const startedAt = performance.now();
    mark('step-start', { kind: 'base' });
    this.clearStage();
    // a bought feature's round starts in its free spins: no base screen is spun
    const playedMode = played ? this.info.modes.find((m) => m.name === played) : null;
    const bought = playedMode?.kind === 'buy';
    if (!bought) {
      // an ante's base screen spins the reel set it names (the game list's `reel_set`)
      const reelSet = playedMode?.kind === 'ante' ? (playedMode.reel_set ?? null) : null;
      this.grid.startSpin({ filler: this.ui.reelFiller?.('base', reelSet) });
      this.sound.play('spin');
    }
    this.app.gate.mark();
    const body = { bet };
    if (played) body.mode = played;
    if (autoplayId) {
      body.autoplay_id = autoplayId;
      // Autoplay never gambles: its wins are paid with the spin (no collect request).
      body.gamble = false;
    }
    let resp;
    try {
      resp = await this.request(`/api/games/${this.id}/spin`, body, { forcible: true });
    } catch (error) {
      this.grid.cancel();
      this.setState('idle');
      await this.stepFailed(error);
      return null;
    }
    this.takeRound(resp);
    if (resp.bet_lowered) {
      this.ui.setBet(resp.bet_lowered.to);
      this.updateBetOutput();
      this.app.messages.show(
        t('game.bet_lowered', { bet: this.money.format(resp.bet.minor) }),
        { kind: 'warning' },
      );
    }
    await this.present(resp, startedAt);
    return resp;
  }

  async freeSpin() {
    this.cycleToken += 1;
    this.caption.textContent = '';
    this.ui.beforeSpin?.();
    this.setState('spinning');
    const startedAt = performance.now();
    mark('step-start', { kind: 'free' });
    this.clearStage();
    this.grid.startSpin({ filler: this.ui.reelFiller?.('free') });
    this.sound.play('spin');
    let resp;
    try {
      resp = await this.request(
        `/api/games/${this.id}/rounds/${this.roundId}/free-spin`,
        {},
        { forcible: true },
      );
    } catch (error) {
      this.grid.cancel();
      await this.stepFailed(error);
      return null;
    }
    this.takeRound(resp);
    await this.present(resp, startedAt);
    this.setState('feature');
    return resp;
  }

  /** Gamble `choice` on the pending win (the Tsar's gamble screen calls this). */
  async gamble(choice) {
    this.setState('busy');
    let resp;
    try {
      resp = await this.request(
        `/api/games/${this.id}/rounds/${this.roundId}/gamble`,
        { choice },
        { forcible: true },
      );
    } catch (error) {
      this.setState('gamble');
      await this.stepFailed(error);
      return null;
    }
    this.takeRound(resp);
    this.app.setBalance(resp.balance.minor);
    this.app.setSessionNet(resp.session_net);
    if (resp.autoplay) this.updateAutoplay(resp.autoplay);
    this.takeNextBet(resp);
    return resp;
  }

  /** Take the pending win. */
  async collect() {
    this.setState('busy');
    let resp;
    try {
      resp = await this.request(
        `/api/games/${this.id}/rounds/${this.roundId}/collect`,
        {},
        { forcible: false }, // collecting draws nothing: queued draws wait for the next spin
      );
    } catch (error) {
      this.setState('gamble');
      await this.stepFailed(error);
      return null;
    }
    this.takeRound(resp);
    this.ui.closeGamble?.();
    this.win.set(resp.win.minor, { celebrate: resp.celebrate });
    this.app.setBalance(resp.balance.minor);
    this.app.setSessionNet(resp.session_net);
    // the step that ends an autoplay round carries its count and stop conditions' verdict
    if (resp.autoplay) this.updateAutoplay(resp.autoplay);
    this.takeNextBet(resp);
    announce(t('game.collected', { win: this.money.format(resp.win.minor), balance: this.money.format(resp.balance.minor) }));
    this.roundDone();
    return resp;
  }

  /** Before a screen spins: the last one's wins and a cascade's multiplier go. */
  clearStage() {
    this.presenter.clear();
    const multiplier = this.root.querySelector('#cascade-multiplier');
    if (multiplier) multiplier.hidden = true;
    delete this.root.dataset.cascadeStep;
  }

  takeRound(resp) {
    this.round = resp.round;
    this.roundId = resp.round_id;
    if (resp.status === 'voided') {
      this.app.messages.show(
        t('game.voided'),
        { kind: 'warning' },
      );
    }
  }

  /** Land the reels and show what the step won; settle the balance shown. */
  async present(resp, startedAt) {
    // The balance shows the bet taken; a win paid in this step is added after it is shown.
    const paidNow = resp.status === 'complete' ? resp.win.minor : 0;
    this.app.setBalance(resp.balance.minor - paidNow);
    if (!resp.round.spins.length) this.grid.cancel(); // a step with no screen (a bought feature)
    const stage = await playStep(newStage(this, resp, { startedAt }));
    mark('step-landed');
    await this.showWin(resp, stage);
    this.app.setBalance(resp.balance.minor);
    this.app.setSessionNet(resp.session_net);
    if (resp.autoplay) this.updateAutoplay(resp.autoplay);
    this.takeNextBet(resp);
  }

  /** The step that finished a round left the balance below its bet: the server lowered the
   * bet for the next spin, and the player sees it now rather than at that spin. */
  takeNextBet(resp) {
    if (!resp.next_bet) return;
    this.ui.setBet(resp.next_bet.to);
    this.updateBetOutput();
    this.app.messages.show(
      t('game.next_bet_lowered', { bet: this.money.format(resp.next_bet.total.minor) }),
      { kind: 'warning' },
    );
  }

  /** Show the step's win: the wins of the screen showing (`stage.items`, gathered by the
   * presenters), the step's whole win on the meter. */
  async showWin(resp, stage) {
    const round = resp.round;
    const total = this.ui.roundWinMinor(round);
    const celebrate =
      total > 0 && (resp.celebrate || this.market.celebrate_wins_not_above_stake || total > resp.bet.minor);
    // Where the market says so, a win that does not exceed the stake is shown, not celebrated.
    this.grid.element.classList.toggle('quiet', total > 0 && !celebrate);
    const items = stage.items;
    const spin = round.spins?.at(-1);
    const stepWin = spin ? this.ui.spinWinMinor(spin, round) : 0;
    const shown = stage.presentedMinor ?? 0;
    await this.presenter.present(resp, { total, stepWin, items, shown, celebrate });
    if (stepWin > 0) {
      announce(t('game.win_announce', { amount: this.money.format(stepWin), items: items.map((i) => i.text).join('. ') }));
    }
  }

  /** Draw the last spin's wins: each with its amount, then all together (a resumed round). */
  showWinItems(round, { cycle }) {
    const items = this.ui.winItems(round);
    const spin = round.spins?.at(-1);
    this.presenter.lines(items, spin ? this.ui.spinWinMinor(spin, round) : 0, { cycle });
    return items;
  }

  // ---------------------------------------------------------------------------------
  // requests and errors
  // ---------------------------------------------------------------------------------

  /** POST, and when the server cannot be reached ask the player to retry the same request. */
  async request(path, body, options) {
    let pending = null;
    for (;;) {
      try {
        return pending ? await this.api.resend(pending) : await this.api.post(path, body, options);
      } catch (error) {
        if (!(error instanceof ApiError) || error.code !== 'unreachable' || this.destroyed) throw error;
        pending = error.request;
        const retry = await this.app.askRetry(error);
        if (!retry) throw error;
      }
    }
  }

  async stepFailed(error) {
    if (!(error instanceof ApiError)) {
      this.app.messages.show(String(error?.message || error));
      return;
    }
    if (['round_open', 'round_finished', 'action_not_allowed', 'gamble_not_available'].includes(error.code)) {
      this.app.messages.show(t('game.brought_up_to_date', { reason: describe(error) }), { kind: 'warning' });
      await this.loadState();
      return;
    }
    if (error.code === 'autoplay_finished') {
      this.updateAutoplay(error.body.autoplay ?? { ...this.autoplay, status: 'finished' });
      // stopped because the balance changed outside it: show the balance as it is now
      if (error.body.autoplay?.stop_reason === 'balance_changed') await this.refreshBalance();
      return;
    }
    if (error.code === 'unreachable' && this.round) {
      // The player declined to retry mid-round: the round stays open and can be continued.
      this.setState(this.round.phase === 'gamble' ? 'gamble' : 'paused');
    }
    this.app.handleError(error);
  }

  // ---------------------------------------------------------------------------------
  // autoplay
  // ---------------------------------------------------------------------------------

  openAutoplay() {
    if (!this.ready) return;
    this.autoplayDialog ??= new AutoplayDialog(this);
    this.autoplayDialog.open();
  }

  async startAutoplay(settings) {
    // an autoplay plays the base game only (the server's rule): the ante is left out of it
    if (this.modes?.spinMode()) this.app.messages.notice(t('modes.autoplay_base'), 5000);
    if (this.state === 'gamble') {
      const collected = await this.collect();
      if (!collected) return;
    }
    let autoplay;
    try {
      autoplay = await this.request(`/api/games/${this.id}/autoplay`, { bet: this.ui.bet(), ...settings });
    } catch (error) {
      await this.stepFailed(error);
      return;
    }
    await this.runAutoplay(autoplay);
  }

  async runAutoplay(autoplay) {
    this.autoStop = false;
    this.updateAutoplay(autoplay);
    this.setState('busy');
    if (this.round) await this.playOut({ auto: true });
    while (this.autoplay && this.autoplay.status === 'active' && !this.autoStop && !this.destroyed) {
      const resp = await this.spin({ autoplayId: this.autoplay.id });
      if (!resp) break;
      const ok = await this.playOut({ auto: true });
      if (!ok) break;
      if (!this.autoplay || this.autoplay.status !== 'active' || this.autoStop) break;
      await sleep(this.motion.ms('pause'));
    }
    if (this.stopping) await this.stopping; // the server's word on why it stopped
    const last = this.autoplay;
    this.autoplay = null;
    this.renderAutoplay(null);
    if (this.destroyed) return;
    if (this.round) this.setState(this.round.phase === 'gamble' ? 'gamble' : 'paused');
    else this.setState('idle');
    if (last) {
      const why =
        (STOP_MESSAGES[last.stop_reason] && t(STOP_MESSAGES[last.stop_reason])) ??
        t(this.autoStop ? STOP_MESSAGES.player : 'autoplay.stopped_interrupted');
      const text = last.status === 'finished' ? t('autoplay.finished') : t('autoplay.stopped', { why });
      this.app.messages.notice(text, 5000);
      this.root.dataset.autoplayEnded = last.stop_reason || 'interrupted';
      announce(text);
    }
  }

  updateAutoplay(autoplay) {
    if (!autoplay) return;
    const current = this.autoplay;
    if (current && autoplay.id !== current.id) return;
    // Responses can arrive out of order (a spin answered after the stop): never go back from
    // a stopped autoplay to an active one, nor up in the remaining count.
    if (current && current.status !== 'active' && autoplay.status === 'active') return;
    if (current && autoplay.remaining > current.remaining) return;
    this.autoplay = autoplay;
    this.renderAutoplay(autoplay);
  }

  renderAutoplay(autoplay) {
    const status = this.autoplayStatus;
    if (!autoplay) {
      status.hidden = true;
      this.setState(this.state);
      this.updateBetOutput(); // the ante's price again, where it is on
      return;
    }
    if (status.hidden) this.updateBetOutput(); // an autoplay plays the base game: its bet
    status.hidden = false;
    status.dataset.remaining = String(autoplay.remaining);
    status.dataset.status = autoplay.status;
    status.querySelector('.autoplay-remaining').textContent =
      autoplay.status === 'active'
        ? t('autoplay.remaining', { remaining: autoplay.remaining, total: autoplay.total })
        : t('autoplay.ending', { remaining: autoplay.remaining });
    // the phones' short form (css/base.css): the rounds left and, while active, of how many
    status.querySelector('.autoplay-count-text').textContent =
      autoplay.status === 'active' ? `${autoplay.remaining}/${autoplay.total}` : String(autoplay.remaining);
    this.root.dataset.state = 'autoplay';
  }

  async stopAutoplay() {
    this.autoStop = true;
    const current = this.autoplay;
    if (!current || this.stopping) return;
    this.stopping = this.stopServerAutoplay(current.id);
    await this.stopping;
    this.stopping = null;
  }

  async stopServerAutoplay(id) {
    try {
      const stopped = await this.request(`/api/autoplay/${id}/stop`, null);
      if (this.autoplay?.id === id) this.updateAutoplay(stopped);
      else this.app.messages.notice(t('autoplay.stopped_short'));
    } catch (error) {
      this.app.handleError(error);
    }
  }

  // ---------------------------------------------------------------------------------
  // dialogs and toggles
  // ---------------------------------------------------------------------------------

  openRules() {
    this.rulesDialog ??= new RulesDialog(this);
    this.rulesDialog.open();
  }

  openHistory() {
    this.historyDialog ??= new HistoryDialog(this);
    this.historyDialog.open();
  }

  toggleTurbo() {
    this.motion.setTurbo(!this.motion.turbo);
    this.turboButton.setAttribute('aria-pressed', String(this.motion.turbo));
    announce(t(this.motion.turbo ? 'game.turbo_on' : 'game.turbo_off'));
  }

  openMenu() {
    this.menu.open();
  }

  /**
   * Space is the game's key: it spins, stops the reels or continues, whatever has the focus,
   * unless a dialog is open or the player is typing. A focused button never takes it (the
   * browser would press the button: a stepper would change the bet, Turbo would switch off).
   */
  onKey(event) {
    if (event.code !== 'Space') return;
    // a scene showing takes Space as its press (skip a count, start, go on)
    if (this.scenes?.active && !event.target.closest?.('.scene-layer, dialog[open]')) {
      event.preventDefault();
      if (event.type === 'keydown' && !event.repeat) this.scenes.press();
      return;
    }
    if (document.querySelector('dialog[open]')) return;
    if (event.target.closest?.('input, select, textarea, [contenteditable]')) return;
    event.preventDefault();
    if (event.type !== 'keydown' || event.repeat) return;
    this.primary();
  }
}
