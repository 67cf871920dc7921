/**
 * The fullscreen button in the game's head line, beside the one-tap mute: the page goes full
 * screen, or back. Offered only where the browser lets a page do so
 * (`document.fullscreenEnabled`; an iPhone's Safari does not): elsewhere there is no button
 * rather than one that does nothing.
 */
import { h } from './dom.js';
import { t } from './messages.js';

const CORNERS = `<svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
  <path class="enter" d="M4 9V4h5M15 4h5v5M20 15v5h-5M9 20H4v-5" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>
  <path class="leave" d="M9 4v5H4M20 9h-5V4M15 20v-5h5M4 15h5v5" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>
</svg>`;

/** The button, or null where the page cannot go full screen; returns {element, destroy}. */
export function mountFullscreenButton() {
  if (!document.fullscreenEnabled) return null;
  const button = h('button', {
    type: 'button',
    id: 'fullscreen',
    class: 'head-button fullscreen-button',
    html: CORNERS,
    onclick: () => {
      const asked = document.fullscreenElement ? document.exitFullscreen() : document.documentElement.requestFullscreen();
      // a refusal (no user gesture, a policy) leaves the page as it is and the button saying so
      asked.catch(() => show());
    },
  });
  const show = () => {
    const on = document.fullscreenElement !== null;
    button.setAttribute('aria-pressed', String(on));
    button.setAttribute('aria-label', on ? t('game.fullscreen_leave') : t('game.fullscreen'));
    button.classList.toggle('on', on);
  };
  document.addEventListener('fullscreenchange', show);
  show();
  return { element: button, destroy: () => document.removeEventListener('fullscreenchange', show) };
}
