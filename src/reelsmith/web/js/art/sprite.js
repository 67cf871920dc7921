/**
 * The symbol sprites: each theme's symbols become <symbol> elements in one hidden SVG, and a
 * reel cell shows one with <use>. The sprite is hidden with zero size, not display:none, so its
 * gradients and patterns still paint.
 */
import * as sultan from './sultan-symbols.js';
import * as tsar from './tsar-symbols.js';

const THEMES = { tsar, sultan };
const NS = 'http://www.w3.org/2000/svg';

function spriteParts(theme, art) {
  return [
    art.defs ?? '',
    ...Object.entries(art.symbols).map(([id, body]) => `<symbol id="${theme}-${id}" viewBox="0 0 100 100">${body}</symbol>`),
  ];
}

export function installSprites() {
  if (document.getElementById('symbol-sprites')) return;
  const parts = Object.entries(THEMES).flatMap(([theme, art]) => spriteParts(theme, art));
  const svg = document.createElementNS(NS, 'svg');
  svg.id = 'symbol-sprites';
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('style', 'position:absolute;width:0;height:0;overflow:hidden');
  svg.innerHTML = `<defs>${parts.join('')}</defs>`;
  document.body.prepend(svg);
}

const added = new Set();

/** Add a theme's symbols (`art.defs`, `art.symbols`) to the sprites, once per theme. */
export function addSprites(theme, art) {
  if (added.has(theme) || THEMES[theme]) return;
  installSprites();
  added.add(theme);
  const defs = document.querySelector('#symbol-sprites defs');
  const holder = document.createElementNS(NS, 'svg');
  holder.innerHTML = `<defs>${spriteParts(theme, art).join('')}</defs>`;
  defs.append(...holder.querySelector('defs').childNodes);
}

/** Markup for one symbol of `theme`, with an accessible name when `label` is given. */
export function symbolSvg(theme, id, label = '') {
  const a11y = label ? `role="img" aria-label="${label}"` : 'aria-hidden="true"';
  return `<svg class="symbol" viewBox="0 0 100 100" ${a11y}><use href="#${theme}-${id}"/></svg>`;
}
