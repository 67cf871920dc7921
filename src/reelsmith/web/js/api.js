/**
 * The server API: bearer token, JSON bodies, `{code, message}` errors, and an
 * `Idempotency-Key` on every POST. A POST that fails on the network is retried with the *same*
 * key (the server answers a repeated key with the stored response, so nothing is applied twice).
 */

const NETWORK_RETRY_MS = [300, 900, 2000];
const MAX_WAIT_RETRIES = 3;

export class ApiError extends Error {
  constructor(status, body = {}, request = null) {
    super(body.message || `the server answered ${status}`);
    this.status = status;
    this.code = body.code || 'http_error';
    this.body = body;
    this.request = request; // {method, path, body, key}: resend() repeats it exactly
  }

  get retryAfterMs() {
    return Number(this.body.retry_after_ms ?? 0);
  }
}

/** A random UUID; crypto.randomUUID needs a secure context, getRandomValues does not. */
export function newKey() {
  if (globalThis.crypto?.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export class Api {
  constructor() {
    this.token = null;
    this.forced = []; // dev mode: draws to add to the next forcible POSTs, one list per POST
    this.listeners = new Set();
  }

  setToken(token) {
    this.token = token;
  }

  /** Called with every ApiError before it is thrown (session expiry handling). */
  onError(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get(path) {
    return this.send({ method: 'GET', path, body: null, key: null });
  }

  /**
   * POST `body` to `path`. `forcible`: the endpoint accepts `forced_draws`; in dev mode the
   * next queued list is added. Returns the parsed JSON body.
   */
  post(path, body = null, { key = newKey(), forcible = false } = {}) {
    let payload = body;
    if (forcible && this.forced.length) payload = { ...(body ?? {}), forced_draws: this.forced.shift() };
    return this.send({ method: 'POST', path, body: payload, key });
  }

  /** Repeat a failed request exactly (same body, same Idempotency-Key). */
  resend(request) {
    return this.send(request);
  }

  async send(request) {
    let waits = 0;
    for (let attempt = 0; ; attempt += 1) {
      let response;
      try {
        response = await fetch(request.path, {
          method: request.method,
          headers: this.headers(request),
          body: request.body === null ? undefined : JSON.stringify(request.body),
          cache: 'no-store',
        });
      } catch {
        if (attempt < NETWORK_RETRY_MS.length) {
          await sleep(NETWORK_RETRY_MS[attempt]);
          continue;
        }
        throw this.fail(
          new ApiError(
            0,
            { code: 'unreachable', message: 'The game server cannot be reached.' },
            request,
          ),
        );
      }
      const data = await response.json().catch(() => ({}));
      if (response.ok) return data;
      const error = new ApiError(response.status, data, request);
      // A proxy's "try again" and the server's "wait" are safe to repeat with the same key.
      if ([502, 503, 504].includes(response.status) && attempt < NETWORK_RETRY_MS.length) {
        await sleep(NETWORK_RETRY_MS[attempt]);
        continue;
      }
      if (response.status === 429 && waits < MAX_WAIT_RETRIES && error.retryAfterMs <= 10_000) {
        waits += 1;
        await sleep(Math.max(error.retryAfterMs, 250) + 50);
        continue;
      }
      throw this.fail(error);
    }
  }

  headers(request) {
    const headers = { Accept: 'application/json' };
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    if (request.body !== null) headers['Content-Type'] = 'application/json';
    if (request.key) headers['Idempotency-Key'] = request.key;
    return headers;
  }

  fail(error) {
    for (const listener of this.listeners) listener(error);
    return error;
  }
}
