/**
 * Sound: every effect and each title's music loop is synthesised at run time with the Web
 * Audio API (oscillators, filtered noise, envelopes): no audio files are fetched, nothing is
 * recorded or sampled, so the sounds are this project's own work under its licence
 * (docs/sound.md describes each one).
 *
 * Browsers let a page make sound only after the player has interacted with it: the audio
 * graph is made on the first pointer or key press, and nothing plays before. The settings
 * (sound on or off, volume, music on or off) are remembered in localStorage; a player who asks
 * the system for reduced motion starts with the music off (effects stay, they carry
 * information: a reel stopping, a win). Every cue asked for is logged (`log`), played or not,
 * so QA can see what the game would have sounded.
 */

const STORE = 'reelsmith.sound';
const LOG_SIZE = 80;
const LOOKAHEAD_S = 0.25;

const reducedMotion = () => window.matchMedia('(prefers-reduced-motion: reduce)').matches;

/** Equal-tempered frequency of a MIDI note number (69 = A4 = 440 Hz). */
export const hz = (note) => 440 * 2 ** ((note - 69) / 12);

function loadSettings() {
  let saved = null;
  try {
    saved = JSON.parse(localStorage.getItem(STORE) || 'null');
  } catch {
    saved = null;
  }
  const volume = Number(saved?.volume);
  return {
    on: typeof saved?.on === 'boolean' ? saved.on : true,
    volume: Number.isFinite(volume) && volume >= 0 && volume <= 1 ? volume : 0.7,
    music: typeof saved?.music === 'boolean' ? saved.music : !reducedMotion(),
  };
}

// ---------------------------------------------------------------------------------------
// the music: one loop per title, a bar pattern of bass, chords, melody and percussion
// ---------------------------------------------------------------------------------------

/**
 * Each loop is 8 bars of 8 steps (eighth notes). Notes are MIDI numbers, `null` a rest.
 * Days of the Tsar: A minor, a plucked folk line over a walking bass. Sultan Spins: the
 * Hijaz mode on D (D Eb F# G A Bb C) over a frame-drum pattern.
 */
export const MUSIC = {
  tsar: {
    bpm: 104,
    bass: [45, 45, 52, 52, 41, 41, 40, 40],
    chords: [[57, 60, 64], [57, 60, 64], [55, 59, 62], [55, 59, 62], [53, 57, 60], [53, 57, 60], [52, 56, 59], [52, 56, 59]],
    melody: [
      76, null, 72, 74, 76, null, 74, 72,
      71, null, 67, 71, 74, null, 72, 71,
      69, null, 72, 76, 74, 72, 71, null,
      68, 71, 76, null, 75, 76, null, null,
      76, null, 77, 79, 81, null, 79, 77,
      76, null, 72, 74, 76, null, 74, 72,
      72, 74, 72, 71, 69, null, 72, 69,
      68, null, 71, null, 69, null, null, null,
    ],
    drum: [1, 0, 2, 0, 1, 1, 2, 0],
    pluck: 'triangle',
  },
  sultan: {
    bpm: 92,
    bass: [38, 38, 39, 38, 36, 36, 39, 38],
    chords: [[50, 54, 57], [50, 54, 57], [51, 55, 58], [50, 54, 57], [48, 51, 55], [48, 51, 55], [51, 55, 58], [50, 54, 57]],
    melody: [
      74, 75, 78, null, 79, 78, 75, 74,
      75, null, 78, 79, 81, null, 79, 78,
      81, 82, 81, 79, 78, null, 75, null,
      74, null, 75, 78, 75, 74, null, null,
      74, 75, 78, 79, 81, 82, 84, null,
      82, 81, 79, null, 78, 79, 78, 75,
      72, 75, 74, 72, 70, null, 72, 75,
      74, null, null, 75, 74, null, null, null,
    ],
    drum: [1, 0, 2, 2, 1, 0, 2, 0],
    pluck: 'sawtooth',
  },
};

// ---------------------------------------------------------------------------------------
// the engine
// ---------------------------------------------------------------------------------------

