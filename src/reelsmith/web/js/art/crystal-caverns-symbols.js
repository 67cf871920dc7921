/**
 * Crystal Caverns art, drawn in-house: a crystal mine lit by miners' lamps — deep cave blue,
 * violet crystal and the warm amber of the lamps. Each symbol is an SVG fragment in a 100 x 100
 * box; `defs` holds the shared gradients. The four gems are cut stones, each its own cut and
 * colour (ruby cushion, emerald step cut, sapphire brilliant, amethyst crystal points) with
 * facets and a glint; the four tools stand on a lamp-lit slate disc, drawn in heavy strokes so
 * they read at 34 px; the Geode (wild) is a split stone glowing violet from inside with its
 * "WILD" plaque; the Mine Cart (scatter) is an iron cart heaped with gems on its rails. `theme`
 * is the title's look (the custom properties the game's stylesheet reads), `hero` the lobby
 * card's symbols and `music` its loop. Art only: what the symbols do is the server's.
 */

/** Each gem's colours: light, body, deep shade and the glint's tint. */
const GEMS = {
  ruby: ['#ffb3c1', '#e0183c', '#5a0614', '#fff0f3'],
  emerald: ['#b8ffd8', '#16b86a', '#04452a', '#f0fff6'],
  sapphire: ['#bcd8ff', '#2a63e8', '#0a1f66', '#f0f6ff'],
  amethyst: ['#f0ccff', '#9a3fe0', '#3a0a66', '#fbf0ff'],
};

const gemGradients = Object.entries(GEMS)
  .map(
    ([name, [light, body, shade]]) => `
<linearGradient id="c-${name}" x1="0" y1="0" x2="1" y2="1">
  <stop offset="0" stop-color="${light}"/><stop offset=".45" stop-color="${body}"/><stop offset="1" stop-color="${shade}"/></linearGradient>
<linearGradient id="c-${name}-d" x1="1" y1="0" x2="0" y2="1">
  <stop offset="0" stop-color="${body}"/><stop offset="1" stop-color="${shade}"/></linearGradient>`,
  )
  .join('');

export const defs = `
<radialGradient id="c-slate" cx=".5" cy=".35" r=".75">
  <stop offset="0" stop-color="#3a4a7a"/><stop offset=".7" stop-color="#1a2148"/><stop offset="1" stop-color="#0b0e26"/></radialGradient>
<radialGradient id="c-lamp-glow" cx=".5" cy=".5" r=".5">
  <stop offset="0" stop-color="#fff2b0" stop-opacity="1"/><stop offset=".4" stop-color="#ffb340" stop-opacity=".6"/>
  <stop offset="1" stop-color="#ff8a20" stop-opacity="0"/></radialGradient>
<radialGradient id="c-geode-in" cx=".5" cy=".55" r=".55">
  <stop offset="0" stop-color="#fff4ff"/><stop offset=".3" stop-color="#e28bff"/><stop offset=".75" stop-color="#7a22c8"/><stop offset="1" stop-color="#2a0650"/></radialGradient>
<linearGradient id="c-rock" x1="0" y1="0" x2="0" y2="1">
  <stop offset="0" stop-color="#8a7f9a"/><stop offset=".55" stop-color="#4a4260"/><stop offset="1" stop-color="#221c34"/></linearGradient>
<linearGradient id="c-brass" x1="0" y1="0" x2="0" y2="1">
  <stop offset="0" stop-color="#fff0b8"/><stop offset=".5" stop-color="#e0a63a"/><stop offset="1" stop-color="#7a4a0c"/></linearGradient>
<linearGradient id="c-brass-h" x1="0" y1="0" x2="1" y2="0">
  <stop offset="0" stop-color="#8a560e"/><stop offset=".5" stop-color="#ffe9a3"/><stop offset="1" stop-color="#8a560e"/></linearGradient>
<linearGradient id="c-steel" x1="0" y1="0" x2="1" y2="1">
  <stop offset="0" stop-color="#f2f6ff"/><stop offset=".5" stop-color="#9aa8c4"/><stop offset="1" stop-color="#47536e"/></linearGradient>
<linearGradient id="c-wood" x1="0" y1="0" x2="1" y2="0">
  <stop offset="0" stop-color="#6a3a14"/><stop offset=".5" stop-color="#c07a3a"/><stop offset="1" stop-color="#6a3a14"/></linearGradient>
<linearGradient id="c-iron" x1="0" y1="0" x2="0" y2="1">
  <stop offset="0" stop-color="#7a8aa8"/><stop offset=".5" stop-color="#3e4a66"/><stop offset="1" stop-color="#1a2034"/></linearGradient>
<linearGradient id="c-helmet" x1="0" y1="0" x2="0" y2="1">
  <stop offset="0" stop-color="#ffe680"/><stop offset=".55" stop-color="#f0b020"/><stop offset="1" stop-color="#8a5a06"/></linearGradient>
${gemGradients}
`;

