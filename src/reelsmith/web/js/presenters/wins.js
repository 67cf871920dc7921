/**
 * The wins' presenters: each win event becomes an item the win presenter (`celebration.js`)
 * draws once the screen is played: `{line?, positions, minor, label, text}`, its amount the
 * event's own in minor units (the server's, at the round's price). A screen's items are
 * gathered on `stage.items`; a cascade shows them before the fall and starts afresh.
 *
 * Title hooks: `ui.name(symbol)` names a symbol in the player's language.
 */
import { t } from '../messages.js';

function amount(stage, minor) {
  return stage.game.money.format(minor);
}

/** A payline pays: its line drawn, its cells lit, its amount named (with the screen's
 * multiplier where the ladder multiplies it). */
export function presentLineWin(event, stage) {
  const multiplier = stage.spin?.multiplier ?? 1;
  const params = { line: event.line, count: event.count, symbol: stage.ui.name(event.symbol), amount: amount(stage, event.minor), multiplier };
  stage.items.push({
    line: event.line,
    positions: event.positions,
    minor: event.minor,
    label: t('win.line', { line: event.line }),
    text: t(multiplier > 1 ? 'win.line_text_multiplied' : 'win.line_text', params),
  });
}

/** A symbol pays by ways: every cell of its run lit, the number of ways named (with the
 * cascade's multiplier where the chain's screen pays above x1: its amount holds it). */
export function presentWayWin(event, stage) {
  const ways = t('win.ways', { count: event.ways });
  const multiplier = stage.multiplier ?? 1;
  const params = { count: event.count, symbol: stage.ui.name(event.symbol), ways, amount: amount(stage, event.minor), multiplier };
  stage.items.push({
    positions: event.positions,
    minor: event.minor,
    label: `${event.count} × ${stage.ui.name(event.symbol)}`,
    text: t(multiplier > 1 ? 'win.way_text_multiplied' : 'win.way_text', params),
  });
}

/** A symbol pays by its count anywhere on the screen: every cell counted lit (the wilds that
 * counted for it included). */
export function presentCountWin(event, stage) {
  const name = stage.ui.name(event.symbol);
  stage.items.push({
    positions: event.positions,
    minor: event.minor,
    label: `${event.count} × ${name}`,
    text: t('win.count_text', { count: event.count, symbol: name, amount: amount(stage, event.minor) }),
  });
}

/** The scatter pays wherever it shows. */
export function presentScatterWin(event, stage) {
  const name = stage.ui.name(event.symbol);
  stage.items.push({
    positions: event.positions,
    minor: event.minor,
    label: `${event.count} × ${name}`,
    text: t('win.scatter_text', { count: event.count, symbol: name, amount: amount(stage, event.minor) }),
  });
}

/** A title's plug-in changed the screen's win: the win presenter shows the screen's whole
 * win (`spin_won`), which already holds it; nothing more to draw. */
export function presentWinModified(event, stage) {
  stage.modifiedMinor = event.win_minor;
}

/** The screen is paid: its whole win is what the Win meter and the win presenter show next
 * (`Game.showWin`); the free-spins counter and the title's panels settle for the screen
 * (`ui.freeSpins.settled`, `ui.spinSettled`). */
export async function presentSpinWon(event, stage) {
  stage.spinWonMinor = event.minor;
  stage.items.push(...stage.jackpots);
  // a cascade's last screen pays nothing (the chain ends there): the chain is named instead
  if (!stage.items.length && stage.chainMinor > 0) {
    const steps = Number(stage.game.root.dataset.cascadeStep ?? 1);
    const amount = stage.game.money.format(stage.chainMinor);
    stage.items.push({ positions: [], minor: stage.chainMinor, label: t('cascade.chain', { count: steps }), text: t('cascade.chain_text', { count: steps, amount }) });
  }
  stage.ui.freeSpins?.settled(stage);
  await stage.ui.spinSettled?.(stage);
}
