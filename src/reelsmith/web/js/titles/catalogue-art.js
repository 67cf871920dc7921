/**
 * The art of catalogue titles: one file of symbol art and theme per title (`art/*-symbols.js`),
 * listed here by game id. A catalogue title without art of its own (one an operator added with
 * `reelsmith serve --titles DIR`) is drawn with plain tiles named from its rules page
 * (`art/plain.js`), in the default colours, so every catalogue title can be played. Art never
 * decides a rule: what a symbol does comes from the server.
 */
import * as auroraFox from '../art/aurora-fox-symbols.js';
import { plainArt } from '../art/plain.js';
import { addSprites } from '../art/sprite.js';
import { MUSIC } from '../sound.js';

const ART = { 'aurora-fox': auroraFox };

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
