/**
 * The total-bet picker: the bet as one amount, for the screens too small for a title's own
 * bet controls (phones, upright or on their side; css/base.css shows one or the other).
 * − and + step through the title's bets ordered by their total, the total itself opens the
 * list of every bet to choose from, and Max bet takes the largest bet the market's maximum
 * stake allows. Every button is at least 44 px square.
 *
 * The bets come from the title's UI object: `betOptions()` gives `{ bet, minor }` for every
 * bet it offers within the maximum stake, ascending by `minor` and one per total; `betMinor()`
 * the current bet's total; `chooseBet(bet)` takes a bet as the player's own choice.
 */
import { Dialog } from './dialog.js';
import { h } from './dom.js';
import { t } from './messages.js';

export class BetPicker {
  constructor({ ui, money }) {
    Object.assign(this, { ui, money });
    this.enabled = true;
    this.dialog = null;
    this.down = h(
      'button',
      { type: 'button', class: 'picker-btn', id: 'total-bet-down', 'aria-label': t('bet.lower'), onclick: () => this.step(-1) },
      '−',
    );
    this.up = h(
      'button',
      { type: 'button', class: 'picker-btn', id: 'total-bet-up', 'aria-label': t('bet.higher'), onclick: () => this.step(1) },
      '+',
    );
    this.value = h('span', { class: 'picker-value' });
    this.open = h(
      'button',
      { type: 'button', class: 'picker-open', id: 'total-bet-open', 'aria-haspopup': 'dialog', onclick: () => this.showList() },
      h('span', { class: 'picker-label' }, t('game.bet')),
      this.value,
    );
    this.max = h(
      'button',
      { type: 'button', class: 'picker-max', id: 'total-bet-max', onclick: () => this.chooseMax() },
      t('bet.max'),
    );
    this.element = h('div', { class: 'bet-picker', role: 'group', 'aria-label': t('bet.total') }, this.down, this.open, this.up, this.max);
    this.render();
  }

  /** The index of the current bet among the options, or where it would sit between two. */
  position(options) {
    const minor = this.ui.betMinor();
    const exact = options.findIndex((o) => o.minor === minor);
    if (exact >= 0) return { index: exact, exact: true };
    return { index: options.filter((o) => o.minor < minor).length - 0.5, exact: false };
  }

  step(direction) {
    const options = this.ui.betOptions();
    const { index } = this.position(options);
    const next = direction > 0 ? Math.floor(index) + 1 : Math.ceil(index) - 1;
    if (next >= 0 && next < options.length) this.ui.chooseBet(options[next].bet);
  }

  chooseMax() {
    const options = this.ui.betOptions();
    if (options.length) this.ui.chooseBet(options[options.length - 1].bet);
  }

  showList() {
    if (!this.enabled) return;
    if (!this.dialog) {
      this.dialog = new Dialog({ id: 'bet-picker', title: t('bet.choose'), cls: 'dialog-bets' });
      this.list = h('div', { class: 'bet-options' });
      this.dialog.body.append(this.list);
    }
    const current = this.ui.betMinor();
    this.list.replaceChildren(
      ...this.ui.betOptions().map(({ bet, minor }) =>
        h(
          'button',
          {
            type: 'button',
            class: 'btn bet-option',
            dataset: { minor: String(minor) },
            'aria-pressed': String(minor === current),
            onclick: () => {
              this.ui.chooseBet(bet);
              this.dialog.close();
            },
          },
          this.money.format(minor),
        ),
      ),
    );
    this.dialog.show();
  }

  setEnabled(on) {
    this.enabled = on;
    if (!on) this.dialog?.close();
    this.render();
  }

  /** Show the current total and which moves are open (call after any change of bet). */
  render() {
    const options = this.ui.betOptions();
    const { index } = this.position(options);
    const minor = this.ui.betMinor();
    this.value.textContent = this.money.format(minor);
    this.open.setAttribute('aria-label', t('bet.choose_current', { amount: this.value.textContent }));
    this.open.disabled = !this.enabled;
    this.down.disabled = !this.enabled || index <= 0;
    this.up.disabled = !this.enabled || index >= options.length - 1;
    this.max.disabled = !this.enabled || !options.length || options[options.length - 1].minor === minor;
  }

  remove() {
    this.dialog?.remove();
  }
}
