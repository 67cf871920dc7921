/**
 * The free spins' outro, the same for every kind of title: the round's total counted up (its
 * win tier named), what the free spins won and what the spin that triggered them won; the
 * player presses Continue.
 */
import { tierOf } from '../celebration.js';
import { t } from '../messages.js';
import { sceneAmount, sceneLine, sceneTitle } from '../scenes.js';

/** The outro of title `ui` (`title.js`: its game, money and theme): `total` the round's win,
 * `freeWin` the free spins' part of it and `betMinor` its bet, in minor units; `spins` the
 * free spins played. */
export async function freeSpinsOutro(ui, { total, freeWin, betMinor, spins }) {
  const { game, money } = ui;
  const trigger = total - freeWin;
  const amount = sceneAmount('free-spins-outro-amount');
  const tier = tierOf(total, betMinor, game.presenter.tiers);
  const parts = [
    sceneTitle(t('fs.outro_title')),
    tier ? sceneLine(t(`win.tier_${tier.id}`), 'tier-title') : null,
    amount,
    sceneLine(t('fs.outro_spins', { count: spins, amount: money.format(freeWin) }), 'outro-free'),
    trigger > 0 ? sceneLine(t('fs.outro_trigger', { amount: money.format(trigger) }), 'outro-trigger') : null,
  ].filter(Boolean);
  await game.scenes.run({
    id: 'free-spins-outro',
    cls: `scene-feature scene-outro theme-${ui.theme}${tier ? ` tier-${tier.id}` : ''}`,
    data: { total },
    parts,
    count: { el: amount, to: total, ms: total > 0 ? game.motion.ms('countUp') * 1.5 : 0 },
    button: t('scene.continue'),
    particles: total > 0,
    sound: 'featureOutro',
  });
}
