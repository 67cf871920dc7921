/**
 * The player's free-round campaigns, above the lobby's titles: each campaign that can be
 * played now (rounds an operator gave at a fixed bet, charged nothing) with its title, its bet
 * and the rounds left, and a button that plays its next round through (free spins played in
 * turn, a win collected at once) and shows what the round paid. The server counts the campaign
 * down and pays the wins; this shows its answers and nothing of its own.
 */
import { h } from './dom.js';
import { t } from './messages.js';

/** The panel of the player's playable campaigns, or null when there is none. */
export async function freeRoundsPanel(app, games) {
  const found = await app.api.get('/api/free-rounds').catch(() => ({ campaigns: [] }));
  const playable = found.campaigns.filter((campaign) => campaign.status === 'active');
  if (!playable.length) return null;
  const names = Object.fromEntries(games.map((game) => [game.id, game.name]));
  return h(
    'section',
    { class: 'free-rounds', 'aria-labelledby': 'free-rounds-title' },
    h('h2', { id: 'free-rounds-title', class: 'free-rounds-title' }, t('freerounds.title')),
    h('ul', { class: 'free-rounds-list' }, ...playable.map((campaign) => campaignItem(app, campaign, names[campaign.game] ?? campaign.game))),
  );
}

function leftText(campaign) {
  return t('freerounds.left', { count: campaign.remaining, bet: campaign.bet_total.formatted });
}

function campaignItem(app, campaign, name) {
  const left = h('span', { class: 'free-rounds-left' }, leftText(campaign));
  const result = h('output', { class: 'free-rounds-result', 'aria-live': 'polite' });
  const button = h('button', { class: 'btn btn-accent free-rounds-play', type: 'button' }, t('freerounds.play'));
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      const { first, last } = await playRound(app, campaign);
      app.setBalance(last.balance.minor);
      result.textContent = t('freerounds.won', { win: last.win.formatted });
      left.textContent = leftText(first.free_round);
      button.disabled = first.free_round.remaining === 0;
    } catch (error) {
      result.textContent = error.message;
      button.disabled = error.status === 409;
    }
  });
  return h(
    'li',
    { class: 'free-rounds-item', dataset: { campaign: campaign.campaign_id, game: campaign.game } },
    h('span', { class: 'free-rounds-name' }, name),
    ' ',
    left,
    ' ',
    button,
    ' ',
    result,
  );
}

/** Play the campaign's next round to its end: its first answer and its last. */
async function playRound(app, campaign) {
  const path = `/api/free-rounds/${encodeURIComponent(campaign.campaign_id)}/play`;
  const first = await app.api.post(path, { gamble: false }, { forcible: true });
  let last = first;
  while (last.status === 'open') {
    last = await app.api.post(`/api/games/${campaign.game}/rounds/${last.round_id}/free-spin`, {}, { forcible: true });
  }
  return { first, last };
}
