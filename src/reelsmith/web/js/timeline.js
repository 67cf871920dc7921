/**
 * The client's record of its own motion: each spin step's start and end and each reel's stop,
 * with the page's clock (`performance.now()`). Dev mode shows it to tests and QA
 * (`window.reelsmith.timeline()`, js/dev.js), which measure the game's pace by it; the last
 * 400 entries are kept.
 */
const entries = [];
const KEPT = 400;

/** Note that `name` happened now, with `detail` (plain values). */
export function mark(name, detail = {}) {
  entries.push({ ...detail, name, at: performance.now() });
  if (entries.length > KEPT) entries.splice(0, entries.length - KEPT);
}

/** A copy of the entries, oldest first. */
export function timeline() {
  return entries.map((entry) => ({ ...entry }));
}