export class Sound {
  constructor() {
    this.settings = loadSettings();
    this.ctx = null;
    this.log = [];
    this.listeners = new Set();
    this.theme = null;
    this.musicTimer = null;
    this.unlock = this.unlock.bind(this);
    for (const type of ['pointerdown', 'keydown', 'touchstart']) {
      window.addEventListener(type, this.unlock, { capture: true, passive: true });
    }
    document.addEventListener('visibilitychange', () => this.visibility());
    this.publish();
  }

  /** 'locked' until the first interaction, then 'on' or 'off'. */
  get status() {
    if (!this.settings.on) return 'off';
    return this.ctx ? 'on' : 'locked';
  }

  /** Make the audio graph: called on the player's first interaction (browsers require it). */
  unlock() {
    if (this.ctx) return;
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    for (const type of ['pointerdown', 'keydown', 'touchstart']) {
      window.removeEventListener(type, this.unlock, { capture: true });
    }
    this.ctx = new Context();
    this.master = this.ctx.createGain();
    this.master.connect(this.ctx.destination);
    // A gentle limiter keeps a jackpot fanfare over a music loop from clipping.
    const limiter = this.ctx.createDynamicsCompressor();
    limiter.threshold.value = -10;
    limiter.ratio.value = 6;
    limiter.connect(this.master);
    this.fx = this.ctx.createGain();
    this.fx.connect(limiter);
    this.musicBus = this.ctx.createGain();
    this.musicBus.gain.value = 0.22;
    this.musicBus.connect(limiter);
    this.noiseBuffer = this.makeNoise();
    this.applyVolume();
    this.ctx.resume?.();
    this.syncMusic();
    this.publish();
  }

  makeNoise() {
    const length = this.ctx.sampleRate;
    const buffer = this.ctx.createBuffer(1, length, this.ctx.sampleRate);
    const data = buffer.getChannelData(0);
    // A fixed linear congruential sequence: the same noise every time, no Math.random.
    let x = 12345;
    for (let i = 0; i < length; i += 1) {
      x = (x * 1103515245 + 12345) & 0x7fffffff;
      data[i] = x / 0x3fffffff - 1;
    }
    return buffer;
  }

  // -- settings --------------------------------------------------------------------------

  /** Change settings ({on, volume 0..1, music}) and remember them. */
  update(change) {
    const next = { ...this.settings, ...change };
    const volume = Number(next.volume);
    if (!Number.isFinite(volume) || volume < 0 || volume > 1) {
      throw new RangeError(`the volume must be between 0 and 1, not ${next.volume}`);
    }
    this.settings = { on: Boolean(next.on), volume, music: Boolean(next.music) };
    localStorage.setItem(STORE, JSON.stringify(this.settings));
    this.applyVolume();
    this.syncMusic();
    this.publish();
  }

  applyVolume() {
    if (!this.ctx) return;
    const level = this.settings.on ? this.settings.volume ** 2 : 0; // perceived loudness
    this.master.gain.setTargetAtTime(level, this.ctx.currentTime, 0.02);
  }

  /** Tell the controls (and the page's data-sound attribute) what the sound is doing. */
  publish() {
    document.documentElement.dataset.sound = this.status;
    for (const listener of this.listeners) listener(this.settings, this.status);
  }

  subscribe(listener) {
    this.listeners.add(listener);
    listener(this.settings, this.status);
    return () => this.listeners.delete(listener);
  }

  visibility() {
    if (!this.ctx) return;
    if (document.hidden) this.ctx.suspend?.();
    else this.ctx.resume?.();
  }

  // -- cues ------------------------------------------------------------------------------

  get audible() {
    return Boolean(this.ctx) && this.settings.on && this.settings.volume > 0;
  }

  /** Play the cue `name` (see CUES) with its options; log it whether or not it is heard. */
  play(name, options = {}) {
    const cue = CUES[name];
    if (!cue) throw new Error(`there is no sound cue named ${name}`);
    this.log.push(name);
    if (this.log.length > LOG_SIZE) this.log.shift();
    if (!this.audible) return;
    cue(this, this.ctx.currentTime + 0.01, options);
  }

