/**
 * Aurora Fox art, drawn in-house: a night of northern lights over snow — deep polar blue,
 * aurora green and violet ribbons, frost silver, and the fox's copper. Each symbol is an SVG
 * fragment in a 100 x 100 box; `defs` holds the shared gradients. `theme` is the title's look
 * (the custom properties the game's stylesheet reads) and `hero` the lobby card's symbols.
 * Art only: what the symbols do is the server's (the rules page and the round's events).
 */
import { star } from './shapes.js';

export const defs = `
<linearGradient id="a-frost" x1="0" y1="0" x2="0" y2="1">
  <stop offset="0" stop-color="#ffffff"/><stop offset=".5" stop-color="#c9e7ff"/>
  <stop offset="1" stop-color="#6f9fc9"/></linearGradient>
<linearGradient id="a-frost-h" x1="0" y1="0" x2="1" y2="0">
  <stop offset="0" stop-color="#7fa6c9"/><stop offset=".5" stop-color="#ffffff"/>
  <stop offset="1" stop-color="#7fa6c9"/></linearGradient>
<radialGradient id="a-night" cx=".45" cy=".3" r=".85">
  <stop offset="0" stop-color="#24507a"/><stop offset=".6" stop-color="#0d2142"/>
  <stop offset="1" stop-color="#050c1f"/></radialGradient>
<linearGradient id="a-ribbon" x1="0" y1="0" x2="1" y2="0">
  <stop offset="0" stop-color="#3dffb0" stop-opacity="0"/><stop offset=".3" stop-color="#3dffb0"/>
  <stop offset=".7" stop-color="#9b6bff"/><stop offset="1" stop-color="#ff7ad9" stop-opacity="0"/></linearGradient>
<linearGradient id="a-ribbon-v" x1="0" y1="0" x2="0" y2="1">
  <stop offset="0" stop-color="#b58bff" stop-opacity=".0"/><stop offset=".35" stop-color="#7dffc8"/>
  <stop offset="1" stop-color="#1fd08a" stop-opacity=".15"/></linearGradient>
<linearGradient id="a-copper" x1="0" y1="0" x2="0" y2="1">
  <stop offset="0" stop-color="#ffb35c"/><stop offset=".55" stop-color="#e0661c"/>
  <stop offset="1" stop-color="#8f3208"/></linearGradient>
<linearGradient id="a-pine" x1="0" y1="0" x2="0" y2="1">
  <stop offset="0" stop-color="#3fae78"/><stop offset="1" stop-color="#0f4a36"/></linearGradient>
<linearGradient id="a-fur-grey" x1="0" y1="0" x2="0" y2="1">
  <stop offset="0" stop-color="#e8dcc8"/><stop offset="1" stop-color="#9b8a74"/></linearGradient>
<radialGradient id="a-eye" cx=".4" cy=".35" r=".7">
  <stop offset="0" stop-color="#fff6a8"/><stop offset="1" stop-color="#e0a400"/></radialGradient>
<clipPath id="a-disc"><circle cx="50" cy="50" r="43"/></clipPath>
`;

/** A frosted medallion behind the animals: the night sky with a thin aurora across it. */
const medallion = (ribbon = '#3dffb0') => `
  <circle cx="50" cy="50" r="45" fill="url(#a-night)" stroke="url(#a-frost)" stroke-width="4"/>
  <g clip-path="url(#a-disc)" opacity=".55">
    <path d="M0 34 C20 20 40 42 60 28 S90 22 100 30" fill="none" stroke="${ribbon}" stroke-width="7" opacity=".5"/>
    <circle cx="22" cy="22" r="1.2" fill="#fff"/><circle cx="78" cy="18" r="1" fill="#fff"/>
    <circle cx="66" cy="40" r=".9" fill="#fff"/>
    <path d="M0 86 Q25 74 50 84 T100 80 V100 H0 Z" fill="#e9f4ff"/>
  </g>`;

/** A card letter cut from ice, each its own colour, with a little aurora under it. */
function letter(text, fill, size = 64, dy = 0) {
  return `
  <text x="50" y="${70 + dy}" text-anchor="middle" font-family="'Trebuchet MS', 'Segoe UI', sans-serif"
    font-weight="800" font-size="${size}" fill="${fill}" stroke="url(#a-frost)" stroke-width="3.2"
    paint-order="stroke" letter-spacing="${text.length > 1 ? -5 : 0}">${text}</text>
  <path d="M20 84 C34 78 44 88 56 82 S74 78 80 84" fill="none" stroke="url(#a-ribbon)" stroke-width="4" stroke-linecap="round"/>
  <path d="${star(50, 90, 4, 4, 1.3, 0)}" fill="#fff"/>`;
}

