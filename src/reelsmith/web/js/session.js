/**
 * The player's session token. An operator launches the client with `?token=...` (the token
 * is moved out of the address bar at once); without one, the demo server hands out a demo
 * session from `POST /demo/session`. The token is kept in sessionStorage so a reload keeps the
 * session (and its net position) and resumes an open round.
 */

const STORE = 'reelsmith.session';

export class SessionError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

function load() {
  try {
    return JSON.parse(sessionStorage.getItem(STORE) || 'null');
  } catch {
    return null;
  }
}

function save(session) {
  try {
    sessionStorage.setItem(STORE, JSON.stringify(session));
  } catch {
    /* private mode: the session lives for this page only */
  }
}

export function forget() {
  try {
    sessionStorage.removeItem(STORE);
  } catch {
    /* nothing stored */
  }
}

function fromLaunchUrl() {
  const url = new URL(window.location.href);
  const token = url.searchParams.get('token');
  if (!token) return null;
  url.searchParams.delete('token');
  window.history.replaceState(null, '', url);
  const session = { token, expiresMs: null, demo: false };
  save(session);
  return session;
}

async function demoSession() {
  let response;
  try {
    response = await fetch('/demo/session', { method: 'POST', cache: 'no-store' });
  } catch {
    throw new SessionError('unreachable', 'The game server cannot be reached.');
  }
  const data = await response.json().catch(() => ({}));
  if (response.status === 404) {
    throw new SessionError(
      'no_session',
      'This server offers no demo play. Open the game from your casino account.',
    );
  }
  if (!response.ok) throw new SessionError(data.code || 'http_error', data.message || 'No session.');
  const session = { token: data.token, expiresMs: data.expires_ms, demo: true };
  save(session);
  return session;
}

/** The session to use: a launch token, the stored one while valid, else a new demo session. */
export async function obtainSession({ fresh = false } = {}) {
  const launched = fromLaunchUrl();
  if (launched) return launched;
  const stored = fresh ? null : load();
  if (stored?.token && (!stored.expiresMs || stored.expiresMs > Date.now() + 5000)) return stored;
  if (stored && !stored.demo && !fresh) {
    throw new SessionError('session_expired', 'Your session has expired.');
  }
  return demoSession();
}

export function currentSession() {
  return load();
}
