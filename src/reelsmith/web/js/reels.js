/**
 * The reel window: `reels` columns of `rows` symbols. Spinning reels run a looping strip of
 * filler symbols; `land()` stops them reel by reel on the screen the server sent. Winning
 * paylines are drawn over the window through the centres of the cells they cross.
 */
import { h, sleep } from './dom.js';
import { t } from './messages.js';
import { mark } from './timeline.js';

const SVG = 'http://www.w3.org/2000/svg';
/** What a screen shows below a reel's drawn height (variable rows): no symbol. */
export const BLANK = '-';
const FILLER_CELLS = 9;

/**
 * The first reel whose stop is anticipated: the reel after the one that brings the trigger
 * symbols of `screen` (cells where `isTrigger(symbol)`) to one short of the `need` that
 * starts a feature, where reels are left to stop; null where no reel is. Three is the trigger
 * of every title the client knows ("three or more ... activate the free spins"), and the
 * default.
 */
export function anticipationFrom(screen, isTrigger, need = 3) {
  const reels = screen[0]?.length ?? 0;
  let count = 0;
  for (let reel = 0; reel < reels - 1; reel += 1) {
    count += screen.filter((row) => isTrigger(row[reel])).length;
    if (count >= need) return null;
    if (count === need - 1) return reel + 1;
  }
  return null;
}

/** A colour per payline number, spread around the colour wheel. */
export function lineColour(line) {
  return `hsl(${Math.round((line * 137.508) % 360)} 90% 58%)`;
}

export class ReelGrid {
  /**
   * @param {object} o
   * @param {number} o.reels
   * @param {number} o.rows
   * @param {number[][]} o.paylines  rows per reel, from the rules document
   * @param {(symbol: string, reel: number) => string} o.cell  markup for one symbol
   * @param {(symbol: string) => string} o.name  a symbol's name, for screen readers
   * @param {string[]} o.filler  symbols to show while spinning
   */
  constructor({ reels, rows, paylines, cell, name, filler }) {
    Object.assign(this, { reels, rows, paylines, cell, name, filler });
    this.screen = null;
    this.columns = [];
    this.hurried = false;
    this.lines = h('div', { class: 'paylines-overlay', 'aria-hidden': 'true' });
    this.element = h('div', {
      class: 'reels',
      role: 'img',
      style: `--reels:${reels};--rows:${rows}`,
    });
    for (let reel = 0; reel < reels; reel += 1) {
      const strip = h('div', { class: 'strip' });
      const column = h('div', { class: 'reel', dataset: { reel } }, strip);
      this.columns.push({ column, strip });
      this.element.append(column);
    }
    this.element.append(this.lines);
    this.drawn = [];
    new ResizeObserver(() => this.redrawLines()).observe(this.element);
  }

  /** Show `screen` (rows of symbol ids) at once. */
  show(screen) {
    this.screen = screen.map((row) => [...row]);
    for (let reel = 0; reel < this.reels; reel += 1) this.renderColumn(reel);
    this.describe();
  }

  renderColumn(reel) {
    const { column, strip } = this.columns[reel];
    column.classList.remove('spinning', 'anticipation');
    // the spinning loop's random phase is its own: the landing starts at its beginning
    strip.style.animationDelay = '';
    // a reel of variable rows shows its drawn height's symbols over the whole column; the
    // cells below its height (BLANK) are not drawn
    const shown = this.screen.flatMap((row, r) => (row[reel] === BLANK ? [] : [[row[reel], r]]));
    strip.style.setProperty('--n', shown.length);
    if (shown.length < this.rows) strip.style.setProperty('--rows', shown.length);
    else strip.style.removeProperty('--rows');
    column.dataset.height = String(shown.length);
    strip.replaceChildren(...shown.map(([symbol, r]) => this.cellElement(symbol, reel, r)));
  }

  cellElement(symbol, reel, row) {
    const el = h('div', { class: 'cell', dataset: { symbol } });
    if (row !== undefined) {
      el.dataset.row = row;
      el.dataset.reel = reel;
    }
    el.innerHTML = this.cell(symbol, reel);
    return el;
  }

  cellAt(row, reel) {
    return this.columns[reel].strip.querySelector(`.cell[data-row="${row}"]`);
  }

