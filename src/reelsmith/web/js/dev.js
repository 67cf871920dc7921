/**
 * Dev mode only (the server reports `dev_mode`): a hook for tests and QA to force the random
 * draws of the next requests. `window.reelsmith.forceNext([..])` queues one list; each
 * following request that draws (a spin, a free spin, a gamble) takes the next list as its
 * `forced_draws`. A collect draws nothing and leaves the queue alone. `sounds()` lists the
 * sound cues the game asked for, newest last (heard or not: QA checks what a step sounds);
 * `timeline()` the motion's record (js/timeline.js): steps and reel stops on the page's clock.
 */
import { sound } from './sound.js';
import { timeline } from './timeline.js';

export function installDevHook(api) {
  window.reelsmith = {
    forceNext(draws) {
      if (!Array.isArray(draws) || !draws.every((d) => Number.isInteger(d) && d >= 0)) {
        throw new TypeError('forceNext takes a list of non-negative whole numbers');
      }
      api.forced.push([...draws]);
      return api.forced.length;
    },
    pending() {
      return api.forced.length;
    },
    clear() {
      api.forced.length = 0;
    },
    sounds() {
      return [...sound.log];
    },
    timeline() {
      return timeline();
    },
  };
}
