/**
 * Plain art for a title without art of its own (one an operator added with
 * `reelsmith serve --titles DIR`): each symbol a tile with its initials, named from the rules
 * page, and a cut gem in a pot's colour for a title with pots. Drawn from the symbols' names
 * and roles alone, so every title can be played; art never decides a rule.
 */

const ROLE_COLOURS = { wild: '#e0661c', scatter: '#9b6bff', bonus: '#1aa37a' };
/** The tiles' colours, in turn (and the pots' where a pot's name is not a colour). */
export const PLAIN_COLOURS = ['#2f6bff', '#1aa37a', '#e0457b', '#e07a1c', '#6b2fa0', '#117a80', '#c21d2e'];

function escape(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Tiles for a title without art: each symbol's initials on a colour (its role's, if any). */
export function plainArt(symbols) {
  const entries = symbols.map((s, i) => {
    const fill = ROLE_COLOURS[s.role] ?? PLAIN_COLOURS[i % PLAIN_COLOURS.length];
    const initials = escape(s.name.split(/\s+/).map((w) => w[0]).join('').slice(0, 2).toUpperCase());
    const tag = s.role in ROLE_COLOURS ? `<text x="50" y="88" text-anchor="middle" font-family="system-ui, sans-serif" font-size="12" font-weight="800" fill="#fff" letter-spacing="2">${escape(s.role.toUpperCase())}</text>` : '';
    return [
      s.id,
      `<rect x="8" y="8" width="84" height="84" rx="16" fill="${fill}" stroke="#fff" stroke-opacity=".6" stroke-width="3"/>
       <text x="50" y="${tag ? 60 : 66}" text-anchor="middle" font-family="system-ui, sans-serif" font-size="40" font-weight="800" fill="#fff">${initials}</text>${tag}`,
    ];
  });
  return {
    defs: '',
    symbols: Object.fromEntries(entries),
    theme: { base: {}, free: {} },
    hero: symbols.slice(0, 3).map((s) => s.id),
    filler: symbols.map((s) => s.id),
  };
}

/** `colour` (a CSS colour) a `share` of the way to white, as `#rrggbb`. */
function lighter(colour, share) {
  const pen = document.createElement('canvas').getContext('2d');
  pen.fillStyle = colour; // read back as #rrggbb
  const channels = [1, 3, 5].map((i) => parseInt(pen.fillStyle.slice(i, i + 2), 16));
  return `#${channels.map((c) => Math.round(c + (255 - c) * share).toString(16).padStart(2, '0')).join('')}`;
}

/** The colour of pot `name`, the `index`th: the colour it is named after ("teal", "gold"),
 * lightened to stand out on the dark panels, else one of the tiles' colours in turn. */
export function potColour(name, index) {
  return CSS.supports('color', name) ? lighter(name, 0.3) : PLAIN_COLOURS[index % PLAIN_COLOURS.length];
}

/** A cut gem in `colour`: its table, crown and pavilion, lit from the top left. */
export function plainGem(colour) {
  return `
  <path d="M20 36 L34 16 H66 L80 36 L50 88 Z" fill="${escape(colour)}" stroke="#fff" stroke-opacity=".8" stroke-width="3" stroke-linejoin="round"/>
  <path d="M20 36 H80 M34 16 L42 36 L50 16 L58 36 L66 16 M42 36 L50 88 L58 36" fill="none" stroke="#fff" stroke-opacity=".5" stroke-width="1.6"/>
  <path d="M34 16 L42 36 H20 Z" fill="#fff" opacity=".4"/>
  <path d="M58 36 H80 L50 88 Z" fill="#000" opacity=".2"/>`;
}
