/**
 * The art of catalogue titles: one file of symbol art and theme per title (`art/*-symbols.js`),
 * listed here by game id. A catalogue title without art of its own (one an operator added with
 * `reelsmith serve --titles DIR`) is drawn with plain tiles named from its rules page, in the
 * default colours, so every catalogue title can be played. Art never decides a rule: what a
 * symbol does comes from the server.
 */
import * as auroraFox from '../art/aurora-fox-symbols.js';
import { addSprites } from '../art/sprite.js';
import { MUSIC } from '../sound.js';

const ART = { 'aurora-fox': auroraFox };

const ROLE_COLOURS = { wild: '#e0661c', scatter: '#9b6bff', bonus: '#1aa37a' };
const PLAIN_COLOURS = ['#2f6bff', '#1aa37a', '#e0457b', '#e07a1c', '#6b2fa0', '#117a80', '#c21d2e'];

function escape(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Tiles for a title without art: each symbol's initials on a colour (its role's, if any). */
function plainArt(symbols) {
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

const sheets = new Set();

function declarations(vars) {
  return Object.entries(vars ?? {}).map(([name, value]) => `${name}: ${value};`).join(' ');
}

/** The theme's custom properties as a stylesheet for `.theme-<game>` (and in free spins). */
function installTheme(gameId, theme) {
  if (sheets.has(gameId)) return;
  sheets.add(gameId);
  const cls = `.theme-${CSS.escape(gameId)}`;
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(
    `${cls} { ${declarations(theme.base)} }\n` +
      `${cls}.in-free-spins { ${declarations(theme.free)} }\n` +
      (theme.scene ? `.scene${cls} { background: ${theme.scene}; }\n` : ''),
  );
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}

/** The theme of catalogue title `gameId` (its CSS class name), installed; no sprites. */
export function catalogueTheme(gameId) {
  installTheme(gameId, ART[gameId]?.theme ?? {});
  return gameId;
}

/**
 * The art of catalogue title `gameId`, its sprites and theme installed: `{theme, art}` where
 * `theme` names the sprites and the CSS theme class. `symbols` (the rules page's) draw a
 * title that has no art of its own.
 */
export function catalogueArt(gameId, symbols) {
  const art = ART[gameId] ?? plainArt(symbols ?? []);
  addSprites(gameId, art);
  installTheme(gameId, art.theme ?? {});
  if (art.music && !MUSIC[gameId]) MUSIC[gameId] = art.music; // the title's loop, by its theme
  return { theme: gameId, art };
}
