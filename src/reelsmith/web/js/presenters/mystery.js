/**
 * The mystery symbols' presenter (`mystery_revealed`): every cell that landed a mystery turns
 * into the symbol drawn for the spin, before the screen's wins are shown.
 *
 * Title hook (optional, on `stage.ui`): `mysteryRevealed(event, stage)` after the cells turn
 * (a sound, a flash of the title's own).
 */
import { sleep } from '../dom.js';

/** The mysteries turn into `event.symbol` at `event.cells` (`[row, reel]` each). */
export async function presentMysteryRevealed(event, stage) {
  const { game, grid } = stage;
  for (const [row, reel] of event.cells) grid.setCell(row, reel, event.symbol, 'reveal');
  game.root.dataset.mystery = event.symbol;
  await stage.ui.mysteryRevealed?.(event, stage);
  await sleep(game.motion.ms('reveal'));
}
