/**
 * The paytable and rules, rendered from `GET /api/games/{game}/rules` — the document the server
 * renders from the same model the engine pays from. Nothing here is a second copy of the rules.
 */
import { symbolSvg } from './art/sprite.js';
import { Dialog } from './dialog.js';
import { h, label } from './dom.js';
import { t } from './messages.js';
import { paylineDiagram } from './paylines.js';

const SECTION_TITLES = {
  general: 'General',
  substitute: 'Substitute symbol',
  wild: 'Wild',
  scatter: 'Scatter',
  jackpots: 'Local jackpots',
  free_spins: 'Free spins',
  gamble: 'Gamble bonus game',
  bets: 'Bets',
};
const TABLE_TITLES = {
  reveal_distribution: 'Each egg reveals',
  gem_reveals: 'A gem that does not hit its pot reveals',
  pots: 'Pots',
  levels: 'Levels',
};

export class RulesDialog {
  constructor(game) {
    this.game = game;
    this.dialog = new Dialog({ id: 'rules-dialog', title: t('rules.title'), cls: `dialog-wide theme-${game.ui.theme}` });
    game.dialogs.push(this.dialog);
  }

  open() {
    this.render();
    this.dialog.show();
  }

  /** What one paytable entry pays at the current bet, in money. */
  atBet(pay) {
    const { game } = this;
    const bet = game.ui.bet();
    if (game.id === 'days-of-the-tsar') {
      return pay * bet.coins_per_line * game.money.toMinor(bet.coin_size);
    }
    return Math.round((pay * game.ui.betMinor()) / game.rules.paylines.length);
  }

  render() {
    const { game } = this;
    const doc = game.rules;
    const money = game.money;
    const theme = game.ui.theme;
    const counts = Array.from({ length: doc.reels - 1 }, (_, i) => i + 2);
    const nav = h(
      'nav',
      { class: 'rules-nav', 'aria-label': 'Sections' },
      h('a', { href: '#rules-paytable' }, 'Paytable'),
      h('a', { href: '#rules-rules' }, 'Rules'),
      h('a', { href: '#rules-paylines' }, 'Paylines'),
    );
    nav.addEventListener('click', (event) => {
      const link = event.target.closest('a');
      if (!link) return;
      event.preventDefault();
      this.dialog.body.querySelector(link.getAttribute('href'))?.scrollIntoView({ block: 'start' });
    });
    const paytable = h(
      'div',
      { class: 'paytable' },
      ...doc.paytable.map((entry) =>
        h(
          'article',
          { class: `pay-card role-${entry.role}`, dataset: { symbol: entry.symbol } },
          h('div', { class: 'pay-art', html: symbolSvg(theme, entry.symbol === 'gem' ? 'gem-teal' : entry.symbol, entry.name) }),
          h('h4', {}, entry.name, entry.role === 'wild' ? h('span', { class: 'tag' }, 'wild') : null),
          h(
            'dl',
            { class: 'pays' },
            ...counts
              .filter((n) => entry.pays[String(n)])
              .reverse()
              .flatMap((n) => [
                h('dt', {}, `${n}×`),
                h(
                  'dd',
                  { dataset: { count: n } },
                  money.count(entry.pays[String(n)]),
                  h('small', {}, money.format(this.atBet(entry.pays[String(n)]))),
                ),
              ]),
          ),
        ),
      ),
    );
    const parts = [
      h('p', { class: 'rules-lead' }, doc.description),
      h('p', { class: 'rules-rtp' }, `Theoretical return to player: ${doc.rtp_percent}%`),
      nav,
      h('h3', { id: 'rules-paytable' }, 'Paytable'),
      h('p', { class: 'rules-unit' }, `Pays are in ${doc.line_pay_unit}; the amount below each is what it pays at your current bet.`),
      paytable,
    ];
    if (doc.scatter) {
      const totalMinor = game.ui.betMinor();
      parts.push(
        h(
          'article',
          { class: 'pay-card pay-scatter', dataset: { symbol: doc.scatter.symbol } },
          h('div', { class: 'pay-art', html: symbolSvg(theme, doc.scatter.symbol, doc.scatter.name) }),
          h('h4', {}, doc.scatter.name, h('span', { class: 'tag' }, 'scatter')),
          h(
            'dl',
            { class: 'pays' },
            ...Object.entries(doc.scatter.pays_times_total_bet)
              .reverse()
              .flatMap(([n, x]) => [
                h('dt', {}, `${n}×`),
                h('dd', { dataset: { count: n } }, `total bet × ${x}`, h('small', {}, money.format(totalMinor * x))),
              ]),
          ),
        ),
      );
    }
    parts.push(h('h3', { id: 'rules-rules' }, 'Rules'));
    for (const [key, value] of Object.entries(doc.rules)) parts.push(this.section(key, value));
    parts.push(
      h('h3', { id: 'rules-paylines' }, `Paylines (${doc.paylines.length})`),
      h(
        'div',
        { class: 'payline-grid', html: doc.paylines.map((shape, i) => paylineDiagram(i + 1, shape, doc.rows)).join('') },
      ),
    );
    this.dialog.heading.textContent = t('rules.heading', { game: doc.name });
    this.dialog.body.replaceChildren(...parts);
  }

  section(key, value) {
    const section = h('section', { class: 'rules-section', dataset: { section: key } }, h('h4', {}, SECTION_TITLES[key] ?? label(key)));
    const bullets = Array.isArray(value) ? value : value.text ?? [];
    if (bullets.length) section.append(h('ul', {}, ...bullets.map((t) => h('li', {}, t))));
    if (!Array.isArray(value)) {
      for (const [name, item] of Object.entries(value)) {
        if (Array.isArray(item) && item.length && typeof item[0] === 'object') section.append(this.table(name, item));
      }
    }
    return section;
  }

  table(name, rows) {
    const columns = Object.keys(rows[0]);
    const cell = (column, v) => (column === 'probability' ? `${(v * 100).toFixed(2)}%` : typeof v === 'number' ? this.game.money.count(v) : label(v));
    return h(
      'table',
      { class: 'rules-table' },
      h('caption', {}, TABLE_TITLES[name] ?? label(name)),
      h('thead', {}, h('tr', {}, ...columns.map((c) => h('th', { scope: 'col' }, label(c))))),
      h('tbody', {}, ...rows.map((row) => h('tr', {}, ...columns.map((c) => h('td', {}, cell(c, row[c])))))),
    );
  }
}
