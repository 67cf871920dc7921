/**
 * Sultan Spins symbol art, drawn in-house: Arabian night jewel tones, gold filigree, gems.
 * Each symbol is an SVG fragment in a 100 x 100 box; `defs` holds the shared gradients.
 */
import { star } from './shapes.js';

/** The five pots, reel by reel, and the colour of their gems. */
export const POT_COLOURS = {
  teal: ['#7ff5e6', '#13b3a2', '#06524b'],
  blue: ['#9fc0ff', '#2f6bff', '#0d2470'],
  green: ['#a6f5a0', '#22b04a', '#0a4d1d'],
  purple: ['#e0b6ff', '#9b4dff', '#3d0f73'],
  red: ['#ffb0b0', '#e0283c', '#5e0612'],
};

const gemGradients = Object.entries(POT_COLOURS)
  .map(
    ([name, [hi, mid, lo]]) => `
<linearGradient id="s-gem-${name}" x1="0" y1="0" x2="1" y2="1">
  <stop offset="0" stop-color="${hi}"/><stop offset=".5" stop-color="${mid}"/><stop offset="1" stop-color="${lo}"/></linearGradient>`,
  )
  .join('');

export const defs = `
<linearGradient id="s-gold" x1="0" y1="0" x2="0" y2="1">
  <stop offset="0" stop-color="#fff2b3"/><stop offset=".5" stop-color="#f0b93a"/><stop offset="1" stop-color="#8a5610"/></linearGradient>
<linearGradient id="s-gold-h" x1="0" y1="0" x2="1" y2="0">
  <stop offset="0" stop-color="#a8690f"/><stop offset=".5" stop-color="#ffe8a0"/><stop offset="1" stop-color="#a8690f"/></linearGradient>
<radialGradient id="s-night" cx=".5" cy=".4" r=".7">
  <stop offset="0" stop-color="#24406e"/><stop offset="1" stop-color="#0a1230"/></radialGradient>
<radialGradient id="s-purple" cx=".45" cy=".4" r=".7">
  <stop offset="0" stop-color="#c77dff"/><stop offset="1" stop-color="#3c0d6e"/></radialGradient>
<linearGradient id="s-silver" x1="0" y1="0" x2="1" y2="1">
  <stop offset="0" stop-color="#ffffff"/><stop offset=".5" stop-color="#b8c3d6"/><stop offset="1" stop-color="#5d6a80"/></linearGradient>
<linearGradient id="s-turban" x1="0" y1="0" x2="0" y2="1">
  <stop offset="0" stop-color="#fffaf0"/><stop offset="1" stop-color="#d9cbb0"/></linearGradient>
<linearGradient id="s-veil" x1="0" y1="0" x2="0" y2="1">
  <stop offset="0" stop-color="#3fd6c4" stop-opacity=".85"/><stop offset="1" stop-color="#0f6e7a" stop-opacity=".95"/></linearGradient>
<radialGradient id="s-smoke" cx=".5" cy=".5" r=".5">
  <stop offset="0" stop-color="#d6a8ff" stop-opacity=".9"/><stop offset="1" stop-color="#7a3fd1" stop-opacity="0"/></radialGradient>
${gemGradients}
<clipPath id="s-medallion"><circle cx="50" cy="50" r="43"/></clipPath>
`;

function letter(text, fill, size = 64, dy = 0) {
  return `
  <path d="M50 10 Q62 20 50 30 Q38 20 50 10 Z" fill="url(#s-gold)" opacity=".85"/>
  <text x="50" y="${76 + dy}" text-anchor="middle" font-family="Georgia, 'Times New Roman', serif"
    font-weight="700" font-size="${size}" fill="${fill}" stroke="url(#s-gold)" stroke-width="3"
    paint-order="stroke" letter-spacing="${text.length > 1 ? -5 : 0}">${text}</text>
  <path d="M24 88 Q50 80 76 88" fill="none" stroke="url(#s-gold-h)" stroke-width="2.5" stroke-linecap="round"/>`;
}

function gem(name) {
  return `
  <path d="M26 34 L38 18 H62 L74 34 L50 88 Z" fill="url(#s-gem-${name})" stroke="#fff6d0" stroke-width="2" stroke-linejoin="round"/>
  <path d="M26 34 H74 M38 18 L44 34 L50 18 L56 34 L62 18 M44 34 L50 88 L56 34" fill="none" stroke="#ffffff" stroke-opacity=".55" stroke-width="1.4"/>
  <path d="M38 18 L44 34 L26 34 Z" fill="#fff" opacity=".35"/>
  <path d="${star(72, 20, 4, 8, 2)}" fill="#fff"/>
  <path d="${star(30, 66, 4, 5, 1.2)}" fill="#fff" opacity=".8"/>`;
}

