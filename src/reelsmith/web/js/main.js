/**
 * The client's entry point: obtain a session, read the player and the market, then show the
 * lobby or a game by the address (`#/` or `#/play/<game>`).
 */
import { Api, ApiError } from './api.js';
import { installSprites } from './art/sprite.js';
import { SessionClock } from './clock.js';
import { installDevHook } from './dev.js';
import { sleep } from './dom.js';
import { Game } from './game.js';
import { renderLobby } from './lobby.js';
import { themeOf } from './look.js';
import { describe, loadMessages, locale, Messages, t } from './messages.js';
import { Money } from './money.js';
import { Motion } from './motion.js';
import { RealityCheck } from './reality.js';
import { forget, obtainSession, SessionError } from './session.js';

/** The loading screen (js/loading.js, a classic script the page runs first). */
const loading = window.reelsmithLoading;

/** The text of the page's own elements (`data-i18n`, `data-i18n-aria-label`) in the player's language. */
function translatePage() {
  for (const el of document.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of document.querySelectorAll('[data-i18n-aria-label]')) el.setAttribute('aria-label', t(el.dataset.i18nAriaLabel));
}

/**
 * The art of a themed screen (the CSS backgrounds of `root`'s themed elements), loaded and
 * decoded, so that the game appears with its backdrop; a file that fails or takes longer than
 * `limitMs` does not hold the game back.
 */
async function artOf(root, limitMs = 8000) {
  const urls = new Set();
  for (const el of [root, ...root.querySelectorAll('[class*="theme-"]')]) {
    const style = getComputedStyle(el);
    for (const value of [style.backgroundImage, style.getPropertyValue('--theme-bg')]) {
      for (const found of value.matchAll(/url\(\s*["']?([^"')]+)["']?\s*\)/g)) urls.add(found[1]);
    }
  }
  const decoded = [...urls].map((url) => {
    const image = new Image();
    image.src = url;
    return image.decode().catch(() => undefined);
  });
  await Promise.race([Promise.all(decoded), sleep(limitMs)]);
}

/** The market's minimum round duration: never start a round earlier than allowed. */
class RoundGate {
  constructor(minMs) {
    this.minMs = minMs;
    this.last = null;
  }

  async wait() {
    if (!this.minMs || this.last === null) return;
    // A small margin covers the time between our clock and the server's receipt of the request.
    const left = this.last + this.minMs + 120 - performance.now();
    if (left > 0) await sleep(left);
  }

  mark() {
    this.last = performance.now();
  }
}

class App {
  constructor() {
    this.api = new Api();
    this.motion = new Motion();
    this.messages = new Messages(document.getElementById('banner'), document.getElementById('notices'));
    this.view = document.getElementById('view');
    this.balance = document.getElementById('balance');
    this.net = document.getElementById('session-net');
    this.netMinor = null;
    this.sessionInfo = document.getElementById('session-info');
    this.balanceItem = document.getElementById('balance-item');
    this.wallet = document.getElementById('wallet');
    this.clock = null;
    this.reality = null;
    this.balanceMinor = null;
    this.game = null;
    this.connecting = false;
    this.api.onError((error) => {
      if (error.status === 401 && !this.connecting) this.sessionEnded(error);
    });
  }

  async start() {
    await loadMessages();
    translatePage();
    loading.step('messages');
    installSprites();
    // capture: the game sees Space before a focused control does
    document.addEventListener('keydown', (event) => this.game?.onKey(event), { capture: true });
    document.addEventListener('keyup', (event) => this.game?.onKey(event), { capture: true });
    try {
      await this.connect();
    } catch (error) {
      this.startFailed(error);
      return;
    }
    loading.step('session');
    // Listened to from here on: the first route reads the address as it is now, so a change
    // made while the session was being opened is not lost, and no route runs before the
    // session and market are known.
    window.addEventListener('hashchange', () => this.route());
    await this.route({ first: true });
  }

  async connect({ fresh = false } = {}) {
    const session = await obtainSession({ fresh });
    this.session = session;
    this.api.setToken(session.token);
    let me;
    this.connecting = true;
    try {
      me = await this.api.get('/api/me');
    } catch (error) {
      // A stored demo token the server no longer accepts (it restarted with a new key, or
      // the session ended): start a new demo session instead of failing.
      if (error instanceof ApiError && error.status === 401 && session.demo && !fresh) {
        forget();
        return this.connect({ fresh: true });
      }
      if (error instanceof ApiError && error.status === 401) this.sessionEnded(error);
      throw error;
    } finally {
      this.connecting = false;
    }
    this.me = me;
    this.market = me.market;
    this.money = Money.fromMarket(me.market, locale(me.market.locale));
    this.motion.allowTurbo(me.market.turbo);
    this.gate ??= new RoundGate(me.market.min_round_ms);
    this.gate.minMs = me.market.min_round_ms;
    this.setBalance(me.balance.minor);
    this.net.parentElement.hidden = !me.market.show_session_net;
    if (me.market.show_session_net) {
      // the server keeps the session's net position; a reloaded page reads it from /api/me
      this.renderNet(me.session_net ? me.session_net.minor : 0);
    }
    this.startClock(me);
    if (me.dev_mode) installDevHook(this.api);
    document.body.dataset.ready = 'true';
  }

