/**
 * The presenter registry: one presenter per event kind of `docs/events.md`. The client plays a
 * round step by walking the step's events in order through their presenters (`playStep`),
 * whatever mechanics the title composes. The presenters own the panels they draw on (the
 * free-spins counter, the pots, the ladder and meter: `free-spins.js`, `pots.js`,
 * `ladder.js`), which the title (`title.js`) mounts where its description has the feature;
 * it gives its art, theme and words through the optional hooks each presenter module names.
 *
 * Contract: `PRESENTERS` has an entry for every kind the server can send
 * (`reelsmith.mechanics.event_kinds()`; tests/web/test_presenters.py reads this file and
 * fails on a kind without one). A presenter is `async (event, stage) => void`; `stage` is the
 * step being played (`newStage`). An event of a kind this client does not know is skipped
 * (a newer server's mechanic in a title this client cannot draw fully), never an error.
 */
import { presentCascade, presentHeightsDrawn, presentSpinStopped, presentWildWeights } from './reels.js';
import { presentExpandingSymbolDrawn, presentSymbolExpanded } from './expanding.js';
import { presentFreeSpin, presentFreeSpinsAwarded } from './free-spins.js';
import { presentHoldAndSpinEnd, presentHoldAndSpinRespin, presentHoldAndSpinStart } from './hold-and-spin.js';
import { presentLadderStep } from './ladder.js';
import { presentMysteryRevealed } from './mystery.js';
import { presentGemRevealed, presentPotWon } from './pots.js';
import { presentWildsStuck } from './sticky.js';
import {
  presentCapReached,
  presentFeatureBought,
  presentGambleCard,
  presentRoundEnd,
  presentRoundStarted,
} from './round.js';
import { presentCountWin, presentLineWin, presentScatterWin, presentSpinWon, presentWayWin, presentWinModified } from './wins.js';

/** Every event kind and its presenter. */
export const PRESENTERS = {
  round_started: presentRoundStarted,
  feature_bought: presentFeatureBought,
  spin_stopped: presentSpinStopped,
  heights_drawn: presentHeightsDrawn,
  gem_revealed: presentGemRevealed,
  pot_won: presentPotWon,
  mystery_revealed: presentMysteryRevealed,
  wilds_stuck: presentWildsStuck,
  line_win: presentLineWin,
  wild_weights_drawn: presentWildWeights,
  way_win: presentWayWin,
  count_win: presentCountWin,
  scatter_win: presentScatterWin,
  cascade: presentCascade,
  win_modified: presentWinModified,
  free_spin: presentFreeSpin,
  free_spins_awarded: presentFreeSpinsAwarded,
  expanding_symbol_drawn: presentExpandingSymbolDrawn,
  symbol_expanded: presentSymbolExpanded,
  ladder_step: presentLadderStep,
  hold_and_spin_start: presentHoldAndSpinStart,
  hold_and_spin_respin: presentHoldAndSpinRespin,
  hold_and_spin_end: presentHoldAndSpinEnd,
  cap_reached: presentCapReached,
  spin_won: presentSpinWon,
  gamble_card: presentGambleCard,
  actions_offered: presentRoundEnd,
  round_ended: presentRoundEnd,
};

/**
 * The events one step added: those of its screen (`spin` equal to the round's last screen's
 * index) and the round's own events after that screen's `spin_won` (gamble cards, then
 * `actions_offered` or `round_ended`). An answer carries the round's events so far; a step
 * plays one screen, so earlier screens' events are already shown.
 */
export function stepEvents(events, index) {
  // a step with no screen (a bought feature's start): the round's own events
  if (index < 0) return (events ?? []).filter((event) => event.spin === undefined);
  const mine = [];
  let after = false;
  for (const event of events ?? []) {
    if (event.spin === index) {
      mine.push(event);
      if (event.type === 'spin_won') after = true;
    } else if (after && event.spin === undefined) {
      mine.push(event);
    }
  }
  return mine;
}

/**
 * The state of one step while its events play: the game, its title (`title.js`) and reels, the
 * round's view (`round`, `spin`: the step's screen), when the spin started (`startedAt`, for
 * the reels' minimum spin time) and what the presenters gathered: `items` (the wins of the
 * screen showing, for the win presenter), `chainMinor` (the wins of a cascade's earlier
 * screens), `jackpots` (pots won, listed after the wins), `awarded` (free spins were awarded
 * and drawn).
 */
export function newStage(game, resp, { startedAt = performance.now() } = {}) {
  const round = resp.round;
  const index = round.spins.length - 1;
  return {
    game,
    ui: game.ui,
    grid: game.grid,
    round,
    spin: round.spins[index],
    index,
    startedAt,
    events: stepEvents(resp.events, index),
    items: [],
    jackpots: [],
    chainMinor: 0,
    multiplier: 1,
    awarded: false,
  };
}

/** Play `stage`'s events in order, each through its kind's presenter. */
export async function playStep(stage) {
  for (const event of stage.events) {
    const present = Object.hasOwn(PRESENTERS, event.type) ? PRESENTERS[event.type] : null;
    if (present) await present(event, stage);
  }
  return stage;
}