/** A four-pointed glint of `size` at (`x`, `y`). */
const glint = (x, y, size, opacity = 1) => `
  <path d="M${x} ${y - size} Q${x + size * 0.16} ${y - size * 0.16} ${x + size} ${y} Q${x + size * 0.16} ${y + size * 0.16} ${x} ${y + size}
    Q${x - size * 0.16} ${y + size * 0.16} ${x - size} ${y} Q${x - size * 0.16} ${y - size * 0.16} ${x} ${y - size} Z" fill="#fff" opacity="${opacity}"/>`;

/** The soft shadow a stone casts on the cave floor. */
const shadow = (cy = 92, rx = 30) => `<ellipse cx="50" cy="${cy}" rx="${rx}" ry="4" fill="#000" opacity=".35"/>`;

/** A cushion-cut ruby: an octagon, its table and the facets round it. */
function ruby() {
  const [, , shade, tint] = GEMS.ruby;
  return `${shadow()}
  <path d="M30 10 H70 L90 30 V70 L70 90 H30 L10 70 V30 Z" fill="url(#c-ruby)" stroke="${shade}" stroke-width="2.5" stroke-linejoin="round"/>
  <path d="M36 28 H64 L72 36 V64 L64 72 H36 L28 64 V36 Z" fill="url(#c-ruby-d)" stroke="${tint}" stroke-opacity=".55" stroke-width="1.5"/>
  <g stroke="${tint}" stroke-opacity=".45" stroke-width="1.2" fill="none">
    <path d="M30 10 L36 28 M70 10 L64 28 M90 30 L72 36 M90 70 L72 64 M70 90 L64 72 M30 90 L36 72 M10 70 L28 64 M10 30 L28 36"/>
  </g>
  <path d="M30 10 H70 L64 28 H36 Z" fill="#fff" opacity=".35"/>
  <path d="M10 30 L28 36 V64 L10 70 Z" fill="#fff" opacity=".18"/>
  <path d="M70 90 L64 72 L72 64 L90 70 Z" fill="#000" opacity=".25"/>
  <path d="M40 34 L58 34 L46 50 Z" fill="#fff" opacity=".5"/>
  ${glint(30, 24, 9)}`;
}

/** A step-cut emerald: a long octagon in nested steps. */
function emerald() {
  const [, , shade, tint] = GEMS.emerald;
  return `${shadow(94, 26)}
  <path d="M32 6 H68 L80 18 V82 L68 94 H32 L20 82 V18 Z" fill="url(#c-emerald)" stroke="${shade}" stroke-width="2.5" stroke-linejoin="round"/>
  <path d="M37 16 H63 L70 23 V77 L63 84 H37 L30 77 V23 Z" fill="none" stroke="${tint}" stroke-opacity=".5" stroke-width="1.4"/>
  <path d="M41 26 H59 L62 29 V71 L59 74 H41 L38 71 V29 Z" fill="url(#c-emerald-d)" stroke="${tint}" stroke-opacity=".6" stroke-width="1.4"/>
  <g stroke="${tint}" stroke-opacity=".4" stroke-width="1.1">
    <path d="M32 6 L41 26 M68 6 L59 26 M80 18 L62 29 M80 82 L62 71 M68 94 L59 74 M32 94 L41 74 M20 82 L38 71 M20 18 L38 29"/>
  </g>
  <path d="M32 6 H68 L63 16 H37 Z" fill="#fff" opacity=".4"/>
  <path d="M20 18 L30 23 V77 L20 82 Z" fill="#fff" opacity=".2"/>
  <path d="M80 18 L70 23 V77 L80 82 Z" fill="#000" opacity=".22"/>
  <path d="M44 30 H52 L44 46 Z" fill="#fff" opacity=".5"/>
  ${glint(66, 20, 8)}`;
}

