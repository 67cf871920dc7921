/**
 * The title-specific part of each game screen, by the title's kind (the server's `client`): one
 * script draws every title of a kind from the rules page and the game list. Catalogue titles
 * (`catalogue.js`) and ladder titles (`ladder.js`) take their art and theme by game id
 * (`catalogue-art.js`, `ladder-art.js`), plain tiles for a title without art of its own. A
 * catalogue title whose look needs more than a symbol file extends the catalogue script with
 * art and presentation only (Days of the Tsar, `tsar.js`).
 */
import { catalogueArt, catalogueTheme } from './catalogue-art.js';
import { CatalogueUi } from './catalogue.js';
import { ladderArt, ladderTheme } from './ladder-art.js';
import { LadderUi } from './ladder.js';
import { TsarUi } from './tsar.js';

/**
 * Each kind's script, the art of its titles and the theme before that art loads; `drawn`: the
 * titles drawn by a script that extends the kind's, by game id.
 */
const KINDS = {
  catalogue: {
    Ui: CatalogueUi,
    art: (info, rules) => catalogueArt(info.id, rules?.symbols),
    theme: catalogueTheme,
    drawn: {
      'days-of-the-tsar': { Ui: TsarUi, theme: 'tsar', hero: ['tsar', 'egg', 'cathedral'] },
    },
  },
  ladder: {
    Ui: LadderUi,
    art: (info, rules) => ladderArt(info.id, rules, info.ladder?.gem_symbol),
    theme: ladderTheme,
    drawn: {},
  },
};

function kindOf(info) {
  const kind = Object.hasOwn(KINDS, info.client) ? KINDS[info.client] : null;
  if (!kind) throw new Error(`this client does not know the game ${info.id} (client ${info.client})`);
  return kind;
}

/** The screen part of `info` (a game of `/api/games`) for `game`. */
export function createTitle(info, game) {
  const kind = kindOf(info);
  const Ui = kind.drawn[info.id]?.Ui ?? kind.Ui;
  return new Ui(game);
}

/** The lobby card's look: its theme (the CSS class and the sprites) and three symbols. */
export function lookOf(info, rules) {
  const kind = kindOf(info);
  const drawn = kind.drawn[info.id];
  if (drawn) return { theme: drawn.theme, hero: drawn.hero };
  const { theme, art } = kind.art(info, rules);
  return { theme, hero: art.hero };
}

/** The theme (CSS class) of `info` (a game of `/api/games`): the loading screen's, before the
 * title's art loads. */
export function themeOf(info) {
  const kind = kindOf(info);
  return kind.drawn[info.id]?.theme ?? kind.theme(info.id);
}
