/**
 * The game menu behind the bar's menu button: rules, history, sound, settings, the lobby.
 *
 * Other modules add their controls to a named slot instead of building a panel of their own:
 * `game.menu.slot('sound')` and `game.menu.slot('settings')` return a section of the menu
 * (present from the moment the game is mounted) to append controls to. The sound section stays
 * hidden until something is put in it.
 */
import { Dialog } from './dialog.js';
import { h } from './dom.js';
import { language, LANGUAGES, rememberLanguage, t } from './messages.js';

const SLOTS = ['sound', 'settings'];

export class GameMenu {
  constructor(game) {
    this.game = game;
    this.dialog = new Dialog({ id: 'menu-dialog', title: t('menu.title'), cls: `dialog-menu theme-${game.ui.theme}` });
    game.dialogs.push(this.dialog);
    const item = (id, text, run) =>
      h('button', { type: 'button', id, class: 'btn menu-item', onclick: () => { this.close(); run(); } }, text);
    this.slots = {};
    for (const name of SLOTS) {
      this.slots[name] = h(
        'section',
        { class: 'menu-section', id: `menu-${name}`, dataset: { slot: name }, 'aria-labelledby': `menu-${name}-title` },
        h('h3', { class: 'menu-section-title', id: `menu-${name}-title` }, t(`menu.${name}`)),
      );
    }
    this.slots.sound.hidden = true;
    const reduce = h('input', {
      type: 'checkbox',
      id: 'setting-reduce-motion',
      onchange: (event) => game.motion.setReduced(event.target.checked),
    });
    reduce.checked = game.motion.reduced;
    const languages = h(
      'select',
      { id: 'setting-language', onchange: (event) => this.changeLanguage(event.target.value) },
      ...LANGUAGES.map((code) => h('option', { value: code, lang: code, selected: code === language() }, t(`language.${code}`))),
    );
    this.slots.settings.append(
      h('label', { class: 'check' }, reduce, ' ', t('settings.reduce_motion')),
      h('label', { class: 'setting-language' }, t('settings.language'), ' ', languages),
      h('p', { class: 'menu-keys' }, t('menu.keys')),
    );
    this.dialog.body.append(
      h(
        'nav',
        { class: 'menu-items', 'aria-label': t('menu.title') },
        item('rules', t('menu.rules'), () => game.openRules()),
        item('history', t('menu.history'), () => game.openHistory()),
        h('a', { id: 'lobby-link', class: 'btn menu-item', href: '#/', onclick: () => this.close() }, t('menu.lobby')),
      ),
      this.slots.sound,
      this.slots.settings,
    );
    // a slot that receives a control shows itself
    for (const slot of Object.values(this.slots)) {
      new MutationObserver(() => {
        slot.hidden = slot.children.length <= 1;
      }).observe(slot, { childList: true });
    }
  }

  /** The menu section `name` ('sound' or 'settings') for another module's controls. */
  slot(name) {
    const found = this.slots[name];
    if (!found) throw new Error(`the menu has no "${name}" slot (${SLOTS.join(', ')})`);
    return found;
  }

  open() {
    this.dialog.show();
  }

  /**
   * The player chose a language: remembered, then the page loads again in it (the session
   * and any open round are kept; an address `lang` is dropped, or it would decide again).
   */
  changeLanguage(code) {
    rememberLanguage(code);
    const address = new URL(window.location.href);
    address.searchParams.delete('lang');
    window.location.replace(address.href);
    if (address.href === window.location.href) window.location.reload();
  }

  close() {
    this.dialog.close();
  }
}
