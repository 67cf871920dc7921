/**
 * The round's own presenters. A round's start, its gamble cards and its end are drawn by the
 * game's flow itself (`game.js`: the stake taken from the balance, the gamble screen that
 * turns each card as its answer comes, the round closed or the next action offered), so
 * these presenters record what they saw on the stage and draw nothing more.
 */
import { announce } from '../dom.js';
import { t } from '../messages.js';

/** The round is staked: its cost, as the server counts it. */
export function presentRoundStarted(event, stage) {
  stage.totalMinor = event.total_minor;
}

/** A gamble card: the open gamble screen (`stage.gamble`, `gamble.js`) turns it. A
 * step that is not a gamble replays the round's earlier cards, which are already shown. */
export async function presentGambleCard(event, stage) {
  await stage.gamble?.turn(event, stage);
}

/** The round ended or waits for the player (`actions_offered`): the flow acts on it. */
export function presentRoundEnd(event, stage) {
  stage.end = event;
}

/** The round reached its maximum win (`[max_win]`): it pays the cap and ends here. The player
 * is told at once (a notice beside the win display), and the stage keeps the event so the
 * outro and the history can say why the free spins stopped. */
export function presentCapReached(event, stage) {
  stage.capReached = event;
  stage.game.app?.messages?.notice(t('game.cap_reached', { multiplier: event.multiplier }), 6000);
}

/** The round is a bought feature (`[modes]`): no base spin, the free spins start with the
 * spins it awarded. The player is told what was bought, and the stage keeps the event so the
 * free-spins panel and the history can show the round began in the feature. Where the title
 * opens its feature with an intro (a free-spins counter or a ladder), the intro tells it on
 * screen ("Bought feature", the spins) and the sentence is only announced: a notice beside
 * it would lie over the reels' bottom row into the first free spin. */
export function presentFeatureBought(event, stage) {
  stage.featureBought = event;
  stage.ui.featureBought?.(event);
  const said = t('game.feature_bought', { spins: event.spins });
  if (stage.ui.freeSpins || stage.ui.ladder) announce(said);
  else stage.game.app?.messages?.notice(said, 4000);
}