export const symbols = {
  fox: `
  <circle cx="50" cy="50" r="45" fill="url(#a-night)" stroke="url(#a-copper)" stroke-width="5"/>
  <g clip-path="url(#a-disc)"><path d="M-4 40 C20 24 40 46 62 30 S94 22 104 32" fill="none" stroke="url(#a-ribbon)" stroke-width="10" opacity=".7"/></g>
  <path d="M22 18 L36 44 L26 50 Z M78 18 L64 44 L74 50 Z" fill="url(#a-copper)" stroke="#5a1e04" stroke-width="1.5" stroke-linejoin="round"/>
  <path d="M26 24 L33 42 L28 45 Z M74 24 L67 42 L72 45 Z" fill="#3a1406"/>
  <path d="M50 30 C66 30 78 40 80 52 C76 62 62 74 50 80 C38 74 24 62 20 52 C22 40 34 30 50 30 Z" fill="url(#a-copper)" stroke="#5a1e04" stroke-width="1.5"/>
  <path d="M20 52 C30 56 40 62 50 80 C60 62 70 56 80 52 C74 66 62 78 50 82 C38 78 26 66 20 52 Z" fill="#fff8ee"/>
  <path d="M36 50 Q41 46 45 51 Q40 53 36 50 Z M64 50 Q59 46 55 51 Q60 53 64 50 Z" fill="#1b0c04"/>
  <circle cx="41.5" cy="49.6" r="1" fill="#7dffc8"/><circle cx="58.5" cy="49.6" r="1" fill="#7dffc8"/>
  <path d="M45 70 Q50 66 55 70 Q50 75 45 70 Z" fill="#1b0c04"/>
  <path d="M8 78 H92 L86 87 L92 96 H8 L14 87 Z" fill="url(#a-copper)" stroke="#5a1e04" stroke-width="1.5"/>
  <text x="50" y="92.5" text-anchor="middle" font-family="'Trebuchet MS', sans-serif" font-weight="900"
    font-size="14" fill="#fff8ee" letter-spacing="3">WILD</text>`,

  owl: `
  ${medallion('#9b6bff')}
  <path d="M30 30 L36 40 M70 30 L64 40" stroke="#e9f4ff" stroke-width="5" stroke-linecap="round"/>
  <ellipse cx="50" cy="58" rx="26" ry="28" fill="#f8fbff" stroke="#9fb8d0" stroke-width="1.5"/>
  <path d="M34 64 l4 -3 l4 3 M46 70 l4 -3 l4 3 M58 64 l4 -3 l4 3 M40 78 l4 -3 l4 3 M54 78 l4 -3 l4 3" fill="none" stroke="#5d6f85" stroke-width="1.6" stroke-linecap="round"/>
  <circle cx="40" cy="46" r="9" fill="#fff" stroke="#c9d8e6" stroke-width="1.5"/>
  <circle cx="60" cy="46" r="9" fill="#fff" stroke="#c9d8e6" stroke-width="1.5"/>
  <circle cx="40" cy="46" r="6" fill="url(#a-eye)"/><circle cx="60" cy="46" r="6" fill="url(#a-eye)"/>
  <circle cx="40" cy="46" r="3" fill="#120a02"/><circle cx="60" cy="46" r="3" fill="#120a02"/>
  <circle cx="41.2" cy="44.6" r="1" fill="#fff"/><circle cx="61.2" cy="44.6" r="1" fill="#fff"/>
  <path d="M46 53 L50 60 L54 53 Z" fill="#3b3024"/>`,

  lynx: `
  ${medallion('#3dffb0')}
  <path d="M26 30 L32 12 L42 34 Z M74 30 L68 12 L58 34 Z" fill="url(#a-fur-grey)" stroke="#5a4a38" stroke-width="1.5" stroke-linejoin="round"/>
  <path d="M32 12 L31 4 M68 12 L69 4" stroke="#2a2018" stroke-width="2.6" stroke-linecap="round"/>
  <path d="M50 26 C70 26 80 40 80 56 C80 62 86 66 88 74 C76 74 70 80 50 82 C30 80 24 74 12 74 C14 66 20 62 20 56 C20 40 30 26 50 26 Z" fill="url(#a-fur-grey)" stroke="#5a4a38" stroke-width="1.5"/>
  <path d="M36 42 q3 4 0 8 M64 42 q-3 4 0 8 M50 30 v8 M44 32 l2 6 M56 32 l-2 6" fill="none" stroke="#6b5742" stroke-width="1.6" stroke-linecap="round"/>
  <path d="M34 52 Q40 46 46 52 Q40 56 34 52 Z M66 52 Q60 46 54 52 Q60 56 66 52 Z" fill="#8ad66b" stroke="#2a2018" stroke-width="1.2"/>
  <path d="M40 50 v5 M60 50 v5" stroke="#120a02" stroke-width="2" stroke-linecap="round"/>
  <path d="M46 62 Q50 59 54 62 L50 66 Z" fill="#d77a78"/>
  <path d="M50 66 v4 M50 70 q-6 4 -10 1 M50 70 q6 4 10 1" fill="none" stroke="#3b2e22" stroke-width="1.5" stroke-linecap="round"/>
  <path d="M28 64 H16 M28 68 H18 M72 64 H84 M72 68 H82" stroke="#f8fbff" stroke-width="1" opacity=".8"/>`,

  hare: `
  ${medallion('#ff7ad9')}
  <path d="M40 46 C30 30 28 10 34 6 C40 4 46 24 46 44 Z M60 46 C70 30 72 10 66 6 C60 4 54 24 54 44 Z" fill="#f8fbff" stroke="#9fb8d0" stroke-width="1.5"/>
  <path d="M40 40 C34 28 33 14 35 10 C38 12 43 26 44 40 Z M60 40 C66 28 67 14 65 10 C62 12 57 26 56 40 Z" fill="#f4c6d6"/>
  <path d="M50 40 C66 40 74 52 74 64 C74 78 62 86 50 86 C38 86 26 78 26 64 C26 52 34 40 50 40 Z" fill="#f8fbff" stroke="#9fb8d0" stroke-width="1.5"/>
  <circle cx="41" cy="58" r="4.2" fill="#1a2a44"/><circle cx="59" cy="58" r="4.2" fill="#1a2a44"/>
  <circle cx="42.2" cy="56.8" r="1.3" fill="#fff"/><circle cx="60.2" cy="56.8" r="1.3" fill="#fff"/>
  <path d="M47 67 Q50 64 53 67 L50 70 Z" fill="#e58aa6"/>
  <path d="M50 70 v3 M50 73 q-5 3 -8 0 M50 73 q5 3 8 0" fill="none" stroke="#8c9bb0" stroke-width="1.4" stroke-linecap="round"/>`,

  pine: `
  ${medallion('#3dffb0')}
  <rect x="46" y="74" width="8" height="14" rx="2" fill="#6b3f1e"/>
  <path d="M50 10 L64 32 H57 L70 50 H61 L76 70 H24 L39 50 H30 L43 32 H36 Z" fill="url(#a-pine)" stroke="#0a3326" stroke-width="1.5" stroke-linejoin="round"/>
  <path d="M50 10 L58 22 Q50 26 42 22 Z M43 32 H57 L60 36 Q50 40 40 36 Z M39 50 H61 L64 55 Q50 60 36 55 Z M24 70 H76 L72 64 Q50 72 28 64 Z" fill="#f4fbff"/>
  <path d="${star(50, 9, 5, 7, 3)}" fill="#fff6a8" stroke="#e0a400" stroke-width="1"/>`,

  ace: letter('A', '#1aa37a'),
  king: letter('K', '#2f6bff'),
  queen: letter('Q', '#9b4dff'),
  jack: letter('J', '#e0457b'),
  ten: letter('10', '#e07a1c', 54, -3),

  aurora: `
  <path d="${star(50, 50, 8, 48, 38, -90)}" fill="url(#a-frost)" opacity=".9"/>
  <circle cx="50" cy="50" r="38" fill="url(#a-night)" stroke="url(#a-frost-h)" stroke-width="3"/>
  <g clip-path="url(#a-disc)">
    <path d="M4 60 C14 30 26 26 36 46 S56 20 66 38 S86 24 96 44 L96 100 L4 100 Z" fill="url(#a-ribbon-v)" opacity=".9"/>
    <path d="M6 52 C18 34 30 40 40 48 S62 30 72 42 S88 36 96 46" fill="none" stroke="#7dffc8" stroke-width="3"/>
    <path d="M6 62 C20 46 32 52 44 58 S64 44 76 52 S90 48 96 54" fill="none" stroke="#c9a4ff" stroke-width="2.4" opacity=".9"/>
    <path d="M12 82 Q30 70 50 78 T90 76 V100 H12 Z" fill="#e9f4ff"/>
  </g>
  <path d="${star(50, 30, 4, 9, 2.6, -90)}" fill="#fff"/>
  <circle cx="30" cy="36" r="1.4" fill="#fff"/><circle cx="70" cy="32" r="1.2" fill="#fff"/>
  <path d="M14 90 H86 L80 97 H20 Z" fill="url(#a-frost-h)" stroke="#4b6e90" stroke-width="1"/>
  <text x="50" y="96" text-anchor="middle" font-family="'Trebuchet MS', sans-serif" font-weight="900"
    font-size="8" fill="#0d2142" letter-spacing="2">AURORA</text>`,
};