/** A round brilliant sapphire seen from the side: crown, girdle and pavilion. */
function sapphire() {
  const [, , shade, tint] = GEMS.sapphire;
  return `${shadow(94, 24)}
  <path d="M28 14 H72 L92 38 L50 92 L8 38 Z" fill="url(#c-sapphire)" stroke="${shade}" stroke-width="2.5" stroke-linejoin="round"/>
  <path d="M8 38 H92" stroke="${tint}" stroke-opacity=".7" stroke-width="1.6"/>
  <g stroke="${tint}" stroke-opacity=".5" stroke-width="1.2" fill="none">
    <path d="M28 14 L38 38 L50 14 L62 38 L72 14 M8 38 L28 14 M92 38 L72 14"/>
    <path d="M20 38 L50 92 L38 38 M62 38 L50 92 L80 38"/>
  </g>
  <path d="M28 14 H72 L62 38 H38 Z" fill="#fff" opacity=".3"/>
  <path d="M8 38 L20 38 L50 92 Z" fill="#fff" opacity=".2"/>
  <path d="M80 38 L92 38 L50 92 Z" fill="#000" opacity=".3"/>
  <path d="M34 18 H44 L38 32 Z" fill="#fff" opacity=".6"/>
  ${glint(70, 20, 9)}`;
}

/** An amethyst: three crystal points rising from a stone. */
function amethyst() {
  const [, , shade, tint] = GEMS.amethyst;
  const point = (x, w, top, base, tilt) => `
    <g transform="rotate(${tilt} ${x} ${base})">
      <path d="M${x - w} ${base} V${top + w} L${x} ${top} L${x + w} ${top + w} V${base} Z" fill="url(#c-amethyst)" stroke="${shade}" stroke-width="2.2" stroke-linejoin="round"/>
      <path d="M${x} ${top} V${base}" stroke="${tint}" stroke-opacity=".55" stroke-width="1.3"/>
      <path d="M${x - w} ${top + w} L${x} ${top} V${base} H${x - w} Z" fill="#fff" opacity=".25"/>
      <path d="M${x - w} ${top + w} L${x} ${top + w * 1.6} L${x + w} ${top + w}" fill="none" stroke="${tint}" stroke-opacity=".6" stroke-width="1.2"/>
    </g>`;
  return `${shadow(92, 34)}
  ${point(30, 11, 28, 84, -18)}
  ${point(70, 11, 30, 84, 18)}
  ${point(50, 15, 6, 86, 0)}
  <path d="M14 84 Q20 74 34 78 Q50 70 66 78 Q80 74 86 84 Q70 92 50 91 Q30 92 14 84 Z" fill="url(#c-rock)" stroke="#1a1428" stroke-width="2"/>
  ${glint(44, 22, 8)}`;
}

/** A lamp-lit slate disc behind a tool, so the tool reads on any cell. */
const disc = `
  <circle cx="50" cy="50" r="45" fill="url(#c-slate)" stroke="url(#c-brass)" stroke-width="3.5"/>
  <circle cx="50" cy="50" r="40" fill="none" stroke="#8fa2ff" stroke-width=".8" stroke-dasharray="1.5 4" opacity=".5"/>
  <path d="M16 70 L26 60 L30 66 L38 56" fill="none" stroke="#b58cff" stroke-width="1.4" opacity=".45" stroke-linejoin="round"/>`;

