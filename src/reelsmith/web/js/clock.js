/**
 * The session clock: how long the player's session has lasted, in every market. The server
 * says when the session started and what its clock read (`/api/me`); from then on the page
 * counts with its own clock (`Date.now`, so a test's fake clock drives it), once a second.
 */

/** "12:05" under an hour, "1:02:05" from an hour on. */
export function formatElapsed(ms) {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const two = (n) => String(n).padStart(2, '0');
  return hours ? `${hours}:${two(minutes)}:${two(seconds)}` : `${minutes}:${two(seconds)}`;
}

export class SessionClock {
  /**
   * @param {HTMLTimeElement} element  where the elapsed time is shown
   * @param {{startedMs: number, serverMs: number}} origin  the server's word on the session
   */
  constructor(element, { startedMs, serverMs }) {
    this.element = element;
    this.listeners = [];
    this.timer = null;
    this.reset({ startedMs, serverMs });
  }

  /** A new session (or a fresh word from the server): count from its start. */
  reset({ startedMs, serverMs }) {
    if (!Number.isFinite(startedMs) || !Number.isFinite(serverMs)) {
      throw new Error('the session clock needs the session start and the server time in ms');
    }
    this.atMs = Math.max(0, serverMs - startedMs);
    this.fromMs = Date.now();
    this.render();
  }

  /** Milliseconds the session has lasted. */
  elapsedMs() {
    return this.atMs + Math.max(0, Date.now() - this.fromMs);
  }

  /** Call `listener(elapsedMs)` on every tick. */
  onTick(listener) {
    this.listeners.push(listener);
  }

  start() {
    if (this.timer !== null) return;
    this.timer = setInterval(() => this.tick(), 1000);
  }

  tick() {
    this.render();
    const elapsed = this.elapsedMs();
    for (const listener of this.listeners) listener(elapsed);
  }

  render() {
    const elapsed = this.elapsedMs();
    const seconds = Math.floor(elapsed / 1000);
    this.element.textContent = formatElapsed(elapsed);
    this.element.dataset.seconds = String(seconds);
    this.element.setAttribute('datetime', `PT${seconds}S`);
  }
}
