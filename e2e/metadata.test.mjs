// The provider's published documents and the registration and token
// endpoints' refusals, over plain HTTP (fetch) and jose: discovery (OpenID
// Connect and RFC 8414), protected resource metadata (RFC 9728), the JWKS,
// dynamic registration rules (RFC 7591) and RFC 6749 error answers.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import * as jose from 'jose';
import { ISSUER, STRATA_URL, getJSON, postJSON, registerClient, unique } from './lib/harness.mjs';

describe('discovery documents', () => {
  test('openid-configuration and oauth-authorization-server describe the same issuer', async () => {
    const { body: oidc, headers } = await getJSON('/.well-known/openid-configuration');
    const { body: rfc8414 } = await getJSON('/.well-known/oauth-authorization-server');
    assert.deepEqual(rfc8414, oidc);
    assert.equal(headers.get('access-control-allow-origin'), '*');
    assert.equal(oidc.issuer, ISSUER);
    assert.equal(oidc.authorization_endpoint, `${ISSUER}/oauth/authorize`);
    assert.equal(oidc.token_endpoint, `${ISSUER}/api/v1/oauth/token`);
    assert.equal(oidc.userinfo_endpoint, `${ISSUER}/oauth/userinfo`);
    assert.equal(oidc.registration_endpoint, `${ISSUER}/oauth/clients/register`);
    assert.equal(oidc.revocation_endpoint, `${ISSUER}/oauth/revoke`);
    assert.equal(oidc.introspection_endpoint, `${ISSUER}/oauth/introspect`);
    assert.equal(oidc.jwks_uri, `${ISSUER}/.well-known/jwks.json`);
    assert.deepEqual(oidc.response_types_supported, ['code']);
    assert.deepEqual(oidc.grant_types_supported, ['authorization_code', 'refresh_token']);
    assert.deepEqual(oidc.code_challenge_methods_supported, ['S256'], 'OAuth 2.1: no plain PKCE');
    assert.deepEqual(oidc.id_token_signing_alg_values_supported, ['RS256']);
    assert.deepEqual(oidc.subject_types_supported, ['public']);
    for (const m of ['client_secret_basic', 'client_secret_post', 'none']) {
      assert.ok(oidc.token_endpoint_auth_methods_supported.includes(m), m);
    }
    assert.ok(oidc.scopes_supported.includes('openid'));
    assert.equal(oidc.authorization_response_iss_parameter_supported, true);
  });

  test('protected resource metadata (RFC 9728) points at the authorization server', async () => {
    const { body } = await getJSON('/.well-known/oauth-protected-resource');
    assert.equal(body.resource, ISSUER);
    assert.deepEqual(body.authorization_servers, [ISSUER]);
    assert.deepEqual(body.bearer_methods_supported, ['header']);
    assert.ok(body.scopes_supported.includes('memory:read'));
    const { body: sub } = await getJSON('/.well-known/oauth-protected-resource/api/v1/memory');
    assert.equal(sub.resource, `${ISSUER}/api/v1/memory`);
  });

  test('the JWKS publishes RSA signing keys only, importable by jose', async () => {
    const { body } = await getJSON('/.well-known/jwks.json');
    assert.ok(Array.isArray(body.keys) && body.keys.length > 0, 'at least one key');
    for (const jwk of body.keys) {
      assert.equal(jwk.kty, 'RSA');
      assert.ok(jwk.kid, 'kid');
      assert.ok(jwk.n && jwk.e, 'n and e');
      for (const priv of ['d', 'p', 'q', 'dp', 'dq', 'qi']) {
        assert.equal(jwk[priv], undefined, `private member ${priv} published`);
      }
      if (jwk.use !== undefined) assert.equal(jwk.use, 'sig');
      if (jwk.alg !== undefined) assert.equal(jwk.alg, 'RS256');
      const key = await jose.importJWK(jwk, 'RS256');
      assert.equal(key.type, 'public');
    }
    assert.equal(new Set(body.keys.map((k) => k.kid)).size, body.keys.length, 'kids are unique');
  });
});

