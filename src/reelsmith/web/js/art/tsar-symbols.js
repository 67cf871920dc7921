/**
 * Days of the Tsar symbol art, drawn in-house: Russian imperial gold, enamel and onion domes.
 * Each symbol is an SVG fragment in a 100 x 100 box; `defs` holds the shared gradients.
 */
import { onionDome, pearls, scallop } from './shapes.js';

export const defs = `
<linearGradient id="t-gold" x1="0" y1="0" x2="0" y2="1">
  <stop offset="0" stop-color="#fff4b8"/><stop offset=".45" stop-color="#e7b83c"/>
  <stop offset="1" stop-color="#8c5a12"/></linearGradient>
<linearGradient id="t-gold-h" x1="0" y1="0" x2="1" y2="0">
  <stop offset="0" stop-color="#9a6514"/><stop offset=".5" stop-color="#ffe694"/>
  <stop offset="1" stop-color="#9a6514"/></linearGradient>
<radialGradient id="t-red" cx=".4" cy=".35" r=".75">
  <stop offset="0" stop-color="#ef4a5a"/><stop offset="1" stop-color="#6d0a18"/></radialGradient>
<radialGradient id="t-blue" cx=".4" cy=".35" r=".8">
  <stop offset="0" stop-color="#5d8dff"/><stop offset="1" stop-color="#101f66"/></radialGradient>
<radialGradient id="t-egg" cx=".38" cy=".3" r=".85">
  <stop offset="0" stop-color="#ff9ccf"/><stop offset=".55" stop-color="#c2186b"/>
  <stop offset="1" stop-color="#5b0632"/></radialGradient>
<linearGradient id="t-bronze" x1="0" y1="0" x2="1" y2="1">
  <stop offset="0" stop-color="#d9a066"/><stop offset=".5" stop-color="#8a5a2b"/>
  <stop offset="1" stop-color="#3f2510"/></linearGradient>
<linearGradient id="t-marble" x1="0" y1="0" x2="0" y2="1">
  <stop offset="0" stop-color="#f4f1ea"/><stop offset="1" stop-color="#b9b2a3"/></linearGradient>
<pattern id="t-stripe-green" width="10" height="10" patternUnits="userSpaceOnUse" patternTransform="rotate(35)">
  <rect width="10" height="10" fill="#1f8a4c"/><rect width="4" height="10" fill="#f5d46a"/></pattern>
<pattern id="t-stripe-red" width="10" height="10" patternUnits="userSpaceOnUse" patternTransform="rotate(-35)">
  <rect width="10" height="10" fill="#c62a2a"/><rect width="4" height="10" fill="#fbf3dc"/></pattern>
<pattern id="t-stripe-blue" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(90)">
  <rect width="8" height="8" fill="#2450b8"/><rect width="3" height="8" fill="#fbf3dc"/></pattern>
<clipPath id="t-medallion"><circle cx="50" cy="50" r="42"/></clipPath>
<clipPath id="t-egg-clip"><path d="M50 6 C71 6 84 38 84 58 C84 78 69 88 50 88 C31 88 16 78 16 58 C16 38 29 6 50 6Z"/></clipPath>
`;

const crown = `
  <path d="M28 50 Q27 24 49 19 L51 19 Q73 24 72 50 Z" fill="url(#t-gold)" stroke="#7a4a0c" stroke-width="1.5"/>
  <path d="M50 19 V50" stroke="#7a4a0c" stroke-width="2"/>
  <path d="M34 48 Q33 30 48 23 M66 48 Q67 30 52 23" fill="none" stroke="#fff1b0" stroke-width="1.5" opacity=".7"/>
  <rect x="25" y="47" width="50" height="9" rx="3" fill="url(#t-gold-h)" stroke="#7a4a0c" stroke-width="1.2"/>
  ${pearls(28, 51.5, 50, 51.5, 72, 51.5, 8, 1.6, '#fffdf2')}
  <circle cx="50" cy="14" r="4.5" fill="url(#t-blue)" stroke="#7a4a0c" stroke-width="1"/>
  <path d="M50 2 V12 M45.5 6 H54.5" stroke="url(#t-gold-h)" stroke-width="3" stroke-linecap="round"/>
  <circle cx="40" cy="36" r="2.6" fill="#e23a4a"/><circle cx="60" cy="36" r="2.6" fill="#2a63d9"/>`;

