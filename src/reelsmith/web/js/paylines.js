/** Payline diagrams for the rules page: a small grid per line with the line drawn through it. */
import { lineColour } from './reels.js';

export function paylineDiagram(number, shape, rows) {
  const reels = shape.length;
  const cell = 14;
  const pad = 3;
  const w = reels * cell + pad * 2;
  const hgt = rows * cell + pad * 2;
  let cells = '';
  for (let r = 0; r < rows; r += 1) {
    for (let c = 0; c < reels; c += 1) {
      const on = shape[c] === r;
      cells += `<rect x="${pad + c * cell + 1}" y="${pad + r * cell + 1}" width="${cell - 2}" height="${cell - 2}" rx="2" class="${on ? 'on' : 'off'}"/>`;
    }
  }
  const points = shape.map((r, c) => `${pad + c * cell + cell / 2},${pad + r * cell + cell / 2}`).join(' ');
  return `<figure class="payline-diagram" data-line="${number}">
  <svg viewBox="0 0 ${w} ${hgt}" role="img" aria-label="Payline ${number}: rows ${shape.map((r) => r + 1).join(', ')} on reels 1 to ${reels}">
    ${cells}<polyline points="${points}" fill="none" stroke="${lineColour(number)}" stroke-width="2.4" stroke-linejoin="round" stroke-linecap="round"/>
  </svg><figcaption>${number}</figcaption></figure>`;
}
