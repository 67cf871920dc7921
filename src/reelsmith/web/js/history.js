/**
 * The history panel: the last 10 rounds of this game, and a step-by-step replay of each from
 * the screens the server stored with every step (nothing is re-computed in the browser).
 */
import { cardFace } from './art/cards.js';
import { Dialog } from './dialog.js';
import { h, label } from './dom.js';
import { t } from './messages.js';
import { ReelGrid } from './reels.js';

const ACTION_LABEL = { spin: 'Spin', free_spin: 'Free spin', collect: 'Collect', auto_resolve: 'Resolved automatically' };

export class HistoryDialog {
  constructor(game) {
    this.game = game;
    this.money = game.money;
    this.dialog = new Dialog({ id: 'history-dialog', title: 'History', cls: `dialog-wide theme-${game.ui.theme}` });
    game.dialogs.push(this.dialog);
    this.time = new Intl.DateTimeFormat(game.money.locale, { dateStyle: 'short', timeStyle: 'medium' });
  }

  async open() {
    this.dialog.heading.textContent = `${this.game.name} — last rounds`;
    this.dialog.body.replaceChildren(h('p', { class: 'loading' }, 'Loading…'));
    this.dialog.show();
    try {
      const data = await this.game.api.get(`/api/history/rounds?game=${encodeURIComponent(this.game.id)}&limit=10`);
      this.rounds = data.rounds;
      this.renderList();
    } catch (error) {
      this.dialog.body.replaceChildren(h('p', { class: 'form-error' }, error.message));
    }
  }

  renderList() {
    const { money } = this;
    if (!this.rounds.length) {
      this.dialog.body.replaceChildren(h('p', {}, 'No rounds yet.'));
      return;
    }
    const rows = this.rounds.map((r, i) =>
      h(
        'tr',
        { class: 'history-row', dataset: { roundId: r.round_id, status: r.status } },
        h('td', { class: 'history-time' }, this.time.format(new Date(r.created_ms))),
        // the labels name the figures where a narrow screen shows a row as a card
        h('td', { class: 'num history-bet', dataset: { label: t('game.bet') } }, money.format(r.bet_minor)),
        h('td', { class: 'num history-win', dataset: { minor: r.win_minor, label: t('game.win') } }, money.format(r.win_minor)),
        h('td', { class: 'history-summary' }, this.summary(r)),
        h(
          'td',
          { class: 'history-replay' },
          h('button', { type: 'button', class: 'btn btn-small replay-open', onclick: () => this.replay(i) }, 'Replay'),
        ),
      ),
    );
    this.dialog.body.replaceChildren(
      h(
        'table',
        { class: 'history-table' },
        h('thead', {}, h('tr', {}, ...['Time', 'Bet', 'Win', 'Round', ''].map((t) => h('th', { scope: 'col' }, t)))),
        h('tbody', {}, ...rows),
      ),
    );
  }

  summary(record) {
    const view = record.round;
    const parts = [record.status === 'open' ? 'in progress' : record.status];
    const free = (view.spins ?? []).filter((s) => s.kind === 'free').length;
    if (free) parts.push(`${free} free spins`);
    if (view.gambles?.length) parts.push(`${view.gambles.length} gamble${view.gambles.length > 1 ? 's' : ''}`);
    const jackpots = (view.spins ?? []).flatMap((s) => s.gems ?? []).filter((g) => g.reveal === 'jackpot');
    if (jackpots.length) parts.push(jackpots.map((g) => `${label(g.jackpot)} jackpot`).join(', '));
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
        h('li', {}, h('button', { type: 'button', class: 'replay-step', dataset: { seq: step.seq }, onclick: () => show(i) }, `${i + 1}. ${this.actionLabel(step.action)}`)),
      ),
    );
    const prev = h('button', { type: 'button', class: 'btn btn-small', id: 'replay-prev', onclick: () => show(at - 1) }, '‹ Previous');
    const next = h('button', { type: 'button', class: 'btn btn-small', id: 'replay-next', onclick: () => show(at + 1) }, 'Next ›');
    const back = h('button', { type: 'button', class: 'btn btn-small', onclick: () => this.renderList() }, '‹ All rounds');
    const stage = h('div', { class: `replay-stage theme-${ui.theme}` }, grid.element);
    const show = (i) => {
      at = Math.max(0, Math.min(steps.length - 1, i));
      const step = steps[at];
      const view = step.view;
      title.textContent = `Step ${at + 1} of ${steps.length}: ${this.actionLabel(step.action)} · balance after ${this.money.format(step.balance_after_minor)}`;
      for (const [j, li] of [...stepList.children].entries()) li.firstChild.setAttribute('aria-current', j === at ? 'step' : 'false');
      prev.disabled = at === 0;
      next.disabled = at === steps.length - 1;
      const spin = view.spins?.at(-1);
      const gamble = step.action.startsWith('gamble') ? view.gambles?.at(-1) : null;
      grid.element.hidden = Boolean(gamble);
      if (spin && !gamble) {
        grid.show(spin.screen);
        grid.showWins(ui.winItems(view)); // lines are redrawn once the grid is laid out
      }
      detail.replaceChildren(...this.describeStep(step, view, spin, gamble));
    };
    this.dialog.heading.textContent = `${this.game.name} — round ${record.round_id.slice(0, 8)}`;
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

  actionLabel(action) {
    if (action.startsWith('gamble ')) return `Gamble ${action.slice(7)}`;
    return ACTION_LABEL[action] ?? label(action);
  }

  describeStep(step, view, spin, gamble) {
    const { money } = this;
    const ui = this.game.ui;
    const out = [];
    if (gamble) {
      out.push(
        h('div', { class: 'replay-card', html: cardFace(gamble.card) }),
        h('p', {}, `Guessed ${gamble.choice}; the card was ${gamble.card}: ${gamble.won ? 'won' : 'lost'}.`),
      );
    }
    if (spin && !gamble) {
      const items = ui.winItems(view);
      out.push(h('p', {}, items.length ? `This spin: ${items.map((i) => i.text).join('; ')}.` : 'No win on this spin.'));
      if (spin.reveals?.length) out.push(h('p', {}, `The eggs revealed ${spin.reveals.join(' + ')} = ${view.free_spins_awarded} free spins.`));
      if (spin.kind === 'free' && spin.spins_added) out.push(h('p', {}, `${spin.spins_added} egg${spin.spins_added > 1 ? 's' : ''}: +${spin.spins_added} free spins.`));
      for (const gem of spin.gems ?? []) {
        const what = gem.reveal === 'jackpot' ? `the ${label(gem.jackpot)} jackpot (${money.format(gem.jackpot_bets * view.bet_minor)})` : label(gem.reveal);
        out.push(h('p', {}, `Gem on reel ${gem.reel}: the ${label(gem.jackpot)} pot rose to ${money.format(gem.pot_after * view.bet_minor)} and revealed ${what}.`));
      }
      if (spin.level) out.push(h('p', {}, `Free spins level ${spin.level}, ${spin.multiplier}x multiplier.`));
      if (view.free_spins_remaining !== undefined && view.phase === 'free_spins') out.push(h('p', {}, `${view.free_spins_remaining} free spins left.`));
      if (view.level_spins_left !== undefined && view.phase === 'free_spins') out.push(h('p', {}, `${view.level_spins_left} spins left on level ${view.level}.`));
    }
    if (step.action === 'collect') out.push(h('p', {}, `Collected ${money.format(view.win_minor)}.`));
    out.push(h('p', { class: 'replay-win' }, `Round win so far: ${money.format(ui.roundWinMinor(view))}`));
    return out;
  }
}