  /** One oscillator note with an attack/decay envelope; `glide` bends it to another pitch. */
  tone(freq, at, dur, { type = 'sine', gain = 0.3, attack = 0.005, glide = null, dest = this.fx, filter = null } = {}) {
    const { ctx } = this;
    const osc = ctx.createOscillator();
    const env = ctx.createGain();
    osc.type = type;
    osc.frequency.setValueAtTime(freq, at);
    if (glide) osc.frequency.exponentialRampToValueAtTime(glide, at + dur);
    env.gain.setValueAtTime(0.0001, at);
    env.gain.exponentialRampToValueAtTime(gain, at + attack);
    env.gain.exponentialRampToValueAtTime(0.0001, at + dur);
    let out = osc;
    if (filter) {
      const lp = ctx.createBiquadFilter();
      lp.type = 'lowpass';
      lp.frequency.setValueAtTime(filter, at);
      lp.Q.value = 1;
      osc.connect(lp);
      out = lp;
    }
    out.connect(env);
    env.connect(dest);
    osc.start(at);
    osc.stop(at + dur + 0.05);
  }

  /** A burst of filtered noise (whooshes, card flips, drum skins). */
  noise(at, dur, { gain = 0.2, type = 'bandpass', freq = 1000, to = null, q = 1.2, dest = this.fx } = {}) {
    const { ctx } = this;
    const src = ctx.createBufferSource();
    src.buffer = this.noiseBuffer;
    const filter = ctx.createBiquadFilter();
    filter.type = type;
    filter.frequency.setValueAtTime(freq, at);
    if (to) filter.frequency.exponentialRampToValueAtTime(to, at + dur);
    filter.Q.value = q;
    const env = ctx.createGain();
    env.gain.setValueAtTime(0.0001, at);
    env.gain.exponentialRampToValueAtTime(gain, at + Math.min(0.02, dur / 3));
    env.gain.exponentialRampToValueAtTime(0.0001, at + dur);
    src.connect(filter);
    filter.connect(env);
    env.connect(dest);
    src.start(at, (at * 0.37) % 0.5);
    src.stop(at + dur + 0.05);
  }

  /** A bell: a few inharmonic partials decaying at different rates. */
  bell(freq, at, { gain = 0.18, dur = 1.2 } = {}) {
    for (const [ratio, g, d] of [[1, 1, 1], [2.76, 0.45, 0.6], [5.4, 0.2, 0.35], [8.9, 0.08, 0.2]]) {
      this.tone(freq * ratio, at, dur * d, { gain: gain * g, attack: 0.002 });
    }
  }

  /** Notes one after another: [[note, beats]...] at `step` seconds a beat. */
  phrase(notes, at, step, options) {
    let t = at;
    for (const [note, beats = 1] of notes) {
      if (note !== null) this.tone(hz(note), t, step * beats * 1.6, options);
      t += step * beats;
    }
    return t;
  }

  // -- music -----------------------------------------------------------------------------

  /** The title whose loop plays (`tsar`, `sultan`), or null for silence (the lobby). */
  music(theme) {
    this.theme = theme && MUSIC[theme] ? theme : null;
    this.syncMusic();
  }

  get musicPlaying() {
    return this.musicTimer !== null;
  }

  syncMusic() {
    const want = this.audible && this.settings.music && this.theme;
    if (!want) {
      this.stopMusic();
      return;
    }
    if (this.musicTimer && this.playingTheme === this.theme) return;
    this.stopMusic();
    this.playingTheme = this.theme;
    const song = MUSIC[this.theme];
    const step = 60 / song.bpm / 2;
    let index = 0;
    let next = this.ctx.currentTime + 0.1;
    const bus = this.ctx.createGain();
    bus.connect(this.musicBus);
    bus.gain.setValueAtTime(0.0001, next);
    bus.gain.exponentialRampToValueAtTime(1, next + 1.5);
    this.songBus = bus;
    const schedule = () => {
      while (next < this.ctx.currentTime + LOOKAHEAD_S) {
        this.musicStep(song, index, next, step, bus);
        index = (index + 1) % song.melody.length;
        next += step;
      }
    };
    schedule();
    this.musicTimer = setInterval(schedule, 60);
  }

