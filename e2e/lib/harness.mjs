// Shared helpers of the e2e suite: the server under test, accounts, client
// registration, a loopback redirect target, and headless Chromium driving the
// provider's sign-in and consent pages. Nothing here fakes the server: every
// call goes over HTTP to the `strata serve` that e2e/run started.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import { chromium } from 'playwright-core';

/** Base URL of the platform API under test; also the provider's issuer. */
export const STRATA_URL = (() => {
  const v = process.env.STRATA_URL;
  if (!v) throw new Error('STRATA_URL is not set: run the suite with `bash e2e/run`');
  return v.replace(/\/+$/, '');
})();
export const ISSUER = STRATA_URL;

/** A password that satisfies the account rules (length, classes). */
export const PASSWORD = 'Corr3ct-horse';

/** A unique suffix, so each test file works with its own accounts. */
export function unique() {
  return `${Date.now().toString(36)}${randomBytes(4).toString('hex')}`;
}

/** POST JSON to path of the API; returns { status, headers, body }. */
export async function postJSON(path, body) {
  const res = await fetch(new URL(path, STRATA_URL), {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, body: json, text };
}

/** GET a JSON document of the API; asserts 200 and returns its body. */
export async function getJSON(path) {
  const res = await fetch(new URL(path, STRATA_URL), { headers: { accept: 'application/json' } });
  const text = await res.text();
  assert.equal(res.status, 200, `GET ${path}: ${res.status} ${text}`);
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/, `GET ${path}: content-type`);
  return { body: JSON.parse(text), headers: res.headers };
}

/**
 * Registers an account through the public API (POST /api/v1/auth/register)
 * and returns { id, email, password, fullName }.
 */
export async function registerUser(label = 'user') {
  const email = `e2e-${label}-${unique()}@example.com`;
  const fullName = 'Ada Lovelace';
  const res = await postJSON('/api/v1/auth/register', { email, password: PASSWORD, full_name: fullName });
  assert.equal(res.status, 201, `register ${email}: ${res.status} ${res.text}`);
  assert.ok(res.body?.id, `register ${email}: no id in ${res.text}`);
  return { id: res.body.id, email, password: PASSWORD, fullName };
}

/**
 * Registers an OAuth client by RFC 7591 dynamic registration
 * (POST /oauth/clients/register) and returns the 201 body.
 */
export async function registerClient(metadata) {
  const res = await postJSON('/oauth/clients/register', metadata);
  assert.equal(res.status, 201, `client registration: ${res.status} ${res.text}`);
  assert.ok(res.body.client_id, 'client_id');
  return res.body;
}

/** base64url(SHA-256(token)[0:16]): the at_hash of an RS256 ID token. */
export function atHash(accessToken) {
  return createHash('sha256').update(accessToken).digest().subarray(0, 16).toString('base64url');
}

/**
 * Starts a tiny HTTP server on 127.0.0.1 (random port) that stands in for a
 * native app's loopback redirect target (RFC 8252 section 7.3). Every
 * request to it is recorded; next() resolves with the full URL of the next
 * request to `path` (favicon requests and the like are ignored).
 */
export async function startRedirectTarget(path = '/callback') {
  const waiters = [];
  const received = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, `http://127.0.0.1:${server.address().port}`);
    if (url.pathname === path) {
      received.push(url);
      const w = waiters.shift();
      if (w) w.resolve(url);
    }
    if (url.pathname === '/frame-test') {
      // A third-party page trying to frame the sign-in page (see the
      // clickjacking test): the authorization URL comes in ?src=.
      const src = url.searchParams.get('src') ?? '';
      const esc = src.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!DOCTYPE html><title>framer</title><iframe id="victim" src="${esc}"></iframe>`);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end('<!DOCTYPE html><title>callback</title><p>Authorization response received.</p>');
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const port = server.address().port;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    /** The redirect URI to use at authorize time: the registered one plus this port. */
    redirectUri: `http://127.0.0.1:${port}${path}`,
    /** The redirect URI to register: loopback without a port (any port matches). */
    registeredUri: `http://127.0.0.1${path}`,
    received,
    next(timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const entry = {
          resolve: (u) => { clearTimeout(timer); resolve(u); },
          reject: (err) => { clearTimeout(timer); reject(err); },
        };
        const timer = setTimeout(() => {
          const i = waiters.indexOf(entry);
          if (i >= 0) waiters.splice(i, 1);
          reject(new Error(`no request reached the redirect target ${path} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.push(entry);
      });
    },
    /** Drops the waiters of next() still pending (after a failed flow). */
    cancel() {
      for (const w of waiters.splice(0)) w.reject(new Error('cancelled'));
    },
    close() {
      server.closeAllConnections?.();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** Launches headless Chromium (Debian's package, or $CHROMIUM). */
export function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * Drives the provider's pages in a fresh browser context, like a user
 * would: open the authorization URL, fill in "Email" and "Password", press
 * "Sign in", then press "Allow" or "Deny" on the consent page. Resolves with
 * the URL the browser was redirected to (as the redirect target saw it) and
 * the HTTP responses of the sign-in and consent pages.
 */
export async function authorizeInBrowser(browser, authorizationUrl, { user, target, decision = 'Allow' }) {
  const context = await browser.newContext();
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  try {
    const redirected = target.next();
    redirected.catch(() => {}); // observed below; avoid an unhandled rejection if we throw first
    const signIn = await page.goto(String(authorizationUrl));
    assert.ok(signIn, 'the authorization URL gave no response');
    assert.equal(signIn.status(), 200, `sign-in page: HTTP ${signIn.status()}: ${await page.content()}`);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    const [consent] = await Promise.all([
      page.waitForResponse((r) => r.url().includes('/oauth/authorize') && r.request().method() === 'GET'),
      page.getByRole('button', { name: 'Sign in' }).click(),
    ]);
    await page.getByRole('button', { name: 'Allow' }).waitFor();
    const consentText = await page.locator('main').innerText();
    await page.getByRole('button', { name: decision }).click();
    const url = await redirected;
    return { url, signIn, consent, consentText };
  } finally {
    target.cancel(); // a failed flow must not leave a waiter for the next one
    await context.close();
  }
}

/** Awaits p and returns the error it rejects with (fails if it resolves). */
export async function rejection(p, message = 'expected a rejection') {
  try {
    await p;
  } catch (err) {
    return err;
  }
  assert.fail(message);
}

/**
 * Registers an account through the public API (POST /api/v1/auth/register)
 * and returns { id, email, password, accessToken }: the access token is the
 * bearer credential of the platform API's authenticated routes.
 */
export async function registerAccount(label = 'user') {
  const email = `e2e-${label}-${unique()}@example.com`;
  const res = await postJSON('/api/v1/auth/register', { email, password: PASSWORD, full_name: 'Ada Lovelace' });
  assert.equal(res.status, 201, `register ${email}: ${res.status} ${res.text}`);
  assert.ok(res.body?.access_token, `register ${email}: no access_token in ${res.text}`);
  return { id: res.body.id, email, password: PASSWORD, accessToken: res.body.access_token };
}

/**
 * Calls the platform API: method, path, an optional bearer token and an
 * optional JSON body. Returns { status, headers, body, text } (body is the
 * parsed JSON, or undefined when the answer is not JSON).
 */
export async function apiCall(method, path, { token, body } = {}) {
  const headers = { accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(new URL(path, STRATA_URL), {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, body: json, text };
}
