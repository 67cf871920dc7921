/**
 * Full-screen scenes over the game: win tiers, free-spins intros and outros, level-ups, the
 * jackpot. One scene at a time; the player's press (a tap or click on the scene, Space, the
 * Spin button) first skips a count to its total, then ends the scene. A scene with a button
 * waits for the press, except in autoplay, where it goes on by itself after a moment.
 *
 * The scene is an element of the page's body (position: fixed over the whole viewport), so it
 * covers the game at every layout. `data-scene` on the body names the scene showing.
 */
import { h, sleep } from './dom.js';
import { t } from './messages.js';

/**
 * How long the presentation's steps take (ms): normal play, turbo (only where the market
 * allows turbo: Motion.turbo is off otherwise) and reduced motion (no count-ups, short holds).
 * A tier's count takes `count` times its rank (big 1, mega 2, epic 3) over the base.
 */
const TIMES = {
  normal: { auto: 2200, count: 2600, countStep: 1200, hold: 1800, moment: 1300, line: 1100, popup: 900 },
  turbo: { auto: 900, count: 1100, countStep: 500, hold: 900, moment: 650, line: 650, popup: 400 },
  still: { auto: 1800, count: 0, countStep: 0, hold: 1600, moment: 1100, line: 1400, popup: 0 },
};

export function sceneMs(motion, name) {
  const profile = motion.reduced ? 'still' : motion.turbo ? 'turbo' : 'normal';
  const ms = TIMES[profile][name];
  if (ms === undefined) throw new Error(`no scene timing named ${name}`);
  return ms;
}

const COIN_COLOURS = ['#ffe08a', '#f5c542', '#e7b83c', '#fff3c0', '#d49a1c'];

export class Scenes {
  constructor(game) {
    this.game = game;
    this.current = null;
    this.layer = h('div', { class: 'scene-layer', hidden: true, 'aria-live': 'assertive' });
    this.layer.addEventListener('click', (event) => {
      if (event.target.closest('button')) return; // a button runs its own action
      this.press();
    });
    document.body.append(this.layer);
  }

  get active() {
    return this.current !== null;
  }

  /** The player's press: skip the running count, or end a scene that waits or holds. */
  press() {
    const scene = this.current;
    if (!scene) return false;
    if (scene.onPress) scene.onPress();
    return true;
  }

  remove() {
    this.finish();
    this.layer.remove();
  }

  finish() {
    if (this.current?.stopParticles) this.current.stopParticles();
    if (this.current?.onPress) this.current.onPress();
    this.current = null;
    this.layer.hidden = true;
    this.layer.replaceChildren();
    delete document.body.dataset.scene;
  }

  /**
   * Show a scene and resolve when it is over.
   * @param {object} o
   * @param {string} o.id         the scene's element id and the body's data-scene
   * @param {string} [o.cls]      theme classes
   * @param {Node[]} o.parts      the scene's content, top to bottom
   * @param {{el: HTMLElement, from?: number, to: number, ms: number}} [o.count]
   *                              an amount (minor units) that counts up in `el`
   * @param {string} [o.button]   a button's label: the scene waits for the press
   * @param {number} [o.holdMs]   how long a scene without a button stays after its count
   * @param {boolean} [o.particles]  coins burst behind the content
   * @param {string} [o.sound]    a sound cue played as the scene opens
   */
  async run({ id, cls = '', data = {}, parts, count = null, button = null, holdMs = 1200, particles = false, sound = null, soundOptions = {} }) {
    if (this.current) this.finish();
    const { motion } = this.game;
    const auto = Boolean(this.game.autoplay);
    const card = h('div', { class: 'scene-card', role: 'group' }, ...parts);
    const canvas = particles && !motion.reduced ? h('canvas', { class: 'scene-particles', 'aria-hidden': 'true' }) : null;
    const scene = h('div', { class: `scene ${cls}`, id, dataset: { ...data, phase: 'opening' } }, canvas, card);
    const state = { onPress: null, stopParticles: null };
    this.current = state;
    this.layer.replaceChildren(scene);
    this.layer.hidden = false;
    document.body.dataset.scene = id;
    if (sound) this.game.sound.play(sound, soundOptions);
    if (canvas) state.stopParticles = coinBurst(canvas);

    if (count) {
      scene.dataset.phase = 'counting';
      await this.countUp(state, count);
      if (this.current !== state) return;
      this.game.sound.play('total');
    }
    scene.dataset.phase = 'total';
    if (button) {
      const pressed = new Promise((resolve) => {
        state.onPress = resolve;
      });
      const action = h('button', { type: 'button', class: 'btn btn-accent scene-button', id: `${id}-button`, onclick: () => this.press() }, auto ? t('scene.auto_start') : button);
      card.append(action);
      await (auto ? Promise.race([pressed, sleep(sceneMs(motion, 'auto'))]) : pressed);
    } else {
      await this.wait(state, holdMs);
    }
    if (this.current === state) {
      scene.dataset.phase = 'leaving';
      this.finish();
    }
  }

