/**
 * Animation timing: one profile for normal play, a shorter one for turbo (where the market
 * allows it), and a still one when the player asks for reduced motion.
 */

const query = window.matchMedia('(prefers-reduced-motion: reduce)');
const TURBO_STORE = 'reelsmith.turbo';
const REDUCED_STORE = 'reelsmith.reducedMotion';

// A free spin runs quicker than a paid one (freeMinSpin, freeReelGap, freePause): the player
// pressed once for all of them, and a losing one takes about a second (turbo about half).
// `anticipation` is added before each reel that stops while a feature is one symbol away.
const PROFILES = {
  normal: { minSpin: 650, reelGap: 170, freeMinSpin: 320, freeReelGap: 95, freePause: 180, anticipation: 650, reveal: 420, pause: 450, countUp: 1200, cycle: 1500, banner: 1500 },
  turbo: { minSpin: 160, reelGap: 55, freeMinSpin: 160, freeReelGap: 50, freePause: 100, anticipation: 320, reveal: 160, pause: 160, countUp: 350, cycle: 1000, banner: 650 },
  still: { minSpin: 140, reelGap: 70, freeMinSpin: 120, freeReelGap: 50, freePause: 200, anticipation: 400, reveal: 260, pause: 300, countUp: 0, cycle: 1800, banner: 1000 },
  stillTurbo: { minSpin: 50, reelGap: 25, freeMinSpin: 50, freeReelGap: 25, freePause: 100, anticipation: 200, reveal: 90, pause: 100, countUp: 0, cycle: 1200, banner: 400 },
};

export class Motion {
  constructor() {
    // the player's own setting (the menu) adds to the system's preference
    this.reducedWanted = localStorage.getItem(REDUCED_STORE) === '1';
    this.reduced = query.matches || this.reducedWanted;
    this.turboAllowed = false;
    this.turboWanted = localStorage.getItem(TURBO_STORE) === '1';
    query.addEventListener('change', (event) => {
      this.reduced = event.matches || this.reducedWanted;
      this.apply();
    });
    this.apply();
  }

  get turbo() {
    return this.turboAllowed && this.turboWanted;
  }

  allowTurbo(allowed) {
    this.turboAllowed = Boolean(allowed);
    this.apply();
  }

  setTurbo(on) {
    this.turboWanted = Boolean(on);
    localStorage.setItem(TURBO_STORE, on ? '1' : '0');
    this.apply();
  }

  setReduced(on) {
    this.reducedWanted = Boolean(on);
    localStorage.setItem(REDUCED_STORE, on ? '1' : '0');
    this.reduced = query.matches || this.reducedWanted;
    this.apply();
  }

  apply() {
    document.documentElement.classList.toggle('reduced-motion', this.reduced);
    document.documentElement.classList.toggle('turbo', this.turbo);
  }

  /** Milliseconds for the named step in the current profile. */
  ms(name) {
    const profile = this.reduced ? (this.turbo ? 'stillTurbo' : 'still') : this.turbo ? 'turbo' : 'normal';
    return PROFILES[profile][name];
  }
}
