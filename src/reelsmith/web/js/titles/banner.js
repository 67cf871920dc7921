/** A feature banner over the reels ("12 free spins", "Teal jackpot"), shown for a moment. */
import { h, sleep } from '../dom.js';

export async function flashBanner(overlay, { title, detail = '', art = '', cls = '', ms = 1200, id = null }) {
  const banner = h(
    'div',
    { class: `feature-banner ${cls}`, role: 'status', id },
    art ? h('div', { class: 'feature-banner-art', html: art }) : null,
    h('p', { class: 'feature-banner-title' }, title),
    detail ? h('p', { class: 'feature-banner-detail' }, detail) : null,
  );
  overlay.append(banner);
  await sleep(ms);
  banner.classList.add('leaving');
  await sleep(150);
  banner.remove();
}
