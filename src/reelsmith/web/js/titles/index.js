/**
 * The title-specific part of each game screen. A title with rules of its own has its own
 * script, by game id; every catalogue title (the server's `client: "catalogue"`) is rendered
 * by the one catalogue script, with its art and theme.
 */
import { catalogueArt, catalogueTheme } from './catalogue-art.js';
import { CatalogueUi } from './catalogue.js';
import { SultanUi } from './sultan.js';
import { TsarUi } from './tsar.js';

const OWN = {
  'days-of-the-tsar': { Ui: TsarUi, theme: 'tsar', hero: ['tsar', 'egg', 'cathedral'] },
  'sultan-spins': { Ui: SultanUi, theme: 'sultan', hero: ['lamp', 'gem-red', 'sultan'] },
};

/** The screen part of `info` (a game of `/api/games`) for `game`. */
export function createTitle(info, game) {
  const own = OWN[info.id];
  if (own) return new own.Ui(game);
  if (info.client === 'catalogue') return new CatalogueUi(game);
  throw new Error(`this client does not know the game ${info.id}`);
}

/** The lobby card's look: its theme (the CSS class and the sprites) and three symbols. */
export function lookOf(info, rules) {
  const own = OWN[info.id];
  if (own) return { theme: own.theme, hero: own.hero };
  const { theme, art } = catalogueArt(info.id, rules?.symbols);
  return { theme, hero: art.hero };
}

/** The theme (CSS class) of the game `gameId` (the loading screen's, before its art loads). */
export function themeOf(gameId) {
  return OWN[gameId]?.theme ?? catalogueTheme(gameId);
}