  /**
   * Start every reel spinning (call `land` with the result, or `cancel`). The reels run
   * through the filler symbols from the screen they show: with `filler` (one list per reel,
   * `Title.reelFiller`) each through those its strip carries, else all through the grid's
   * filler; with `only` (a spin whose rules
   * allow no other symbols: the jackpot spin's gems) they run through those alone, the
   * screen left out, with reduced motion too.
   */
  startSpin({ only = null, filler = null } = {}) {
    this.clearWins();
    this.hurried = false;
    this.element.classList.add('is-spinning');
    for (let reel = 0; reel < this.reels; reel += 1) {
      // a reel runs through the symbols its own strip carries (`filler`: per reel), else the
      // grid's filler
      const own = filler?.[reel]?.length ? filler[reel] : this.filler;
      const symbols = only ?? own;
      const { column, strip } = this.columns[reel];
      const top = this.screen && !only ? this.screen.map((row) => row[reel]).filter((s) => s !== BLANK) : [];
      const run = Array.from(
        { length: FILLER_CELLS },
        () => symbols[Math.floor(Math.random() * symbols.length)],
      );
      // The strip ends with the cells it starts with, so the loop has no seam.
      const cells = [...run, ...top];
      const loop = [...cells, ...cells.slice(0, this.rows)];
      if (only || !document.documentElement.classList.contains('reduced-motion')) {
        strip.style.setProperty('--n', loop.length);
        strip.replaceChildren(...loop.map((symbol) => this.cellElement(symbol, reel)));
      }
      strip.style.removeProperty('--rows');
      strip.style.animationDelay = `${-Math.random() * 0.3}s`;
      column.classList.remove('landed');
      column.classList.add('spinning');
    }
  }

  /** Stop the reels now on their previous screen (the request failed). */
  cancel() {
    this.element.classList.remove('is-spinning');
    if (this.screen) this.show(this.screen);
    else for (const { column } of this.columns) column.classList.remove('spinning');
  }

  /** Slam stop: the remaining reels stop without waiting. */
  hurry() {
    this.hurried = true;
  }

  get spinning() {
    return this.element.classList.contains('is-spinning');
  }

  /**
   * Stop reel by reel on `screen`. `minSpinMs` after `startedAt` the first reel stops, then
   * one every `gapMs`; from reel `anticipateFrom` on (a feature one symbol away, see
   * `anticipationFrom`) each waits `anticipationMs` more, lit while it waits. A slam stop
   * (`hurry`) ends every wait. `onReelStop(reel)` runs as each reel lands (pots rising,
   * badges).
   */
  async land(screen, { startedAt = performance.now(), minSpinMs = 0, gapMs = 0, onReelStop, anticipateFrom = null, anticipationMs = 0 } = {}) {
    const wait = minSpinMs - (performance.now() - startedAt);
    if (wait > 0 && !this.hurried) await this.sleepUnlessHurried(wait);
    this.screen = screen.map((row) => [...row]);
    for (let reel = 0; reel < this.reels; reel += 1) {
      const anticipated = anticipateFrom !== null && reel >= anticipateFrom;
      if (anticipated) this.columns[reel].column.classList.add('anticipation');
      if (reel > 0 && !this.hurried) await this.sleepUnlessHurried(gapMs + (anticipated ? anticipationMs : 0));
      this.renderColumn(reel);
      const { column } = this.columns[reel];
      column.classList.remove('anticipation');
      column.classList.add('landed');
      mark('reel-stop', { reel, anticipated });
      if (onReelStop) await onReelStop(reel);
    }
    this.element.classList.remove('is-spinning');
    this.describe();
  }

  async sleepUnlessHurried(ms) {
    const step = 20;
    for (let t = 0; t < ms && !this.hurried; t += step) await sleep(Math.min(step, ms - t));
  }

  /** Replace one cell (a gem's reveal) with an optional effect class. */
  setCell(row, reel, symbol, effect = 'reveal') {
    this.screen[row][reel] = symbol;
    const old = this.cellAt(row, reel);
    const fresh = this.cellElement(symbol, reel, row);
    if (effect) fresh.classList.add(effect);
    old.replaceWith(fresh);
    this.describe();
    return fresh;
  }

  /**
   * A cascade's fall: the cells `removed` ([row, reel]) vanish, then each reel shows its
   * column of `screen` (the screen after the fall and refill) with the symbols that stayed
   * falling from their old rows into their new ones and the new symbols dropping in from above
   * the window, `ms` each. The survivors keep their order and land at the bottom of their reel
   * (the cascade's rule), so each one's fall is the removed cells below it.
   */
  async cascade(removed, screen, { ms = 300 } = {}) {
    this.mark(removed, 'vanish');
    this.element.classList.add('is-cascading');
    await sleep(ms);
    this.screen = screen.map((row) => [...row]);
    for (let reel = 0; reel < this.reels; reel += 1) {
      const gone = new Set(removed.filter(([, r]) => r === reel).map(([row]) => row));
      if (!gone.size) continue;
      const { strip } = this.columns[reel];
      strip.replaceChildren(
        ...this.screen.map((row, r) => {
          const el = this.cellElement(row[reel], reel, r);
          // a refill drops the whole gap's height; a survivor the removed cells below it
          const refill = r < gone.size;
          el.classList.add(refill ? 'drop-in' : 'fall');
          el.style.setProperty('--fall', String(refill ? gone.size : this.survivorFall(gone, r)));
          return el;
        }),
      );
    }
    this.describe();
    await sleep(ms);
    for (const cell of this.element.querySelectorAll('.cell.fall, .cell.drop-in')) cell.classList.remove('fall', 'drop-in');
    this.element.classList.remove('is-cascading');
  }

  /** How many rows the survivor now at row `row` fell: the removed cells below its old row
   * (its old row is the `row - (removed above it)`-th surviving row). */
  survivorFall(gone, row) {
    const kept = [];
    for (let r = 0; r < this.rows; r += 1) if (!gone.has(r)) kept.push(r);
    const old = kept[row - gone.size];
    return old === undefined ? 0 : row - old;
  }

