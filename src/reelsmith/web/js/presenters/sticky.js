/**
 * The sticky wilds' presenter (`wilds_stuck`): on a free spin, the stuck cells that landed
 * another symbol turn into the wild (`event.shown`), and every stuck cell (`event.cells`) is
 * marked `sticky` (those that stuck on this spin too), before the screen's wins are shown.
 *
 * Title hook (optional, on `stage.ui`): `wildsStuck(event, stage)` after the cells are marked
 * (a sound, a glow of the title's own).
 */
import { sleep } from '../dom.js';

/** The stuck wilds shown on `event.shown`, every cell of `event.cells` marked sticky. */
export async function presentWildsStuck(event, stage) {
  const { game, grid } = stage;
  for (const [row, reel] of event.shown) grid.setCell(row, reel, event.symbol, 'reveal');
  grid.mark(event.cells, 'sticky');
  game.root.dataset.stickyWilds = String(event.cells.length);
  await stage.ui.wildsStuck?.(event, stage);
  if (event.shown.length || event.landed.length) await sleep(game.motion.ms('reveal'));
}