export const symbols = {
  wild: `
  <path d="${star(50, 46, 8, 44, 33, -90)}" fill="url(#s-purple)" stroke="url(#s-gold)" stroke-width="3.5" stroke-linejoin="round"/>
  <rect x="21" y="17" width="58" height="58" fill="none" stroke="url(#s-gold)" stroke-width="1.8" transform="rotate(45 50 46)" opacity=".75"/>
  <path d="M56 24 A13 13 0 0 0 56 50 A17 17 0 0 1 56 24 Z" fill="url(#s-gold)"/>
  <path d="M8 62 H92 L86 71 L92 80 H8 L14 71 Z" fill="url(#s-gold-h)" stroke="#6a3f08" stroke-width="1.4"/>
  <text x="50" y="76.5" text-anchor="middle" font-family="Georgia, serif" font-weight="800" font-size="14" fill="#3c0d6e" letter-spacing="2">WILD</text>`,

  sultan: `
  <circle cx="50" cy="50" r="45" fill="url(#s-night)" stroke="url(#s-gold)" stroke-width="4"/>
  <g clip-path="url(#s-medallion)">
    <path d="M22 100 Q26 78 50 76 Q74 78 78 100 Z" fill="#1a7a6e"/>
    <path d="M40 80 L50 92 L60 80" fill="none" stroke="url(#s-gold-h)" stroke-width="3"/>
    <ellipse cx="50" cy="58" rx="14" ry="16" fill="#c98b5b"/>
    <path d="M36 60 Q38 86 50 88 Q62 86 64 60 Q58 70 50 70 Q42 70 36 60 Z" fill="#2a170c"/>
    <path d="M40 66 Q46 62 50 65 Q54 62 60 66 Q54 68 50 67 Q46 68 40 66 Z" fill="#2a170c"/>
    <ellipse cx="44.5" cy="55" rx="2" ry="2.4" fill="#1a0d05"/><ellipse cx="55.5" cy="55" rx="2" ry="2.4" fill="#1a0d05"/>
    <path d="M40 50 L48 51 M52 51 L60 50" stroke="#2a170c" stroke-width="2" stroke-linecap="round"/>
    <path d="M18 44 Q16 14 50 12 Q84 14 82 44 Q70 50 50 48 Q30 50 18 44 Z" fill="url(#s-turban)" stroke="#a89370" stroke-width="1.2"/>
    <path d="M22 38 Q50 26 78 38 M20 30 Q50 18 80 30" fill="none" stroke="#c9b890" stroke-width="1.6"/>
    <path d="M56 24 Q60 2 74 0 Q66 12 62 26 Z" fill="#e23a6a" stroke="#fff2b3" stroke-width="1"/>
    <circle cx="50" cy="32" r="6" fill="#e0283c" stroke="url(#s-gold)" stroke-width="2.5"/>
    <path d="M50 38 V44" stroke="url(#s-gold)" stroke-width="2"/><circle cx="50" cy="45" r="2" fill="#fff"/>
  </g>`,

  princess: `
  <circle cx="50" cy="50" r="45" fill="url(#s-purple)" stroke="url(#s-gold)" stroke-width="4"/>
  <g clip-path="url(#s-medallion)">
    <path d="M28 40 Q26 18 50 16 Q74 18 72 40 L76 96 H24 Z" fill="#1b0d2a"/>
    <path d="M24 100 Q28 80 50 78 Q72 80 76 100 Z" fill="#d4337a"/>
    <ellipse cx="50" cy="50" rx="13" ry="16" fill="#e8b88f"/>
    <path d="M36 56 Q50 60 64 56 L66 86 Q50 92 34 86 Z" fill="url(#s-veil)"/>
    <path d="M36 56 Q50 60 64 56" fill="none" stroke="url(#s-gold-h)" stroke-width="1.6"/>
    ${[40, 45, 50, 55, 60].map((x) => `<circle cx="${x}" cy="${58.5 + Math.abs(50 - x) * -0.12}" r="1.1" fill="#ffe8a0"/>`).join('')}
    <path d="M42 47 Q45 44 48 47 M52 47 Q55 44 58 47" fill="none" stroke="#1b0d2a" stroke-width="1.8" stroke-linecap="round"/>
    <ellipse cx="45" cy="49" rx="1.8" ry="1.6" fill="#1b0d2a"/><ellipse cx="55" cy="49" rx="1.8" ry="1.6" fill="#1b0d2a"/>
    <path d="M34 34 Q50 22 66 34 L62 26 L56 30 L50 18 L44 30 L38 26 Z" fill="url(#s-gold)" stroke="#8a5610" stroke-width="1"/>
    <circle cx="50" cy="26" r="3" fill="#13b3a2" stroke="#fff" stroke-width=".8"/>
    <path d="M50 34 V39" stroke="url(#s-gold)" stroke-width="1.5"/><circle cx="50" cy="40.5" r="1.8" fill="#e0283c"/>
    <circle cx="36" cy="58" r="2.5" fill="url(#s-gold)"/><circle cx="64" cy="58" r="2.5" fill="url(#s-gold)"/>
  </g>`,

  lamp: `
  <ellipse cx="62" cy="24" rx="16" ry="12" fill="url(#s-smoke)"/>
  <path d="M56 40 Q50 30 58 24 Q66 18 60 10" fill="none" stroke="#c48dff" stroke-width="3" stroke-linecap="round" opacity=".85"/>
  <path d="M22 62 Q22 46 50 44 Q70 44 76 54 Q86 50 96 38 Q92 56 80 66 Q70 74 50 74 Q28 74 22 62 Z"
    fill="url(#s-gold)" stroke="#6a3f08" stroke-width="1.6" stroke-linejoin="round"/>
  <path d="M24 58 Q12 56 10 64 Q10 72 22 70" fill="none" stroke="url(#s-gold)" stroke-width="4.5" stroke-linecap="round"/>
  <path d="M38 45 Q40 34 50 34 Q60 34 62 45 Z" fill="url(#s-gold)" stroke="#6a3f08" stroke-width="1.4"/>
  <circle cx="50" cy="31" r="3.5" fill="#e0283c" stroke="#6a3f08" stroke-width="1"/>
  <path d="M36 76 H64 L60 84 H40 Z" fill="url(#s-gold)" stroke="#6a3f08" stroke-width="1.2"/>
  <path d="M30 58 Q50 66 72 58" fill="none" stroke="#fff3c0" stroke-width="2" opacity=".7"/>
  <circle cx="50" cy="62" r="3" fill="#13b3a2"/>`,

  dagger: `
  <g transform="rotate(-38 50 50)">
    <path d="M46 8 Q66 30 58 60 L50 62 L44 60 Q52 34 46 8 Z" fill="url(#s-silver)" stroke="#3a4658" stroke-width="1.3"/>
    <path d="M48 14 Q58 34 53 58" fill="none" stroke="#ffffff" stroke-width="1.4" opacity=".8"/>
    <rect x="30" y="60" width="40" height="8" rx="4" fill="url(#s-gold-h)" stroke="#6a3f08" stroke-width="1.2"/>
    <rect x="44" y="68" width="12" height="20" rx="3" fill="#5a2a10" stroke="#6a3f08" stroke-width="1"/>
    <path d="M44 74 H56 M44 80 H56" stroke="url(#s-gold-h)" stroke-width="2"/>
    <circle cx="50" cy="93" r="6" fill="url(#s-gold)" stroke="#6a3f08" stroke-width="1"/>
    <circle cx="50" cy="64" r="3.2" fill="#e0283c" stroke="#fff" stroke-width=".8"/>
    <circle cx="34" cy="64" r="2.2" fill="#13b3a2"/><circle cx="66" cy="64" r="2.2" fill="#13b3a2"/>
    <circle cx="50" cy="93" r="2.5" fill="#2f6bff"/>
  </g>`,

  ace: letter('A', '#e0283c'),
  king: letter('K', '#2f6bff'),
  queen: letter('Q', '#9b4dff'),
  jack: letter('J', '#13b3a2'),
  ten: letter('10', '#f07a1a', 54, -3),

  bonus: `
  <circle cx="50" cy="46" r="38" fill="url(#s-night)" stroke="url(#s-gold)" stroke-width="4"/>
  <path d="M50 18 A28 28 0 0 0 50 74 A36 36 0 0 1 50 18 Z" fill="url(#s-gold)"/>
  <path d="${star(64, 40, 5, 12, 5)}" fill="url(#s-gold)" stroke="#6a3f08" stroke-width="1"/>
  <path d="M6 70 H94 L88 79 L94 88 H6 L12 79 Z" fill="#c01838" stroke="url(#s-gold)" stroke-width="1.8"/>
  <text x="50" y="84.5" text-anchor="middle" font-family="Georgia, serif" font-weight="800" font-size="14" fill="#ffe8a0" letter-spacing="2">BONUS</text>`,

  gem: gem('teal'),
  'gem-teal': gem('teal'),
  'gem-blue': gem('blue'),
  'gem-green': gem('green'),
  'gem-purple': gem('purple'),
  'gem-red': gem('red'),
};

export const filler = ['wild', 'sultan', 'princess', 'lamp', 'dagger', 'ace', 'king', 'queen', 'jack', 'ten', 'bonus', 'gem'];
