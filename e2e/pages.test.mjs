// The provider's HTML pages in a real browser: security headers of the
// sign-in and consent pages, framing refused (clickjacking), a wrong
// password, an unregistered redirect URI (no open redirect), and
// prompt=none without a session.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import * as oauth from 'oauth4webapi';
import {
  ISSUER,
  authorizeInBrowser,
  launchBrowser,
  registerClient,
  registerUser,
  startRedirectTarget,
  unique,
} from './lib/harness.mjs';

describe('sign-in and consent pages', { timeout: 180_000 }, () => {
  let browser;
  let target;
  let user;
  let registered;

  before(async () => {
    [browser, target, user] = await Promise.all([launchBrowser(), startRedirectTarget(), registerUser('pages')]);
    registered = await registerClient({
      client_name: `pages e2e ${unique()}`,
      redirect_uris: [target.registeredUri],
      grant_types: ['authorization_code'],
      scope: 'openid email',
      token_endpoint_auth_method: 'none',
    });
  });

  after(async () => {
    await browser?.close();
    await target?.close();
  });

  async function authorizationUrl(extra = {}) {
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const url = new URL('/oauth/authorize', ISSUER);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: registered.client_id,
      redirect_uri: target.redirectUri,
      scope: 'openid email',
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      ...extra,
    }).toString();
    return { url, state };
  }

  test("the sign-in page forbids framing (CSP frame-ancestors 'none') and caching", async () => {
    const { url } = await authorizationUrl();
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const res = await page.goto(url.href);
      assert.equal(res.status(), 200);
      const h = res.headers();
      assert.match(h['content-type'], /^text\/html/);
      const csp = h['content-security-policy'] ?? '';
      assert.match(csp, /(^|;)\s*frame-ancestors 'none'\s*(;|$)/, `CSP: ${csp}`);
      assert.match(csp, /(^|;)\s*default-src 'none'\s*(;|$)/, `CSP: ${csp}`);
      assert.match(csp, /(^|;)\s*form-action 'self'\s*(;|$)/, `CSP: ${csp}`);
      assert.equal(h['x-frame-options'], 'DENY');
      assert.equal(h['cache-control'], 'no-store');
      assert.equal(h['referrer-policy'], 'no-referrer');
      assert.equal(await page.title(), 'Sign in · Strata');
      assert.equal(await page.getByLabel('Password').getAttribute('type'), 'password');
    } finally {
      await context.close();
    }
  });

  test('the consent page allows its form to post only to the provider and the redirect URI origin', async () => {
    const { url } = await authorizationUrl();
    const { signIn, consent, consentText, url: callback } = await authorizeInBrowser(browser, url, { user, target });
    assert.match(signIn.headers()['content-security-policy'], /frame-ancestors 'none'/);
    const csp = consent.headers()['content-security-policy'] ?? '';
    assert.equal(consent.status(), 200);
    assert.match(csp, /frame-ancestors 'none'/, `CSP: ${csp}`);
    assert.match(csp, new RegExp(`form-action 'self' ${target.origin}(;|$)`), `CSP: ${csp}`);
    assert.match(consentText, new RegExp(`Signed in as ${user.email.replace(/[.+]/g, '\\$&')}`));
    assert.match(consentText, new RegExp(`redirected to ${target.origin}`));
    assert.ok(callback.searchParams.get('code'), 'Allow redirected with a code');
  });

  test('Chromium refuses to show the sign-in page inside a frame of another site', async () => {
    const { url } = await authorizationUrl();
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const framed = page.waitForResponse((r) => r.url().startsWith(`${ISSUER}/oauth/authorize`));
      await page.goto(`${target.origin}/frame-test?src=${encodeURIComponent(url.href)}`);
      const res = await framed; // the provider answered the framed request ...
      assert.equal(res.status(), 200);
      // ... but the browser blocked the document: Chromium puts its error
      // page in the frame instead, and no sign-in form is shown.
      const frame = page.frames().find((f) => f !== page.mainFrame());
      assert.ok(frame, 'the iframe exists');
      for (let i = 0; i < 50 && !frame.url().startsWith('chrome-error:'); i++) await page.waitForTimeout(100);
      assert.match(frame.url(), /^chrome-error:/, `the framed sign-in page was displayed (frame at ${frame.url()})`);
      assert.equal(await frame.locator('input[name=password]').count(), 0, 'the sign-in form rendered inside a frame');
    } finally {
      await context.close();
    }
  });

  test('a wrong password shows an error and does not sign in', async () => {
    const { url } = await authorizationUrl();
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(url.href);
      await page.getByLabel('Email').fill(user.email);
      await page.getByLabel('Password').fill('Wr0ng-password');
      const [res] = await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/oauth/login')),
        page.getByRole('button', { name: 'Sign in' }).click(),
      ]);
      assert.equal(res.status(), 401);
      await page.getByRole('alert').waitFor();
      assert.equal(await page.getByRole('alert').innerText(), 'Incorrect email or password.');
      assert.equal(await page.getByRole('button', { name: 'Allow' }).count(), 0);
      assert.equal(await page.getByLabel('Email').inputValue(), user.email, 'the email is kept');
      const cookies = await context.cookies(ISSUER);
      assert.ok(!cookies.some((c) => c.name === 'strata_session'), 'no session cookie after a failed sign-in');
    } finally {
      await context.close();
    }
  });

  test('an unregistered redirect URI gets an error page, never a redirect', async () => {
    const before = target.received.length;
    const { url } = await authorizationUrl({ redirect_uri: 'https://attacker.example/callback' });
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const res = await page.goto(url.href);
      assert.equal(res.status(), 400);
      assert.equal(new URL(page.url()).origin, ISSUER, 'the browser stayed on the provider');
      assert.match(await page.getByRole('alert').innerText(), /redirect_uri does not match/);
      assert.match(res.headers()['content-security-policy'], /frame-ancestors 'none'/);
    } finally {
      await context.close();
    }
    assert.equal(target.received.length, before);
  });

  test('prompt=none without a session answers login_required to the redirect URI', async () => {
    const { url, state } = await authorizationUrl({ prompt: 'none' });
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const redirected = target.next();
      await page.goto(url.href);
      const callback = await redirected;
      assert.equal(callback.searchParams.get('error'), 'login_required');
      assert.equal(callback.searchParams.get('state'), state);
      assert.equal(callback.searchParams.get('iss'), ISSUER);
    } finally {
      target.cancel();
      await context.close();
    }
  });
});
