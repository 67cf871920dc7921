/**
 * Days of the Tsar, a catalogue title with art of its own: the round, the bet steppers, the
 * free-spins counter and the gamble are the catalogue script's (`catalogue.js`); this adds
 * only how the Tsar looks and speaks: its symbol art and crimson theme (`tsar.css`), its
 * still screen, the eggs (their glow on landing, each egg's revealed number, the spins each
 * egg adds) and the eggs' words in the intro, the announcements and the history. The round
 * view names the scatter's cells `egg_positions` (the model's `[view]`).
 */
import * as art from '../art/tsar-symbols.js';
import { CatalogueUi } from './catalogue.js';

export class TsarUi extends CatalogueUi {
  constructor(game) {
    super(game);
    this.frameClass = null; // tsar.css styles the title
    this.marks = { landed: 'egg-landed', reveal: 'egg-reveal', extra: 'egg-extra' };
    this.spinKeys = { scatter_positions: 'egg_positions' };
    this.words = {
      ...this.words,
      revealBadge: 'tsar.egg_reveals',
      revealed: 'tsar.eggs_reveal',
      introReveals: 'fs.intro_eggs',
      historyReveals: 'history.eggs',
      historyRetrigger: 'history.eggs_added',
    };
  }

  /** The Tsar's sprites are built in (`art/sprite.js`); its theme is `theme-tsar`. */
  loadArt() {
    return { theme: 'tsar', art };
  }

  initialScreen() {
    return [
      ['tsarina', 'cathedral', 'statue', 'royal_seal', 'king'],
      ['ace', 'tsar', 'egg', 'queen', 'cathedral'],
      ['jack', 'ten', 'nine', 'tsarina', 'statue'],
    ];
  }

  /** The spins a free spin's eggs added, shown on each egg: its share of them. */
  retriggerBadges(spin, eggs) {
    const each = spin.spins_added / eggs.length;
    return eggs.map(([row, reel]) => [row, reel, `+${each}`]);
  }
}
