/**
 * Wins as the player sees them. A win of a tier (win / stake at or above the tier's
 * threshold: big 15x, mega 30x, epic 60x unless the market or the title sets others) gets a
 * full-screen scene that counts the amount up over bursting coins, with its fanfare; a press
 * skips to the total. Any other celebrated win shows its amount over the reels as it counts
 * up. Then each winning line is shown on its own with its amount, and at last all together.
 *
 * Where the market forbids celebrating a win that does not exceed the stake (gb), such a win
 * is shown plainly: its amount and lines, no count-up, no scene, no sound.
 */
import { announce, h, sleep } from './dom.js';
import { t } from './messages.js';
import { sceneAmount, sceneLine, sceneMs, sceneTitle } from './scenes.js';

export const DEFAULT_TIERS = { big: 15, mega: 30, epic: 60 };
/** The screens that show the total beside the caption and the caption on two lines. */
const PHONE = '(max-width: 599px), (max-height: 500px) and (orientation: landscape)';
const TIER_IDS = Object.keys(DEFAULT_TIERS);

/**
 * The tiers in force, lowest first: the title's own (`ui.winTiers`) over the market's
 * (`market.win_tiers`) over the defaults. Each is {id, at (x stake), rank (1..)}.
 */
export function winTiers(market, ui) {
  const chosen = ui?.winTiers ?? market?.win_tiers ?? DEFAULT_TIERS;
  const tiers = [];
  for (const [id, at] of Object.entries(chosen)) {
    if (!TIER_IDS.includes(id)) throw new Error(`unknown win tier ${id} (known: ${TIER_IDS.join(', ')})`);
    if (!(Number(at) > 0)) throw new Error(`the win tier ${id} needs a positive multiple of the stake, not ${at}`);
    tiers.push({ id, at: Number(at) });
  }
  tiers.sort((a, b) => a.at - b.at);
  return tiers.map((tier) => ({ ...tier, rank: TIER_IDS.indexOf(tier.id) + 1 }));
}

/** The highest tier a win of `winMinor` on a stake of `stakeMinor` reaches, or null. */
export function tierOf(winMinor, stakeMinor, tiers) {
  let found = null;
  for (const tier of tiers) if (stakeMinor > 0 && winMinor >= tier.at * stakeMinor) found = tier;
  return found;
}

export class WinPresenter {
  constructor(game) {
    this.game = game;
    this.tiers = winTiers(game.market, game.ui);
    this.popup = h('output', { class: 'win-popup', id: 'win-amount', hidden: true, 'data-minor': '0' });
    this.labels = h('div', { class: 'line-amounts', 'aria-hidden': 'true' });
    game.overlay.append(this.popup);
    game.overlay.parentElement.append(this.labels);
    // On a phone the reels have no room to spare under a total drawn over them: the total
    // goes beside the caption, under the reels (css/scenes.css places it there).
    this.phone = window.matchMedia(PHONE);
    this.placePopup = () => {
      if (this.phone.matches) game.caption.before(this.popup);
      else game.overlay.append(this.popup);
    };
    this.phone.addEventListener('change', this.placePopup);
    this.placePopup();
    this.labelled = [];
    // The amounts sit beside their cells: when the layout changes size, they move with them.
    new ResizeObserver(() => this.placeLabels(this.labelled)).observe(game.grid.element);
  }

  placeLabels(items) {
    this.labelled = items;
    this.labels.replaceChildren();
    const placed = [];
    for (const item of items) this.label(item, placed);
  }

  /** Nothing of the last spin's win stays over the reels (a new spin starts). */
  clear() {
    this.popup.hidden = true;
    this.popup.className = 'win-popup';
    this.placeLabels([]);
    this.loss?.remove();
    this.loss = null;
  }

  /**
   * A gamble lost: "Lost" and the win it cost over the reels, and the caption saying so,
   * kept until the next spin (not a moment's €0.00 in every field).
   */
  showLoss(stakeMinor) {
    const { game } = this;
    this.clear();
    game.grid.clearWins();
    const amount = game.money.format(stakeMinor);
    this.loss = h(
      'div',
      { class: 'gamble-lost', id: 'gamble-lost', dataset: { minor: String(stakeMinor) } },
      h('strong', { class: 'gamble-lost-title' }, t('gamble.lost_title')),
      h('span', { class: 'gamble-lost-amount' }, `−${amount}`),
    );
    game.overlay.append(this.loss);
    game.caption.textContent = t('gamble.lost_caption', { amount });
    game.caption.dataset.shown = 'lost';
    announce(game.caption.textContent);
  }

