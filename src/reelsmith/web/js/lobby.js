/** The lobby: every title the player's market offers, with a note when a round is open. */
import { symbolSvg } from './art/sprite.js';
import { h } from './dom.js';
import { freeRoundsPanel } from './freerounds.js';
import { language, t } from './messages.js';
import { lookOf } from './look.js';

export async function renderLobby(app, view) {
  const { games } = await app.api.get('/api/games');
  const [cards, freeRounds] = await Promise.all([Promise.all(games.map((game) => lobbyCard(app, game))), freeRoundsPanel(app, games)]);
  view.replaceChildren(
    h(
      'section',
      { class: 'lobby', 'aria-labelledby': 'lobby-title' },
      h('h1', { id: 'lobby-title', class: 'lobby-title' }, t('lobby.title')),
      freeRounds,
      h('div', { class: 'lobby-grid' }, ...cards),
    ),
  );
}

/** An RTP such as "96.00" written for the player's locale ("96,00" in German). */
function percent(app, rtp) {
  return new Intl.NumberFormat(app.money.locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(Number(rtp));
}

async function lobbyCard(app, game) {
  const [rules, state] = await Promise.all([
    app.api.get(`/api/games/${game.id}/rules?lang=${language()}`).catch(() => null),
    app.api.get(`/api/games/${game.id}/state`).catch(() => null),
  ]);
  const { theme, art } = lookOf(game, rules);
  const hero = art.hero ?? [];
  const open = state?.open_round;
  return h(
    'article',
    { class: `lobby-card theme-${theme}`, dataset: { game: game.id } },
    h(
      'div',
      { class: 'lobby-art', 'aria-hidden': 'true' },
      ...hero.map((id, i) => h('span', { class: `lobby-symbol s${i}`, html: symbolSvg(theme, id) })),
    ),
    h(
      'div',
      { class: 'lobby-body' },
      h('h2', { class: 'lobby-name' }, game.name),
      rules ? h('p', { class: 'lobby-desc' }, rules.description) : null,
      h('p', { class: 'lobby-rtp' }, t('lobby.rtp', { rtp: percent(app, game.variant) })),
      open ? h('p', { class: 'lobby-open', role: 'note' }, t('lobby.round_open')) : null,
      h('a', { class: 'btn btn-accent lobby-play', href: `#/play/${game.id}` }, t(open ? 'lobby.continue' : 'lobby.play', { game: game.name })),
    ),
  );
}
