// Package outbound is the platform's one HTTP client for calls to the
// outside world: audit fetches and crawls, content URLs, provider APIs,
// webhooks and status callbacks out. Every context uses it rather than an
// http.Client of its own (ARCHITECTURE.md section 8).
//
// # What it guarantees
//
//   - SSRF safety. Only http and https URLs, without userinfo, are fetched.
//     Host names are resolved by the client itself and the address actually
//     dialled is checked on every connection, including every redirect: a
//     loopback, private (RFC 1918, RFC 4193), link-local (169.254.169.254
//     included), CGNAT, unspecified, multicast, broadcast, reserved,
//     documentation or benchmark address is refused, and so is any IPv6
//     form that embeds one (IPv4-mapped, NAT64 64:ff9b::/96, 6to4). A host
//     that resolves to such an address cannot be reached by rebinding its
//     DNS either: the checked address is the one dialled. Config.Allow lets
//     tests and operators open chosen ranges or hosts. A refusal is a
//     *Refused error naming the URL, the address and the rule.
//   - Limits. Config.Timeout bounds one attempt from dial to the last byte
//     of the body; bodies are capped at Config.MaxResponseBytes (reading
//     past the cap fails with ErrTooLarge, after transparent gzip decoding,
//     so a compressed bomb is stopped too); at most Config.MaxRedirects
//     redirects are followed (then ErrTooManyRedirects). Environment proxies
//     are ignored: a proxy would dial the target on our behalf unchecked.
//   - Retries where safe. Client.Do retries a request under a RetryPolicy
//     only when repeating it cannot do harm: GET, HEAD, OPTIONS and TRACE,
//     a request carrying an Idempotency-Key (or X-Idempotency-Key) header,
//     or one the caller declares idempotent (RetryPolicy.Idempotent). It
//     retries on connection errors and on 429, 502, 503 and 504, with
//     exponential backoff, waiting at least what Retry-After asks (and
//     handing back the response instead when that is longer than
//     RetryPolicy.MaxDelay). A refusal, a TLS verification failure or too
//     many redirects is never retried.
//
// # Signatures on what we send
//
// Requests the platform sends to others (webhooks, status callbacks) carry
// a timestamped HMAC-SHA256 signature, the scheme Stripe uses for its
// webhooks, in the Strata-Signature header:
//
//	Strata-Signature: t=1717171717,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd
//
// To verify a request you received from Strata:
//
//  1. Split the header on "," and each item on the first "=". Take t (the
//     Unix time in seconds at which we signed) and every v1 (a signature);
//     ignore other keys.
//  2. Build the signed payload: t, the character ".", and the raw request
//     body exactly as received (bytes, before any JSON parsing).
//  3. Compute HMAC-SHA256 of the signed payload with your endpoint's
//     signing secret as the key, and hex-encode it (lower case).
//  4. Compare it with each v1 using a constant-time comparison; the request
//     is authentic if any matches. While a secret is being rotated we sign
//     with both the old and the new secret, so the header carries two v1
//     values and either secret verifies.
//  5. Reject the request when t is more than the tolerance (we suggest 5
//     minutes) away from your clock, to stop replays.
//
// Sign and SignRotating produce the header, SignRequest sets it on a
// request, and Verify checks one (DefaultTolerance when 0 is given).
package outbound
