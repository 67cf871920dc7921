/**
 * The history panel: the last 10 rounds of this game, and a step-by-step replay of each from
 * the screens the server stored with every step (nothing is re-computed in the browser).
 */
import { cardFace } from './art/cards.js';
import { Dialog } from './dialog.js';
import { h, label } from './dom.js';
import { describe, formatDate, has, t } from './messages.js';
import { ReelGrid } from './reels.js';

/** The steps' names, by the server's action: keys of the message catalogue. */
const ACTION_LABEL = { spin: 'history.action_spin', free_spin: 'history.action_free_spin', collect: 'history.action_collect', auto_resolve: 'history.action_auto_resolve' };

export class HistoryDialog {
  constructor(game) {
    this.game = game;
    this.money = game.money;
    this.dialog = new Dialog({ id: 'history-dialog', title: t('history.title'), cls: `dialog-wide theme-${game.ui.theme}` });
    game.dialogs.push(this.dialog);
  }

  async open() {
    this.dialog.heading.textContent = t('history.last_rounds', { game: this.game.name });
    this.dialog.body.replaceChildren(h('p', { class: 'loading' }, t('history.loading')));
    this.dialog.show();
    try {
      const data = await this.game.api.get(`/api/history/rounds?game=${encodeURIComponent(this.game.id)}&limit=10`);
      this.rounds = data.rounds;
      this.renderList();
    } catch (error) {
      this.dialog.body.replaceChildren(h('p', { class: 'form-error' }, describe(error)));
    }
  }

  renderList() {
    const { money } = this;
    if (!this.rounds.length) {
      this.dialog.body.replaceChildren(h('p', {}, t('history.none')));
      return;
    }
    // A round still open may hold a win not yet paid (waiting for the gamble or collect): its
    // row shows that win, marked as pending, not the nothing paid so far.
    const pendingOf = (r) => (r.status === 'open' && r.round?.win_minor > 0 ? r.round.win_minor : 0);
    const rows = this.rounds.map((r, i) =>
      h(
        'tr',
        { class: 'history-row', dataset: { roundId: r.round_id, status: r.status } },
        h('td', { class: 'history-time' }, formatDate(new Date(r.created_ms), this.game.market.locale, { dateStyle: 'short', timeStyle: 'medium' })),
        // the labels name the figures where a narrow screen shows a row as a card
        h('td', { class: 'num history-bet', dataset: { label: t('game.bet') } }, money.format(r.bet_minor)),
        pendingOf(r)
          ? h('td', { class: 'num history-win pending', dataset: { minor: r.win_minor, pending: pendingOf(r), label: t('game.win') } }, t('history.win_pending', { amount: money.format(pendingOf(r)) }))
          : h('td', { class: 'num history-win', dataset: { minor: r.win_minor, label: t('game.win') } }, money.format(r.win_minor)),
        h('td', { class: 'history-summary' }, this.summary(r)),
        h(
          'td',
          { class: 'history-replay' },
          h('button', { type: 'button', class: 'btn btn-small replay-open', onclick: () => this.replay(i) }, t('history.replay')),
        ),
      ),
    );
    this.dialog.body.replaceChildren(
      h(
        'table',
        { class: 'history-table' },
        h('thead', {}, h('tr', {}, ...[t('history.time'), t('game.bet'), t('game.win'), t('history.round'), ''].map((text) => h('th', { scope: 'col' }, text)))),
        h('tbody', {}, ...rows),
      ),
    );
  }

  /** The bet mode a round was played in (the game list's entry), or null. */
  modeOf(view) {
    if (!view.mode) return null;
    return this.game.info.modes?.find((m) => m.name === view.mode) ?? { name: view.mode, kind: view.mode === 'ante' ? 'ante' : 'buy', price: '' };
  }

  /** A pot's name in the player's language (the title's, from its rules page). */
  potName(pot) {
    return this.game.ui.potName?.(pot) ?? label(pot);
  }

  summary(record) {
    const view = record.round;
    const status = `history.status_${record.status}`;
    const pending = record.status === 'open' && view.win_minor > 0;
    const parts = [pending ? t('history.status_pending', { amount: this.money.format(view.win_minor) }) : has(status) ? t(status) : record.status];
    const free = (view.spins ?? []).filter((s) => s.kind === 'free').length;
    // a round played in a bet mode (js/modes.js) says which: the ante, a bought feature
    const mode = this.modeOf(view);
    if (mode) parts.push(t(mode.kind === 'buy' ? 'history.mode_buy' : 'history.mode_ante', { times: this.money.count(Number(mode.price)) }));
    if (free) parts.push(t('history.free_spins', { count: free }));
    if (view.gambles?.length) parts.push(t('history.gambles', { count: view.gambles.length }));
    const jackpots = (view.spins ?? []).flatMap((s) => s.gems ?? []).filter((g) => g.reveal === 'jackpot');
    if (jackpots.length) parts.push(jackpots.map((g) => t('history.jackpot', { pot: this.potName(g.jackpot) })).join(', '));
    return parts.join(' · ');
  }