  musicStep(song, index, at, step, dest) {
    const bar = Math.floor(index / 8) % song.bass.length;
    const beat = index % 8;
    if (beat % 4 === 0) this.tone(hz(song.bass[bar]), at, step * 3.5, { type: 'triangle', gain: 0.5, dest, attack: 0.01 });
    if (beat === 2 || beat === 6) {
      for (const note of song.chords[bar]) this.tone(hz(note), at, step * 1.5, { type: 'sine', gain: 0.09, dest, attack: 0.02 });
    }
    const note = song.melody[index];
    if (note !== null) this.tone(hz(note), at, step * 1.8, { type: song.pluck, gain: 0.16, dest, attack: 0.004, filter: 2400 });
    const hit = song.drum[beat];
    if (hit === 1) this.tone(90, at, 0.18, { gain: 0.45, glide: 45, dest });
    if (hit === 2) this.noise(at, 0.06, { gain: 0.12, type: 'highpass', freq: 3000, dest });
  }

  stopMusic() {
    if (this.musicTimer) clearInterval(this.musicTimer);
    this.musicTimer = null;
    this.playingTheme = null;
    if (this.songBus && this.ctx) {
      const bus = this.songBus;
      bus.gain.setTargetAtTime(0.0001, this.ctx.currentTime, 0.15);
      setTimeout(() => bus.disconnect(), 900);
    }
    this.songBus = null;
  }
}

// ---------------------------------------------------------------------------------------
// the cues: (engine, start time, options) -> scheduled nodes
// ---------------------------------------------------------------------------------------