/** The title's look: the custom properties of the game's theme, in play and in free spins. */
export const theme = {
  base: {
    '--theme-bg':
      'url(/web/art/aurora-sky.svg) bottom center / cover no-repeat, linear-gradient(#040a1c 0%, #0b2547 55%, #12355e 100%)',
    '--reel-window': 'linear-gradient(160deg, #ffffff, #9cc9ee 40%, #3d6f9c)',
    '--reel-bg': 'radial-gradient(circle at 50% 35%, #16365c, #071428 85%)',
    '--reel-frame-shadow': '0 0 0 3px #0d2142, 0 0 0 7px #c9e7ff, 0 0 0 9px #0d2142, 0 0 30px rgba(61, 255, 176, .25)',
    '--accent': '#7dffc8',
    '--accent-ink': '#05231a',
    '--frame-edge': '#9cd6ff',
    '--win-edge': '#7dffc8',
    '--win-glow': 'rgba(125, 255, 200, .8)',
    '--title-colour': '#e4f6ff',
  },
  free: {
    '--theme-bg':
      'url(/web/art/aurora-sky.svg) bottom center / cover no-repeat, linear-gradient(#12042a 0%, #3b1470 50%, #0f5a58 100%)',
    '--reel-frame-shadow': '0 0 0 3px #1b0a3a, 0 0 0 7px #e4c8ff, 0 0 0 9px #1b0a3a, 0 0 44px rgba(181, 139, 255, .6)',
    '--accent': '#d7b8ff',
    '--win-edge': '#ffb3ec',
    '--win-glow': 'rgba(255, 179, 236, .85)',
  },
  scene: 'radial-gradient(90% 70% at 50% 45%, rgba(16, 64, 96, .93), rgba(3, 8, 24, .97))',
};