  /** Wait `ms`, or less if the player presses. */
  wait(state, ms) {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        state.onPress = null;
        resolve();
      }
      state.onPress = done;
    });
  }

  /** Count an amount up in `el`; a press jumps to the total. */
  countUp(state, { el, from = 0, to, ms }) {
    const { money } = this.game;
    const show = (minor) => {
      el.textContent = money.format(minor);
      el.dataset.minor = String(minor);
    };
    el.dataset.total = String(to);
    if (ms <= 0 || to <= from) {
      show(to);
      return Promise.resolve();
    }
    show(from);
    return new Promise((resolve) => {
      const start = performance.now();
      let coins = 0;
      let ended = false;
      const end = () => {
        if (ended) return;
        ended = true;
        clearInterval(ticker);
        clearTimeout(timer);
        state.onPress = null;
        show(to);
        resolve();
      };
      state.onPress = end;
      // A timer ends the count even where animation frames stop (a background tab).
      const timer = setTimeout(end, ms + 300);
      const ticker = setInterval(() => this.game.sound.play('coin', { n: coins++ }), 110);
      const frame = (now) => {
        if (ended) return;
        const progress = Math.min(1, (now - start) / ms);
        show(from + Math.round((to - from) * (1 - (1 - progress) ** 2)));
        if (progress < 1) requestAnimationFrame(frame);
        else end();
      };
      requestAnimationFrame(frame);
    });
  }
}

/** Coins thrown up from the bottom of `canvas`, falling back under gravity, until stopped. */
function coinBurst(canvas) {
  const ctx = canvas.getContext('2d');
  if (!ctx) return () => {};
  let running = true;
  let coins = [];
  let last = performance.now();
  const resize = () => {
    const ratio = Math.min(2, window.devicePixelRatio || 1);
    canvas.width = canvas.clientWidth * ratio;
    canvas.height = canvas.clientHeight * ratio;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  };
  resize();
  const spawn = (n) => {
    const w = canvas.clientWidth;
    const hgt = canvas.clientHeight;
    for (let i = 0; i < n; i += 1) {
      coins.push({
        x: w * (0.15 + Math.random() * 0.7),
        y: hgt + 20,
        vx: (Math.random() - 0.5) * 420,
        vy: -(hgt * (0.9 + Math.random() * 0.7)),
        r: 7 + Math.random() * 9,
        spin: Math.random() * Math.PI * 2,
        colour: COIN_COLOURS[i % COIN_COLOURS.length],
      });
    }
  };
  const frame = (now) => {
    if (!running) return;
    const dt = Math.min(0.05, (now - last) / 1000);
    last = now;
    if (coins.length < 160) spawn(3);
    const w = canvas.clientWidth;
    const hgt = canvas.clientHeight;
    ctx.clearRect(0, 0, w, hgt);
    const gravity = hgt * 1.3;
    coins = coins.filter((c) => c.y < hgt + 40);
    for (const c of coins) {
      c.vy += gravity * dt;
      c.x += c.vx * dt;
      c.y += c.vy * dt;
      c.spin += dt * 8;
      const squash = Math.abs(Math.cos(c.spin));
      ctx.beginPath();
      ctx.ellipse(c.x, c.y, c.r * Math.max(0.15, squash), c.r, 0, 0, Math.PI * 2);
      ctx.fillStyle = c.colour;
      ctx.fill();
      ctx.strokeStyle = '#8a5a12';
      ctx.lineWidth = 1.5;
      ctx.stroke();
    }
    requestAnimationFrame(frame);
  };
  window.addEventListener('resize', resize);
  requestAnimationFrame(frame);
  return () => {
    running = false;
    window.removeEventListener('resize', resize);
  };
}

/** A scene's heading and lines: small helpers for the callers. */
export const sceneTitle = (content, cls = '') => h('h2', { class: `scene-title ${cls}` }, content);
export const sceneLine = (content, cls = '') => h('p', { class: `scene-line ${cls}` }, content);
export const sceneAmount = (id) => h('output', { class: 'scene-amount', id, 'data-minor': '0' });
export const sceneArt = (markup) => h('div', { class: 'scene-art', html: markup });
