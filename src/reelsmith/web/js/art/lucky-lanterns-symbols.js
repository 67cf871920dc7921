/**
 * Lucky Lanterns art, drawn in-house: a night festival in a river town — ink-blue night,
 * lantern red, leaf gold and a little jade. Each symbol is an SVG fragment in a 100 x 100 box;
 * `defs` holds the shared gradients. The lantern is the hold-and-spin's coin: a round paper
 * lantern lit from inside, a gold cash coin on its belly where the board writes its value;
 * `lantern-mini`, `lantern-minor`, `lantern-major` and `lantern-grand` are the lanterns of the
 * four jackpot tiers (jade, sapphire, violet, gold), each with its tier's plaque. `theme` is the
 * title's look (the custom properties the game's stylesheet reads), `hero` the lobby card's
 * symbols and `music` its loop. Art only: what the symbols do is the server's (the rules page
 * and the round's events).
 */
import { star } from './shapes.js';

/** The paper of each lantern: light, body and shade, and its tier plaque's colours. */
const PAPER = {
  red: ['#ffd27a', '#e8322c', '#7a0a14'],
  mini: ['#d8ffe6', '#1fae6e', '#0a4a30'],
  minor: ['#d6e6ff', '#2f6bff', '#0d2470'],
  major: ['#f2d6ff', '#9b3ddb', '#3d0a63'],
  grand: ['#fff6c8', '#f0b628', '#7a4a06'],
};

const paperGradients = Object.entries(PAPER)
  .map(
    ([name, [light, body, shade]]) => `
<radialGradient id="l-paper-${name}" cx=".5" cy=".45" r=".6">
  <stop offset="0" stop-color="${light}"/><stop offset=".45" stop-color="${body}"/><stop offset="1" stop-color="${shade}"/></radialGradient>`,
  )
  .join('');

export const defs = `
<linearGradient id="l-gold" x1="0" y1="0" x2="0" y2="1">
  <stop offset="0" stop-color="#fff4c2"/><stop offset=".5" stop-color="#f2c14e"/><stop offset="1" stop-color="#8c5a0c"/></linearGradient>
<linearGradient id="l-gold-h" x1="0" y1="0" x2="1" y2="0">
  <stop offset="0" stop-color="#9a640e"/><stop offset=".5" stop-color="#ffe9a3"/><stop offset="1" stop-color="#9a640e"/></linearGradient>
<radialGradient id="l-night" cx=".5" cy=".35" r=".8">
  <stop offset="0" stop-color="#2a2f6e"/><stop offset=".65" stop-color="#121540"/><stop offset="1" stop-color="#070822"/></radialGradient>
<radialGradient id="l-ember" cx=".5" cy=".4" r=".75">
  <stop offset="0" stop-color="#ff8a4a"/><stop offset=".6" stop-color="#b3121f"/><stop offset="1" stop-color="#4a0410"/></radialGradient>
<radialGradient id="l-jade" cx=".45" cy=".35" r=".8">
  <stop offset="0" stop-color="#5fe0b0"/><stop offset=".6" stop-color="#137a5a"/><stop offset="1" stop-color="#06322a"/></radialGradient>
<radialGradient id="l-glow" cx=".5" cy=".5" r=".5">
  <stop offset="0" stop-color="#ffe08a" stop-opacity=".95"/><stop offset=".55" stop-color="#ff9a3c" stop-opacity=".45"/>
  <stop offset="1" stop-color="#ff6a2a" stop-opacity="0"/></radialGradient>
<linearGradient id="l-water" x1="0" y1="0" x2="0" y2="1">
  <stop offset="0" stop-color="#1f6f8a"/><stop offset="1" stop-color="#0a2440"/></linearGradient>
<linearGradient id="l-tiger" x1="0" y1="0" x2="0" y2="1">
  <stop offset="0" stop-color="#ffb347"/><stop offset="1" stop-color="#d9661a"/></linearGradient>
<linearGradient id="l-koi" x1="0" y1="0" x2="1" y2="1">
  <stop offset="0" stop-color="#ffffff"/><stop offset=".5" stop-color="#fff2e6"/><stop offset="1" stop-color="#ffd9c2"/></linearGradient>
<linearGradient id="l-wood" x1="0" y1="0" x2="1" y2="0">
  <stop offset="0" stop-color="#5a1a0c"/><stop offset=".5" stop-color="#c0392b"/><stop offset="1" stop-color="#5a1a0c"/></linearGradient>
<linearGradient id="l-skin" x1="0" y1="0" x2="0" y2="1">
  <stop offset="0" stop-color="#fff3da"/><stop offset="1" stop-color="#e4c99a"/></linearGradient>
${paperGradients}
<clipPath id="l-disc"><circle cx="50" cy="50" r="43"/></clipPath>
`;

