"""The game's pace, timed by the page's own record of its motion (``window.reelsmith.timeline()``
in dev mode: each step's start and each reel's stop on ``performance.now()``), with motion on
and turbo off, as a player first meets it: a losing free spin takes under 1.5 s, the reels
stop with an ease and a bounce, and they run on when a feature is one symbol away."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Response

from tests.web import forcing
from tests.web.conftest import Server, force, open_game, press_scene, wait_state

pytestmark = pytest.mark.web

TIMELINE = "() => window.reelsmith.timeline()"


@pytest.fixture
def moving(browser: Browser) -> Iterator[Page]:
    """A phone-sized page with motion on (no reduced motion), failing the test if it raised."""
    ctx = browser.new_context(
        viewport={"width": 390, "height": 844},
        reduced_motion="no-preference",
        locale="en-GB",
        bypass_csp=True,
    )
    ctx.set_default_timeout(20_000)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    ctx.close()
    assert not errors, f"the page raised: {errors}"


def free_spin_draws(game: str) -> tuple[list[int], list[list[int]]]:
    """The draws of a base spin that triggers free spins, and of its free spins (losing ones
    where the title's search can ask for it)."""
    if game == forcing.TSAR:
        return forcing.tsar_free_spins_trigger(), [
            forcing.tsar_spin(free=True, win=False) for _ in range(9)
        ]
    if game == forcing.AURORA:
        return forcing.aurora_spin(auroras=(0, 1, 2)), [
            forcing.aurora_spin(free=True, win=False) for _ in range(10)
        ]
    trigger = [*forcing.sultan_triggers(), *forcing.sultan_spin(bonus=(0, 1, 2))]
    return trigger, [forcing.sultan_spin(free=True) for _ in range(7)]


@pytest.mark.parametrize("game", [forcing.TSAR, forcing.SULTAN, forcing.AURORA])
def test_a_losing_free_spin_takes_under_one_and_a_half_seconds(
    moving: Page, server: Server, game: str
) -> None:
    page = moving
    open_game(page, server, server.new_player(), game, turbo=False)
    wait_state(page, "idle")
    trigger, free = free_spin_draws(game)
    force(page, trigger, *free)
    wins: list[int] = []

    def seen(response: Response) -> None:
        if response.url.endswith("/free-spin") and response.ok:
            wins.append(int(response.json()["win"]["minor"]))

    page.on("response", seen)
    page.click("#spin")
    page.wait_for_selector("#free-spins-intro-button", timeout=30_000)
    press_scene(page, "free-spins-intro")
    page.wait_for_function(
        "window.reelsmith.timeline().filter((e) => e.name === 'step-start'"
        " && e.kind === 'free').length >= 5",
        timeout=30_000,
    )
    entries: list[dict[str, Any]] = page.evaluate(TIMELINE)
    starts = [e["at"] for e in entries if e["name"] == "step-start" and e["kind"] == "free"]
    # a step lost where the round's win did not grow; the first free spin follows the intro
    lost = [
        starts[i + 1] - starts[i]
        for i in range(1, len(starts) - 1)
        if i < len(wins) and wins[i] == wins[i - 1]
    ]
    assert lost, f"{game}: no losing free spin was timed (wins {wins})"
    slowest = max(lost)
    assert slowest <= 1500, f"{game}: a losing free spin took {slowest:.0f} ms ({lost})"


def reel_stops(page: Page, after: float) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = page.evaluate(TIMELINE)
    return [e for e in entries if e["name"] == "reel-stop" and e["at"] > after]


def spin_and_time(page: Page, draws: list[int]) -> list[dict[str, Any]]:
    """Play one forced base spin; its five reel stops."""
    now = float(page.evaluate("() => performance.now()"))
    force(page, draws)
    page.click("#spin")
    wait_state(page, "idle", "gamble")
    page.wait_for_function("document.querySelectorAll('.reel.landed').length === 5")
    stops = reel_stops(page, now)
    assert [s["reel"] for s in stops] == [0, 1, 2, 3, 4], stops
    return stops


@pytest.mark.parametrize("game", [forcing.TSAR, forcing.SULTAN])
def test_two_trigger_symbols_on_the_first_reels_slow_the_rest(
    moving: Page, server: Server, game: str
) -> None:
    """Two eggs (bonus symbols) on reels 1-2: reels 3-5 are anticipated, each stopping at
    least 0.4 s later than without them; none showing: the ordinary rhythm."""
    page = moving
    open_game(page, server, server.new_player(), game, turbo=False)
    wait_state(page, "idle")
    if game == forcing.TSAR:
        near, plain = forcing.tsar_spin(eggs=(0, 1), win=False), forcing.tsar_spin(win=False)
    else:
        triggers = forcing.sultan_triggers()
        near = [*triggers, *forcing.sultan_spin(bonus=(0, 1))]
        plain = forcing.sultan_spin()
    anticipated = spin_and_time(page, near)
    page.wait_for_timeout(300)
    ordinary = spin_and_time(page, plain)
    assert [s["anticipated"] for s in anticipated] == [False, False, True, True, True]
    assert not any(s["anticipated"] for s in ordinary)

    def gaps(stops: list[dict[str, Any]]) -> list[float]:
        return [b["at"] - a["at"] for a, b in itertools.pairwise(stops)]

    slow, usual = gaps(anticipated), gaps(ordinary)
    for reel in (1, 2, 3):  # the gaps before reels 3, 4 and 5
        assert slow[reel] >= usual[reel] + 400, f"{game}: gaps {slow} against {usual}"
    assert abs(slow[0] - usual[0]) < 250, f"{game}: reel 2 waited: {slow} against {usual}"


#: The landing of reel 3, read off its animation (the page's Web Animations, seeked every
#: 10 ms, so a busy machine's dropped frames do not matter): where its symbols are against
#: their place, in cells (negative: above), over the animation's run.
LANDING = """() => {
  window.__landing = null;
  const reel = document.querySelector('.reel[data-reel="2"]');
  new MutationObserver((changes, observer) => {
    if (!reel.classList.contains('landed')) return;
    observer.disconnect();
    const strip = reel.querySelector('.strip');
    const cell = reel.getBoundingClientRect().height / Number(
      getComputedStyle(reel.closest('.reels')).getPropertyValue('--rows'));
    const samples = [];
    for (const animation of strip.getAnimations()) {
      const ms = animation.effect.getComputedTiming().endTime;
      animation.pause();
      for (let t = 0; t <= ms; t += 10) {
        animation.currentTime = t;
        samples.push([t, new DOMMatrix(getComputedStyle(strip).transform).m42 / cell]);
      }
      animation.play();
    }
    window.__landing = samples;
  }).observe(reel, { attributes: true, attributeFilter: ['class'] });
}"""


def test_a_reel_stops_with_an_ease_and_a_bounce(moving: Page, server: Server) -> None:
    """The landing symbols come in from over half a cell above, run past their place and
    settle on it within half a second: not a cut from the blur to the still screen."""
    page = moving
    open_game(page, server, server.new_player(), forcing.AURORA, turbo=False)
    wait_state(page, "idle")
    force(page, forcing.aurora_spin(win=False))
    page.evaluate(LANDING)
    page.click("#spin")
    page.wait_for_function("window.__landing !== null")
    samples: list[list[float]] = page.evaluate("() => window.__landing")
    wait_state(page, "idle")
    assert samples, "the landing reel has no animation"
    offsets = [y for _, y in samples]
    assert min(offsets) <= -0.4, f"the symbols come in from {min(offsets):.2f} cells: {samples}"
    assert max(offsets) >= 0.05, f"no bounce past the place ({max(offsets):.2f}): {samples}"
    settled = [t for t, y in samples if abs(y) > 0.01]
    assert settled and max(settled) <= 500, f"still moving at {max(settled):.0f} ms"
    assert abs(offsets[-1]) < 0.01
