/**
 * The gamble screen of any title with a colour and suit double-up: a face-down card, the
 * colour and suit choices the server offers (`actions_allowed`), the gambles left and the
 * gamble limit, and Collect. The odds come from the rules page's `gamble` rules.
 */
import { cardBack, cardFace, suitIcon } from './art/cards.js';
import { announce, h, sleep } from './dom.js';
import { t } from './messages.js';
import { PRESENTERS } from './presenters/index.js';

/** The choices' names: keys of the message catalogue. */
const CHOICE_LABEL = {
  red: 'gamble.choice_red',
  black: 'gamble.choice_black',
  hearts: 'gamble.choice_hearts',
  diamonds: 'gamble.choice_diamonds',
  clubs: 'gamble.choice_clubs',
  spades: 'gamble.choice_spades',
};
const COLOURS = ['red', 'black'];

export class GambleScreen {
  constructor(game, ui, overlay) {
    this.game = game;
    this.ui = ui;
    this.money = game.money;
    this.overlay = overlay;
    const gamble = game.rules.rules.gamble;
    this.colourX = gamble.colour_multiplier;
    this.suitX = gamble.suit_multiplier;
    this.element = null;
  }

  open(round) {
    this.close();
    this.card = h('div', { class: 'gamble-card', id: 'gamble-card', html: cardBack() });
    this.stake = h('output', { id: 'gamble-stake' });
    this.odds = h('p', { class: 'gamble-odds' });
    this.left = h('b', { id: 'gambles-left' });
    this.max = h('b', { id: 'gambles-max' });
    this.limit = h('b', { id: 'gamble-limit' });
    this.colours = h('div', { class: 'gamble-group', role: 'group', 'aria-label': t('gamble.guess_colour') });
    this.suits = h('div', { class: 'gamble-group', role: 'group', 'aria-label': t('gamble.guess_suit') });
    this.result = h('p', { class: 'gamble-result', id: 'gamble-result', 'aria-live': 'assertive' });
    this.history = h('ol', { class: 'gamble-history', 'aria-label': t('gamble.cards_drawn') });
    this.collectButton = h(
      'button',
      { type: 'button', id: 'collect', class: 'btn btn-accent', onclick: () => this.collect() },
      t('gamble.collect'),
    );
    this.element = h(
      'div',
      { class: 'gamble', role: 'dialog', 'aria-modal': 'false', 'aria-label': t('gamble.title'), id: 'gamble-screen' },
      this.card,
      h(
        'div',
        { class: 'gamble-panel' },
        h('h2', { class: 'gamble-title' }, t('gamble.title')),
        h('p', { class: 'gamble-stake-line' }, t('gamble.at_stake'), this.stake),
        this.odds,
        h(
          'p',
          { class: 'gamble-limits' },
          t('gamble.left'), this.left, t('fs.of'), this.max, t('gamble.limit'), this.limit,
        ),
        this.colours,
        this.suits,
        this.result,
        this.history,
        this.collectButton,
      ),
    );
    this.overlay.append(this.element);
    this.game.gambleOpen = true;
    // The spin's wins give way to the gamble: the line cycle stops, and neither the lines, nor
    // their amounts, nor the win over the reels stay drawn (they would sit on the dialog), nor
    // the caption naming the line the cycle stopped at (its amount is not what is at stake).
    this.game.cycleToken += 1;
    this.game.grid.clearWins();
    this.game.presenter.clear();
    this.game.caption.textContent = '';
    this.overlay.parentElement.classList.add('gamble-open');
    this.update(round);
  }

  close() {
    this.overlay.parentElement.classList.remove('gamble-open');
    this.element?.remove();
    this.element = null;
    this.game.gambleOpen = false;
  }

