/**
 * The still screen a title shows before its first spin, for a title whose art gives none: the
 * regular symbols in turn (no two alike on a row, nothing that reads as a win), the wild in
 * the middle.
 */

/** The still screen of the rules page `rules` (`reels`, `rows`, `symbols`); `fallback`: the
 * symbols to take when the title has no regular symbol. */
export function stillScreen({ reels, rows, symbols }, fallback) {
  const regular = symbols.filter((s) => s.role === 'regular').map((s) => s.id);
  const pool = regular.length ? regular : fallback;
  const screen = Array.from({ length: rows }, (_, row) =>
    Array.from({ length: reels }, (_, reel) => pool[(row * 3 + reel * (rows + 1)) % pool.length]),
  );
  const wild = symbols.find((s) => s.role === 'wild');
  if (wild) screen[Math.floor(rows / 2)][Math.floor(reels / 2)] = wild.id;
  return screen;
}
