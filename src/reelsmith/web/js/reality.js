/**
 * The reality check, where the market sets one (`reality_check_minutes`): every N minutes of
 * the session the game stops to say how long the player has played and their net position,
 * and asks whether to continue or leave. It never interrupts a round step: when it falls due
 * during a spin it waits for the step to end, and a new round waits for the answer.
 *
 * Which checks were answered is kept with the session (sessionStorage), so a reload neither
 * repeats one nor skips one.
 */
import { formatElapsed } from './clock.js';
import { Dialog } from './dialog.js';
import { h } from './dom.js';
import { t } from './messages.js';

const STORE = 'reelsmith.reality';

export class RealityCheck {
  /**
   * @param {object} o
   * @param {number} o.minutes            the market's interval
   * @param {SessionClock} o.clock
   * @param {string} o.sessionId          answers are remembered per session
   * @param {() => string|null} o.net     the net position, formatted (null when unknown)
   * @param {() => boolean} o.canShow     false while a round step runs
   * @param {() => void} o.leave          what "Leave" does
   */
  constructor({ minutes, clock, sessionId, net, canShow, leave }) {
    if (!Number.isInteger(minutes) || minutes <= 0) throw new Error(`reality check every ${minutes} minutes: a whole number above 0 is needed`);
    Object.assign(this, { clock, sessionId, net, canShow, leave });
    this.intervalMs = minutes * 60_000;
    this.answered = this.load();
    this.waiting = [];
    this.dialog = null;
    clock.onTick(() => this.poll());
  }

  load() {
    try {
      const stored = JSON.parse(sessionStorage.getItem(STORE) || 'null');
      if (stored?.session === this.sessionId && Number.isInteger(stored.answered)) return stored.answered;
    } catch {
      /* nothing kept */
    }
    return 0;
  }

  save() {
    try {
      sessionStorage.setItem(STORE, JSON.stringify({ session: this.sessionId, answered: this.answered }));
    } catch {
      /* private mode: kept for this page only */
    }
  }

  /** How many checks the session has reached. */
  get reached() {
    return Math.floor(this.clock.elapsedMs() / this.intervalMs);
  }

  get due() {
    return this.reached > this.answered;
  }

  get open() {
    return Boolean(this.dialog?.element.open);
  }

  poll() {
    if (this.due && !this.open && this.canShow()) this.show();
  }

  /** Before a round starts: wait for a check that is due to be answered; false to leave. */
  async beforeRound() {
    if (this.due && !this.open) this.show();
    if (!this.open) return true;
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  show() {
    if (!this.dialog) {
      this.dialog = new Dialog({ id: 'reality-check', title: t('reality.title'), cls: 'dialog-reality', closable: false });
      // Escape does not dismiss it: the player answers
      this.dialog.element.addEventListener('cancel', (event) => event.preventDefault());
      this.played = h('p', { id: 'reality-played' });
      this.netLine = h('p', { id: 'reality-net' });
      this.dialog.body.append(
        this.played,
        this.netLine,
        h(
          'div',
          { class: 'form-actions' },
          h('button', { type: 'button', id: 'reality-leave', class: 'btn', onclick: () => this.answer(false) }, t('reality.leave')),
          h('button', { type: 'button', id: 'reality-continue', class: 'btn btn-accent', onclick: () => this.answer(true) }, t('reality.continue')),
        ),
      );
    }
    const elapsed = this.clock.elapsedMs();
    this.played.textContent = t('reality.played', { time: formatElapsed(elapsed) });
    this.played.dataset.seconds = String(Math.floor(elapsed / 1000));
    const net = this.net();
    this.netLine.hidden = net === null;
    this.netLine.textContent = net === null ? '' : t('reality.net', { net });
    this.dialog.show();
  }

  answer(keepPlaying) {
    this.answered = this.reached;
    this.save();
    this.dialog.close();
    const waiting = this.waiting.splice(0);
    for (const resolve of waiting) resolve(keepPlaying);
    if (!keepPlaying) this.leave();
  }

  remove() {
    this.dialog?.remove();
  }
}