  update(round, { busy = false } = {}) {
    const stake = round.win_minor;
    this.stake.textContent = this.money.format(stake);
    this.stake.dataset.minor = String(stake);
    this.odds.textContent = t('gamble.odds', { colour: this.money.format(stake * this.colourX), suit: this.money.format(stake * this.suitX) });
    const left = Math.max(0, round.max_gambles - round.gambles.length);
    this.left.textContent = String(left);
    this.left.dataset.count = String(left);
    this.max.textContent = String(round.max_gambles);
    this.limit.textContent = this.money.format(round.gamble_limit_minor);
    const offered = round.actions_allowed
      .filter((a) => a.startsWith('gamble '))
      .map((a) => a.slice('gamble '.length));
    const button = (choice) =>
      h(
        'button',
        {
          type: 'button',
          class: `gamble-choice choice-${choice}`,
          dataset: { choice },
          disabled: busy,
          onclick: () => this.choose(choice),
        },
        COLOURS.includes(choice) ? h('span', { class: `swatch swatch-${choice}`, 'aria-hidden': 'true' }) : h('span', { html: suitIcon(choice) }),
        CHOICE_LABEL[choice] ? t(CHOICE_LABEL[choice]) : choice,
      );
    this.colours.replaceChildren(...offered.filter((c) => COLOURS.includes(c)).map(button));
    this.suits.replaceChildren(...offered.filter((c) => !COLOURS.includes(c)).map(button));
    this.colours.hidden = !this.colours.children.length;
    this.suits.hidden = !this.suits.children.length;
    this.collectButton.disabled = busy || !round.actions_allowed.includes('collect');
    this.collectButton.textContent = t('gamble.collect_amount', { amount: this.money.format(stake) });
    this.history.replaceChildren(
      ...round.gambles.map((g) =>
        h('li', { class: g.won ? 'won' : 'lost', title: `${g.choice}: ${g.card}` }, h('span', { html: cardFace(g.card) })),
      ),
    );
  }

  async choose(choice) {
    const { game } = this;
    const before = game.round;
    this.update(before, { busy: true });
    this.result.textContent = '';
    const resp = await game.gamble(choice);
    if (!resp) {
      if (this.element && game.round) this.update(game.round);
      return;
    }
    const round = resp.round;
    // the step's card is the answer's last gamble_card event, drawn by its presenter (turn)
    const card = resp.events.filter((e) => e.type === 'gamble_card').at(-1);
    const stage = { game, ui: game.ui, round, gamble: this };
    await PRESENTERS.gamble_card(card, stage);
    const { won, text } = stage.turned;
    if (round.phase === 'gamble') {
      this.update(round, { busy: true });
      await sleep(game.motion.ms('banner'));
      if (!this.element) return;
      this.card.innerHTML = cardBack();
      delete this.card.dataset.card;
      this.update(round);
      game.setState('gamble');
      return;
    }
    // Lost, or a limit reached: the server settled the round (a win is collected).
    this.update(round, { busy: true });
    if (won) {
      this.result.textContent = `${text} The gamble limit is reached: ${this.money.format(round.win_minor)} collected.`;
    }
    await sleep(game.motion.ms('banner'));
    this.close();
    game.win.set(round.win_minor, { celebrate: won });
    // a loss stays said over the reels, with the amount it cost, until the next spin
    if (!won) game.presenter.showLoss(before.win_minor);
    game.roundDone();
  }

  /** Turn the card of a `gamble_card` event: its face, the result said, the win counted up
   * to what it stands at after the card (`result_minor`) or gone. */
  async turn(event, stage) {
    const { game } = this;
    this.card.classList.add('flip');
    game.sound.play('card');
    await sleep(game.motion.reduced ? 0 : 180);
    this.card.innerHTML = cardFace(event.card);
    this.card.dataset.card = event.card;
    this.card.classList.remove('flip');
    const won = event.won;
    const text = won
      ? `${event.card}: you win ${this.money.format(event.result_minor)}!`
      : `${event.card}: the gamble is lost.`;
    this.result.textContent = text;
    this.result.className = `gamble-result ${won ? 'won' : 'lost'}`;
    announce(text);
    game.sound.play(won ? 'gambleWin' : 'gambleLose');
    if (won) await game.win.countTo(event.result_minor, { ms: game.motion.ms('countUp') / 2, celebrate: true });
    else game.win.set(0);
    stage.turned = { won, text };
  }

  async collect() {
    this.update(this.game.round, { busy: true });
    const resp = await this.game.collect();
    if (!resp && this.element && this.game.round) this.update(this.game.round);
  }
}