const CUES = {
  /** The reels start: a rising whoosh. */
  spin(s, t) {
    s.noise(t, 0.45, { gain: 0.16, freq: 300, to: 1800, q: 0.9 });
    s.tone(110, t, 0.3, { type: 'triangle', gain: 0.08, glide: 220 });
  },
  /** One reel stops: a wooden thud, a little higher reel by reel. */
  reelStop(s, t, { reel = 0 } = {}) {
    s.tone(150 + reel * 12, t, 0.14, { gain: 0.4, glide: 60 });
    s.noise(t, 0.04, { gain: 0.12, freq: 2200, q: 2 });
  },
  /** A win that does not reach a tier; `level` 1 (up to 2x), 2 (up to 5x), 3 (more). */
  win(s, t, { level = 1 } = {}) {
    const notes = [[72, 1], [76, 1], [79, 1], [84, 2], [88, 1], [91, 3]].slice(0, 2 + Math.round(level * 1.5));
    s.phrase(notes, t, 0.08, { type: 'triangle', gain: 0.2 });
    if (level >= 2) s.bell(hz(96), t + 0.35, { gain: 0.08 });
  },
  /** A tier's fanfare: longer and brighter from big to epic. */
  tier(s, t, { rank = 1 } = {}) {
    const base = 60 + rank * 2;
    const chord = (root, at, dur) => {
      for (const i of [0, 4, 7, 12]) s.tone(hz(root + i), at, dur, { type: 'sawtooth', gain: 0.07, filter: 1800, attack: 0.03 });
    };
    chord(base, t, 0.5);
    chord(base + 5, t + 0.45, 0.5);
    chord(base + 7, t + 0.9, 0.5);
    chord(base + 12, t + 1.35, 1.4 + rank * 0.4);
    s.phrase([[base + 24, 1], [base + 28, 1], [base + 31, 1], [base + 36, 3]], t + 1.35, 0.1, { type: 'triangle', gain: 0.15 });
  },
  /** One coin in a count-up. */
  coin(s, t, { n = 0 } = {}) {
    s.tone(2600 + (n % 5) * 180, t, 0.09, { type: 'square', gain: 0.05, filter: 5000 });
    s.tone(3900 + (n % 3) * 200, t + 0.03, 0.12, { gain: 0.05 });
  },
  /** The count reached the total (or was skipped to it). */
  total(s, t) {
    s.bell(hz(84), t, { gain: 0.16, dur: 1.6 });
    s.bell(hz(91), t + 0.05, { gain: 0.1, dur: 1.4 });
  },
  /** A scatter (egg) or bonus symbol lands; `n` counts them, each a step higher. */
  scatter(s, t, { n = 1 } = {}) {
    s.bell(hz(76 + n * 3), t, { gain: 0.16, dur: 0.9 });
  },
  /** An egg's number or a gem's symbol appears. */
  reveal(s, t, { n = 0 } = {}) {
    s.tone(hz(84 + n * 2), t, 0.25, { glide: hz(96 + n * 2), gain: 0.1 });
    s.noise(t, 0.2, { gain: 0.05, type: 'highpass', freq: 6000 });
  },
  /** A gem lands and raises its pot. */
  potRaise(s, t, { reel = 0 } = {}) {
    s.tone(hz(79 + reel * 2), t, 0.12, { type: 'square', gain: 0.06, filter: 3000 });
    s.tone(hz(86 + reel * 2), t + 0.07, 0.18, { type: 'square', gain: 0.06, filter: 3000 });
  },
  /** A wild reel: a low boom under a rising sweep. */
  wildReel(s, t) {
    s.tone(70, t, 0.7, { gain: 0.4, glide: 35 });
    s.noise(t, 0.6, { gain: 0.12, freq: 400, to: 5000 });
    s.phrase([[67, 1], [71, 1], [74, 1], [79, 2]], t + 0.15, 0.07, { type: 'triangle', gain: 0.12 });
  },
  /** The jackpot spin starts on the main game area. */
  jackpotSpin(s, t) {
    s.noise(t, 1.2, { gain: 0.14, freq: 200, to: 3000, q: 0.7 });
    for (let i = 0; i < 8; i += 1) s.tone(hz(72 + i * 2), t + i * 0.12, 0.15, { type: 'square', gain: 0.05, filter: 2500 });
  },
  /** A pot is won. */
  jackpot(s, t) {
    CUES.tier(s, t, { rank: 3 });
    for (let i = 0; i < 10; i += 1) s.bell(hz(84 + ((i * 5) % 12)), t + 0.2 + i * 0.15, { gain: 0.07, dur: 0.8 });
  },
  /** Free spins are won: the intro's fanfare. */
  featureIntro(s, t) {
    s.phrase([[67, 1], [72, 1], [76, 1], [79, 1], [84, 3]], t, 0.11, { type: 'sawtooth', gain: 0.09, filter: 2200 });
    s.bell(hz(88), t + 0.55, { gain: 0.12 });
  },
  /** Free spins are over: a cadence. */
  featureOutro(s, t) {
    s.phrase([[79, 1], [77, 1], [76, 1], [74, 1], [72, 4]], t, 0.13, { type: 'triangle', gain: 0.16 });
    for (const note of [60, 64, 67]) s.tone(hz(note), t + 0.52, 1.4, { type: 'sine', gain: 0.09 });
  },
  /** A free-spins level up: higher for each level. */
  levelUp(s, t, { level = 2 } = {}) {
    const root = 62 + level * 2;
    s.phrase([[root, 1], [root + 4, 1], [root + 7, 1], [root + 12, 2]], t, 0.08, { type: 'square', gain: 0.07, filter: 2600 });
    s.bell(hz(root + 24), t + 0.32, { gain: 0.1 });
  },
  /** An extra free spin (+1 from an egg in free spins). */
  extraSpin(s, t) {
    s.phrase([[84, 1], [88, 2]], t, 0.07, { type: 'triangle', gain: 0.14 });
  },
  /** The gamble card turns. */
  card(s, t) {
    s.noise(t, 0.08, { gain: 0.2, type: 'highpass', freq: 1800 });
    s.noise(t + 0.09, 0.06, { gain: 0.12, type: 'highpass', freq: 2600 });
  },
  gambleWin(s, t) {
    s.phrase([[76, 1], [83, 2]], t, 0.09, { type: 'triangle', gain: 0.18 });
  },
  gambleLose(s, t) {
    s.phrase([[64, 1], [58, 3]], t, 0.14, { type: 'sine', gain: 0.18 });
  },
};

export const CUE_NAMES = Object.keys(CUES);

/** The page's one sound engine. */
export const sound = new Sound();
