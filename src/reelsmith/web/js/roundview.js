/**
 * The round's view read back, for what replays no events: a round resumed on opening the game
 * and the history's steps (the server stores and sends the view, not the events). Read by the
 * view's own fields, whatever the title composes: a coin bet's round (`coin_size_minor`) pays
 * coins at the coin size, a bet size's pays its line coins at the bet over the paylines; a
 * screen's wins are its `line_wins`, `way_wins`, `count_wins` and `scatter_win`, a cascade's
 * later screens in `cascade`, revealed pots in `gems`.
 */
import { t } from './messages.js';

/** `coins` of `round` in minor units; `lines`: the title's paylines. */
export function coinsMinor(coins, round, lines) {
  if (round.coin_size_minor !== undefined) return coins * round.coin_size_minor;
  return Math.round((coins * round.bet_minor) / lines);
}

/** What the round has won so far, as the Win meter shows it (free spins: the trigger's win
 * and the free spins' so far). */
export function roundWinMinor(round) {
  if (round.phase === 'free_spins' && round.spin_win_coins !== undefined) return round.spin_win_coins * round.coin_size_minor;
  return round.win_minor;
}

/** A spin's last screen: a cascade's final one, else the screen it stopped on. */
export function lastPaid(spin) {
  return spin.cascade?.length ? spin.cascade.at(-1) : spin;
}

/** The screen a round shows last. */
export function lastScreen(round) {
  return lastPaid(round.spins.at(-1)).screen;
}

/** The cells of `symbol` on `screen`, in reel order. */
export function cellsOf(screen, symbol) {
  const cells = [];
  screen.forEach((row, r) => row.forEach((s, reel) => s === symbol && cells.push([r, reel])));
  return cells.sort((a, b) => a[1] - b[1] || a[0] - b[0]);
}

/** The win items (as `presenters/wins.js` makes them from events) of one screen of `round`
 * (a spin's, or a cascade step's) for title `title` (its names, scatter and paylines). */
export function screenItems(paid, round, title) {
  const minor = (coins) => coinsMinor(coins, round, title.lines);
  const name = (symbol) => title.name(symbol);
  const format = (m) => title.money.format(m);
  // a ladder's or a cascade step's multiplier, else a chain's first screen's (its free spins')
  const multiplier = paid.multiplier ?? paid.cascade_multiplier ?? 1;
  const items = (paid.line_wins ?? []).map((w) => ({
    line: w.line,
    positions: w.positions,
    minor: minor(w.coins),
    label: t('win.line', { line: w.line }),
    text: t(multiplier > 1 ? 'win.line_text_multiplied' : 'win.line_text', { line: w.line, count: w.count, symbol: name(w.symbol), amount: format(minor(w.coins)), multiplier }),
  }));
  for (const w of paid.way_wins ?? []) {
    const ways = t('win.ways', { count: w.ways });
    items.push({
      positions: w.positions,
      minor: minor(w.coins),
      label: `${w.count} × ${name(w.symbol)}`,
      text: t(multiplier > 1 ? 'win.way_text_multiplied' : 'win.way_text', { count: w.count, symbol: name(w.symbol), ways, amount: format(minor(w.coins)), multiplier }),
    });
  }
  for (const w of paid.count_wins ?? []) {
    items.push({
      positions: w.positions,
      minor: minor(w.coins),
      label: `${w.count} × ${name(w.symbol)}`,
      text: t('win.count_text', { count: w.count, symbol: name(w.symbol), amount: format(minor(w.coins)) }),
    });
  }
  if (paid.scatter_win && title.scatter) {
    const symbol = name(title.scatter);
    const { count, coins } = paid.scatter_win;
    items.push({
      positions: cellsOf(paid.screen, title.scatter),
      minor: minor(coins),
      label: `${count} × ${symbol}`,
      text: t('win.scatter_text', { count, symbol, amount: format(minor(coins)) }),
    });
  }
  for (const gem of (paid.gems ?? []).filter((g) => g.reveal === 'jackpot')) {
    const pot = title.potName(gem.jackpot);
    const won = gem.jackpot_bets * round.bet_minor;
    items.push({
      positions: [[gem.row, gem.reel - 1]],
      minor: won,
      label: t('feature.jackpot_won', { pot }),
      text: t('ladder.jackpot_pays', { pot, amount: format(won) }),
    });
  }
  return items;
}

/** The wins of a round's last screen (a resumed round's, a history step's). */
export function winItems(round, title) {
  const spin = round.spins?.at(-1);
  return spin ? screenItems(lastPaid(spin), round, title) : [];
}

/** The wins of every screen of a round's last spin, a cascade's chain in order: what the
 * history tells of the spin. */
export function chainItems(round, title) {
  const spin = round.spins?.at(-1);
  if (!spin) return [];
  return [spin, ...(spin.cascade ?? [])].flatMap((paid) => screenItems(paid, round, title));
}
