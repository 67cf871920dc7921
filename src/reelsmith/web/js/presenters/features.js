/**
 * The features' presenters: gems and pots, and the ladder (free spins: `free-spins.js`). Each
 * draws on the panels the title's script mounted (the pots above the reels, the free-spins
 * counter, the ladder and meter) through that script's hooks, all optional: a title without
 * the panel has no hook and the event changes nothing on its screen.
 *
 *   ui.revealGem(event, stage)          a gem's reveal (a symbol, a wild reel, the jackpot spin)
 *   ui.jackpotName(pot)                 a pot's name (the jackpot's win item)
 *   ui.potsWon(event, stage)            pots paid: every pot after
 *   ui.ladderStep(event, stage)         the ladder's level, the meter, a level up
 */
import { t } from '../messages.js';

/** A gem raised its pot and revealed something; a pot won is a win item of its own. */
export async function presentGemRevealed(event, stage) {
  await stage.ui.revealGem?.(event, stage);
  if (event.reveal !== 'jackpot') return;
  const minor = event.jackpot_bets * stage.round.bet_minor;
  const pot = stage.ui.jackpotName?.(event.jackpot) ?? event.jackpot;
  stage.jackpots.push({
    positions: [[event.row, event.reel - 1]],
    minor,
    label: t('feature.jackpot_won', { pot }),
    text: t('ladder.jackpot_pays', { pot, amount: stage.game.money.format(minor) }),
  });
  // the jackpot's scene has counted this part of the win up already
  stage.presentedMinor = (stage.presentedMinor ?? 0) + minor;
}

export async function presentPotWon(event, stage) {
  await stage.ui.potsWon?.(event, stage);
}

export async function presentLadderStep(event, stage) {
  await stage.ui.ladderStep?.(event, stage);
}
