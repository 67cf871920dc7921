/** Tiny DOM helpers: build elements without a framework. */

/**
 * Create an element: `h('button', {class: 'x', onclick: fn, dataset: {a: 1}}, 'text', child)`.
 * `false`/`null` attributes and children are skipped; `html` sets trusted markup (our own art).
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === false || value === null || value === undefined) continue;
    if (key === 'class') el.className = value;
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else if (key === 'html') el.innerHTML = value;
    else if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value);
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

export function append(el, children) {
  for (const child of [children].flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

export function clear(el) {
  el.replaceChildren();
  return el;
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** Announce a sentence to screen readers through the page's polite live region. */
export function announce(text) {
  const region = document.getElementById('sr-status');
  if (!region) return;
  region.textContent = '';
  requestAnimationFrame(() => {
    region.textContent = text;
  });
}

/** Title-case a server id such as "royal_seal" for display when no name is known. */
export function label(id) {
  return String(id).replace(/[_-]+/g, ' ').replace(/^./, (c) => c.toUpperCase());
}