/** A pickaxe: a steel head on a wooden haft, crossing the disc. */
const pickaxe = `${disc}
  <path d="M30 82 L66 30" stroke="#2a1606" stroke-width="11" stroke-linecap="round"/>
  <path d="M30 82 L66 30" stroke="url(#c-wood)" stroke-width="7.5" stroke-linecap="round"/>
  <path d="M18 34 Q44 8 84 22 Q58 18 66 30 Q56 22 18 34 Z" fill="url(#c-steel)" stroke="#1c2236" stroke-width="2.5" stroke-linejoin="round"/>
  <path d="M60 22 L72 34 L66 38 L56 26 Z" fill="url(#c-brass)" stroke="#5a3606" stroke-width="1.6"/>
  <path d="M26 28 Q44 16 68 18" fill="none" stroke="#fff" stroke-width="2" opacity=".7" stroke-linecap="round"/>`;

/** A miner's lamp: a brass oil lamp with a glass chimney and its flame. */
const lamp = `${disc}
  <circle cx="50" cy="50" r="30" fill="url(#c-lamp-glow)"/>
  <path d="M40 22 Q50 8 60 22" fill="none" stroke="url(#c-brass-h)" stroke-width="3.5" stroke-linecap="round"/>
  <rect x="36" y="22" width="28" height="7" rx="2" fill="url(#c-brass)" stroke="#5a3606" stroke-width="1.6"/>
  <path d="M38 29 H62 L64 62 H36 Z" fill="#fff4c8" fill-opacity=".35" stroke="#5a3606" stroke-width="2"/>
  <path d="M50 38 Q57 48 50 56 Q43 48 50 38 Z" fill="#fff6c0" stroke="#ff9a20" stroke-width="1.6"/>
  <path d="M42 32 V58" stroke="#fff" stroke-width="2.2" opacity=".6" stroke-linecap="round"/>
  <path d="M32 62 H68 L72 76 Q50 84 28 76 Z" fill="url(#c-brass)" stroke="#5a3606" stroke-width="2" stroke-linejoin="round"/>
  <path d="M34 68 H66" stroke="#fff0b8" stroke-width="1.4" opacity=".7"/>`;

/** A miner's helmet: a yellow hard hat with its lamp lit at the front. */
const helmet = `${disc}
  <path d="M20 64 Q20 28 50 26 Q80 28 80 64 Z" fill="url(#c-helmet)" stroke="#4a3004" stroke-width="2.5" stroke-linejoin="round"/>
  <path d="M50 27 V64" stroke="#b07a10" stroke-width="3"/>
  <path d="M12 64 H88 Q90 72 84 72 H16 Q10 72 12 64 Z" fill="url(#c-helmet)" stroke="#4a3004" stroke-width="2.5" stroke-linejoin="round"/>
  <circle cx="50" cy="44" r="17" fill="url(#c-lamp-glow)"/>
  <circle cx="50" cy="44" r="9" fill="#fff8d0" stroke="url(#c-brass)" stroke-width="3.5"/>
  <path d="M28 50 Q30 36 42 32" fill="none" stroke="#fff" stroke-width="2.4" opacity=".6" stroke-linecap="round"/>`;

/** A shovel: a steel blade on a haft with a D grip. */
const shovel = `${disc}
  <path d="M34 18 L58 58" stroke="#2a1606" stroke-width="10" stroke-linecap="round"/>
  <path d="M34 18 L58 58" stroke="url(#c-wood)" stroke-width="6.5" stroke-linecap="round"/>
  <path d="M22 20 Q30 8 42 12 Q40 20 34 24 Q28 26 22 20 Z" fill="none" stroke="url(#c-brass)" stroke-width="4.5" stroke-linejoin="round"/>
  <path d="M52 54 L66 46 Q84 58 82 80 Q70 88 56 80 Q46 68 52 54 Z" fill="url(#c-steel)" stroke="#1c2236" stroke-width="2.5" stroke-linejoin="round"/>
  <path d="M58 58 Q72 62 74 78" fill="none" stroke="#fff" stroke-width="2" opacity=".7" stroke-linecap="round"/>`;

