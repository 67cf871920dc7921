/**
 * A title's bet modes, as the game list offers them in the player's market (`/api/games`'s
 * `modes`: each its name, kind and price in bets): an **ante** is a switch (on: every spin
 * costs the bet times its price and plays the ante's game), a **bought feature** a button
 * that asks the player to confirm its price and then starts the free spins (the spin request's
 * `mode`). Nothing is drawn for a title without modes, nor for a mode the market does not
 * sell (Germany sells no bought feature: the game list leaves it out).
 *
 * The panel sits in the row above the reels that the free-spins counter takes during the
 * feature (`.stage-feature`, whose height is fixed, so the reels do not move): it is hidden
 * while the round is in its free spins, and its controls are disabled while a round step
 * runs and during autoplay (an autoplay plays the base game only). A mode's cost is worked in
 * whole minor units, as the server does: a bet whose cost in a mode is a fraction of a minor
 * unit, above the market's maximum stake or above the balance cannot be played in it, and the
 * control says why.
 */
import { Dialog } from './dialog.js';
import { announce, h } from './dom.js';
import { t } from './messages.js';

/** `minor` times the decimal `price` ("1.25", "3.8") in whole minor units, or null where it
 * is a fraction of one. */
export function priced(minor, price) {
  const [whole, fraction = ''] = String(price).split('.');
  const scale = 10 ** fraction.length;
  const product = minor * Number(`${whole}${fraction}`);
  return product % scale === 0 ? product / scale : null;
}

export class ModesPanel {
  /** The modes `modes` (the game list's) of `game`. */
  constructor(game, modes) {
    this.game = game;
    this.money = game.money;
    this.ante = modes.find((m) => m.kind === 'ante') ?? null;
    this.buy = modes.find((m) => m.kind === 'buy') ?? null;
    this.anteOn = false;
    this.enabled = false;
    this.dialog = null;
    this.anteButton = this.ante
      ? h(
          'button',
          {
            type: 'button',
            id: 'ante',
            class: 'mode-control mode-ante',
            role: 'switch',
            'aria-checked': 'false',
            dataset: { mode: this.ante.name },
            onclick: () => this.toggleAnte(),
          },
          h('span', { class: 'mode-switch', 'aria-hidden': 'true' }, h('span', { class: 'mode-knob' })),
          h(
            'span',
            { class: 'mode-text' },
            h('span', { class: 'mode-name' }),
            h('span', { class: 'mode-price' }, h('span', { class: 'mode-price-long' }), h('span', { class: 'mode-price-short', 'aria-hidden': 'true' })),
          ),
        )
      : null;
    this.buyButton = this.buy
      ? h(
          'button',
          {
            type: 'button',
            id: 'buy-feature',
            class: 'mode-control mode-buy',
            'aria-haspopup': 'dialog',
            dataset: { mode: this.buy.name },
            onclick: () => this.askBuy(),
          },
          h('span', { class: 'mode-text' }, h('span', { class: 'mode-name' }), h('span', { class: 'mode-price' })),
        )
      : null;
    this.element = h('div', { class: 'modes', id: 'modes', role: 'group', 'aria-label': t('modes.group') }, this.anteButton, this.buyButton);
  }

  /** Whether there is anything to show. */
  get any() {
    return Boolean(this.ante || this.buy);
  }

  /** The mode the next spin plays: the ante where it is on (never in autoplay), else none. */
  spinMode({ autoplay = false } = {}) {
    return this.ante && this.anteOn && !autoplay ? this.ante.name : null;
  }

  /** What a spin costs now, in minor units (the ante's price where it is on). */
  spinMinor(betMinor, { autoplay = false } = {}) {
    const mode = this.spinMode({ autoplay });
    return mode ? priced(betMinor, this.ante.price) : betMinor;
  }

  /** Why `mode` cannot be played at `betMinor` now (a message key), or null. */
  problem(mode, betMinor) {
    const cost = priced(betMinor, mode.price);
    if (cost === null) return { key: 'modes.not_at_this_bet', cost };
    if (cost > this.money.toMinor(this.game.market.max_stake)) return { key: 'modes.above_max_stake', cost };
    const balance = this.game.app.balanceMinor;
    if (balance !== null && balance !== undefined && cost > balance) return { key: 'modes.balance_low', cost };
    return null;
  }

  message(found) {
    return t(found.key, {
      price: found.cost === null ? '' : this.money.format(found.cost),
      max: this.money.formatDecimal(this.game.market.max_stake),
    });
  }

