/**
 * The expanding symbol's presenters: the symbol drawn for the free spins
 * (`expanding_symbol_drawn`), and a free spin's expansion (`symbol_expanded`): every cell of the
 * reels it filled turns into the symbol, after the spin's line wins.
 *
 * Title hooks (optional, on `stage.ui`): `expandingSymbolDrawn(event, stage)` (a banner of the
 * title's own showing the symbol) and `symbolExpanded(event, stage)` after the reels fill.
 */
import { sleep } from '../dom.js';

/** The free spins' expanding symbol was drawn: the game keeps it for the feature. */
export async function presentExpandingSymbolDrawn(event, stage) {
  const { game } = stage;
  game.root.dataset.expandingSymbol = event.symbol;
  await stage.ui.expandingSymbolDrawn?.(event, stage);
  await sleep(game.motion.ms('reveal'));
}

/** The symbol fills `event.reels` (every row of each), then pays on every payline. */
export async function presentSymbolExpanded(event, stage) {
  const { game, grid } = stage;
  const { rows } = grid;
  for (const reel of event.reels) {
    for (let row = 0; row < rows; row += 1) grid.setCell(row, reel, event.symbol, 'reveal');
  }
  await stage.ui.symbolExpanded?.(event, stage);
  await sleep(game.motion.ms('reveal'));
}