  /** Screen-reader description: the symbols row by row. */
  describe() {
    if (!this.screen) return;
    const rows = this.screen.map(
      (row, i) => `row ${i + 1}: ${row.filter((s) => s !== BLANK).map((s) => this.name(s)).join(', ')}`,
    );
    this.element.setAttribute('aria-label', t('reels.label', { rows: rows.join('; ') }));
  }

  mark(positions, cls) {
    for (const [row, reel] of positions) this.cellAt(row, reel)?.classList.add(cls);
  }

  /** A small label on a cell ("+3" on an egg, a pot value). */
  badge(row, reel, text, cls = '') {
    const cell = this.cellAt(row, reel);
    if (!cell) return null;
    const badge = h('span', { class: `cell-badge ${cls}` }, text);
    cell.append(badge);
    return badge;
  }

  /** Draw paylines (each `{line, positions}`) and light their winning cells. */
  showWins(wins, { dimOthers = true } = {}) {
    this.clearLines();
    for (const cell of this.element.querySelectorAll('.cell.win')) cell.classList.remove('win');
    // a win with no cells (a cascade's chain named after its last screen) dims nothing
    this.element.classList.toggle('has-wins', dimOthers && wins.some((win) => win.positions.length > 0));
    if (!wins.length) return;
    for (const win of wins) {
      this.mark(win.positions, 'win');
      if (win.line) this.drawn.push(win.line);
    }
    this.redrawLines();
  }

  /** Outline the given paylines without a win (bet change: the enabled paylines). */
  showPaylines(lines) {
    this.clearLines();
    this.drawn = [...lines];
    this.redrawLines();
  }

  clearLines() {
    this.drawn = [];
    this.lines.replaceChildren();
  }

  clearWins() {
    this.clearLines();
    this.element.classList.remove('has-wins');
    for (const cell of this.element.querySelectorAll('.cell.win')) cell.classList.remove('win');
  }

  redrawLines() {
    this.lines.replaceChildren();
    if (!this.drawn.length) return;
    const box = this.element.getBoundingClientRect();
    if (!box.width) return;
    const svg = document.createElementNS(SVG, 'svg');
    svg.setAttribute('viewBox', `0 0 ${box.width} ${box.height}`);
    const centre = (reel, row) => {
      const column = this.columns[reel].column.getBoundingClientRect();
      return [column.left - box.left + column.width / 2, column.top - box.top + ((row + 0.5) * column.height) / this.rows];
    };
    // Each line's number sits on the line itself, in a gap between two reels (not over a
    // symbol): the first gap, beside the line's first cell, unless a number drawn before is
    // close there, then on to the next gap, so lines that start on the same row do not pile
    // their numbers up. The badge grows with the cells (a tenth of a cell's width, 22 to 52
    // px across): a fixed 22 px was a speck beside the cells of a 2560 px screen.
    const tags = [];
    const gaps = Math.max(1, this.reels - 1);
    const cellWidth = this.columns[0].column.getBoundingClientRect().width;
    const radius = Math.min(26, Math.max(11, cellWidth * 0.1));
    const tagAt = (points) => {
      let best = null;
      for (let gap = 0; gap < gaps; gap += 1) {
        const [a, b] = [points[gap], points[Math.min(gap + 1, points.length - 1)]];
        const spot = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
        const room = Math.min(...tags.map(([x, y]) => Math.hypot(x - spot[0], y - spot[1])), Infinity);
        if (!best || room > best.room) best = { spot, room };
        if (room >= radius * 2.2) break;
      }
      tags.push(best.spot);
      return best.spot;
    };
    for (const line of this.drawn) {
      const shape = this.paylines[line - 1];
      if (!shape) continue;
      const points = shape.map((row, reel) => centre(reel, row));
      const first = points[0];
      const last = points[points.length - 1];
      const reach = box.width / this.reels / 2;
      const all = [[Math.max(first[0] - reach, 12), first[1]], ...points, [Math.min(last[0] + reach, box.width - 2), last[1]]];
      const poly = document.createElementNS(SVG, 'polyline');
      poly.setAttribute('points', all.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' '));
      poly.setAttribute('class', 'payline');
      poly.dataset.line = line;
      poly.style.setProperty('--line-colour', lineColour(line));
      svg.append(poly);
      const tag = document.createElementNS(SVG, 'g');
      tag.setAttribute('class', 'payline-tag');
      tag.dataset.line = line;
      const [x, y] = tagAt(points).map((v) => v.toFixed(1));
      const r = radius.toFixed(1);
      const size = (radius * 1.1).toFixed(1);
      tag.innerHTML = `<circle cx="${x}" cy="${y}" r="${r}" fill="${lineColour(line)}"/><text x="${x}" y="${(Number(y) + radius * 0.38).toFixed(1)}" text-anchor="middle" font-size="${size}">${line}</text>`;
      svg.append(tag);
    }
    this.lines.append(svg);
  }
}
