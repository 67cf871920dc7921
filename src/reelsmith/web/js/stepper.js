/**
 * A labelled − value + control over a list of values (paylines, coins, coin sizes, bets).
 * The value is a focusable spin button: the arrow keys (and Page Up/Down, Home, End) move it,
 * from the value or from either button. Space is not the stepper's: it stays the game's key.
 */
import { h } from './dom.js';
import { t } from './messages.js';

export class Stepper {
  /**
   * @param {object} o
   * @param {string} o.id            element id prefix (tests and labels use it)
   * @param {string} o.label         visible label
   * @param {Array} o.values         the values, in order
   * @param {*} o.value              the starting value
   * @param {(v) => string} o.format how a value is shown
   * @param {(v) => boolean} [o.allowed]  whether a value may be chosen now (the maximum stake)
   * @param {(v) => void} o.onChange
   */
  constructor({ id, label, values, value, format, allowed = () => true, onChange }) {
    Object.assign(this, { id, values, format, allowed, onChange });
    this.index = Math.max(0, values.findIndex((v) => String(v) === String(value)));
    this.enabled = true;
    this.output = h('output', {
      id: `${id}-value`,
      class: 'stepper-value',
      role: 'spinbutton',
      tabindex: '0',
      'aria-label': label,
      'aria-live': 'polite',
    });
    this.down = h(
      'button',
      { type: 'button', class: 'stepper-btn', id: `${id}-down`, 'aria-label': t('stepper.less', { label }), onclick: () => this.step(-1) },
      '−',
    );
    this.up = h(
      'button',
      { type: 'button', class: 'stepper-btn', id: `${id}-up`, 'aria-label': t('stepper.more', { label }), onclick: () => this.step(1) },
      '+',
    );
    this.element = h(
      'div',
      {
        class: 'stepper',
        role: 'group',
        'aria-labelledby': `${id}-label`,
        dataset: { control: id },
        onkeydown: (event) => this.onKey(event),
      },
      h('span', { class: 'stepper-label', id: `${id}-label` }, label),
      h('div', { class: 'stepper-row' }, this.down, this.output, this.up),
    );
    this.render();
  }

  get value() {
    return this.values[this.index];
  }

  /** Move to the next allowed value in `direction`. */
  step(direction) {
    for (let i = this.index + direction; i >= 0 && i < this.values.length; i += direction) {
      if (this.allowed(this.values[i])) {
        this.index = i;
        this.render();
        this.onChange(this.value);
        return;
      }
    }
  }

  onKey(event) {
    const moves = { ArrowUp: 1, ArrowRight: 1, ArrowDown: -1, ArrowLeft: -1, PageUp: 1, PageDown: -1 };
    if (event.key === 'Home' || event.key === 'End') {
      event.preventDefault();
      if (this.enabled) this.jump(event.key === 'Home' ? -1 : 1);
      return;
    }
    if (!(event.key in moves)) return;
    event.preventDefault();
    if (this.enabled) this.step(moves[event.key]);
  }

  /** The furthest allowed value in `direction`. */
  jump(direction) {
    let found = -1;
    for (let i = this.index + direction; i >= 0 && i < this.values.length; i += direction) {
      if (this.allowed(this.values[i])) found = i;
    }
    if (found < 0) return;
    this.index = found;
    this.render();
    this.onChange(this.value);
  }

  set(value) {
    const index = this.values.findIndex((v) => String(v) === String(value));
    if (index >= 0) this.index = index;
    this.render();
  }

  setEnabled(on) {
    this.enabled = on;
    this.render();
  }

  canMove(direction) {
    for (let i = this.index + direction; i >= 0 && i < this.values.length; i += direction) {
      if (this.allowed(this.values[i])) return true;
    }
    return false;
  }

  render() {
    this.output.textContent = this.format(this.value);
    this.output.dataset.value = String(this.value);
    this.output.setAttribute('aria-valuetext', this.output.textContent);
    this.output.setAttribute('aria-valuenow', String(this.index));
    this.output.setAttribute('aria-valuemin', '0');
    this.output.setAttribute('aria-valuemax', String(this.values.length - 1));
    this.output.setAttribute('aria-disabled', String(!this.enabled));
    this.down.disabled = !this.enabled || !this.canMove(-1);
    this.up.disabled = !this.enabled || !this.canMove(1);
  }
}
