/**
 * The paytable and rules, rendered from `GET /api/games/{game}/rules?lang=…` — the document the
 * server renders from the same model the engine pays from, for the player's market, in the
 * player's language: its sentences and every heading (`doc.labels`) come from the server's
 * message catalogues. Nothing here is a second copy of the rules or of their words.
 */
import { symbolSvg } from './art/sprite.js';
import { Dialog } from './dialog.js';
import { h, label } from './dom.js';
import { t } from './messages.js';
import { paylineDiagram } from './paylines.js';

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

  /** What one paytable entry pays at the current bet, in money: a coin bet's line pay is in
   * coins per line coin, whatever the paylines; a bet size's is spread over every payline. */
  atBet(pay) {
    const { game } = this;
    const bet = game.ui.bet();
    if (bet.coin_size !== undefined) {
      return pay * bet.coins_per_line * game.money.toMinor(bet.coin_size);
    }
    return Math.round((pay * game.ui.betMinor()) / game.rules.paylines.length);
  }

  render() {
    const { game } = this;
    const doc = game.rules;
    const money = game.money;
    const theme = game.ui.theme;
    // the paytable's columns: 2 to the reel count in a row, or a pay-anywhere game's tiers
    const counts = doc.pay_counts ? doc.pay_counts.filter((n) => n !== '1') : Array.from({ length: doc.reels - 1 }, (_, i) => String(i + 2));
    const labels = doc.labels;
    const nav = h(
      'nav',
      { class: 'rules-nav', 'aria-label': labels.nav },
      h('a', { href: '#rules-paytable' }, labels.paytable),
      h('a', { href: '#rules-rules' }, labels.rules),
      h('a', { href: '#rules-paylines' }, labels.paylines),
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
          h('div', { class: 'pay-art', html: symbolSvg(theme, entry.symbol, entry.name) }),
          h('h4', {}, entry.name, entry.role === 'wild' ? h('span', { class: 'tag' }, labels.wild) : null),
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
      h('p', { class: 'rules-rtp' }, labels.rtp),
      nav,
      h('h3', { id: 'rules-paytable' }, labels.paytable),
      h('p', { class: 'rules-unit' }, labels.unit),
      paytable,
    ];
    if (doc.scatter) {
      const totalMinor = game.ui.betMinor();
      parts.push(
        h(
          'article',
          { class: 'pay-card pay-scatter', dataset: { symbol: doc.scatter.symbol } },
          h('div', { class: 'pay-art', html: symbolSvg(theme, doc.scatter.symbol, doc.scatter.name) }),
          h('h4', {}, doc.scatter.name, h('span', { class: 'tag' }, labels.scatter)),
          h(
            'dl',
            { class: 'pays' },
            ...Object.entries(doc.scatter.pays_times_total_bet)
              .reverse()
              .flatMap(([n, x]) => [
                h('dt', {}, `${n}×`),
                h('dd', { dataset: { count: n } }, labels.total_bet_times.replace('{times}', money.count(x)), h('small', {}, money.format(totalMinor * x))),
              ]),
          ),
        ),
      );
    }
    parts.push(h('h3', { id: 'rules-rules' }, labels.rules));
    for (const [key, value] of Object.entries(doc.rules)) parts.push(this.section(key, value));
    parts.push(
      h('h3', { id: 'rules-paylines' }, `${labels.paylines} (${doc.paylines.length})`),
      h('p', { class: 'rules-lead' }, labels.paylines_lead),
      h(
        'div',
        { class: 'payline-grid', html: doc.paylines.map((shape, i) => paylineDiagram(i + 1, shape, doc.rows)).join('') },
      ),
    );
    this.dialog.heading.textContent = t('rules.heading', { game: doc.name });
    this.dialog.body.replaceChildren(...parts);
  }

  section(key, value) {
    const title = this.game.rules.labels.sections[key] ?? label(key);
    const section = h('section', { class: 'rules-section', dataset: { section: key } }, h('h4', {}, title));
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
    const labels = this.game.rules.labels;
    const columns = Object.keys(rows[0]).filter((c) => c !== 'id'); // an id names a row for programs
    const percent = new Intl.NumberFormat(this.game.money.locale, { style: 'percent', minimumFractionDigits: 2, maximumFractionDigits: 2 });
    const cell = (column, v) => (column === 'probability' ? percent.format(v) : typeof v === 'number' ? this.game.money.count(v) : v);
    return h(
      'table',
      { class: 'rules-table' },
      h('caption', {}, labels.tables[name] ?? label(name)),
      h('thead', {}, h('tr', {}, ...columns.map((c) => h('th', { scope: 'col' }, labels.columns[c] ?? label(c))))),
      h('tbody', {}, ...rows.map((row) => h('tr', {}, ...columns.map((c) => h('td', {}, cell(c, row[c])))))),
    );
  }
}