/** The Geode (wild): a split stone, violet crystals glowing inside, its WILD plaque below. */
const geode = `
  <circle cx="50" cy="44" r="44" fill="#c070ff" opacity=".28"/>
  <path d="M10 46 Q8 16 36 8 Q56 2 74 10 Q94 22 90 50 Q88 72 66 80 Q44 86 26 78 Q8 68 10 46 Z" fill="url(#c-rock)" stroke="#1a1428" stroke-width="2.5"/>
  <path d="M19 46 Q18 22 40 16 Q58 12 72 20 Q84 30 81 50 Q78 66 62 72 Q44 76 30 70 Q18 62 19 46 Z" fill="#f4e6ff" stroke="#5a2a8a" stroke-width="1.5"/>
  <path d="M24 46 Q24 26 42 21 Q58 18 70 26 Q78 34 76 50 Q73 62 60 67 Q44 71 32 65 Q24 58 24 46 Z" fill="url(#c-geode-in)"/>
  <g fill="#fff" opacity=".55" stroke="#5a1a9a" stroke-width=".8">
    <path d="M30 40 L36 28 L40 42 Z"/><path d="M44 24 L50 16 L54 28 Z"/><path d="M60 26 L68 22 L66 36 Z"/>
    <path d="M70 44 L76 40 L72 54 Z"/><path d="M30 56 L26 50 L36 54 Z"/><path d="M58 64 L62 58 L66 66 Z"/>
  </g>
  <circle cx="50" cy="46" r="8" fill="#fff" opacity=".85"/>
  ${glint(50, 46, 14)}
  ${glint(30, 26, 6, 0.9)}
  <rect x="14" y="74" width="72" height="22" rx="6" fill="#2a0a4a" stroke="url(#c-brass)" stroke-width="3"/>
  <text x="50" y="91" text-anchor="middle" font-family="Georgia, 'Times New Roman', serif" font-weight="900" font-size="19"
    letter-spacing="2" fill="#fff4c8" stroke="#7a3ad0" stroke-width=".8" paint-order="stroke">WILD</text>`;

/** The Mine Cart (scatter): an iron cart heaped with gems, on its rails, a lamp's glow behind. */
const cart = `
  <circle cx="50" cy="46" r="42" fill="url(#c-lamp-glow)" opacity=".8"/>
  <path d="M4 90 H96" stroke="#8a5a2a" stroke-width="3"/>
  <path d="M4 95 H96" stroke="#c0c8dc" stroke-width="2.5"/>
  <g fill="#6a3a14"><rect x="10" y="88" width="6" height="9"/><rect x="47" y="88" width="6" height="9"/><rect x="84" y="88" width="6" height="9"/></g>
  <path d="M22 32 L34 22 L40 34 Z" fill="url(#c-sapphire)" stroke="#0a1f66" stroke-width="1.5"/>
  <path d="M36 34 L46 14 L58 34 Z" fill="url(#c-ruby)" stroke="#5a0614" stroke-width="1.5"/>
  <path d="M54 34 L62 20 L70 24 L76 34 Z" fill="url(#c-emerald)" stroke="#04452a" stroke-width="1.5"/>
  <path d="M66 34 L74 18 L82 34 Z" fill="url(#c-amethyst)" stroke="#3a0a66" stroke-width="1.5"/>
  <path d="M44 20 L46 14 L50 22 Z" fill="#fff" opacity=".6"/>
  <path d="M12 32 H88 L80 76 H20 Z" fill="url(#c-iron)" stroke="#0c1020" stroke-width="3" stroke-linejoin="round"/>
  <path d="M12 32 H88" stroke="url(#c-brass-h)" stroke-width="5" stroke-linecap="round"/>
  <path d="M17 52 H83 M19 66 H81" stroke="#0c1020" stroke-width="2" opacity=".6"/>
  <g fill="url(#c-brass)" stroke="#5a3606" stroke-width="1"><circle cx="22" cy="44" r="2.2"/><circle cx="78" cy="44" r="2.2"/>
    <circle cx="25" cy="70" r="2.2"/><circle cx="75" cy="70" r="2.2"/></g>
  <path d="M20 36 L24 72" stroke="#fff" stroke-width="2" opacity=".35"/>
  <g stroke="#0c1020" stroke-width="2.5"><circle cx="30" cy="82" r="9" fill="url(#c-iron)"/><circle cx="70" cy="82" r="9" fill="url(#c-iron)"/></g>
  <g fill="url(#c-brass)"><circle cx="30" cy="82" r="3"/><circle cx="70" cy="82" r="3"/></g>
  ${glint(46, 12, 7)}`;

