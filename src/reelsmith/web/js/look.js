/**
 * A title's look: its art (the symbols' sprites, the lobby's three symbols, its still screen),
 * its theme (the CSS class `theme-<theme>`, with the custom properties of play and of free
 * spins) and the few words and marks it says or draws its own way. Looks are listed here by
 * game id; a title without a look of its own (one an operator added with `reelsmith serve
 * --titles DIR`) is drawn with plain tiles named from its rules page, a cut gem in each pot's
 * colour where it has pots, in the default colours. A look never decides a rule: what a symbol
 * does comes from the server (the rules page and the game list).
 *
 * A look's fields (all optional but `theme`):
 *
 *   theme        the name of its sprites (`<theme>-<symbol>`) and CSS class (`theme-<theme>`)
 *   art          `{symbols, defs, filler, hero, screen, theme: {base, free, scene}, music,
 *                potColours}`; built-in sprites (`art/sprite.js`) need no `symbols` here
 *   stylesheet   true where the title's own stylesheet draws its frame (`css/tsar.css`); else
 *                the shared frame (`css/catalogue.css`, the root class `frame-shared`), which a
 *                title's stylesheet may still dress (`css/lanterns.css`)
 *   marks        the CSS classes of a trigger symbol landed (`landed`, null: none), of its
 *                revealed award (`reveal`) and of the spins a retrigger adds (`extra`)
 *   words        message keys for what a title words its own way (see `WORDS`)
 *   retrigger    `(spins, cells) -> [[row, reel, text]]`: where a retrigger's spins show
 *   winTiers     the win tiers it sets over the market's (`celebration.js`)
 */
import * as auroraFox from './art/aurora-fox-symbols.js';
import * as crystalCaverns from './art/crystal-caverns-symbols.js';
import * as luckyLanterns from './art/lucky-lanterns-symbols.js';
import { plainArt, plainGem, potColour } from './art/plain.js';
import { addSprites } from './art/sprite.js';
import * as sultan from './art/sultan-symbols.js';
import * as tsar from './art/tsar-symbols.js';
import { MUSIC } from './sound.js';

/** The words every title says unless its look words them its own way (message keys; null
 * says nothing): a reveal badge's name, the reveals announced, the intro's line, the
 * history's notes. Each gets `{count, reveals, symbol, triggers}`. */
export const WORDS = {
  revealBadge: null,
  revealed: 'catalogue.reveals',
  introReveals: null,
  historyReveals: 'history.reveals',
  historyTrigger: 'history.trigger',
  historyRetrigger: 'history.retrigger',
};

const MARKS = { landed: 'scatter-landed', reveal: 'scatter-reveal', extra: 'scatter-extra' };

const LOOKS = {
  'days-of-the-tsar': {
    theme: 'tsar',
    art: {
      ...tsar,
      hero: ['tsar', 'egg', 'cathedral'],
      screen: [
        ['tsarina', 'cathedral', 'statue', 'royal_seal', 'king'],
        ['ace', 'tsar', 'egg', 'queen', 'cathedral'],
        ['jack', 'ten', 'nine', 'tsarina', 'statue'],
      ],
    },
    stylesheet: true,
    marks: { landed: 'egg-landed', reveal: 'egg-reveal', extra: 'egg-extra' },
    words: {
      revealBadge: 'tsar.egg_reveals',
      revealed: 'tsar.eggs_reveal',
      introReveals: 'fs.intro_eggs',
      historyReveals: 'history.eggs',
      historyRetrigger: 'history.eggs_added',
    },
    // each egg shows its share of the spins its free spin added
    retrigger: (spins, cells) => cells.map(([row, reel]) => [row, reel, `+${spins / cells.length}`]),
  },
  'sultan-spins': {
    theme: 'sultan',
    art: {
      ...sultan,
      hero: ['lamp', 'gem-red', 'sultan'],
      screen: [
        ['sultan', 'lamp', 'princess', 'dagger', 'king'],
        ['ace', 'wild', 'queen', 'bonus', 'jack'],
        ['lamp', 'ten', 'dagger', 'princess', 'ace'],
        ['queen', 'jack', 'king', 'ten', 'sultan'],
      ],
    },
    stylesheet: true,
    marks: { landed: null },
  },
  'aurora-fox': { theme: 'aurora-fox', art: auroraFox },
  // its lanterns of the jackpot tiers (`lantern-mini` ...) are drawn by the hold-and-spin's
  // presenter where a lantern carries a tier; css/lanterns.css: the board and the wins' motion
  'lucky-lanterns': { theme: 'lucky-lanterns', art: luckyLanterns },
  // css/caverns.css: how each symbol moves when it wins, the cells shattering in a cascade and
  // the chain's multiplier meter
  'crystal-caverns': { theme: 'crystal-caverns', art: crystalCaverns },
};

