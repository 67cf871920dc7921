/**
 * The round's own presenters. A round's start, its gamble cards and its end are drawn by the
 * game's flow itself (`game.js`: the stake taken from the balance, the gamble screen that
 * turns each card as its answer comes, the round closed or the next action offered), so
 * these presenters record what they saw on the stage and draw nothing more.
 */

/** The round is staked: its cost, as the server counts it. */
export function presentRoundStarted(event, stage) {
  stage.totalMinor = event.total_minor;
}

/** A gamble card: the gamble screen (`titles/gamble.js`) turns it from the step's answer. */
export function presentGambleCard(event, stage) {
  stage.cards = [...(stage.cards ?? []), event];
}

/** The round ended or waits for the player (`actions_offered`): the flow acts on it. */
export function presentRoundEnd(event, stage) {
  stage.end = event;
}