/** A night medallion with a gold rim and a wisp of auspicious cloud. */
const medallion = (fill = 'url(#l-night)') => `
  <circle cx="50" cy="50" r="45" fill="${fill}" stroke="url(#l-gold)" stroke-width="4"/>
  <circle cx="50" cy="50" r="40.5" fill="none" stroke="#ffe9a3" stroke-width=".8" stroke-dasharray="2 3" opacity=".55"/>
  <g clip-path="url(#l-disc)" opacity=".5">
    <path d="M4 78 q8 -8 16 0 q8 -10 18 -2 q10 -8 16 2" fill="none" stroke="#ffe9a3" stroke-width="2" stroke-linecap="round"/>
    <path d="M58 24 q6 -6 12 0 q6 -7 14 -1" fill="none" stroke="#ffe9a3" stroke-width="1.6" stroke-linecap="round"/>
  </g>`;

/** A card letter in gold-rimmed lacquer, a little lantern knot above it and a cloud below. */
function letter(text, fill, size = 64, dy = 0) {
  return `
  <path d="M50 6 L56 13 L50 20 L44 13 Z" fill="url(#l-gold)" stroke="#7a4a06" stroke-width="1"/>
  <path d="M50 20 v4" stroke="#c0392b" stroke-width="2"/>
  <text x="50" y="${74 + dy}" text-anchor="middle" font-family="Georgia, 'Times New Roman', serif"
    font-weight="800" font-size="${size}" fill="${fill}" stroke="url(#l-gold)" stroke-width="3.4"
    paint-order="stroke" letter-spacing="${text.length > 1 ? -5 : 0}">${text}</text>
  <path d="M24 88 q6 -6 12 0 q7 -7 14 0 q7 -7 14 0 q6 -6 12 0" fill="none" stroke="url(#l-gold-h)" stroke-width="2.6" stroke-linecap="round"/>`;
}

/**
 * A round paper lantern of `paper` (a key of PAPER) lit from inside: gold caps, ribs, a red
 * tassel, and on its belly a gold cash coin (a square hole) where the board writes its value;
 * `plaque` is a tier's name on a plate across its foot.
 */
function lantern(paper = 'red', plaque = '') {
  const [light, , shade] = PAPER[paper];
  const tassel = paper === 'red' ? '#e8322c' : PAPER[paper][1];
  return `
  <circle cx="50" cy="50" r="48" fill="url(#l-glow)"/>
  <path d="M50 2 V12" stroke="url(#l-gold)" stroke-width="2.4"/>
  <rect x="36" y="11" width="28" height="8" rx="2.5" fill="url(#l-gold)" stroke="#6a3f08" stroke-width="1.2"/>
  <ellipse cx="50" cy="50" rx="37" ry="32" fill="url(#l-paper-${paper})" stroke="${shade}" stroke-width="1.6"/>
  <path d="M50 18 C30 22 30 78 50 82 M50 18 C70 22 70 78 50 82 M50 18 C16 26 16 74 50 82 M50 18 C84 26 84 74 50 82"
    fill="none" stroke="${shade}" stroke-width="1.3" opacity=".55"/>
  <path d="M20 36 Q50 28 80 36 M18 64 Q50 72 82 64" fill="none" stroke="url(#l-gold-h)" stroke-width="1.6" opacity=".8"/>
  <ellipse cx="38" cy="36" rx="10" ry="6" fill="${light}" opacity=".45" transform="rotate(-25 38 36)"/>
  <circle cx="50" cy="50" r="13.5" fill="${paper === 'grand' ? 'url(#l-ember)' : 'url(#l-gold)'}" stroke="#6a3f08" stroke-width="1.4"/>
  <circle cx="50" cy="50" r="10" fill="none" stroke="#8c5a0c" stroke-width="1"/>
  <rect x="45.5" y="45.5" width="9" height="9" fill="${paper === 'grand' ? '#ffe9a3' : shade}" stroke="#6a3f08" stroke-width="1"/>
  <rect x="36" y="80" width="28" height="7" rx="2.5" fill="url(#l-gold)" stroke="#6a3f08" stroke-width="1.2"/>
  <path d="M50 87 V91" stroke="url(#l-gold)" stroke-width="2"/>
  <path d="M46 91 H54 L55 99 H45 Z" fill="${tassel}" stroke="${shade}" stroke-width=".8"/>
  <path d="M47 92 V98 M50 92 V99 M53 92 V98" stroke="${light}" stroke-width=".6" opacity=".7"/>
  ${
    plaque
      ? `<path d="M2 64 H98 L92 74 L98 84 H2 L8 74 Z" fill="url(#l-paper-${paper})" stroke="url(#l-gold)" stroke-width="2.2"/>
  <text x="50" y="80" text-anchor="middle" font-family="Georgia, serif" font-weight="900" font-size="17"
    fill="#fffaf0" stroke="${shade}" stroke-width="2.6" paint-order="stroke" letter-spacing=".5"
    textLength="${Math.min(84, plaque.length * 16)}" lengthAdjust="spacingAndGlyphs">${plaque}</text>`
      : ''
  }`;
}

