/**
 * The symbol sprites: each theme's symbols become <symbol> elements in one hidden SVG, and a
 * reel cell shows one with <use>. The sprite is hidden with zero size, not display:none, so its
 * gradients and patterns still paint.
 */
import * as sultan from './sultan-symbols.js';
import * as tsar from './tsar-symbols.js';

const THEMES = { tsar, sultan };
const NS = 'http://www.w3.org/2000/svg';

export function installSprites() {
  if (document.getElementById('symbol-sprites')) return;
  const parts = [];
  for (const [theme, art] of Object.entries(THEMES)) {
    parts.push(art.defs);
    for (const [id, body] of Object.entries(art.symbols)) {
      parts.push(`<symbol id="${theme}-${id}" viewBox="0 0 100 100">${body}</symbol>`);
    }
  }
  const svg = document.createElementNS(NS, 'svg');
  svg.id = 'symbol-sprites';
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('style', 'position:absolute;width:0;height:0;overflow:hidden');
  svg.innerHTML = `<defs>${parts.join('')}</defs>`;
  document.body.prepend(svg);
}

/** Markup for one symbol of `theme`, with an accessible name when `label` is given. */
export function symbolSvg(theme, id, label = '') {
  const a11y = label ? `role="img" aria-label="${label}"` : 'aria-hidden="true"';
  return `<svg class="symbol" viewBox="0 0 100 100" ${a11y}><use href="#${theme}-${id}"/></svg>`;
}
