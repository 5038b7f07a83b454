// The same flow, independently, with oauth4webapi: a low-level, strict
// OAuth 2 / OpenID Connect client that validates every response against the
// specifications (content types, status codes, issuer, state, iss, nonce,
// ID token claims, RFC 9068 access tokens). The client is a public one
// (token_endpoint_auth_method "none"): PKCE is its only proof, as for a
// native app or an AI agent on the user's machine.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import * as oauth from 'oauth4webapi';
import * as jose from 'jose';
import {
  ISSUER,
  atHash,
  authorizeInBrowser,
  launchBrowser,
  registerClient,
  registerUser,
  rejection,
  startRedirectTarget,
  unique,
} from './lib/harness.mjs';

// The test server is plain http on 127.0.0.1, and oauth4webapi refuses
// non-https URLs unless a request opts in with the allowInsecureRequests
// option (marked @deprecated by the library on purpose, so that it stands
// out: it is meant for local testing only). It is passed on every request
// below for that reason alone; against a real (https) deployment it must be
// left out.
const insecure = { [oauth.allowInsecureRequests]: true };

const SCOPE = 'openid email profile agent:read';

describe('oauth4webapi: public client with PKCE', { timeout: 180_000 }, () => {
  let browser;
  let target;
  let user;
  let as; // authorization server metadata
  let registered; // the registration response
  let oauthClient; // oauth4webapi Client
  const clientAuth = oauth.None();

  before(async () => {
    [browser, target, user] = await Promise.all([launchBrowser(), startRedirectTarget(), registerUser('o4w')]);
    registered = await registerClient({
      client_name: `oauth4webapi e2e ${unique()}`,
      redirect_uris: [target.registeredUri],
      grant_types: ['authorization_code', 'refresh_token'],
      scope: SCOPE,
      token_endpoint_auth_method: 'none',
    });
    oauthClient = { client_id: registered.client_id, token_endpoint_auth_method: 'none' };
    const issuer = new URL(ISSUER);
    as = await oauth.processDiscoveryResponse(issuer,
      await oauth.discoveryRequest(issuer, { algorithm: 'oidc', ...insecure }));
  });

  after(async () => {
    await browser?.close();
    await target?.close();
  });

  /** A browser authorization; returns what the code exchange needs. */
  async function authorize({ decision = 'Allow' } = {}) {
    const codeVerifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const nonce = oauth.generateRandomNonce();
    const url = new URL(as.authorization_endpoint);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: oauthClient.client_id,
      redirect_uri: target.redirectUri,
      scope: SCOPE,
      state,
      nonce,
      code_challenge: await oauth.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
    }).toString();
    const { url: callback, consentText } = await authorizeInBrowser(browser, url, { user, target, decision });
    return { codeVerifier, state, nonce, callback, consentText };
  }

  async function exchange({ codeVerifier, state, nonce, callback }) {
    // Checks iss (the provider advertises RFC 9207 support, so it is
    // required) and state, and that the response carries a code, not an error.
    const params = oauth.validateAuthResponse(as, oauthClient, callback, state);
    const response = await oauth.authorizationCodeGrantRequest(as, oauthClient, clientAuth, params,
      target.redirectUri, codeVerifier, insecure);
    assert.equal(response.headers.get('cache-control'), 'no-store', 'RFC 6749 5.1: token responses are not cached');
    return oauth.processAuthorizationCodeResponse(as, oauthClient, response, {
      expectedNonce: nonce,
      requireIdToken: true,
      maxAge: 600, // requires auth_time, and a sign-in in the last ten minutes
    });
  }

  test('discovery (OpenID Connect and RFC 8414 locations) passes strict validation', async () => {
    // before() read /.well-known/openid-configuration; RFC 8414's location
    // must describe the same issuer identically.
    const issuer = new URL(ISSUER);
    const rfc8414 = await oauth.processDiscoveryResponse(issuer,
      await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
    assert.deepEqual(rfc8414, as);
    assert.equal(as.issuer, ISSUER);
    assert.deepEqual(as.response_types_supported, ['code']);
    assert.ok(as.token_endpoint_auth_methods_supported.includes('none'));
    assert.equal(registered.client_secret, undefined, 'a public client gets no secret');
    assert.equal(registered.token_endpoint_auth_method, 'none');
  });

  test('authorization code grant: tokens pass oauth4webapi, RFC 9068 and jose checks', async () => {
    const flow = await authorize();
    assert.match(flow.consentText, /agent:read/, 'the consent page lists the requested scopes');
    const result = await exchange(flow);
    assert.equal(result.token_type.toLowerCase(), 'bearer');
    assert.equal(result.expires_in, 3600);
    assert.equal(result.scope, 'agent:read email openid profile');
    assert.match(result.refresh_token, /^srt_/);

    const claims = oauth.getValidatedIdTokenClaims(result);
    assert.equal(claims.iss, ISSUER);
    assert.deepEqual([claims.aud].flat(), [registered.client_id]); // a string or a one-element array
    assert.equal(claims.sub, user.id);
    assert.equal(claims.nonce, flow.nonce);
    assert.equal(claims.at_hash, atHash(result.access_token));

    // The access token as a resource server would check it (RFC 9068:
    // typ at+jwt, iss, exp, aud, sub, iat, jti, client_id, signature from
    // the issuer's jwks_uri).
    const atClaims = await oauth.validateJwtAccessToken(as,
      new Request(`${ISSUER}/api/v1/auth/me`, { headers: { authorization: `Bearer ${result.access_token}` } }),
      ISSUER, insecure);
    assert.equal(atClaims.client_id, registered.client_id);
    assert.equal(atClaims.sub, user.id);

    // And the signatures once more with jose.
    const jwks = jose.createRemoteJWKSet(new URL(as.jwks_uri));
    await jose.jwtVerify(result.id_token, jwks, { issuer: ISSUER, audience: registered.client_id, algorithms: ['RS256'] });
    await jose.jwtVerify(result.access_token, jwks, { issuer: ISSUER, audience: ISSUER, typ: 'at+jwt', algorithms: ['RS256'] });

    const info = await oauth.processUserInfoResponse(as, oauthClient, claims.sub,
      await oauth.userInfoRequest(as, oauthClient, result.access_token, insecure));
    assert.equal(info.sub, user.id);
    assert.equal(info.email, user.email);
    assert.equal(info.name, user.fullName);
  });

  test('refresh rotation and reuse detection for a public client', async () => {
    const result = await exchange(await authorize());
    const refresh = async (token) => oauth.processRefreshTokenResponse(as, oauthClient,
      await oauth.refreshTokenGrantRequest(as, oauthClient, clientAuth, token, insecure));

    const rotated = await refresh(result.refresh_token);
    assert.notEqual(rotated.refresh_token, result.refresh_token);
    assert.notEqual(rotated.access_token, result.access_token);
    const again = await refresh(rotated.refresh_token);
    assert.notEqual(again.refresh_token, rotated.refresh_token);

    const reuse = await rejection(refresh(result.refresh_token), 'a spent refresh token was accepted');
    assert.ok(reuse instanceof oauth.ResponseBodyError, `got ${reuse}`);
    assert.equal(reuse.error, 'invalid_grant');
    const dead = await rejection(refresh(again.refresh_token), 'the grant survived a refresh token reuse');
    assert.equal(dead.error, 'invalid_grant');
  });

  test('introspection and revocation with client authentication "none"', async () => {
    const result = await exchange(await authorize());
    const introspect = async (token, hint) => oauth.processIntrospectionResponse(as, oauthClient,
      await oauth.introspectionRequest(as, oauthClient, clientAuth, token,
        { ...insecure, additionalParameters: hint ? { token_type_hint: hint } : undefined }));
    const revoke = async (token, hint) => oauth.processRevocationResponse(
      await oauth.revocationRequest(as, oauthClient, clientAuth, token,
        { ...insecure, additionalParameters: hint ? { token_type_hint: hint } : undefined }));

    const before = await introspect(result.access_token, 'access_token');
    assert.equal(before.active, true);
    assert.equal(before.client_id, registered.client_id);
    assert.equal(before.sub, user.id);
    assert.deepEqual(before.aud, [ISSUER]);
    assert.equal(before.jti.length > 0, true);

    await revoke(result.access_token, 'access_token');
    assert.equal((await introspect(result.access_token)).active, false);
    const denied = await rejection(
      oauth.userInfoRequest(as, oauthClient, result.access_token, insecure)
        .then((r) => oauth.processUserInfoResponse(as, oauthClient, user.id, r)),
      'userinfo accepted a revoked access token');
    assert.ok(denied instanceof oauth.WWWAuthenticateChallengeError, `got ${denied}`);
    assert.equal(denied.cause[0].parameters.error, 'invalid_token');

    assert.equal((await introspect(result.refresh_token, 'refresh_token')).active, true);
    await revoke(result.refresh_token, 'refresh_token');
    assert.equal((await introspect(result.refresh_token, 'refresh_token')).active, false);
  });

  test('Deny on the consent page returns access_denied with state and iss', async () => {
    const { state, callback } = await authorize({ decision: 'Deny' });
    assert.equal(callback.origin, target.origin);
    assert.equal(callback.pathname, '/callback');
    assert.equal(callback.searchParams.get('error'), 'access_denied');
    assert.equal(callback.searchParams.get('state'), state);
    assert.equal(callback.searchParams.get('iss'), ISSUER);
    assert.equal(callback.searchParams.get('code'), null);

    // A strict client checks iss and state first, then surfaces the error.
    const err = await rejection(Promise.resolve().then(() =>
      oauth.validateAuthResponse(as, oauthClient, callback, state)), 'a denied authorization validated');
    assert.ok(err instanceof oauth.AuthorizationResponseError, `got ${err}`);
    assert.equal(err.error, 'access_denied');
  });
});
