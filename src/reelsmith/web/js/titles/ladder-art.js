/**
 * The art of ladder titles, by game id: a title's look is its theme (the CSS class
 * `theme-<theme>` with its stylesheet, and the sprites `<theme>-<symbol>`), its symbol art
 * (`art/*-symbols.js`: a sprite per symbol, and `<gem>-<pot>` for the gem of each pot), the
 * lobby's three symbols and its still screen. Sultan Spins' art is built in (`art/sprite.js`,
 * `css/sultan.css`, its music in `sound.js`). A ladder title without art of its own (one an
 * operator added with `reelsmith serve --titles DIR`) is drawn with plain tiles and a cut gem
 * in each pot's colour (`art/plain.js`), in the default colours. Art never decides a rule.
 */
import { plainArt, plainGem, potColour } from '../art/plain.js';
import { addSprites } from '../art/sprite.js';
import * as sultan from '../art/sultan-symbols.js';

const ART = {
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
  },
};

/** Plain art for a ladder title: `symbols` and `pots` from its rules page, `gem` its gem. */
function plainLadderArt(symbols, pots, gem) {
  const art = plainArt(symbols);
  const potColours = Object.fromEntries(pots.map((pot, i) => [pot.id, potColour(pot.id, i)]));
  for (const pot of pots) art.symbols[`${gem}-${pot.id}`] = plainGem(potColours[pot.id]);
  if (pots.length) art.symbols[gem] = plainGem(potColours[pots[0].id]);
  const topPot = pots.length ? `${gem}-${pots.at(-1).id}` : null;
  const hero = [symbols.find((s) => s.role === 'regular')?.id, topPot, symbols.find((s) => s.role === 'bonus')?.id];
  art.hero = hero.filter(Boolean);
  art.potColours = potColours;
  return art;
}

/** The theme (CSS class and sprites' name) of ladder title `gameId`, before its art loads. */
export function ladderTheme(gameId) {
  return ART[gameId]?.theme ?? gameId;
}

/**
 * The art of ladder title `gameId`, its sprites installed: `{theme, art}` where `theme` names
 * the sprites and the CSS theme class. `rules` (the rules page: symbols and pots) and `gem`
 * (its gem symbol, from the game list) draw a title that has no art of its own.
 */
export function ladderArt(gameId, rules, gem) {
  const own = ART[gameId];
  if (own) return own;
  const art = plainLadderArt(rules?.symbols ?? [], rules?.rules?.jackpots?.pots ?? [], gem);
  addSprites(gameId, art);
  return { theme: gameId, art };
}