  /**
   * Present the win of the step just landed.
   * @param resp     the step's response (bet, celebrate)
   * @param total    the round's win so far (what the Win meter shows)
   * @param stepWin  this step's win
   * @param items    the step's wins: [{line?, positions, text, label, minor}]
   * @param shown    part of the step's win a scene has already presented (a jackpot)
   */
  async present(resp, { total, stepWin, items, shown = 0, celebrate }) {
    const { game } = this;
    const before = game.win.value;
    const stake = resp.bet.minor;
    if (stepWin <= 0 || !celebrate) {
      if (total !== before) game.win.set(total);
      if (stepWin > 0) this.showPopup(stepWin, { quiet: true });
      this.lines(items, stepWin, { cycle: true, quiet: true });
      return;
    }
    const tier = tierOf(stepWin - shown, stake, this.tiers);
    if (tier) {
      await this.tierScene(tier, stepWin);
      game.win.set(total, { celebrate: true });
      this.showPopup(stepWin);
    } else {
      const ratio = stepWin / Math.max(1, stake);
      game.sound.play('win', { level: ratio > 5 ? 3 : ratio > 2 ? 2 : 1 });
      const ms = total > before ? sceneMs(game.motion, 'popup') * (ratio >= 5 ? 2 : ratio >= 2 ? 1.4 : 1) : 0;
      this.showPopup(stepWin, { countMs: ms });
      await game.win.countTo(total, { ms, celebrate: true });
      this.showPopup(stepWin);
    }
    this.lines(items, stepWin, { cycle: true });
  }

  /** The full-screen scene of a tier win; resolves when it is over. */
  tierScene(tier, amountMinor) {
    const { game } = this;
    const amount = sceneAmount('win-scene-amount');
    const ms = sceneMs(game.motion, 'count') + (tier.rank - 1) * sceneMs(game.motion, 'countStep');
    return game.scenes.run({
      id: 'win-scene',
      cls: `scene-win tier-${tier.id} theme-${game.ui.theme}`,
      data: { tier: tier.id },
      parts: [sceneTitle(t(`win.tier_${tier.id}`), 'tier-title'), amount, sceneLine(t('win.skip'), 'scene-hint')],
      count: { el: amount, to: amountMinor, ms },
      holdMs: sceneMs(game.motion, 'hold'),
      particles: true,
      sound: 'tier',
      soundOptions: { rank: tier.rank },
    });
  }