  replay(index) {
    const record = this.rounds[index];
    const steps = record.steps;
    let at = 0;
    const ui = this.game.ui;
    const grid = new ReelGrid({
      reels: this.game.rules.reels,
      rows: this.game.rules.rows,
      paylines: this.game.rules.paylines,
      cell: (s, reel) => ui.cell(s, reel),
      name: (s) => ui.name(s),
      filler: ui.filler,
    });
    const title = h('p', { class: 'replay-title' });
    const detail = h('div', { class: 'replay-detail' });
    const stepList = h(
      'ol',
      { class: 'replay-steps' },
      ...steps.map((step, i) =>
        h('li', {}, h('button', { type: 'button', class: 'replay-step', dataset: { seq: step.seq }, onclick: () => show(i) }, `${i + 1}. ${this.stepLabel(step, i)}`)),
      ),
    );
    const prev = h('button', { type: 'button', class: 'btn btn-small', id: 'replay-prev', onclick: () => show(at - 1) }, t('history.previous'));
    const next = h('button', { type: 'button', class: 'btn btn-small', id: 'replay-next', onclick: () => show(at + 1) }, t('history.next'));
    const back = h('button', { type: 'button', class: 'btn btn-small', onclick: () => this.renderList() }, t('history.all_rounds'));
    const stage = h('div', { class: `replay-stage theme-${ui.theme}` }, grid.element);
    const show = (i) => {
      at = Math.max(0, Math.min(steps.length - 1, i));
      const step = steps[at];
      const view = step.view;
      title.textContent = t('history.step', { step: at + 1, steps: steps.length, action: this.stepLabel(step, at), balance: this.money.format(step.balance_after_minor) });
      for (const [j, li] of [...stepList.children].entries()) li.firstChild.setAttribute('aria-current', j === at ? 'step' : 'false');
      prev.disabled = at === 0;
      next.disabled = at === steps.length - 1;
      const spin = view.spins?.at(-1);
      const gamble = step.action.startsWith('gamble') ? view.gambles?.at(-1) : null;
      // a bought feature's first step has no screen: it says what was bought
      grid.element.hidden = Boolean(gamble) || !spin;
      if (spin && !gamble) {
        grid.show(ui.lastScreen(view));
        grid.showWins(ui.winItems(view)); // lines are redrawn once the grid is laid out
      }
      detail.replaceChildren(...this.describeStep(step, view, spin, gamble));
    };
    this.dialog.heading.textContent = t('history.round_heading', { game: this.game.name, round: record.round_id.slice(0, 8) });
    this.dialog.body.replaceChildren(
      h(
        'div',
        { class: 'replay', dataset: { roundId: record.round_id } },
        h('div', { class: 'replay-nav' }, back, prev, next),
        title,
        stage,
        detail,
        stepList,
      ),
    );
    show(0);
  }

  /** A step's name in the replay: a bought feature's first step is the buy, not a spin. */
  stepLabel(step, index) {
    if (index === 0 && step.action === 'spin' && this.modeOf(step.view)?.kind === 'buy') return t('history.action_buy');
    return this.actionLabel(step.action);
  }

  actionLabel(action) {
    if (action.startsWith('gamble ')) return t('history.action_gamble', { choice: this.choiceLabel(action.slice(7)) });
    return ACTION_LABEL[action] ? t(ACTION_LABEL[action]) : label(action);
  }

  /** A gamble choice ("red", "spades") in the player's language. */
  choiceLabel(choice) {
    return has(`gamble.choice_${choice}`) ? t(`gamble.choice_${choice}`) : label(choice);
  }

  describeStep(step, view, spin, gamble) {
    const { money } = this;
    const ui = this.game.ui;
    const out = [];
    if (gamble) {
      out.push(
        h('div', { class: 'replay-card', html: cardFace(gamble.card) }),
        h('p', {}, t(gamble.won ? 'history.gamble_result_won' : 'history.gamble_result_lost', { choice: this.choiceLabel(gamble.choice), card: gamble.card })),
      );
    }
    if (spin && !gamble) {
      const items = ui.chainItems?.(view) ?? ui.winItems(view);
      out.push(h('p', {}, items.length ? t('history.this_spin', { items: items.map((i) => i.text).join('; ') }) : t('history.no_win')));
      for (const note of ui.spinNotes?.(spin, view) ?? []) out.push(h('p', {}, note));
      for (const gem of spin.gems ?? []) {
        const reveal = `gem.reveal_${gem.reveal}`;
        const what = gem.reveal === 'jackpot' ? t('history.gem_jackpot', { pot: this.potName(gem.jackpot), amount: money.format(gem.jackpot_bets * view.bet_minor) }) : has(reveal) ? t(reveal) : label(gem.reveal);
        out.push(h('p', {}, t('history.gem', { reel: gem.reel, pot: this.potName(gem.jackpot), amount: money.format(gem.pot_after * view.bet_minor), what })));
      }
      if (spin.level) out.push(h('p', {}, t('history.level', { level: spin.level, multiplier: spin.multiplier })));
      if (view.free_spins_remaining !== undefined && view.phase === 'free_spins') out.push(h('p', {}, t('history.free_spins_left', { count: view.free_spins_remaining })));
      if (view.level_spins_left !== undefined && view.phase === 'free_spins') out.push(h('p', {}, t('history.level_spins_left', { count: view.level_spins_left, level: view.level })));
    }
    if (!spin && !gamble && view.mode) {
      out.push(h('p', { class: 'replay-bought' }, t('history.bought', { count: view.free_spins_awarded })));
    }
    if (step.action === 'collect') out.push(h('p', {}, t('history.collected', { amount: money.format(view.win_minor) })));
    out.push(h('p', { class: 'replay-win' }, t('history.round_win', { amount: money.format(ui.roundWinMinor(view)) })));
    return out;
  }
}
