/**
 * The title-specific part of each game screen. Every catalogue title (the server's
 * `client: "catalogue"`) is rendered by the one catalogue script (`catalogue.js`) with its art
 * and theme; a catalogue title whose look needs more than a symbol file extends that script
 * with art and presentation only (Days of the Tsar, `tsar.js`). A title with rules of its own
 * has its own script, named by the server's `client`.
 */
import { catalogueArt, catalogueTheme } from './catalogue-art.js';
import { CatalogueUi } from './catalogue.js';
import { SultanUi } from './sultan.js';
import { TsarUi } from './tsar.js';

/** Scripts of titles with rules of their own, by the server's `client`. */
const OWN = {
  'sultan-spins': { Ui: SultanUi, theme: 'sultan', hero: ['lamp', 'gem-red', 'sultan'] },
};

/** Catalogue titles drawn by a script that extends the catalogue's, by game id. */
const DRAWN = {
  'days-of-the-tsar': { Ui: TsarUi, theme: 'tsar', hero: ['tsar', 'egg', 'cathedral'] },
};

function scriptOf(info) {
  return info.client === 'catalogue' ? DRAWN[info.id] : OWN[info.client];
}

/** The screen part of `info` (a game of `/api/games`) for `game`. */
export function createTitle(info, game) {
  const script = scriptOf(info);
  if (script) return new script.Ui(game);
  if (info.client === 'catalogue') return new CatalogueUi(game);
  throw new Error(`this client does not know the game ${info.id} (client ${info.client})`);
}

/** The lobby card's look: its theme (the CSS class and the sprites) and three symbols. */
export function lookOf(info, rules) {
  const script = scriptOf(info);
  if (script) return { theme: script.theme, hero: script.hero };
  const { theme, art } = catalogueArt(info.id, rules?.symbols);
  return { theme, hero: art.hero };
}

/** The theme (CSS class) of `info` (a game of `/api/games`): the loading screen's, before the
 * title's art loads. */
export function themeOf(info) {
  return scriptOf(info)?.theme ?? catalogueTheme(info.id);
}