export const symbols = {
  dragon: `
  <circle cx="50" cy="50" r="45" fill="url(#l-ember)" stroke="url(#l-gold)" stroke-width="4.5"/>
  <g clip-path="url(#l-disc)" opacity=".35">
    <path d="M0 24 q10 -8 20 0 q10 -10 22 -1 M60 20 q10 -8 20 0 q8 -7 20 0" fill="none" stroke="#ffe9a3" stroke-width="2"/>
  </g>
  <path d="M50 12 C56 6 62 12 66 8 C68 14 76 14 80 12 C78 20 84 24 88 26 C82 32 86 38 88 44 C80 46 80 54 80 60 L20 60 C20 54 20 46 12 44 C14 38 18 32 12 26 C16 24 22 20 20 12 C24 14 32 14 34 8 C38 12 44 6 50 12 Z"
    fill="#e8322c" stroke="#5a0810" stroke-width="1.4" stroke-linejoin="round"/>
  <path d="M50 18 C55 14 60 18 63 15 C65 20 72 20 75 19 C73 25 78 29 80 31 C75 35 78 41 78 46 L22 46 C22 41 25 35 20 31 C22 29 27 25 25 19 C28 20 35 20 37 15 C40 18 45 14 50 18 Z" fill="#ff8a3a" opacity=".75"/>
  <path d="M38 28 C34 20 30 14 22 6 M29 13 L20 14 M33 20 L25 23 M62 28 C66 20 70 14 78 6 M71 13 L80 14 M67 20 L75 23"
    fill="none" stroke="url(#l-gold)" stroke-width="4" stroke-linecap="round"/>
  <path d="M50 24 C64 24 72 32 72 42 C72 48 68 52 70 58 C72 64 66 70 50 70 C34 70 28 64 30 58 C32 52 28 48 28 42 C28 32 36 24 50 24 Z"
    fill="url(#l-gold)" stroke="#6a3f08" stroke-width="1.6"/>
  <path d="M44 30 Q50 25 56 30 Q50 35 44 30 Z" fill="#1fae6e" stroke="#0a4a30" stroke-width="1"/>
  <path d="M40 34 h20 M42 38 h16" stroke="#c98a1a" stroke-width="1.2" opacity=".8"/>
  <path d="M29 38 Q38 31 48 39 Q38 37 30 43 Z M71 38 Q62 31 52 39 Q62 37 70 43 Z" fill="#1fae6e" stroke="#0a4a30" stroke-width="1.2" stroke-linejoin="round"/>
  <ellipse cx="39" cy="44.5" rx="6" ry="4.2" fill="#fffaf0" stroke="#6a3f08" stroke-width="1.1"/>
  <ellipse cx="61" cy="44.5" rx="6" ry="4.2" fill="#fffaf0" stroke="#6a3f08" stroke-width="1.1"/>
  <circle cx="40" cy="44.5" r="3" fill="#e8322c"/><circle cx="60" cy="44.5" r="3" fill="#e8322c"/>
  <ellipse cx="40" cy="44.5" rx=".9" ry="2.6" fill="#1a0504"/><ellipse cx="60" cy="44.5" rx=".9" ry="2.6" fill="#1a0504"/>
  <path d="M37 53 C37 47 63 47 63 53 C65 57 61 60 50 60 C39 60 35 57 37 53 Z" fill="#f7cf63" stroke="#6a3f08" stroke-width="1.2"/>
  <path d="M41 55 q3 -5 7 -1 M59 55 q-3 -5 -7 -1" fill="none" stroke="#3a1404" stroke-width="1.8" stroke-linecap="round"/>
  <path d="M35 60 Q50 58 65 60 Q63 71 50 73 Q37 71 35 60 Z" fill="#5a0810" stroke="#6a3f08" stroke-width="1"/>
  <path d="M44 68 Q50 64 56 68 Q50 73 44 68 Z" fill="#e85a6a"/>
  <path d="M38 60 L40.5 67 L43 60.5 Z M62 60 L59.5 67 L57 60.5 Z" fill="#fffaf0"/>
  <path d="M36 55 C26 52 18 58 11 52 C9 49 12 45 16 48 M64 55 C74 52 82 58 89 52 C91 49 88 45 84 48"
    fill="none" stroke="url(#l-gold-h)" stroke-width="2.2" stroke-linecap="round"/>
  <path d="M8 76 H92 L86 85 L92 94 H8 L14 85 Z" fill="#b3121f" stroke="url(#l-gold)" stroke-width="2"/>
  <text x="50" y="90.5" text-anchor="middle" font-family="Georgia, serif" font-weight="900"
    font-size="14" fill="#ffe9a3" letter-spacing="3">WILD</text>`,

  tiger: `
  ${medallion('url(#l-jade)')}
  <path d="M24 34 Q20 18 34 20 L38 30 Z M76 34 Q80 18 66 20 L62 30 Z" fill="url(#l-tiger)" stroke="#3a1404" stroke-width="1.4"/>
  <path d="M27 30 Q26 24 32 24 L34 29 Z M73 30 Q74 24 68 24 L66 29 Z" fill="#fff3da"/>
  <path d="M50 24 C68 24 80 36 80 52 C80 68 66 82 50 82 C34 82 20 68 20 52 C20 36 32 24 50 24 Z" fill="url(#l-tiger)" stroke="#3a1404" stroke-width="1.6"/>
  <path d="M42 30 H58 M44 35 H56 M50 30 V40 M42 40 H58" stroke="#1a0a02" stroke-width="2.6" stroke-linecap="round"/>
  <path d="M22 48 L32 50 M21 56 L31 56 M78 48 L68 50 M79 56 L69 56 M30 36 L36 42 M70 36 L64 42" stroke="#1a0a02" stroke-width="2.4" stroke-linecap="round"/>
  <path d="M36 62 C36 52 44 50 50 54 C56 50 64 52 64 62 C64 72 56 78 50 78 C44 78 36 72 36 62 Z" fill="#fff8ea"/>
  <path d="M36 50 Q41 45 46 50 Q41 53 36 50 Z M64 50 Q59 45 54 50 Q59 53 64 50 Z" fill="#f3e27a" stroke="#1a0a02" stroke-width="1.4"/>
  <path d="M41 47.5 V52 M59 47.5 V52" stroke="#1a0a02" stroke-width="2" stroke-linecap="round"/>
  <path d="M45 58 Q50 55 55 58 L50 63 Z" fill="#d7697a" stroke="#3a1404" stroke-width=".8"/>
  <path d="M50 63 V67 M50 67 Q45 71 41 68 M50 67 Q55 71 59 68" fill="none" stroke="#3a1404" stroke-width="1.5" stroke-linecap="round"/>
  <path d="M38 64 H26 M38 67 H28 M62 64 H74 M62 67 H72" stroke="#fffaf0" stroke-width=".9" opacity=".85"/>`,

  koi: `
  ${medallion('url(#l-water)')}
  <g clip-path="url(#l-disc)">
    <path d="M14 70 q8 -4 16 0 t16 0 M54 80 q8 -4 16 0 t16 0 M20 28 q6 -3 12 0" fill="none" stroke="#9fe3f0" stroke-width="1.4" opacity=".6"/>
    <circle cx="74" cy="30" r="7" fill="#1fae6e" opacity=".8"/><path d="M74 23 V30 L80 27" stroke="#0a4a30" stroke-width="1" fill="none"/>
  </g>
  <path d="M22 70 C26 50 44 32 64 30 C74 30 80 36 78 44 C76 54 62 62 46 66 C38 68 30 72 22 70 Z" fill="url(#l-koi)" stroke="#8a3a1a" stroke-width="1.4"/>
  <path d="M22 70 C16 74 10 72 8 80 C14 82 18 80 22 76 C22 84 26 88 32 88 C30 80 28 74 22 70 Z" fill="#ff6a2a" stroke="#8a3a1a" stroke-width="1.2"/>
  <path d="M44 36 C50 34 58 36 60 42 C56 48 48 48 44 44 Z M36 54 C40 50 48 52 48 58 C44 62 38 62 36 58 Z M64 30 C70 30 74 34 74 38 C70 40 64 38 62 34 Z" fill="#ff6a2a"/>
  <path d="M52 60 Q56 70 50 76 Q46 68 44 64 Z M48 40 Q40 30 44 24 Q50 30 54 36 Z" fill="#ff8a4a" stroke="#8a3a1a" stroke-width="1"/>
  <circle cx="70" cy="38" r="2.4" fill="#1a0a02"/><circle cx="70.8" cy="37.2" r=".8" fill="#fff"/>
  <path d="M78 42 Q84 44 86 50 M77 45 Q82 49 82 54" fill="none" stroke="#8a3a1a" stroke-width="1.2" stroke-linecap="round"/>
  <path d="M34 62 l3 -3 M40 58 l3 -3 M50 54 l3 -3 M56 50 l3 -3" stroke="#e8c9a8" stroke-width="1"/>`,

  fan: `
  ${medallion()}
  <path d="M50 80 L12 42 A54 54 0 0 1 88 42 Z" fill="#b3121f" stroke="url(#l-gold)" stroke-width="2.2" stroke-linejoin="round"/>
  <path d="M50 80 L22 34 A54 54 0 0 1 78 34 Z" fill="#d7262f" opacity=".6"/>
  ${[-135, -124, -113, -101, -90, -79, -67, -56, -45].map((a) => `<path d="M50 80 L${(50 + 53 * Math.cos((a * Math.PI) / 180)).toFixed(1)} ${(80 + 53 * Math.sin((a * Math.PI) / 180)).toFixed(1)}" stroke="#8c5a0c" stroke-width="1.2" opacity=".9"/>`).join('')}
  <path d="M12 42 A54 54 0 0 1 88 42" fill="none" stroke="url(#l-gold-h)" stroke-width="4"/>
  <path d="M30 52 Q40 44 48 50 M44 46 Q50 38 58 42" fill="none" stroke="#3a1404" stroke-width="1.8" stroke-linecap="round"/>
  <circle cx="36" cy="48" r="3.6" fill="#ffd1dc"/><circle cx="49" cy="43" r="3" fill="#ffd1dc"/><circle cx="58" cy="42" r="3.8" fill="#ffd1dc"/>
  <circle cx="36" cy="48" r="1" fill="#f2c14e"/><circle cx="49" cy="43" r=".9" fill="#f2c14e"/><circle cx="58" cy="42" r="1.1" fill="#f2c14e"/>
  <path d="${star(66, 38, 5, 3, 1.2)}" fill="#ffe9a3"/>
  <circle cx="50" cy="80" r="4" fill="url(#l-gold)" stroke="#6a3f08" stroke-width="1"/>
  <path d="M50 84 Q48 90 52 96" fill="none" stroke="#e8322c" stroke-width="2"/>
  <path d="M49 94 h6 l-1 5 h-4 z" fill="#e8322c"/>`,

  drum: `
  ${medallion()}
  <path d="M22 36 C22 26 78 26 78 36 L76 72 C76 82 24 82 24 72 Z" fill="url(#l-wood)" stroke="#3a0a04" stroke-width="1.4"/>
  <path d="M23 48 Q50 54 77 48 M23.5 62 Q50 68 76.5 62" fill="none" stroke="url(#l-gold-h)" stroke-width="2"/>
  ${[28, 36, 44, 52, 60, 68].map((x) => `<circle cx="${x + 2}" cy="${39.5 + Math.abs(x - 48) * 0.04}" r="1.6" fill="url(#l-gold)"/>`).join('')}
  <ellipse cx="50" cy="34" rx="28" ry="8" fill="url(#l-skin)" stroke="#8c5a0c" stroke-width="1.6"/>
  <ellipse cx="50" cy="34" rx="14" ry="4" fill="none" stroke="#b3121f" stroke-width="1.6"/>
  <ellipse cx="50" cy="34" rx="5" ry="1.6" fill="#b3121f"/>
  <path d="M26 18 L56 32 M74 16 L46 32" stroke="#6a3f08" stroke-width="3.4" stroke-linecap="round"/>
  <circle cx="26" cy="18" r="4" fill="#e8322c" stroke="#6a3f08" stroke-width="1"/>
  <circle cx="74" cy="16" r="4" fill="#e8322c" stroke="#6a3f08" stroke-width="1"/>
  <path d="M34 80 L30 90 M66 80 L70 90" stroke="#6a3f08" stroke-width="3" stroke-linecap="round"/>`,

  ace: letter('A', '#d7262f'),
  king: letter('K', '#1f8a66'),
  queen: letter('Q', '#7b3fd1'),
  jack: letter('J', '#2f6bff'),
  ten: letter('10', '#e07a1c', 54, -3),

  lantern: lantern('red'),
  'lantern-mini': lantern('mini', 'MINI'),
  'lantern-minor': lantern('minor', 'MINOR'),
  'lantern-major': lantern('major', 'MAJOR'),
  'lantern-grand': lantern('grand', 'GRAND'),
};

