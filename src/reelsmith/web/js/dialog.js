/**
 * A modal <dialog> with a title and a close button (Escape closes it too); `closable: false`
 * leaves the button out for a dialog the player must answer. The dialog itself takes the focus
 * when it opens, so no control inside is focused (or pressed) by its opening.
 */
import { h } from './dom.js';
import { t } from './messages.js';

export class Dialog {
  constructor({ id, title, cls = '', closable = true }) {
    this.body = h('div', { class: 'dialog-body' });
    this.heading = h('h2', { class: 'dialog-title', id: `${id}-title` }, title);
    this.element = h(
      'dialog',
      { id, class: `dialog ${cls}`, 'aria-labelledby': `${id}-title`, tabindex: '-1' },
      h(
        'header',
        { class: 'dialog-head' },
        this.heading,
        closable
          ? h('button', { type: 'button', class: 'btn-icon dialog-close', 'aria-label': t('dialog.close'), onclick: () => this.close() }, '×')
          : null,
      ),
      this.body,
    );
    this.element.addEventListener('click', (event) => {
      if (closable && event.target === this.element) this.close();
    });
    document.body.append(this.element);
  }

  show() {
    if (this.element.open) return;
    this.element.showModal();
    this.element.focus({ preventScroll: true }); // not the first control (the close button)
  }

  close() {
    if (this.element.open) this.element.close();
  }

  remove() {
    this.close();
    this.element.remove();
  }
}