  /** The step's win over the reels; counts up over `countMs` (0: at once). */
  showPopup(minor, { quiet = false, countMs = 0 } = {}) {
    const { popup } = this;
    const { money } = this.game;
    popup.hidden = false;
    popup.className = `win-popup ${quiet ? 'quiet' : 'celebrate'}`;
    popup.dataset.minor = String(minor);
    if (!countMs) {
      popup.textContent = money.format(minor);
      return;
    }
    const start = performance.now();
    const frame = (now) => {
      if (popup.dataset.minor !== String(minor)) return;
      const progress = Math.min(1, (now - start) / countMs);
      popup.textContent = money.format(Math.round(minor * (1 - (1 - progress) ** 3)));
      if (progress < 1) requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  }

  /**
   * Draw the step's wins: each one on its own with its amount, then all together with the
   * total (and stay so until the next spin). Without `cycle`, all together at once.
   */
  lines(items, totalMinor, { cycle = true, quiet = false } = {}) {
    const { game } = this;
    const token = ++game.cycleToken;
    this.placeLabels([]);
    if (!items.length) {
      game.grid.clearWins();
      game.caption.textContent = '';
      return;
    }
    const together = () => {
      game.grid.showWins(items);
      // One win: the amount over the reels is its amount; several: each line's beside it.
      this.placeLabels(items.length > 1 ? items : []);
      game.caption.textContent = this.summary(items, totalMinor);
      game.caption.dataset.summary = 'full';
      game.caption.dataset.shown = 'all';
      if (totalMinor > 0) this.showPopup(totalMinor, { quiet });
      this.fitCaption(items, totalMinor); // measured beside the total (a phone's caption row)
    };
    if (!cycle || items.length === 1) {
      together();
      return;
    }
    // During the sequence the total over the reels gives way to the line's own amount.
    (async () => {
      for (let i = 0; i < items.length; i += 1) {
        if (token !== game.cycleToken) return;
        game.grid.showWins([items[i]]);
        this.popup.hidden = true;
        this.placeLabels([items[i]]);
        game.caption.textContent = items[i].text;
        game.caption.dataset.shown = String(i);
        await sleep(sceneMs(game.motion, 'line'));
      }
      if (token === game.cycleToken) together();
    })();
  }

  /**
   * Where the whole summary does not fit the caption's lines (a phone, many wins), the caption
   * says the count and the total alone ("6 wins pay €2.40"): each win's amount is on the
   * reels beside it. A caption is never cut short with an ellipsis.
   */
  fitCaption(items = null, totalMinor = 0) {
    const { caption } = this.game;
    if (!items || items.length < 2 || caption.dataset.shown !== 'all') return;
    const overflows = () => caption.scrollHeight > caption.clientHeight + 1 || caption.scrollWidth > caption.clientWidth + 1;
    if (overflows()) {
      caption.textContent = t('win.total', { count: items.length, amount: this.game.money.format(totalMinor) });
      caption.dataset.summary = 'short';
    }
  }

  /** "3 wins pay €1.20: Line 3 €0.50 · Line 7 €0.40 · 3 × Egg €0.30". */
  summary(items, totalMinor) {
    const { money } = this.game;
    if (items.length === 1) return items[0].text;
    const parts = items.map((item) => `${item.label} ${money.format(item.minor)}`);
    return `${t('win.total', { count: items.length, amount: money.format(totalMinor) })}: ${parts.join(' · ')}`;
  }

  /**
   * A win's amount on one of its winning cells, low in the cell: the middle one, or the
   * nearest to it where the amounts already `placed` leave room (wins through the same
   * middle cell do not stack their amounts); where none does (wins on the same cells), the
   * middle one with the amount moved up or down by its height until it is clear.
   */
  label(item, placed = []) {
    const { game } = this;
    if (!item.positions?.length || item.minor === undefined) return null;
    const frame = this.labels.parentElement;
    if (!frame) return null;
    const sorted = [...item.positions].sort((a, b) => a[1] - b[1]);
    const middle = Math.floor((sorted.length - 1) / 2);
    const order = sorted.map((position, i) => [Math.abs(i - middle), i, position]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    const tag = h('span', { class: 'line-amount', dataset: { line: item.line ?? '', minor: item.minor } }, game.money.format(item.minor));
    this.labels.append(tag);
    const base = frame.getBoundingClientRect();
    // the boxes are worked out from the tag's size, not read back after each move: a moved
    // box may be mid-transition (reduced motion's 1 ms ones) when read
    const size = tag.getBoundingClientRect();
    const boxAt = (left, top) => ({ left: left - size.width / 2, right: left + size.width / 2, top: top - size.height / 2, bottom: top + size.height / 2 });
    const cover = (box) => placed.reduce((sum, o) => {
      const w = Math.min(box.right, o.right) - Math.max(box.left, o.left);
      const hgt = Math.min(box.bottom, o.bottom) - Math.max(box.top, o.top);
      return sum + (w > 0 && hgt > 0 ? w * hgt : 0);
    }, 0);
    let best = null;
    const spots = [];
    for (const [, , [row, reel]] of order) {
      const cell = game.grid.cellAt(row, reel);
      if (!cell) continue;
      const box = cell.getBoundingClientRect();
      spots.push([box.left - base.left + box.width / 2, box.top - base.top + box.height * 0.78]);
    }
    const step = size.height + 2;
    if (spots.length) for (const shift of [1, -1, 2, -2, -3]) spots.push([spots[0][0], spots[0][1] - shift * step]);
    for (const [left, top] of spots) {
      const box = boxAt(left, top);
      const covered = cover(box);
      if (!best || covered < best.covered) best = { covered, left, top, box };
      if (covered === 0) break;
    }
    if (!best) {
      tag.remove();
      return null;
    }
    tag.style.left = `${best.left}px`;
    tag.style.top = `${best.top}px`;
    placed.push(best.box);
    return tag;
  }
}