const sheets = new Set();

function declarations(vars) {
  return Object.entries(vars ?? {}).map(([name, value]) => `${name}: ${value};`).join(' ');
}

/** The art's custom properties as a stylesheet for `.theme-<theme>` (and in free spins). */
function installTheme(theme, vars) {
  if (!vars || sheets.has(theme)) return;
  sheets.add(theme);
  const cls = `.theme-${CSS.escape(theme)}`;
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(
    `${cls} { ${declarations(vars.base)} }\n` +
      `${cls}.in-free-spins { ${declarations(vars.free)} }\n` +
      (vars.scene ? `.scene${cls} { background: ${vars.scene}; }\n` : ''),
  );
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}

/** Plain tiles from the rules page's symbols; where the title has pots (`pots`) and a gem
 * (`gem`), a cut gem in each pot's colour. */
function plainLook(id, rules, gem) {
  const symbols = rules?.symbols ?? [];
  const art = plainArt(symbols);
  const pots = gem ? (rules?.rules?.jackpots?.pots ?? []) : [];
  if (pots.length) {
    const colours = Object.fromEntries(pots.map((pot, i) => [pot.id, potColour(pot.id, i)]));
    for (const pot of pots) art.symbols[`${gem}-${pot.id}`] = plainGem(colours[pot.id]);
    art.symbols[gem] = plainGem(colours[pots[0].id]);
    art.potColours = colours;
    const hero = [symbols.find((s) => s.role === 'regular')?.id, `${gem}-${pots.at(-1).id}`, symbols.find((s) => s.role === 'bonus')?.id];
    art.hero = hero.filter(Boolean);
  }
  return { theme: id, art };
}

/** The theme (CSS class) of `info` (a game of `/api/games`), its custom properties installed:
 * the loading screen's, before the title's art loads. */
export function themeOf(info) {
  const look = LOOKS[info.id];
  if (!look) return info.id;
  installTheme(look.theme, look.art.theme);
  return look.theme;
}

/**
 * The look of `info` (a game of `/api/games`), its sprites and theme installed; `rules` (its
 * rules page) draws a title that has no look of its own. Every field of the list above is
 * filled in (`marks`, `words` with the defaults).
 */
export function lookOf(info, rules) {
  const look = LOOKS[info.id] ?? plainLook(info.id, rules, info.ladder?.gem_symbol);
  addSprites(look.theme, look.art);
  installTheme(look.theme, look.art.theme);
  if (look.art.music && !MUSIC[look.theme]) MUSIC[look.theme] = look.art.music; // its loop, by its theme
  return {
    stylesheet: false,
    retrigger: null,
    ...look,
    marks: { ...MARKS, ...look.marks },
    words: { ...WORDS, ...look.words },
  };
}

/** The still screen of rules page `rules` (`reels`, `rows`, `symbols`) for a title whose art
 * gives none: the regular symbols in turn (no two alike on a row, no row repeating another,
 * nothing that reads as a win), the wild in the middle; `fallback` where it has no regular
 * symbol. */
export function stillScreen({ reels, rows, symbols }, fallback) {
  const regular = symbols.filter((s) => s.role === 'regular').map((s) => s.id);
  const pool = regular.length ? regular : fallback;
  // each row starts three symbols on, and one more each time that comes round the pool again
  const start = (row) => row * 3 + Math.floor((row * 3) / pool.length);
  const screen = Array.from({ length: rows }, (_, row) =>
    Array.from({ length: reels }, (_, reel) => pool[(start(row) + reel * (rows + 1)) % pool.length]),
  );
  const wild = symbols.find((s) => s.role === 'wild');
  if (wild) screen[Math.floor(rows / 2)][Math.floor(reels / 2)] = wild.id;
  return screen;
}
