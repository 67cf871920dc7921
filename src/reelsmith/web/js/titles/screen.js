/**
 * The still screen a title shows before its first spin, for a title whose art gives none: the
 * regular symbols in turn (no two alike on a row, no row repeating another, nothing that reads
 * as a win), the wild in the middle.
 */

/** The still screen of the rules page `rules` (`reels`, `rows`, `symbols`); `fallback`: the
 * symbols to take when the title has no regular symbol. */
export function stillScreen({ reels, rows, symbols }, fallback) {
  const regular = symbols.filter((s) => s.role === 'regular').map((s) => s.id);
  const pool = regular.length ? regular : fallback;
  // each row starts three symbols on, and one more each time that comes round the pool again
  const start = (row) => row * 3 + Math.floor((row * 3) / pool.length);
  const screen = Array.from({ length: rows }, (_, row) =>
    Array.from({ length: reels }, (_, reel) => pool[(start(row) + reel * (rows + 1)) % pool.length]),
  );
  const wild = symbols.find((s) => s.role === 'wild');
  if (wild) screen[Math.floor(rows / 2)][Math.floor(reels / 2)] = wild.id;
  return screen;
}
