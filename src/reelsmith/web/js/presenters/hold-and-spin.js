/**
 * The hold-and-spin's presenters: the feature starts (`hold_and_spin_start`: each coin of the
 * window shows its value as a badge on its cell), each respin lands coins or uses one respin up
 * (`hold_and_spin_respin`: the new coins' badges, the respins left told), and the feature ends
 * (`hold_and_spin_end`: the coins held, any jackpots and the feature's pay). The screen's whole
 * win, the feature's included, is settled by `spin_won` as any screen's.
 */
import { announce, sleep } from '../dom.js';
import { t } from '../messages.js';

/** A coin's badge text: its value in total bets ("5×") or its jackpot tier's name. */
const badgeText = (coin) => (/^\d+$/.test(coin.value) ? `${coin.bets}×` : coin.value.toUpperCase());

function badges(coins, stage) {
  for (const coin of coins) {
    const [row, reel] = coin.position;
    stage.game.grid.badge(row, reel, badgeText(coin), 'hs-coin');
  }
}

/** The coins stick with their values; the respins begin. */
export async function presentHoldAndSpinStart(event, stage) {
  stage.holdAndSpin = { held: event.held.length, respins: event.respins };
  badges(event.held, stage);
  announce(t('hs.start', { count: event.held.length, respins: event.respins }));
  await sleep(stage.game.motion.ms('reveal'));
}

/** One respin: the coins it landed (none: one respin used up) and the respins left. */
export async function presentHoldAndSpinRespin(event, stage) {
  badges(event.landed, stage);
  if (stage.holdAndSpin) stage.holdAndSpin.held += event.landed.length;
  announce(t('hs.respin', { count: event.landed.length, left: event.respins_left }));
  await sleep(stage.game.motion.ms('reveal'));
}

/** The feature is over: what it pays, and the jackpots it won. */
export function presentHoldAndSpinEnd(event, stage) {
  stage.holdAndSpin = null;
  const jackpots = event.jackpots.map((tier) => tier.toUpperCase()).join(', ');
  const text = jackpots
    ? t('hs.end_jackpots', { count: event.coins_held, bets: event.total_bets, jackpots })
    : t('hs.end', { count: event.coins_held, bets: event.total_bets });
  announce(text);
  stage.game.app?.messages?.notice(text, 6000);
}
