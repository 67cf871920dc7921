/**
 * The sound controls, in the game menu's sound section: sound on or off (the "no sound"
 * setting), the volume and the music. They follow the engine's settings, so a change shows
 * everywhere at once; a note says when sound is still waiting for the first interaction.
 */
import { h } from './dom.js';
import { t } from './messages.js';

const SPEAKER = `<svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
  <path d="M4 9h4l5-4v14l-5-4H4z" fill="currentColor"/>
  <path class="waves" d="M16 8.5a5 5 0 0 1 0 7M18.5 6a8.5 8.5 0 0 1 0 12" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>
  <path class="cross" d="M16 9l6 6M22 9l-6 6" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>
</svg>`;

/** Put the sound controls into `slot`; returns {destroy}. */
export function mountSoundControls(sound, slot) {
  const toggle = h(
    'button',
    { type: 'button', id: 'sound-toggle', class: 'btn btn-sound', onclick: () => sound.update({ on: !sound.settings.on }) },
    h('span', { class: 'sound-icon', html: SPEAKER }),
    h('span', { class: 'sound-toggle-label' }),
  );
  const volume = h('input', {
    type: 'range',
    id: 'sound-volume',
    min: '0',
    max: '100',
    step: '5',
    oninput: () => sound.update({ volume: Number(volume.value) / 100 }),
  });
  const music = h('input', { type: 'checkbox', id: 'sound-music', onchange: () => sound.update({ music: music.checked }) });
  const locked = h('p', { class: 'sound-locked' }, t('sound.locked'));
  slot.append(
    h(
      'div',
      { class: 'sound-controls' },
      toggle,
      h('label', { class: 'sound-row sound-volume' }, h('span', {}, t('sound.volume')), volume),
      h('label', { class: 'check sound-row' }, music, ' ', t('sound.music')),
      locked,
      h('p', { class: 'sound-note' }, t('sound.note')),
    ),
  );
  const unsubscribe = sound.subscribe((settings, status) => {
    toggle.setAttribute('aria-pressed', String(settings.on));
    toggle.classList.toggle('muted', !settings.on);
    toggle.querySelector('.sound-toggle-label').textContent = settings.on ? t('sound.toggle_on') : t('sound.toggle_off');
    volume.value = String(Math.round(settings.volume * 100));
    volume.disabled = !settings.on;
    music.checked = settings.music;
    music.disabled = !settings.on;
    locked.hidden = status !== 'locked';
  });
  return { destroy: unsubscribe };
}

/**
 * The one-tap mute in the game's head line, beside the menu's sound section: it turns the
 * sound off or on (the same setting as the menu's toggle) and shows which it is. Returns
 * {element, destroy}.
 */
export function mountMuteButton(sound) {
  const button = h('button', {
    type: 'button',
    id: 'mute',
    class: 'mute-button',
    onclick: () => sound.update({ on: !sound.settings.on }),
    html: SPEAKER,
  });
  const unsubscribe = sound.subscribe((settings) => {
    button.setAttribute('aria-pressed', String(!settings.on));
    button.setAttribute('aria-label', settings.on ? t('sound.mute') : t('sound.unmute'));
    button.classList.toggle('muted', !settings.on);
  });
  return { element: button, destroy: unsubscribe };
}
