// The OpenID Connect authorization code flow with PKCE, driven by
// openid-client (a certified relying party library) against the running
// provider: dynamic registration, discovery, the sign-in and consent pages in
// headless Chromium, the code exchange with its ID token checks, userinfo,
// refresh token rotation with reuse detection, revocation and introspection.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import * as client from 'openid-client';
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

// The test server is plain http on 127.0.0.1. openid-client refuses
// non-https endpoints unless the configuration opts in with
// allowInsecureRequests; production deployments serve https and must not
// use it.
const insecure = { execute: [client.allowInsecureRequests] };

const SCOPE = 'openid profile email memory:read';

describe('openid-client: authorization code flow with PKCE', { timeout: 180_000 }, () => {
  let browser;
  let target;
  let user;
  let config; // client_secret_basic client, from dynamic registration

  before(async () => {
    [browser, target, user] = await Promise.all([launchBrowser(), startRedirectTarget(), registerUser('oidc')]);
    config = await client.dynamicClientRegistration(
      new URL(ISSUER),
      {
        client_name: `openid-client e2e ${unique()}`,
        redirect_uris: [target.registeredUri],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        scope: SCOPE,
        token_endpoint_auth_method: 'client_secret_basic',
      },
      client.ClientSecretBasic(),
      insecure,
    );
  });

  after(async () => {
    await browser?.close();
    await target?.close();
  });

  /** One full authorization in the browser; returns the token response. */
  async function authorize({ scope = SCOPE, extra = {}, tokenParams } = {}) {
    const codeVerifier = client.randomPKCECodeVerifier();
    const codeChallenge = await client.calculatePKCECodeChallenge(codeVerifier);
    const state = client.randomState();
    // A nonce belongs to OpenID Connect requests (scope openid) only.
    const openid = scope.split(' ').includes('openid');
    const nonce = openid ? client.randomNonce() : undefined;
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: target.redirectUri,
      scope,
      state,
      ...(nonce ? { nonce } : {}),
      code_challenge: codeChallenge,
      code_challenge_method: 'S256',
      ...extra,
    });
    const { url: callback } = await authorizeInBrowser(browser, url, { user, target });
    assert.equal(callback.searchParams.get('iss'), ISSUER, 'RFC 9207 iss in the authorization response');
    // Checks state, iss and the absence of an error; redeems the code with
    // the PKCE verifier; validates the ID token (iss, aud, azp, exp, iat,
    // nonce) it requires.
    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: codeVerifier,
      expectedState: state,
      expectedNonce: nonce,
      idTokenExpected: openid,
    }, tokenParams);
    return { tokens, nonce, callback };
  }

  test('dynamic registration answers a confidential client, and discovery finds the provider', async () => {
    const meta = config.clientMetadata();
    assert.match(meta.client_id, /^cl_/);
    assert.match(meta.client_secret, /^cs_/);
    assert.equal(meta.token_endpoint_auth_method, 'client_secret_basic');
    assert.deepEqual(meta.redirect_uris, [target.registeredUri]);
    assert.equal(meta.scope, 'email memory:read openid profile'); // sorted by the provider

    const server = config.serverMetadata();
    assert.equal(server.issuer, ISSUER);
    assert.deepEqual(server.code_challenge_methods_supported, ['S256']);
    assert.equal(server.authorization_response_iss_parameter_supported, true);

    // Plain discovery with the registered credentials gives the same view.
    const again = await client.discovery(new URL(ISSUER), meta.client_id, meta.client_secret,
      client.ClientSecretBasic(meta.client_secret), insecure);
    assert.equal(again.serverMetadata().token_endpoint, server.token_endpoint);
    assert.equal(again.serverMetadata().jwks_uri, `${ISSUER}/.well-known/jwks.json`);
  });

  test('code exchange returns access, refresh and ID tokens that verify against the JWKS', async () => {
    const { tokens, nonce } = await authorize();
    assert.equal(tokens.token_type.toLowerCase(), 'bearer');
    assert.equal(tokens.expires_in, 3600);
    assert.equal(tokens.scope, 'email memory:read openid profile');
    assert.match(tokens.refresh_token, /^srt_/);

    const claims = tokens.claims();
    const clientId = config.clientMetadata().client_id;
    assert.equal(claims.iss, ISSUER);
    assert.equal(claims.sub, user.id);
    assert.equal(claims.nonce, nonce);
    assert.equal(claims.azp, clientId);
    assert.equal(claims.at_hash, atHash(tokens.access_token));
    assert.equal(typeof claims.auth_time, 'number');
    assert.ok(Math.abs(claims.auth_time - Date.now() / 1000) < 120, 'auth_time is the sign-in just now');
    assert.equal(claims.email, user.email);
    assert.equal(claims.name, user.fullName);

    // Independent signature checks with jose against the published keys.
    const jwks = jose.createRemoteJWKSet(new URL(config.serverMetadata().jwks_uri));
    const id = await jose.jwtVerify(tokens.id_token, jwks, {
      issuer: ISSUER,
      audience: clientId,
      algorithms: ['RS256'],
      requiredClaims: ['sub', 'iat', 'exp', 'auth_time', 'nonce', 'at_hash'],
    });
    assert.equal(id.protectedHeader.alg, 'RS256');
    assert.ok(id.protectedHeader.kid, 'the ID token names its key');
    assert.equal(id.payload.nonce, nonce);

    const at = await jose.jwtVerify(tokens.access_token, jwks, {
      issuer: ISSUER,
      audience: ISSUER, // no resource asked for: bound to the whole platform API
      typ: 'at+jwt', // RFC 9068
      algorithms: ['RS256'],
      requiredClaims: ['sub', 'iat', 'exp', 'jti', 'client_id', 'scope'],
    });
    assert.equal(at.payload.sub, user.id);
    assert.equal(at.payload.client_id, clientId);
    assert.equal(at.payload.scope, 'email memory:read openid profile');
    assert.equal(at.payload.exp - at.payload.iat, 3600);

    // An access token must not pass for an ID token, nor the reverse.
    await assert.rejects(jose.jwtVerify(tokens.id_token, jwks, { issuer: ISSUER, typ: 'at+jwt' }),
      (err) => err.code === 'ERR_JWT_CLAIM_VALIDATION_FAILED' && err.claim === 'typ');
  });

  test('userinfo returns the claims of the granted scopes', async () => {
    const { tokens } = await authorize();
    const info = await client.fetchUserInfo(config, tokens.access_token, tokens.claims().sub);
    assert.equal(info.sub, user.id);
    assert.equal(info.email, user.email);
    assert.equal(info.email_verified, false);
    assert.equal(info.name, 'Ada Lovelace');
    assert.equal(info.given_name, 'Ada');
    assert.equal(info.family_name, 'Lovelace');

    // Narrower scope, fewer claims: without profile there is no name.
    const { tokens: narrow } = await authorize({ scope: 'openid email' });
    const less = await client.fetchUserInfo(config, narrow.access_token, user.id);
    assert.equal(less.email, user.email);
    assert.equal(less.name, undefined);
  });

  test('without the openid scope there is no ID token, and userinfo answers insufficient_scope', async () => {
    const { tokens } = await authorize({ scope: 'memory:read' });
    assert.equal(tokens.id_token, undefined);
    assert.equal(tokens.scope, 'memory:read');
    const err = await rejection(client.fetchUserInfo(config, tokens.access_token, client.skipSubjectCheck),
      'userinfo answered a token without openid');
    assert.ok(err instanceof client.WWWAuthenticateChallengeError, `got ${err}`);
    assert.equal(err.status, 403);
    assert.equal(err.cause[0].parameters.error, 'insufficient_scope');
  });

  test('a resource indicator (RFC 8707) binds the access token audience', async () => {
    const resource = `${ISSUER}/api/v1/memory`;
    const { tokens } = await authorize({ extra: { resource }, tokenParams: { resource } });
    const jwks = jose.createRemoteJWKSet(new URL(config.serverMetadata().jwks_uri));
    const { payload } = await jose.jwtVerify(tokens.access_token, jwks, { issuer: ISSUER, audience: resource, typ: 'at+jwt' });
    assert.deepEqual([payload.aud].flat(), [resource]);
    assert.deepEqual((await client.tokenIntrospection(config, tokens.access_token)).aud, [resource]);

    // The refresh keeps the binding; asking for another resource is refused.
    const other = await rejection(client.refreshTokenGrant(config, tokens.refresh_token, { resource: `${ISSUER}/api/v1/agents` }),
      'a refresh widened the audience');
    assert.equal(other.error, 'invalid_target');
    const same = await client.refreshTokenGrant(config, tokens.refresh_token, { resource });
    assert.deepEqual([jose.decodeJwt(same.access_token).aud].flat(), [resource]);

    // A resource the provider does not serve is refused at authorize time.
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const bad = client.buildAuthorizationUrl(config, {
      redirect_uri: target.redirectUri, scope: 'openid', state, resource: 'https://elsewhere.example/api',
      code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256',
    });
    const res = await fetch(bad, { redirect: 'manual' });
    assert.equal(res.status, 303);
    const location = new URL(res.headers.get('location'));
    assert.equal(location.origin + location.pathname, target.redirectUri);
    assert.equal(location.searchParams.get('error'), 'invalid_target');
    assert.equal(location.searchParams.get('state'), state);
    assert.equal(location.searchParams.get('iss'), ISSUER);
  });

  test('refresh rotates the refresh token; reusing the old one revokes the whole grant', async () => {
    const { tokens } = await authorize();
    const first = tokens.refresh_token;

    const rotated = await client.refreshTokenGrant(config, first);
    assert.match(rotated.refresh_token, /^srt_/);
    assert.notEqual(rotated.refresh_token, first, 'a new refresh token on every refresh');
    assert.notEqual(rotated.access_token, tokens.access_token);
    assert.equal(rotated.scope, tokens.scope);
    assert.equal(rotated.expires_in, 3600);
    const before = await client.tokenIntrospection(config, rotated.access_token);
    assert.equal(before.active, true);

    // Replaying the spent token is refused ...
    const reuse = await rejection(client.refreshTokenGrant(config, first), 'a spent refresh token was accepted');
    assert.ok(reuse instanceof client.ResponseBodyError, `got ${reuse}`);
    assert.equal(reuse.error, 'invalid_grant');
    assert.equal(reuse.status, 400);

    // ... and treated as theft: the newest refresh token is dead too,
    const killed = await rejection(client.refreshTokenGrant(config, rotated.refresh_token),
      'the refresh token of a revoked grant was accepted');
    assert.ok(killed instanceof client.ResponseBodyError, `got ${killed}`);
    assert.equal(killed.error, 'invalid_grant');

    // ... and so is every access token of the grant.
    for (const token of [tokens.access_token, rotated.access_token, rotated.refresh_token]) {
      const info = await client.tokenIntrospection(config, token);
      assert.deepEqual(info, { active: false });
    }
  });

  test('revocation (RFC 7009) and introspection (RFC 7662)', async () => {
    const { tokens } = await authorize();
    const clientId = config.clientMetadata().client_id;

    const active = await client.tokenIntrospection(config, tokens.access_token);
    assert.equal(active.active, true);
    assert.equal(active.client_id, clientId);
    assert.equal(active.sub, user.id);
    assert.equal(active.username, user.email);
    assert.equal(active.iss, ISSUER);
    assert.equal(active.scope, tokens.scope);
    assert.equal(active.token_type, 'Bearer');
    assert.ok(active.exp > Date.now() / 1000);

    const refresh = await client.tokenIntrospection(config, tokens.refresh_token, { token_type_hint: 'refresh_token' });
    assert.equal(refresh.active, true);
    assert.equal(refresh.token_type, 'refresh_token');

    // Revoking the access token ends it alone: the grant lives on.
    await client.tokenRevocation(config, tokens.access_token, { token_type_hint: 'access_token' });
    assert.deepEqual(await client.tokenIntrospection(config, tokens.access_token), { active: false });
    const denied = await rejection(client.fetchUserInfo(config, tokens.access_token, user.id),
      'userinfo accepted a revoked access token');
    assert.ok(denied instanceof client.WWWAuthenticateChallengeError, `got ${denied}`);
    assert.equal(denied.status, 401);
    assert.equal(denied.cause[0].parameters.error, 'invalid_token');

    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token);
    assert.equal((await client.tokenIntrospection(config, refreshed.access_token)).active, true);

    // Revoking the refresh token ends the grant and every token from it.
    await client.tokenRevocation(config, refreshed.refresh_token, { token_type_hint: 'refresh_token' });
    assert.deepEqual(await client.tokenIntrospection(config, refreshed.refresh_token), { active: false });
    assert.deepEqual(await client.tokenIntrospection(config, refreshed.access_token), { active: false });
    const gone = await rejection(client.refreshTokenGrant(config, refreshed.refresh_token),
      'a revoked refresh token was accepted');
    assert.equal(gone.error, 'invalid_grant');

    // Revoking again, or revoking garbage, is still 200 (RFC 7009 2.2).
    await client.tokenRevocation(config, refreshed.refresh_token);
    await client.tokenRevocation(config, 'not-a-token');
  });

  test('a client can introspect and revoke only its own tokens', async () => {
    const { tokens } = await authorize();

    // A second client, authenticating with client_secret_post: openid-client's
    // default when discovery() gets a secret and no ClientAuth.
    const other = await registerClient({
      client_name: `other client ${unique()}`,
      redirect_uris: [target.registeredUri],
      grant_types: ['authorization_code'],
      scope: 'openid',
      token_endpoint_auth_method: 'client_secret_post',
    });
    const otherConfig = await client.discovery(new URL(ISSUER), other.client_id, other.client_secret, undefined, insecure);

    assert.deepEqual(await client.tokenIntrospection(otherConfig, tokens.access_token), { active: false });
    assert.deepEqual(await client.tokenIntrospection(otherConfig, tokens.refresh_token), { active: false });
    await client.tokenRevocation(otherConfig, tokens.access_token);
    await client.tokenRevocation(otherConfig, tokens.refresh_token);
    assert.equal((await client.tokenIntrospection(config, tokens.access_token)).active, true,
      "another client's revocation must not touch the token");
    assert.equal((await client.tokenIntrospection(config, tokens.refresh_token)).active, true);

    // Nor can it redeem this client's refresh token.
    const stolen = await rejection(client.refreshTokenGrant(otherConfig, tokens.refresh_token),
      "another client's refresh token was accepted");
    assert.ok(stolen instanceof client.ResponseBodyError, `got ${stolen}`);
    assert.ok(['invalid_grant', 'unauthorized_client'].includes(stolen.error), stolen.error);
  });

  test('a code is single use: a second redemption fails and revokes what the first issued', async () => {
    const codeVerifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: target.redirectUri,
      scope: 'openid',
      state,
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
    });
    const { url: callback } = await authorizeInBrowser(browser, url, { user, target });
    const checks = { pkceCodeVerifier: codeVerifier, expectedState: state };

    // A wrong verifier is refused without spending the code.
    const wrong = await rejection(client.authorizationCodeGrant(config, callback,
      { ...checks, pkceCodeVerifier: client.randomPKCECodeVerifier() }), 'a wrong PKCE verifier was accepted');
    assert.equal(wrong.error, 'invalid_grant');

    const tokens = await client.authorizationCodeGrant(config, callback, checks);
    assert.equal((await client.tokenIntrospection(config, tokens.access_token)).active, true);

    const replay = await rejection(client.authorizationCodeGrant(config, callback, checks), 'a code was redeemed twice');
    assert.equal(replay.error, 'invalid_grant');
    assert.deepEqual(await client.tokenIntrospection(config, tokens.access_token), { active: false });
    assert.deepEqual(await client.tokenIntrospection(config, tokens.refresh_token), { active: false });
  });
});