/** The title's look: the custom properties of the game's theme, in play and in the feature. */
export const theme = {
  base: {
    '--theme-bg':
      'url(/web/art/lanterns-river.svg) bottom center / cover no-repeat, linear-gradient(#05061a 0%, #141a4a 55%, #2a1240 100%)',
    '--reel-window': 'linear-gradient(160deg, #fff4c2, #e0a93a 40%, #7a1a10)',
    '--reel-bg': 'radial-gradient(circle at 50% 30%, #3a0f1e, #12061a 85%)',
    '--reel-frame-shadow': '0 0 0 3px #3a0a10, 0 0 0 7px #f2c14e, 0 0 0 9px #3a0a10, 0 0 34px rgba(255, 138, 74, .35)',
    '--accent': '#ffcf5a',
    '--accent-ink': '#3a0a04',
    '--frame-edge': '#f2c14e',
    '--win-edge': '#ffd76a',
    '--win-glow': 'rgba(255, 170, 80, .85)',
    '--title-colour': '#ffe9a3',
  },
  free: {
    '--reel-frame-shadow': '0 0 0 3px #3a0a10, 0 0 0 7px #ff6a3d, 0 0 0 9px #3a0a10, 0 0 48px rgba(255, 90, 60, .6)',
    '--accent': '#ff9a6a',
  },
  scene: 'radial-gradient(90% 70% at 50% 45%, rgba(130, 20, 30, .93), rgba(12, 6, 30, .97))',
};

