/**
 * The reels' presenters: a screen stopping (`spin_stopped`, with the chain's multiplier where
 * its first screen pays above x1), the heights a screen of variable
 * rows drew (`heights_drawn`), a cascade's fall (`cascade`) and a ways screen's drawn wild
 * weights (`wild_weights_drawn`).
 *
 * Title hooks (all optional, on `stage.ui`): `triggerSymbol()` the symbol that starts a
 * feature (its landing is heard and marked with `marks.landed`, and the reels anticipate it);
 * `anticipates(kind)` whether a `base`/`free` screen anticipates it (default yes);
 * `reelStopped(reel, stage)` as each reel lands (a gem raising its pot).
 */
import { h, sleep } from '../dom.js';
import { t } from '../messages.js';
import { anticipationFrom } from '../reels.js';

/** The reels stop on the screen as it landed. */
export async function presentSpinStopped(event, stage) {
  const { game, ui, grid } = stage;
  const free = event.kind === 'free';
  const trigger = ui.triggerSymbol?.() ?? null;
  const anticipates = trigger && (ui.anticipates?.(event.kind) ?? true);
  const landedMark = ui.marks?.landed ?? null;
  let landed = 0;
  await grid.land(event.screen, {
    startedAt: stage.startedAt,
    minSpinMs: game.motion.ms(free ? 'freeMinSpin' : 'minSpin'),
    gapMs: game.motion.ms(free ? 'freeReelGap' : 'reelGap'),
    anticipateFrom: anticipates ? anticipationFrom(event.screen, (symbol) => symbol === trigger) : null,
    anticipationMs: game.motion.ms('anticipation'),
    onReelStop: (reel) => {
      game.sound.play('reelStop', { reel });
      const rows = trigger ? event.screen.flatMap((row, r) => (row[reel] === trigger ? [r] : [])) : [];
      if (rows.length) {
        landed += 1;
        game.sound.play('scatter', { n: landed });
        if (landedMark) for (const row of rows) grid.cellAt(row, reel)?.classList.add(landedMark);
      }
      return ui.reelStopped?.(reel, stage);
    },
  });
  // a chain whose first screen already pays above x1 (a cascade's free spins) says so as the
  // reels stop; later screens climb from it
  const first = stage.spin?.cascade_multiplier ?? 1;
  if (first > 1) showMultiplier(stage, first, 1);
}

/**
 * A cascade: the screen before shows its wins, their cells vanish, the symbols above fall
 * into the gaps and new ones drop in from the top, and the chain's multiplier for the new
 * screen is shown. The wins of the screen before count into the chain's running total (the
 * Win meter and a free spin's counter climb with it); the new screen's wins follow as their
 * own events.
 */
export async function presentCascade(event, stage) {
  const { game, grid } = stage;
  const ms = game.motion.ms('reveal');
  const before = stage.items;
  const screenMinor = before.reduce((sum, item) => sum + item.minor, 0);
  stage.chainMinor += screenMinor;
  if (before.length) {
    // the round's win before this spin, and the chain's so far on top of it
    const { ui, round, spin } = stage;
    const earlier = Math.max(0, ui.roundWinMinor(round) - ui.spinWinMinor(spin, round));
    game.presenter.lines(before, screenMinor, { cycle: false, quiet: true });
    game.presenter.showPopup(stage.chainMinor, { quiet: true });
    game.win.set(earlier + stage.chainMinor);
    // a free spin's counter counts the chain's screens as the Win meter does
    ui.freeSpins?.chainPaid(earlier + stage.chainMinor, stage);
    game.sound.play('win', { level: 1 });
    await sleep(ms * 1.5);
  }
  stage.items = [];
  grid.clearWins();
  game.presenter.placeLabels([]);
  game.root.dataset.cascadeStep = String(event.step);
  // the new screen's multiplier climbs as its symbols fall
  showMultiplier(stage, event.multiplier, event.step);
  await grid.cascade(event.removed, event.screen, { ms });
}

/** The chain's multiplier on the reels' top edge, popping when it climbs. */
function showMultiplier(stage, multiplier, step) {
  const { game, grid } = stage;
  let meter = game.root.querySelector('#cascade-multiplier');
  if (!meter) {
    meter = h('p', { class: 'cascade-multiplier', id: 'cascade-multiplier', 'aria-live': 'polite' });
    grid.element.append(meter);
  }
  const climbed = multiplier > stage.multiplier;
  stage.multiplier = multiplier;
  meter.dataset.multiplier = String(multiplier);
  meter.dataset.step = String(step);
  meter.textContent = `×${multiplier}`;
  meter.setAttribute('aria-label', t('cascade.multiplier', { multiplier, step }));
  meter.hidden = false;
  meter.classList.remove('climb');
  if (climbed) {
    void meter.offsetWidth;
    meter.classList.add('climb');
  }
}

/**
 * The heights a screen of variable rows drew: the reels already show them (each reel's
 * symbols fill its column); the ways the screen shows are named on the reels' edge.
 */
export function presentHeightsDrawn(event, stage) {
  const { grid } = stage;
  let meter = grid.element.querySelector('.ways-count');
  if (!meter) {
    meter = h('p', { class: 'ways-count', 'aria-live': 'polite' });
    grid.element.append(meter);
  }
  meter.dataset.ways = String(event.ways);
  meter.textContent = t('heights.ways', { ways: event.ways.toLocaleString() });
}

/** The wild weights drawn for a ways screen: each reel's weight on its wilds. */
export function presentWildWeights(event, stage) {
  const { grid, ui } = stage;
  const wild = ui.wildSymbol?.() ?? null;
  if (!wild) return;
  event.weights.forEach((weight, reel) => {
    if (weight <= 1) return;
    grid.screen?.forEach((row, r) => row[reel] === wild && grid.badge(r, reel, `×${weight}`, 'wild-weight'));
  });
}
