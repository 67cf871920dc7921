/**
 * The loading screen's progress (a classic script, run before the client's modules so that it
 * sees their files arrive).
 *
 * The page's data block (`#reelsmith-files`, written by the server) lists the files of the
 * first load and their sizes on the wire; the bar's first part is the share of those bytes
 * whose file has arrived (Resource Timing entries, which the browser adds as each response
 * ends). The rest is the client's own steps, which it reports through `window.reelsmithLoading`:
 * `step(name)` for each of STEPS as it is done, `title(name, theme)` once the title to open
 * is known (its name and theme on the screen), `done()` when the lobby or the game is on the
 * page (the screen fades out over it: it lies over the page, so nothing moves under it).
 */
(() => {
  const STEPS = ['messages', 'session', 'view', 'art'];
  const FILES_SHARE = 0.7;
  const screen = document.getElementById('loading');
  const bar = document.getElementById('loading-bar');
  const fill = document.getElementById('loading-fill');
  const percent = document.getElementById('loading-percent');
  const block = document.getElementById('reelsmith-files');
  const firstLoad = block ? JSON.parse(block.textContent).first_load : [];
  const expected = new Map(firstLoad.map((file) => [new URL(file.url, window.location.href).href, file.bytes]));
  const total = [...expected.values()].reduce((sum, bytes) => sum + bytes, 0);
  const arrived = new Set();
  const steps = new Set();
  let loaded = 0;
  let shown = 0;

  function render() {
    const files = total ? loaded / total : 1;
    // never backwards: a late Resource Timing entry cannot undo a step already shown
    shown = Math.max(shown, Math.round(100 * (FILES_SHARE * files + ((1 - FILES_SHARE) * steps.size) / STEPS.length)));
    fill.style.width = `${shown}%`;
    bar.setAttribute('aria-valuenow', String(shown));
    percent.textContent = `${shown} %`;
  }

  function take(entries) {
    for (const entry of entries) {
      if (expected.has(entry.name) && !arrived.has(entry.name)) {
        arrived.add(entry.name);
        loaded += expected.get(entry.name);
      }
    }
    render();
  }

  if ('PerformanceObserver' in window) {
    new PerformanceObserver((list) => take(list.getEntries())).observe({ type: 'resource', buffered: true });
  }
  take(performance.getEntriesByType('resource'));

  window.reelsmithLoading = {
    step(name) {
      if (!STEPS.includes(name)) throw new Error(`loading step "${name}" is not one of ${STEPS.join(', ')}`);
      // the files are all in by the time a step is done: count any whose entry is late
      if (name === 'messages') take(performance.getEntriesByType('resource'));
      steps.add(name);
      render();
    },
    title(name, theme) {
      document.getElementById('loading-title').textContent = name;
      screen.classList.add(`theme-${theme}`);
    },
    done() {
      for (const name of STEPS) steps.add(name);
      loaded = total;
      render();
      screen.dataset.state = 'done';
      document.body.dataset.loaded = 'true';
      const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
      setTimeout(() => { screen.hidden = true; }, reduce ? 0 : 400);
    },
  };
})();
