/**
 * Small geometry helpers shared by the symbol art: every symbol is drawn in a 100 x 100 box.
 */

/** An onion dome standing on (cx, base), `w` wide and `h` tall, as an SVG path. */
export function onionDome(cx, base, w, h) {
  const top = base - h;
  const p = (dx, dy) => `${(cx + dx * w).toFixed(1)},${(top + dy * h).toFixed(1)}`;
  return (
    `M${p(0, 0)} C${p(0.12, 0.22)} ${p(0.58, 0.42)} ${p(0.5, 0.7)} ` +
    `C${p(0.45, 0.9)} ${p(0.3, 1)} ${p(0.3, 1)} L${p(-0.3, 1)} ` +
    `C${p(-0.3, 1)} ${p(-0.45, 0.9)} ${p(-0.5, 0.7)} C${p(-0.58, 0.42)} ${p(-0.12, 0.22)} ${p(0, 0)} Z`
  );
}

/** A circle with `lobes` rounded bumps (a wax seal, a rosette). */
export function scallop(cx, cy, r, lobes, depth) {
  const points = [];
  const steps = lobes * 8;
  for (let i = 0; i <= steps; i += 1) {
    const a = (i / steps) * Math.PI * 2;
    const rr = r + depth * Math.cos(a * lobes);
    points.push(`${(cx + rr * Math.cos(a)).toFixed(1)},${(cy + rr * Math.sin(a)).toFixed(1)}`);
  }
  return `M${points.join(' L')} Z`;
}

/** A star with `n` points, outer radius `r1`, inner radius `r2`. */
export function star(cx, cy, n, r1, r2, rotate = -90) {
  const points = [];
  for (let i = 0; i < n * 2; i += 1) {
    const r = i % 2 ? r2 : r1;
    const a = ((rotate + (i * 180) / n) * Math.PI) / 180;
    points.push(`${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`);
  }
  return `M${points.join(' L')} Z`;
}

/** Pearls along a quadratic curve from (x0, y0) through control (cx, cy) to (x1, y1). */
export function pearls(x0, y0, cx, cy, x1, y1, count, r, fill) {
  let out = '';
  for (let i = 0; i <= count; i += 1) {
    const t = i / count;
    const x = (1 - t) ** 2 * x0 + 2 * (1 - t) * t * cx + t ** 2 * x1;
    const y = (1 - t) ** 2 * y0 + 2 * (1 - t) * t * cy + t ** 2 * y1;
    out += `<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="${r}" fill="${fill}"/>`;
  }
  return out;
}

/** Playing-card suits drawn as paths in a box of `s` centred on (x, y). */
export function suitPath(suit, x, y, s) {
  const k = s / 100;
  const t = (px, py) => `${(x + (px - 50) * k).toFixed(1)},${(y + (py - 50) * k).toFixed(1)}`;
  switch (suit) {
    case 'hearts':
      return `M${t(50, 90)} C${t(10, 60)} ${t(0, 35)} ${t(20, 18)} C${t(35, 6)} ${t(50, 18)} ${t(50, 30)} C${t(50, 18)} ${t(65, 6)} ${t(80, 18)} C${t(100, 35)} ${t(90, 60)} ${t(50, 90)} Z`;
    case 'diamonds':
      return `M${t(50, 5)} L${t(85, 50)} L${t(50, 95)} L${t(15, 50)} Z`;
    case 'spades':
      return (
        `M${t(50, 5)} C${t(90, 40)} ${t(100, 55)} ${t(85, 70)} C${t(72, 82)} ${t(58, 76)} ${t(53, 68)} ` +
        `L${t(60, 95)} L${t(40, 95)} L${t(47, 68)} C${t(42, 76)} ${t(28, 82)} ${t(15, 70)} C${t(0, 55)} ${t(10, 40)} ${t(50, 5)} Z`
      );
    case 'clubs': {
      const c = (cx, cy) => {
        const [px, py] = t(cx, cy).split(',').map(Number);
        const r = 19 * k;
        return `M${px - r},${py} a${r},${r} 0 1,0 ${2 * r},0 a${r},${r} 0 1,0 ${-2 * r},0 Z`;
      };
      return `${c(50, 26)} ${c(28, 58)} ${c(72, 58)} M${t(46, 55)} L${t(40, 95)} L${t(60, 95)} L${t(54, 55)} Z`;
    }
    default:
      return '';
  }
}
