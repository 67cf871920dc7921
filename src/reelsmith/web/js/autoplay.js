/**
 * The autoplay dialog: number of rounds and the stop conditions (any feature, a jackpot, a
 * balance change outside the autoplay, a single win above an amount, a loss limit). The market
 * decides what is required: a loss limit the player must give, stops that are always on (shown
 * ticked and fixed). The server keeps the autoplay, counts its rounds and applies the stops.
 */
import { Dialog } from './dialog.js';
import { h } from './dom.js';
import { t } from './messages.js';
import { AmountError } from './money.js';

const PRESETS = [10, 25, 50, 100];

export class AutoplayDialog {
  constructor(game) {
    this.game = game;
    this.money = game.money;
    this.dialog = new Dialog({ id: 'autoplay-dialog', title: t('autoplay.title'), cls: `theme-${game.ui.theme}` });
    game.dialogs.push(this.dialog);
    this.rounds = h('input', { id: 'autoplay-rounds', type: 'number', min: 1, max: 1000, step: 1, value: 10, inputmode: 'numeric', required: true });
    this.feature = h('input', { id: 'autoplay-feature', type: 'checkbox' });
    this.winAbove = h('input', { id: 'autoplay-win-above', type: 'text', inputmode: 'decimal', autocomplete: 'off', placeholder: t('autoplay.no_limit') });
    const market = game.market;
    this.lossRequired = Boolean(market.autoplay_requires_loss_limit);
    this.lossLimit = h('input', {
      id: 'autoplay-loss-limit',
      type: 'text',
      inputmode: 'decimal',
      autocomplete: 'off',
      placeholder: this.lossRequired ? '' : t('autoplay.no_limit'),
      required: this.lossRequired,
      'aria-required': String(this.lossRequired),
    });
    const fixedStop = (id, required) => {
      const box = h('input', { id, type: 'checkbox' });
      if (required) {
        box.checked = true;
        box.disabled = true;
      }
      return box;
    };
    this.jackpot = fixedStop('autoplay-jackpot', market.autoplay_requires_stop_on_jackpot);
    this.balance = fixedStop('autoplay-balance-change', market.autoplay_requires_stop_on_balance_change);
    // a title without jackpots has no jackpot stop to offer, unless the market requires it
    const hasJackpots = Boolean(game.ui.potIds?.length) || market.autoplay_requires_stop_on_jackpot;
    const required = (on) => (on ? h('span', { class: 'required-note' }, ` (${t('autoplay.required')})`) : null);
    this.error = h('p', { class: 'form-error', role: 'alert' });
    const currency = game.market.currency;
    this.form = h(
      'form',
      { class: 'autoplay-form', method: 'dialog', novalidate: true, onsubmit: (e) => this.submit(e) },
      h('label', { for: 'autoplay-rounds' }, t('autoplay.rounds')),
      h(
        'div',
        { class: 'presets', role: 'group', 'aria-label': t('autoplay.presets') },
        ...PRESETS.map((n) =>
          h('button', { type: 'button', class: 'btn btn-small', onclick: () => { this.rounds.value = n; } }, String(n)),
        ),
      ),
      this.rounds,
      h('label', { class: 'check' }, this.feature, ' ', t('autoplay.stop_feature')),
      hasJackpots
        ? h('label', { class: 'check' }, this.jackpot, ' ', t('autoplay.stop_jackpot'), required(market.autoplay_requires_stop_on_jackpot))
        : null,
      h('label', { class: 'check' }, this.balance, ' ', t('autoplay.stop_balance'), required(market.autoplay_requires_stop_on_balance_change)),
      h('label', { for: 'autoplay-win-above' }, t('autoplay.win_above', { currency })),
      this.winAbove,
      h('label', { for: 'autoplay-loss-limit' }, t('autoplay.loss_limit', { currency }), required(this.lossRequired)),
      this.lossLimit,
      this.error,
      h(
        'div',
        { class: 'form-actions' },
        h('button', { type: 'button', class: 'btn', onclick: () => this.dialog.close() }, t('app.cancel')),
        h('button', { type: 'submit', id: 'autoplay-start', class: 'btn btn-accent' }, t('autoplay.start')),
      ),
    );
    this.dialog.body.append(
      h('p', { class: 'dialog-note' }, t('autoplay.note')),
      this.form,
    );
  }

  open() {
    this.error.textContent = '';
    this.dialog.show();
  }

  amount(input, what) {
    const text = input.value.trim();
    if (!text) return null;
    let minor;
    try {
      minor = this.money.toMinor(text);
    } catch (error) {
      if (error instanceof AmountError) throw new Error(t('autoplay.amount_invalid', { what, problem: t(error.key, error.params) }));
      throw error;
    }
    if (minor <= 0) throw new Error(t('autoplay.amount_above_zero', { what }));
    return this.money.toDecimal(minor);
  }

  submit(event) {
    event.preventDefault();
    const rounds = Number(this.rounds.value);
    try {
      if (!Number.isInteger(rounds) || rounds < 1 || rounds > 1000) {
        throw new Error(t('autoplay.rounds_range'));
      }
      const settings = {
        rounds,
        stop_on_feature: this.feature.checked,
        stop_on_jackpot: this.jackpot.checked,
        stop_on_balance_change: this.balance.checked,
        stop_on_win_above: this.amount(this.winAbove, t('autoplay.win_limit_name')),
        loss_limit: this.amount(this.lossLimit, t('autoplay.loss_limit_name')),
      };
      if (this.lossRequired && settings.loss_limit === null) throw new Error(t('autoplay.loss_limit_required'));
      this.dialog.close();
      this.game.startAutoplay(settings);
    } catch (error) {
      this.error.textContent = error.message;
    }
  }
}
