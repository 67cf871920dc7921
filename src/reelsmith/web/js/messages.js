/**
 * Messages for the player: one banner for problems that need attention (with actions such as
 * Retry), short notices for everything else. Server error codes become plain sentences.
 */
import { h } from './dom.js';

const TEXT = {
  insufficient_balance: 'Your balance does not cover this bet. Lower the bet or add funds.',
  session_expired: 'Your session has expired.',
  invalid_token: 'Your session is not valid any more.',
  missing_token: 'You are not signed in.',
  unreachable: 'The game server cannot be reached. Check your connection and try again.',
  rate_limited: 'Too many requests: please slow down.',
  min_round_duration: 'Please wait a moment before the next round.',
  autoplay_not_allowed: 'Autoplay is not available in your market.',
  game_not_offered: 'This game is not offered in your market.',
  internal_error: 'Something went wrong on the server. Your last action was not applied.',
  round_record_corrupt: 'This round cannot be continued; support has been notified.',
};

/** A sentence for an ApiError (falls back to the server's own message). */
export function describe(error) {
  return TEXT[error.code] || error.message || 'Something went wrong.';
}

export class Messages {
  constructor(banner, notices) {
    this.banner = banner;
    this.notices = notices;
  }

  /** The banner: `kind` error|warning|info; `actions`: [{label, run}]. */
  show(text, { kind = 'error', actions = [] } = {}) {
    this.banner.className = `banner banner-${kind}`;
    this.banner.dataset.kind = kind;
    this.banner.replaceChildren(
      h('p', { class: 'banner-text' }, text),
      ...actions.map((action) =>
        h('button', { type: 'button', class: 'btn btn-small', onclick: () => action.run() }, action.label),
      ),
      h('button', { type: 'button', class: 'btn-icon banner-close', 'aria-label': 'Dismiss', onclick: () => this.clear() }, '×'),
    );
    this.banner.hidden = false;
  }

  error(error, options = {}) {
    this.show(describe(error), options);
  }

  clear() {
    this.banner.hidden = true;
    this.banner.replaceChildren();
  }

  /** A short notice that fades by itself. */
  notice(text, ms = 3500) {
    const item = h('p', { class: 'notice' }, text);
    this.notices.append(item);
    setTimeout(() => item.remove(), ms);
  }
}
