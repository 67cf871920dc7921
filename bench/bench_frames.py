"""The web client's frame timings on a mid-range phone profile: every title's spins played in
Debian's headless Chromium with the CPU slowed 4x (DevTools' ``Emulation.setCPUThrottlingRate``),
beside the same spins at full speed (the baseline) in the same run; and the first load's time to
a playable game on that profile (the CPU slowed 4x and a 4G network).

The phone: 412x823 CSS pixels at a device pixel ratio of 1.75, touch, motion on, turbo off (the
profile Lighthouse's mobile audit emulates). A run opens the real server (``reelsmith serve
--demo``, SQLite in a temporary folder) and plays ``BENCH_SPINS`` (10) spins of each title with
the player's own presses: Spin, then whatever the round asks (a feature's intro and outro,
Continue) until the game is idle again. The page records the time of every animation frame
(``requestAnimationFrame``) from the press to idle, the spin's whole motion: reels starting,
spinning blurred, stopping with their bounce, anticipation, wins, cascades, scenes.

Figures per title and CPU rate: frames drawn, frames a second over the spins' time, the median,
95th and 99th percentile frame interval, and the share of intervals over 25 ms (a frame missed
at 60 Hz). Headless Chromium draws in software (no GPU), so these are a floor for a phone that
composites on its GPU. A first load is the median of ``BENCH_LOADS`` (3) new browser contexts.
"""

from __future__ import annotations

import itertools
import os
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "bench"), str(ROOT)]
from tests.web import forcing  # noqa: E402

from bench_first_load import CHROMIUM, PROFILE, READY, serve  # noqa: E402

SPINS = int(os.environ.get("BENCH_SPINS", "10"))
LOADS = int(os.environ.get("BENCH_LOADS", "3"))
TITLES = ["days-of-the-tsar", "sultan-spins", "aurora-fox", "crystal-caverns", "lucky-lanterns"]
RATES = (1, 4)  # CPU slowdown: the baseline, then the phone profile
PHONE: dict[str, Any] = {
    "viewport": {"width": 412, "height": 823},
    "device_scale_factor": 1.75,
    "is_mobile": True,
    "has_touch": True,
    "locale": "en-GB",
    "bypass_csp": True,  # the recorder below is a function the page evaluates
}
MISSED_MS = 25.0  # an interval this long missed a 60 Hz frame (16.7 ms) by half a frame or more
RECORD = """() => {
  const frames = [];
  const run = (window.__recording ?? 0) + 1;  // a new run: an earlier run's last tick ends it
  window.__frames = frames;
  window.__recording = run;
  const tick = (at) => {
    if (window.__recording !== run) return;
    frames.push(at);
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}"""
STOP = "() => { window.__recording += 1; return window.__frames; }"
# what a round may wait for: a scene's button (intro, outro), the Spin button as Continue, or
# a collect where the win is offered to the gamble
WAITING = """() => {
  const game = document.querySelector('.game');
  const state = game?.dataset.state;
  if (state === 'idle') return 'done';
  if (state === 'gamble') {  // a win offered to the gamble: collected, as most players do
    const collect = document.querySelector(
      '#collect-offer:not([disabled]), #collect:not([disabled])');
    if (collect) collect.click();
    return 'busy';
  }
  const scene = document.querySelector('.scene button:not([disabled])');
  if (scene) { scene.click(); return 'scene'; }
  if (state === 'paused') { document.getElementById('spin').click(); return 'continue'; }
  return 'busy';
}"""


@dataclass
class Frames:
    intervals: list[float] = field(default_factory=list)
    spins: int = 0
    forced: int = 0  # rounds forced to play the title's feature

    def add(self, stamps: list[float]) -> None:
        if len(stamps) > 1:
            self.intervals.extend(b - a for a, b in itertools.pairwise(stamps))

    def row(self) -> str:
        ordered = sorted(self.intervals)

        def pct(p: float) -> float:
            return ordered[min(len(ordered) - 1, int(p * len(ordered)))]

        missed = sum(1 for x in ordered if x > MISSED_MS) / len(ordered)
        return (
            f"{len(ordered) + self.spins:>7}{1000 * len(ordered) / sum(ordered):>7.1f}"
            f"{statistics.median(ordered):>8.1f}{pct(0.95):>8.1f}{pct(0.99):>8.1f}"
            f"{100 * missed:>8.1f}%"
        )