describe('dynamic client registration (RFC 7591)', () => {
  test('a confidential client gets a secret once; the response is not cached', async () => {
    const res = await postJSON('/oauth/clients/register', {
      client_name: `metadata e2e ${unique()}`,
      redirect_uris: ['https://app.example/cb', 'http://127.0.0.1/cb'],
      grant_types: ['authorization_code', 'refresh_token'],
      scope: 'openid profile',
    });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.match(res.body.client_id, /^cl_/);
    assert.match(res.body.client_secret, /^cs_/);
    assert.equal(res.body.client_secret_expires_at, 0);
    assert.equal(typeof res.body.client_id_issued_at, 'number');
    assert.equal(res.body.token_endpoint_auth_method, 'client_secret_basic', 'the RFC 7591 default');
    assert.deepEqual(res.body.response_types, ['code']);
    assert.deepEqual(res.body.redirect_uris, ['https://app.example/cb', 'http://127.0.0.1/cb']);
  });

  test('refuses http redirect URIs off loopback, fragments, and unknown grant types', async () => {
    const cases = [
      [{ redirect_uris: ['http://app.example/cb'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: ['https://app.example/cb#frag'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: [] }, 'invalid_redirect_uri'],
      [{ redirect_uris: ['https://app.example/cb'], grant_types: ['implicit'] }, 'invalid_client_metadata'],
      [{ redirect_uris: ['https://app.example/cb'], grant_types: ['password'] }, 'invalid_client_metadata'],
      [{ redirect_uris: ['https://app.example/cb'], token_endpoint_auth_method: 'private_key_jwt' }, 'invalid_client_metadata'],
      [{ redirect_uris: ['https://app.example/cb'], scope: 'openid root' }, 'invalid_client_metadata'],
    ];
    for (const [meta, code] of cases) {
      const res = await postJSON('/oauth/clients/register', meta);
      assert.equal(res.status, 400, `${JSON.stringify(meta)}: ${res.status} ${res.text}`);
      assert.equal(res.body.error, code, `${JSON.stringify(meta)}: ${res.text}`);
      assert.equal(typeof res.body.error_description, 'string');
    }
  });
});

describe('token endpoint refusals (RFC 6749 section 5.2)', () => {
  const token = (body, headers = {}) => fetch(`${STRATA_URL}/api/v1/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(body),
  });
  const basic = (id, secret) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

  test('a wrong client secret is 401 invalid_client with a Basic challenge', async () => {
    const c = await registerClient({ redirect_uris: ['https://app.example/cb'], scope: 'openid' });
    const res = await token({ grant_type: 'authorization_code', code: 'x', redirect_uri: 'https://app.example/cb', code_verifier: 'x'.repeat(43) },
      { authorization: basic(c.client_id, 'cs_wrong') });
    assert.equal(res.status, 401);
    assert.match(res.headers.get('www-authenticate') ?? '', /^Basic /);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.equal((await res.json()).error, 'invalid_client');

    // The right secret with an unknown code: invalid_grant.
    const ok = await token({ grant_type: 'authorization_code', code: 'nope', redirect_uri: 'https://app.example/cb', code_verifier: 'x'.repeat(43) },
      { authorization: basic(c.client_id, c.client_secret) });
    assert.equal(ok.status, 400);
    assert.equal((await ok.json()).error, 'invalid_grant');

    // Grants OAuth 2.1 dropped are not offered.
    for (const grant of ['password', 'client_credentials', 'implicit']) {
      const res2 = await token({ grant_type: grant, username: 'a', password: 'b' }, { authorization: basic(c.client_id, c.client_secret) });
      assert.equal(res2.status, 400, grant);
      assert.equal((await res2.json()).error, 'unsupported_grant_type', grant);
    }
  });
});
