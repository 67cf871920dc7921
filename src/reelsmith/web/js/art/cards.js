/** Playing cards for the gamble, drawn in-house: an imperial card back and plain faces. */
import { suitPath } from './shapes.js';

const SUIT_COLOUR = { hearts: '#c21d2e', diamonds: '#c21d2e', clubs: '#1b1b24', spades: '#1b1b24' };

export function cardBack() {
  return `<svg class="card-art" viewBox="0 0 140 200" role="img" aria-label="Card face down">
  <defs>
    <pattern id="card-lattice" width="14" height="14" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
      <rect width="14" height="14" fill="#7a0c1c"/><path d="M0 0 H14 M0 0 V14" stroke="#e7b83c" stroke-width="1.4"/>
      <circle cx="7" cy="7" r="1.6" fill="#ffe694"/></pattern>
  </defs>
  <rect x="2" y="2" width="136" height="196" rx="12" fill="#fbf3dc" stroke="#8c5a12" stroke-width="2"/>
  <rect x="10" y="10" width="120" height="180" rx="8" fill="url(#card-lattice)" stroke="#e7b83c" stroke-width="3"/>
  <ellipse cx="70" cy="100" rx="34" ry="44" fill="#7a0c1c" stroke="#e7b83c" stroke-width="3"/>
  <text x="70" y="116" text-anchor="middle" font-family="Georgia, serif" font-size="46" font-weight="700" fill="#ffe694">?</text>
</svg>`;
}

/** A face-up card; `card` is the server's text, e.g. "Q of hearts". */
export function cardFace(card) {
  const [rank, , suit] = card.split(' ');
  const colour = SUIT_COLOUR[suit] ?? '#1b1b24';
  const pip = (x, y, s) => `<path d="${suitPath(suit, x, y, s)}" fill="${colour}"/>`;
  return `<svg class="card-art" viewBox="0 0 140 200" role="img" aria-label="${card}">
  <rect x="2" y="2" width="136" height="196" rx="12" fill="#fffdf6" stroke="#8c5a12" stroke-width="2"/>
  <text x="16" y="36" font-family="Georgia, serif" font-size="28" font-weight="700" fill="${colour}">${rank}</text>
  ${pip(24, 54, 22)}
  <g transform="rotate(180 70 100)">
    <text x="16" y="36" font-family="Georgia, serif" font-size="28" font-weight="700" fill="${colour}">${rank}</text>
    ${pip(24, 54, 22)}
  </g>
  ${pip(70, 100, 70)}
</svg>`;
}

/** A suit as a small inline icon for the gamble buttons. */
export function suitIcon(suit) {
  const colour = SUIT_COLOUR[suit] ?? 'currentColor';
  return `<svg class="suit-icon" viewBox="0 0 100 100" aria-hidden="true"><path d="${suitPath(suit, 50, 50, 90)}" fill="${colour}"/></svg>`;
}