  /** Show the prices for the current bet and which controls can be used. */
  render() {
    const betMinor = this.game.ui.betMinor();
    const times = (mode) => this.money.count(Number(mode.price));
    if (this.ante) {
      const cost = priced(betMinor, this.ante.price);
      const price = cost === null ? '—' : this.money.format(cost);
      const button = this.anteButton;
      button.querySelector('.mode-name').textContent = t('modes.ante', { times: times(this.ante) });
      // the short form ("€0.75/spin") where the row is narrow (css/base.css)
      button.querySelector('.mode-price-long').textContent = t('modes.per_spin', { price });
      button.querySelector('.mode-price-short').textContent = t('modes.per_spin_short', { price });
      button.setAttribute('aria-checked', String(this.anteOn));
      button.setAttribute('aria-label', t('modes.ante_label', { times: times(this.ante), price: cost === null ? '—' : this.money.format(cost) }));
      button.dataset.minor = cost === null ? '' : String(cost);
      // switching it off is always allowed between rounds; on only where it can be played
      const trouble = this.anteOn ? null : this.problem(this.ante, betMinor);
      button.disabled = !this.enabled;
      this.setTrouble(button, trouble);
    }
    if (this.buy) {
      const cost = priced(betMinor, this.buy.price);
      const button = this.buyButton;
      const trouble = this.problem(this.buy, betMinor);
      button.querySelector('.mode-name').textContent = trouble?.key === 'modes.balance_low' ? t('modes.balance_short') : t('modes.buy');
      button.querySelector('.mode-price').textContent = cost === null ? '—' : this.money.format(cost);
      button.setAttribute('aria-label', t('modes.buy_label', { times: times(this.buy), price: cost === null ? '—' : this.money.format(cost) }));
      button.dataset.minor = cost === null ? '' : String(cost);
      button.disabled = !this.enabled;
      this.setTrouble(button, trouble);
    }
  }

  /** A control that cannot be used for a reason the player should read is marked (not
   * disabled, so pressing it says why). */
  setTrouble(button, trouble) {
    button.classList.toggle('mode-unavailable', Boolean(trouble));
    button.setAttribute('aria-disabled', String(Boolean(trouble) || button.disabled));
    button.dataset.problem = trouble ? trouble.key.replace('modes.', '') : '';
    button.title = trouble ? this.message(trouble) : '';
  }

  setEnabled(on) {
    this.enabled = on;
    if (!on) this.dialog?.close();
    this.render();
  }

  /** Shown between rounds and in the base game; the free-spins counter takes the row during
   * the feature. */
  setShown(on) {
    this.element.hidden = !on;
  }

  toggleAnte() {
    if (!this.enabled) return;
    if (!this.anteOn) {
      const trouble = this.problem(this.ante, this.game.ui.betMinor());
      if (trouble) {
        this.game.app.messages.notice(this.message(trouble), 5000);
        return;
      }
    }
    this.anteOn = !this.anteOn;
    this.render();
    this.game.updateBetOutput();
    // the switch shows its state: said to screen readers, no notice over the reels
    announce(this.anteOn ? t('modes.ante_on', { times: this.money.count(Number(this.ante.price)) }) : t('modes.ante_off'));
  }

  /** The bought feature: its price confirmed, then the round. */
  askBuy() {
    if (!this.enabled || !this.game.ready) return;
    const betMinor = this.game.ui.betMinor();
    const trouble = this.problem(this.buy, betMinor);
    if (trouble) {
      this.game.app.messages.notice(this.message(trouble), 5000);
      return;
    }
    const cost = priced(betMinor, this.buy.price);
    if (!this.dialog) {
      this.dialog = new Dialog({ id: 'buy-dialog', title: t('modes.buy_title'), cls: `dialog-buy theme-${this.game.ui.theme}` });
      this.question = h('p', { id: 'buy-question', class: 'buy-question' });
      this.confirm = h('button', { type: 'button', id: 'buy-confirm', class: 'btn btn-accent', onclick: () => this.bought() });
      this.dialog.body.append(
        this.question,
        h(
          'div',
          { class: 'form-actions' },
          h('button', { type: 'button', id: 'buy-cancel', class: 'btn', onclick: () => this.dialog.close() }, t('modes.cancel')),
          this.confirm,
        ),
      );
    }
    this.question.textContent = t('modes.buy_question', {
      price: this.money.format(cost),
      times: this.money.count(Number(this.buy.price)),
      bet: this.money.format(betMinor),
    });
    this.confirm.textContent = t('modes.buy_confirm', { price: this.money.format(cost) });
    this.confirm.dataset.minor = String(cost);
    this.dialog.show();
  }

  bought() {
    this.dialog.close();
    this.game.buyFeature(this.buy.name);
  }

  remove() {
    this.dialog?.remove();
  }
}