def play(page: Page, frames: Frames) -> None:
    """One spin as a player plays it, its frames recorded from the press to idle."""
    page.evaluate(RECORD)
    page.click("#spin")
    page.wait_for_selector(".game:not([data-state='idle'])")
    deadline = time.monotonic() + 180
    while True:
        step = page.evaluate(WAITING)
        if step == "done":
            break
        if time.monotonic() > deadline:
            raise RuntimeError("a round did not come back to idle within 180 s")
        page.wait_for_timeout(100)
    frames.add(page.evaluate(STOP))
    frames.spins += 1


def features(game: str) -> list[list[int]]:
    """The forced draws of a round that plays the title's feature (its free spins, chain or
    hold-and-spin board; what follows the trigger is left to chance); none for Sultan Spins,
    whose forced trigger depends on the bet levels played before."""
    if game == forcing.TSAR:
        return [forcing.tsar_free_spins_trigger()]
    if game == forcing.AURORA:
        return [forcing.aurora_spin(auroras=(0, 1, 2))]
    if game == forcing.CAVERNS:
        return [forcing.caverns_chain(3), forcing.caverns_trigger()]
    if game == forcing.LANTERNS:
        return [forcing.lanterns_spin(6)]
    return []


def title_frames(browser: Browser, url: str, game: str, rate: int) -> Frames:
    context = browser.new_context(**PHONE)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{url}/#/play/{game}")
    page.wait_for_function(READY, polling="raf", timeout=120_000)
    cdp = context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
    frames = Frames()
    for draws in features(game):  # each a round of its own, forced on the dev server
        page.evaluate("(draws) => window.reelsmith.forceNext(draws)", draws)
        play(page, frames)
        frames.forced += 1
    for _ in range(SPINS):
        play(page, frames)
    context.close()
    if errors:
        raise RuntimeError(f"{game}: the page raised {errors}")
    return frames


def first_load(browser: Browser, url: str, game: str) -> float:
    """Milliseconds from the navigation's start to a playable game on the phone profile."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", PROFILE)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
    page.goto(f"{url}/#/play/{game}")
    page.wait_for_function(READY, polling="raf", timeout=120_000)
    ready = float(page.evaluate("() => window.__firstSpinMs"))
    context.close()
    return ready


def main() -> None:
    if not CHROMIUM.exists():
        raise SystemExit(f"the frame benchmark needs Debian's Chromium at {CHROMIUM}")
    measured: dict[tuple[str, int], Frames] = {}
    with sync_playwright() as driver:
        browser = driver.chromium.launch(
            executable_path=str(CHROMIUM), args=["--no-sandbox", "--disable-gpu"]
        )
        with serve("optimised") as url:
            first_load(browser, url, TITLES[0])  # the server's first answers, not measured
            loads = sorted(first_load(browser, url, TITLES[0]) for _ in range(LOADS))
        with serve("optimised", dev=True) as url:
            for game in TITLES:
                for rate in RATES:  # alternated per title: both rates see the same load
                    measured[game, rate] = title_frames(browser, url, game, rate)
        browser.close()
    print(
        f"frames while spinning, headless Chromium (software drawing), 412x823 at 1.75x, "
        f"motion on, turbo off; a title's forced feature rounds, then {SPINS} spins, at each "
        "CPU rate"
    )
    print(
        f"{'title':<18}{'CPU':>15}{'frames':>7}{'fps':>7}{'p50 ms':>8}{'p95 ms':>8}"
        f"{'p99 ms':>8}{'>25 ms':>9}  rounds"
    )
    for game in TITLES:
        for rate in RATES:
            frames = measured[game, rate]
            label = "1x (baseline)" if rate == 1 else f"{rate}x"
            print(f"{game:<18}{label:>15}{frames.row()}  {frames.spins} ({frames.forced} forced)")
    print(
        f"first load of /#/play/{TITLES[0]} to a playable game, CPU 4x and 4G (9 Mbit/s down, "
        f"170 ms round trip): median {statistics.median(loads):.0f} ms of "
        f"{', '.join(f'{x:.0f}' for x in loads)}"
    )


if __name__ == "__main__":
    main()