/** The lobby card's three symbols, the middle one largest. */
export const hero = ['tiger', 'lantern', 'dragon'];

/** A still screen before the first spin: no line win, two lanterns glowing. */
export const screen = [
  ['tiger', 'fan', 'koi', 'ace', 'drum'],
  ['king', 'lantern', 'dragon', 'queen', 'lantern'],
  ['drum', 'jack', 'ten', 'fan', 'koi'],
];

/** The symbol names in the order of the model (filler for spinning reels). */
export const filler = ['dragon', 'tiger', 'koi', 'fan', 'drum', 'ace', 'king', 'queen', 'jack', 'ten', 'lantern'];

/**
 * The title's music loop (8 bars of 8 eighth notes, MIDI numbers, `null` a rest): a festival
 * tune in the G major pentatonic (G A B D E) over a drone of open fifths, plucked like a
 * zither, with a skipping drum.
 */
export const music = {
  bpm: 100,
  bass: [43, 43, 40, 40, 43, 43, 38, 43],
  chords: [[55, 62, 67], [55, 62, 67], [52, 59, 64], [52, 59, 64], [55, 62, 67], [50, 57, 62], [50, 57, 62], [55, 62, 67]],
  melody: [
    79, null, 76, 74, 76, null, 79, 81,
    83, null, 81, 79, 76, null, null, null,
    76, 79, 76, 74, 71, null, 74, 76,
    74, null, 71, 69, 67, null, null, null,
    79, 81, 83, null, 86, 83, 81, 79,
    81, null, 79, 76, 74, null, 76, 79,
    74, 76, 74, 71, 69, null, 71, 74,
    67, null, 71, 74, 67, null, null, null,
  ],
  drum: [1, 0, 2, 1, 1, 0, 2, 2],
  pluck: 'triangle',
};