export const symbols = {
  geode,
  ruby: ruby(),
  emerald: emerald(),
  sapphire: sapphire(),
  amethyst: amethyst(),
  pickaxe,
  lamp,
  helmet,
  shovel,
  cart,
};

/** The title's look: the custom properties of the game's theme, in play and in free spins. */
export const theme = {
  base: {
    '--theme-bg':
      'url(/web/art/caverns-mine.svg) bottom center / cover no-repeat, linear-gradient(#05071c 0%, #101a4a 55%, #1e0c3e 100%)',
    '--reel-window': 'linear-gradient(160deg, #ffe9a3, #c08a2a 35%, #3a1a6a 75%, #1a0c3a)',
    '--reel-bg': 'radial-gradient(circle at 50% 30%, #1e2a66, #0a0c2a 85%)',
    '--reel-frame-shadow': '0 0 0 3px #0a0820, 0 0 0 7px #b58cff, 0 0 0 9px #0a0820, 0 0 34px rgba(255, 170, 70, .3)',
    '--accent': '#ffc24a',
    '--accent-ink': '#2a1404',
    '--frame-edge': '#b58cff',
    '--win-edge': '#e6c8ff',
    '--win-glow': 'rgba(200, 140, 255, .85)',
    '--title-colour': '#f0ddff',
  },
  free: {
    '--reel-bg': 'radial-gradient(circle at 50% 30%, #4a1a7a, #140630 85%)',
    '--reel-frame-shadow': '0 0 0 3px #0a0820, 0 0 0 7px #ffc24a, 0 0 0 9px #0a0820, 0 0 52px rgba(200, 120, 255, .7)',
    '--accent': '#e6a0ff',
    '--accent-ink': '#1e0634',
  },
  scene: 'radial-gradient(90% 70% at 50% 45%, rgba(90, 30, 150, .94), rgba(6, 8, 30, .97))',
};

/** The lobby card's three symbols, the middle one largest. */
export const hero = ['ruby', 'geode', 'cart'];

/** A still screen before the first spin: no way win, the Geode in the middle. */
export const screen = [
  ['ruby', 'helmet', 'sapphire', 'pickaxe', 'emerald'],
  ['lamp', 'amethyst', 'geode', 'shovel', 'ruby'],
  ['shovel', 'emerald', 'cart', 'amethyst', 'lamp'],
];

/** The symbol names in the order of the model (filler for spinning reels). */
export const filler = ['geode', 'ruby', 'emerald', 'sapphire', 'amethyst', 'pickaxe', 'lamp', 'helmet', 'shovel', 'cart'];

/**
 * The title's music loop (8 bars of 8 eighth notes, MIDI numbers, `null` a rest): D dorian
 * (D E F G A B C) at 88 bpm, a glassy sine line like drops ringing in a cave over a low
 * drone, with a soft pick-and-drip drum.
 */
export const music = {
  bpm: 88,
  bass: [38, 38, 41, 41, 36, 36, 33, 38],
  chords: [[50, 57, 62], [50, 57, 62], [53, 60, 65], [53, 60, 65], [48, 55, 64], [48, 55, 64], [45, 52, 60], [50, 57, 62]],
  melody: [
    74, null, 81, null, 77, 76, 74, null,
    72, null, 74, 76, 77, null, null, null,
    77, null, 84, null, 81, 79, 77, null,
    76, null, 77, 79, 81, null, null, null,
    79, null, 76, 72, 79, null, 76, 74,
    72, 71, 72, null, 76, null, null, null,
    69, 72, 76, null, 81, 79, 76, 74,
    74, null, null, 69, 74, null, null, null,
  ],
  drum: [1, 0, 0, 2, 1, 0, 2, 0],
  pluck: 'sine',
};