/** The lobby card's three symbols, the middle one largest. */
export const hero = ['owl', 'fox', 'aurora'];

/** The symbol names in the order of the model (filler for spinning reels). */
export const filler = ['fox', 'owl', 'lynx', 'hare', 'pine', 'ace', 'king', 'queen', 'jack', 'ten', 'aurora'];

/**
 * The title's music loop (8 bars of 8 eighth notes, MIDI numbers, `null` a rest): E minor
 * pentatonic bells over a slow drone, airy like a night of northern lights.
 */
export const music = {
  bpm: 84,
  bass: [40, 40, 43, 43, 45, 45, 38, 38],
  chords: [[52, 55, 59], [52, 55, 59], [55, 59, 62], [55, 59, 62], [57, 60, 64], [57, 60, 64], [50, 54, 57], [50, 54, 57]],
  melody: [
    76, null, 71, null, 74, 76, null, 71,
    74, null, 71, 69, 67, null, null, null,
    69, null, 71, 74, 76, null, 79, 76,
    74, null, 71, null, 69, null, null, null,
    76, null, 79, 76, 74, null, 71, 74,
    76, null, 74, 71, 69, null, 67, 69,
    71, null, 74, null, 69, 67, 64, null,
    66, null, 69, null, 64, null, null, null,
  ],
  drum: [1, 0, 0, 2, 1, 0, 2, 0],
  pluck: 'sine',
};