  /** The session clock in every market; the reality check where the market sets one. */
  startClock(me) {
    // a session the server has no start for (none in the token) counts from now
    const origin = { startedMs: me.session_started_ms ?? me.server_ms ?? Date.now(), serverMs: me.server_ms ?? Date.now() };
    if (this.clock) this.clock.reset(origin);
    else this.clock = new SessionClock(document.getElementById('session-clock'), origin);
    this.clock.start();
    this.reality?.remove();
    this.reality = null;
    const minutes = me.market.reality_check_minutes;
    if (minutes) {
      this.reality = new RealityCheck({
        minutes,
        clock: this.clock,
        sessionId: me.session_id,
        net: () => (this.netMinor === null ? null : this.money.signed(this.netMinor)),
        canShow: () => !this.game || this.game.interruptible,
        leave: () => this.leave(),
      });
    }
  }

  /** The reality check's "Leave": stop any autoplay and go back to the lobby. */
  leave() {
    if (this.game) {
      this.game.autoStop = true;
      if (this.game.autoplay) this.game.stopAutoplay();
    }
    window.location.hash = '#/';
  }

  /**
   * The session line (clock, net position) and the balance live in the site bar of the
   * lobby; a game shows them in its own head and bottom bar instead (null: back to the bar).
   */
  placeSessionInfo(sessionSlot, balanceSlot) {
    (sessionSlot ?? this.wallet.parentElement).insertBefore(this.sessionInfo, sessionSlot ? null : this.wallet);
    (balanceSlot ?? this.wallet).append(this.balanceItem);
  }

  /**
   * Show what the address names. Routes run one after another: a hash change while the
   * previous route still waits for the server (the first load's lobby, say) would otherwise
   * mount a second game beside the first, whose dialogs would stay in the page.
   */
  route(options = {}) {
    const run = () => this.routeNow(options);
    this.routing = (this.routing ?? Promise.resolve()).then(run, run);
    return this.routing;
  }

  async routeNow({ first = false } = {}) {
    const match = /^#\/play\/([\w-]+)/.exec(window.location.hash);
    this.game?.destroy();
    this.game = null;
    this.messages.clear();
    document.body.dataset.view = match ? 'game' : 'lobby';
    try {
      if (match) {
        const info = (await this.api.get('/api/games')).games.find((g) => g.id === match[1]);
        if (!info) {
          this.messages.show(t('app.game_not_offered_here'), { kind: 'warning' });
          window.location.hash = '#/';
          return;
        }
        if (first) loading.title(info.name, themeOf(info));
        const game = new Game(this, info);
        this.game = game;
        document.title = t('app.game_title', { game: info.name });
        await game.mount(this.view);
      } else {
        document.title = t('app.title');
        await renderLobby(this, this.view);
      }
      if (first) {
        loading.step('view');
        await artOf(this.view);
        loading.step('art');
      }
      this.view.focus({ preventScroll: true });
    } catch (error) {
      this.handleError(error);
    } finally {
      if (first) loading.done();
    }
  }

  setBalance(minor) {
    this.balanceMinor = minor;
    this.balance.textContent = this.money.format(minor);
    this.balance.dataset.minor = String(minor);
    this.game?.updateBetOutput?.();
  }

  setSessionNet(net) {
    if (!net || !this.market.show_session_net) return;
    this.renderNet(net.minor);
  }

  renderNet(minor) {
    this.netMinor = minor;
    this.net.textContent = this.money.signed(minor);
    this.net.dataset.minor = String(minor);
    this.net.classList.toggle('negative', minor < 0);
  }

  handleError(error) {
    if (error instanceof ApiError && error.status === 401) return; // sessionEnded shows it
    if (error instanceof ApiError && error.code === 'unreachable') {
      this.messages.show(describe(error), { actions: [{ label: t('app.reload'), run: () => window.location.reload() }] });
      return;
    }
    if (error instanceof ApiError) this.messages.error(error);
    else this.messages.show(String(error?.message || error));
  }

  /** The server cannot be reached: ask whether to retry the same request. */
  askRetry(error) {
    return new Promise((resolve) => {
      this.messages.show(describe(error), {
        actions: [
          { label: t('app.retry'), run: () => { this.messages.clear(); resolve(true); } },
          { label: t('app.cancel'), run: () => { this.messages.clear(); resolve(false); } },
        ],
      });
      document.body.dataset.unreachable = 'true';
    }).finally(() => delete document.body.dataset.unreachable);
  }

  sessionEnded(error) {
    loading.done();
    if (this.game) this.game.autoStop = true;
    const demo = this.session?.demo;
    const reason = t(error.code === 'session_expired' ? 'error.session_expired' : 'error.invalid_token');
    this.messages.show(
      t(demo ? 'app.session_renew' : 'app.session_reopen', { reason }),
      {
        kind: 'error',
        actions: demo ? [{ label: t('app.start_new_session'), run: () => this.renew() }] : [],
      },
    );
    document.body.dataset.session = 'expired';
  }

  async renew() {
    this.messages.clear();
    forget();
    try {
      await this.connect({ fresh: true });
      delete document.body.dataset.session;
      await this.route();
    } catch (error) {
      this.startFailed(error);
    }
  }

  startFailed(error) {
    loading.done();
    if (error instanceof ApiError && error.status === 401) return; // sessionEnded explained it
    const text = error instanceof SessionError || error instanceof ApiError ? describe(error) : String(error?.message || error);
    this.messages.show(text, { actions: [{ label: t('app.try_again'), run: () => window.location.reload() }] });
    document.body.dataset.ready = 'failed';
  }
}

new App().start();