function letter(text, fill, size = 66, dy = 0) {
  return `
  <text x="50" y="${70 + dy}" text-anchor="middle" font-family="Georgia, 'Times New Roman', serif"
    font-weight="700" font-size="${size}" fill="${fill}" stroke="url(#t-gold)" stroke-width="3"
    paint-order="stroke" letter-spacing="${text.length > 1 ? -5 : 0}">${text}</text>
  <path d="M22 84 Q36 78 50 84 Q64 78 78 84" fill="none" stroke="url(#t-gold-h)" stroke-width="3" stroke-linecap="round"/>
  <circle cx="50" cy="84" r="3" fill="${fill}" stroke="#8c5a12" stroke-width="1"/>`;
}

export const symbols = {
  tsar: `
  <circle cx="50" cy="50" r="45" fill="url(#t-red)" stroke="url(#t-gold)" stroke-width="5"/>
  <g transform="translate(0 4)">${crown}</g>
  <path d="M8 67 H92 L86 76 L92 85 H8 L14 76 Z" fill="url(#t-gold-h)" stroke="#6e430c" stroke-width="1.5"/>
  <text x="50" y="81.5" text-anchor="middle" font-family="Georgia, serif" font-weight="800"
    font-size="14" fill="#6d0a18" letter-spacing="2">WILD</text>`,

  tsarina: `
  <circle cx="50" cy="50" r="45" fill="url(#t-blue)" stroke="url(#t-gold)" stroke-width="4"/>
  <g clip-path="url(#t-medallion)">
    <path d="M22 62 Q20 14 50 9 Q80 14 78 62 Q66 42 50 42 Q34 42 22 62 Z" fill="url(#t-gold)" stroke="#7a4a0c" stroke-width="1.2"/>
    ${pearls(24, 58, 50, 2, 76, 58, 14, 1.5, '#fffdf2')}
    <circle cx="50" cy="24" r="5" fill="#d61f3c" stroke="#fff2b0" stroke-width="1.2"/>
    <circle cx="37" cy="31" r="2.4" fill="#1fa060"/><circle cx="63" cy="31" r="2.4" fill="#1fa060"/>
    <path d="M33 60 Q32 40 50 40 Q68 40 67 60 L69 84 Q50 90 31 84 Z" fill="#5a2a10"/>
    <path d="M26 100 Q30 78 50 76 Q70 78 74 100 Z" fill="#a8122c"/>
    <path d="M38 80 Q50 88 62 80" fill="none" stroke="url(#t-gold-h)" stroke-width="2.5"/>
    <ellipse cx="50" cy="60" rx="11.5" ry="14.5" fill="#f7d5bd"/>
    <ellipse cx="45.5" cy="57" rx="1.8" ry="2.3" fill="#2b1608"/>
    <ellipse cx="54.5" cy="57" rx="1.8" ry="2.3" fill="#2b1608"/>
    <path d="M46 67 Q50 70 54 67" fill="none" stroke="#c0304a" stroke-width="2" stroke-linecap="round"/>
    <circle cx="44" cy="63" r="2.5" fill="#f4a3a3" opacity=".5"/><circle cx="56" cy="63" r="2.5" fill="#f4a3a3" opacity=".5"/>
  </g>`,

  cathedral: `
  <rect x="14" y="62" width="72" height="30" fill="#c4513a" stroke="#6b2416" stroke-width="1.5"/>
  <path d="M14 62 H86" stroke="url(#t-gold-h)" stroke-width="3"/>
  <path d="M22 92 V78 Q26 71 30 78 V92 Z M44 92 V74 Q50 66 56 74 V92 Z M70 92 V78 Q74 71 78 78 V92 Z" fill="#3b1410"/>
  <rect x="22" y="48" width="14" height="15" fill="#efe1bd" stroke="#6b2416" stroke-width="1"/>
  <rect x="64" y="48" width="14" height="15" fill="#efe1bd" stroke="#6b2416" stroke-width="1"/>
  <rect x="41" y="36" width="18" height="27" fill="#f3e6c4" stroke="#6b2416" stroke-width="1"/>
  <path d="M45 62 V48 Q50 42 55 48 V62" fill="#3b1410"/>
  <path d="${onionDome(29, 49, 20, 24)}" fill="url(#t-stripe-red)" stroke="#6b2416" stroke-width="1.2"/>
  <path d="${onionDome(71, 49, 20, 24)}" fill="url(#t-stripe-blue)" stroke="#6b2416" stroke-width="1.2"/>
  <path d="${onionDome(50, 37, 28, 30)}" fill="url(#t-stripe-green)" stroke="#6b2416" stroke-width="1.2"/>
  <path d="M50 7 V1 M29 25 V19 M71 25 V19" stroke="url(#t-gold-h)" stroke-width="2.4" stroke-linecap="round"/>
  <path d="M47 4 H53 M26.5 21.5 H31.5 M68.5 21.5 H73.5" stroke="#e7b83c" stroke-width="1.8"/>`,

  royal_seal: `
  <path d="${scallop(50, 52, 38, 14, 3.5)}" fill="url(#t-red)" stroke="#4a0610" stroke-width="1.5"/>
  <circle cx="50" cy="52" r="29" fill="none" stroke="#4a0610" stroke-width="2.5" opacity=".7"/>
  <circle cx="50" cy="52" r="25" fill="none" stroke="url(#t-gold-h)" stroke-width="1.6" stroke-dasharray="2 2.4"/>
  <g transform="translate(50 52) scale(.48) translate(-50 -40)">${crown}</g>
  <text x="50" y="74" text-anchor="middle" font-family="Georgia, serif" font-weight="700" font-size="18" fill="url(#t-gold)">Н II</text>
  <path d="M72 20 Q84 6 92 12 Q86 20 78 26 Z" fill="#e7d7a8" stroke="#8c5a12" stroke-width="1"/>`,

  statue: `
  <rect x="22" y="80" width="56" height="12" rx="2" fill="url(#t-marble)" stroke="#6f6859" stroke-width="1"/>
  <rect x="28" y="70" width="44" height="11" fill="url(#t-marble)" stroke="#6f6859" stroke-width="1"/>
  <path d="M24 71 Q25 54 38 50 L44 47 Q36 42 36 31 Q36 15 50 14 Q64 15 64 31 Q64 42 56 47 L62 50 Q75 54 76 71 Z"
    fill="url(#t-bronze)" stroke="#2e1a0a" stroke-width="1.4"/>
  <path d="M36 28 Q40 12 50 12 Q60 12 64 28 Q60 20 50 20 Q40 20 36 28 Z" fill="#3f2510"/>
  <path d="M33 24 Q50 8 67 24" fill="none" stroke="#4c8a3a" stroke-width="4" stroke-dasharray="5 2" stroke-linecap="round"/>
  <path d="M44 38 Q50 42 56 38" fill="none" stroke="#2e1a0a" stroke-width="1.5"/>
  <path d="M36 60 Q50 66 64 60" fill="none" stroke="#f0c08a" stroke-width="2" opacity=".6"/>
  <circle cx="50" cy="58" r="3.5" fill="url(#t-gold)"/>`,

  ace: letter('A', '#c21d2e'),
  king: letter('K', '#1f4fb8'),
  queen: letter('Q', '#1c7a49'),
  jack: letter('J', '#6b2fa0'),
  ten: letter('10', '#c96a12', 56, -3),
  nine: letter('9', '#117a80'),

  egg: `
  <path d="M34 86 L66 86 L72 96 L28 96 Z" fill="url(#t-gold)" stroke="#6e430c" stroke-width="1.2"/>
  <path d="M50 6 C71 6 84 38 84 58 C84 78 69 88 50 88 C31 88 16 78 16 58 C16 38 29 6 50 6Z"
    fill="url(#t-egg)" stroke="url(#t-gold)" stroke-width="3"/>
  <g clip-path="url(#t-egg-clip)" stroke="url(#t-gold-h)" stroke-width="1.8" fill="none" opacity=".95">
    <path d="M0 20 L80 100 M0 0 L100 100 M20 0 L100 80 M40 -10 L110 60 M-10 40 L60 110"/>
    <path d="M100 20 L20 100 M100 0 L0 100 M80 0 L0 80 M60 -10 L-10 60 M110 40 L40 110"/>
  </g>
  <path d="M17 55 Q50 66 83 55" fill="none" stroke="url(#t-gold-h)" stroke-width="5"/>
  ${pearls(19, 56, 50, 66, 81, 56, 10, 1.5, '#fffdf2')}
  <circle cx="50" cy="30" r="5" fill="#2a63d9" stroke="#ffe694" stroke-width="1.5"/>
  <circle cx="50" cy="77" r="3.5" fill="#1fa060" stroke="#ffe694" stroke-width="1.2"/>
  <ellipse cx="38" cy="26" rx="5" ry="9" fill="#fff" opacity=".25" transform="rotate(25 38 26)"/>`,
};

/** The symbol names in the order of the model (filler for spinning reels). */
export const filler = ['tsar', 'tsarina', 'cathedral', 'royal_seal', 'statue', 'ace', 'king', 'queen', 'jack', 'ten', 'nine', 'egg'];
