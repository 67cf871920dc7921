/** A modal <dialog> with a title and a close button (Escape closes it too). */
import { h } from './dom.js';

export class Dialog {
  constructor({ id, title, cls = '' }) {
    this.body = h('div', { class: 'dialog-body' });
    this.heading = h('h2', { class: 'dialog-title', id: `${id}-title` }, title);
    this.element = h(
      'dialog',
      { id, class: `dialog ${cls}`, 'aria-labelledby': `${id}-title` },
      h(
        'header',
        { class: 'dialog-head' },
        this.heading,
        h('button', { type: 'button', class: 'btn-icon dialog-close', 'aria-label': 'Close', onclick: () => this.close() }, '×'),
      ),
      this.body,
    );
    this.element.addEventListener('click', (event) => {
      if (event.target === this.element) this.close();
    });
    document.body.append(this.element);
  }

  show() {
    if (!this.element.open) this.element.showModal();
  }

  close() {
    if (this.element.open) this.element.close();
  }

  remove() {
    this.close();
    this.element.remove();
  }
}
