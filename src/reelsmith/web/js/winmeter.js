/**
 * The win display: counts up to a win (in integer minor units) when the win is celebrated, or
 * shows it plainly where the market forbids celebrating a win that does not exceed the stake.
 */
import { sleep } from './dom.js';

export class WinMeter {
  constructor(output, money) {
    this.output = output;
    this.money = money;
    this.value = 0;
    this.token = 0;
    this.set(0);
  }

  set(minor, { celebrate = false } = {}) {
    this.token += 1;
    this.render(minor);
    this.value = minor;
    this.output.classList.toggle('celebrate', celebrate && minor > 0);
  }

  render(minor) {
    this.output.textContent = this.money.format(minor);
    this.output.dataset.minor = String(minor);
  }

  /** Count from the shown value up to `minor` over `ms` (0: at once). */
  async countTo(minor, { ms = 0, celebrate = true } = {}) {
    const token = ++this.token;
    const from = this.value;
    this.output.classList.toggle('celebrate', celebrate && minor > 0);
    this.output.classList.toggle('counting', ms > 0 && minor !== from);
    if (ms <= 0 || minor === from) {
      this.render(minor);
      this.value = minor;
      this.output.classList.remove('counting');
      return;
    }
    const start = performance.now();
    await new Promise((resolve) => {
      // Animation frames stop in a background tab: a timer finishes the count regardless,
      // and a frame that comes after it draws nothing (the total is shown already).
      let settled = false;
      const timer = setTimeout(() => {
        settled = true;
        resolve();
      }, ms + 400);
      const frame = (now) => {
        if (settled) return undefined;
        if (token !== this.token) {
          clearTimeout(timer);
          return resolve();
        }
        const t = Math.min(1, (now - start) / ms);
        const eased = 1 - (1 - t) ** 3;
        this.render(from + Math.round((minor - from) * eased));
        if (t < 1) requestAnimationFrame(frame);
        else {
          clearTimeout(timer);
          resolve();
        }
      };
      requestAnimationFrame(frame);
    });
    if (token === this.token) {
      this.render(minor);
      this.value = minor;
      this.output.classList.remove('counting');
    }
    await sleep(0);
  }
}
