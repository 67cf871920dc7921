/** The title-specific part of each game screen, by game id. */
import { SultanUi } from './sultan.js';
import { TsarUi } from './tsar.js';

const TITLES = { 'days-of-the-tsar': TsarUi, 'sultan-spins': SultanUi };

export function createTitle(gameId, game) {
  const Ui = TITLES[gameId];
  if (!Ui) throw new Error(`this client does not know the game ${gameId}`);
  return new Ui(game);
}

export function themeOf(gameId) {
  return { 'days-of-the-tsar': 'tsar', 'sultan-spins': 'sultan' }[gameId] ?? 'tsar';
}
