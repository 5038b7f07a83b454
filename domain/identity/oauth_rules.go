package identity

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"net"
	"net/url"
	"slices"
	"strings"
	"time"
)

// Scopes the provider grants (seed 000, "Authentication").
var Scopes = []string{"openid", "profile", "email", "memory:read", "memory:write",
	"vector:search", "vector:write", "agent:read", "agent:write"}

// Lifetimes and limits of the OAuth provider.
const (
	OAuthCodeTTL        = 10 * time.Minute
	OAuthAccessTokenTTL = time.Hour
	OAuthRefreshTTL     = 30 * 24 * time.Hour
	MaxRedirectURIs     = 10
	MaxRedirectURILen   = 2000
	MaxClientNameLen    = 200
)

// Client authentication methods at the token endpoint.
const (
	AuthSecretBasic = "client_secret_basic"
	AuthSecretPost  = "client_secret_post"
	AuthNone        = "none" // public client: PKCE only
)

// Grant types a client may register.
const (
	GrantAuthorizationCode = "authorization_code"
	GrantRefreshToken      = "refresh_token"
)

// OAuthError is a refusal in the words of RFC 6749 (error codes such as
// invalid_request, invalid_grant, invalid_scope, invalid_target) or RFC 7591
// (invalid_redirect_uri, invalid_client_metadata).
type OAuthError struct {
	Code        string
	Description string
}

func (e *OAuthError) Error() string { return e.Code + ": " + e.Description }

func oauthErr(code, desc string) *OAuthError { return &OAuthError{Code: code, Description: desc} }

// ParseScope splits a space-separated scope into a sorted set; it refuses
// scopes the provider does not know.
func ParseScope(scope string) ([]string, error) {
	var out []string
	for _, s := range strings.Fields(scope) {
		if !slices.Contains(Scopes, s) {
			return nil, oauthErr("invalid_scope", "unknown scope "+strconvQuote(s)+"; supported: "+strings.Join(Scopes, " "))
		}
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return out, nil
}

// HasScope reports whether the space-separated scope contains s.
func HasScope(scope, s string) bool { return slices.Contains(strings.Fields(scope), s) }

func strconvQuote(s string) string {
	if len(s) > 64 {
		s = s[:64] + "..."
	}
	return "\"" + s + "\""
}

// IsLoopback reports whether host (no port) is a loopback name or address.
func IsLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// CheckRedirectURI enforces the registration rules for a redirect URI: an
// absolute https URL, or http only on a loopback host; no fragment, no user
// info.
func CheckRedirectURI(raw string) error {
	bad := func(why string) error { return oauthErr("invalid_redirect_uri", strconvQuote(raw)+": "+why) }
	if len(raw) > MaxRedirectURILen {
		return bad("longer than 2000 characters")
	}
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() || u.Host == "" {
		return bad("must be an absolute URL")
	}
	if u.Fragment != "" || strings.Contains(raw, "#") {
		return bad("must not contain a fragment")
	}
	if u.User != nil {
		return bad("must not contain user information")
	}
	switch u.Scheme {
	case "https":
		return nil
	case "http":
		if IsLoopback(u.Hostname()) {
			return nil
		}
		return bad("http is allowed only on a loopback host (127.0.0.1, [::1], localhost); use https")
	}
	return bad("scheme must be https (or http on a loopback host)")
}

// MatchRedirectURI reports whether the presented redirect URI is one of the
// registered ones: an exact string match, except that on a loopback http
// URI the port may differ (RFC 8252 section 7.3).
func MatchRedirectURI(registered []string, presented string) bool {
	if slices.Contains(registered, presented) {
		return true
	}
	p, err := url.Parse(presented)
	if err != nil || p.Scheme != "http" || p.User != nil || !IsLoopback(p.Hostname()) {
		return false
	}
	for _, r := range registered {
		u, err := url.Parse(r)
		if err != nil || u.Scheme != "http" || !IsLoopback(u.Hostname()) {
			continue
		}
		if u.Hostname() == p.Hostname() && u.EscapedPath() == p.EscapedPath() && u.RawQuery == p.RawQuery && p.Fragment == "" {
			return true
		}
	}
	return false
}

// CheckCodeChallenge validates an S256 code challenge: 43 base64url
// characters (a SHA-256), method S256 only.
func CheckCodeChallenge(challenge, method string) error {
	if challenge == "" {
		return oauthErr("invalid_request", "code_challenge is required (PKCE with S256)")
	}
	if method != "S256" {
		return oauthErr("invalid_request", "code_challenge_method must be S256 (plain is not allowed)")
	}
	if len(challenge) != 43 || !isBase64URL(challenge) {
		return oauthErr("invalid_request", "code_challenge must be the unpadded base64url SHA-256 of the verifier (43 characters)")
	}
	return nil
}

// VerifyPKCE checks a code verifier (RFC 7636: 43 to 128 unreserved
// characters) against the S256 challenge, in constant time.
func VerifyPKCE(verifier, challenge string) error {
	if verifier == "" {
		return oauthErr("invalid_request", "code_verifier is required")
	}
	if len(verifier) < 43 || len(verifier) > 128 || !isUnreserved(verifier) {
		return oauthErr("invalid_grant", "code_verifier must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~")
	}
	sum := sha256.Sum256([]byte(verifier))
	got := base64.RawURLEncoding.EncodeToString(sum[:])
	if subtle.ConstantTimeCompare([]byte(got), []byte(challenge)) != 1 {
		return oauthErr("invalid_grant", "code_verifier does not match the code_challenge")
	}
	return nil
}

func isBase64URL(s string) bool {
	for _, c := range s {
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

func isUnreserved(s string) bool {
	for _, c := range s {
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~') {
			return false
		}
	}
	return true
}

// CheckResource validates an RFC 8707 resource indicator against the
// platform API's base URL: tokens can be bound to the API as a whole
// (apiBase) or to a path under it. The empty resource means apiBase.
func CheckResource(resource, apiBase string) (string, error) {
	if resource == "" {
		return apiBase, nil
	}
	u, err := url.Parse(resource)
	if err != nil || !u.IsAbs() || u.Fragment != "" || strings.Contains(resource, "#") {
		return "", oauthErr("invalid_target", "resource must be an absolute URI without a fragment")
	}
	r := strings.TrimRight(resource, "/")
	if r == apiBase || strings.HasPrefix(r, apiBase+"/") {
		return r, nil
	}
	return "", oauthErr("invalid_target", "resource "+strconvQuote(resource)+" is not served here; use "+apiBase+" or a path under it")
}

// AudienceCovers reports whether a token bound to audience may be used on
// the API request path (a path of apiBase): the whole API, or the bound
// path and below.
func AudienceCovers(audience, apiBase, path string) bool {
	if audience == apiBase {
		return true
	}
	if !strings.HasPrefix(audience, apiBase+"/") {
		return false
	}
	base, _ := url.Parse(apiBase)
	bound := strings.TrimPrefix(audience, apiBase)
	full := strings.TrimRight(base.Path, "/") + bound
	return path == full || strings.HasPrefix(path, full+"/")
}
