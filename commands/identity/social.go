package identity

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"

	"github.com/strata-platform/strata/commands/sealed"
	ident "github.com/strata-platform/strata/domain/identity"
	"github.com/strata-platform/strata/domain/kernel"
)

// Social sign-in providers: the path segments of /api/v1/auth/{provider}/...
// and the Provider of identity.SocialIdentityLinked.
const (
	ProviderCodehost = "codehost" // code-hosting provider: a GitHub-style OAuth app
	ProviderNetwork  = "network"  // professional network: LinkedIn-style OpenID Connect
)

// Defaults of the providers' endpoints: the real providers' public ones.
const (
	DefaultCodehostAuthorizeURL = "https://github.com/login/oauth/authorize"
	DefaultCodehostTokenURL     = "https://github.com/login/oauth/access_token"
	DefaultCodehostAPIURL       = "https://api.github.com"
	DefaultNetworkIssuer        = "https://www.linkedin.com/oauth"
	DefaultNetworkAuthorizeURL  = "https://www.linkedin.com/oauth/v2/authorization"
	DefaultNetworkTokenURL      = "https://www.linkedin.com/oauth/v2/accessToken"
	DefaultNetworkJWKSURL       = "https://www.linkedin.com/oauth/openid/jwks"
	DefaultNetworkUserinfoURL   = "https://api.linkedin.com/v2/userinfo"
)

// Limits of social sign-in.
const (
	SocialStateTTL        = 10 * time.Minute // the state cookie's lifetime
	SocialProviderTimeout = 10 * time.Second // each call to a provider
	MaxProviderResponse   = 1 << 20          // bytes read from a provider's answer
)

// Scopes asked of the providers (seed 000).
const (
	codehostScope = "user:email"
	networkScope  = "openid profile email"
)

// CodehostConfig configures sign-in with the code-hosting provider (an
// OAuth app: STRATA_CODEHOST_* settings). Empty URLs take the defaults.
type CodehostConfig struct {
	ClientID     string
	ClientSecret string
	AuthorizeURL string
	TokenURL     string
	APIURL       string // base of GET /user and GET /user/emails
}

// NetworkConfig configures sign-in with the professional network (OpenID
// Connect: STRATA_NETWORK_* settings). Empty URLs take the defaults.
type NetworkConfig struct {
	ClientID     string
	ClientSecret string
	Issuer       string // iss of its ID tokens
	AuthorizeURL string
	TokenURL     string
	JWKSURL      string
	UserinfoURL  string
}

// SocialConfig configures social sign-in. A provider without a client id
// and secret is not configured: its endpoints answer 503 naming the
// missing settings.
type SocialConfig struct {
	Codehost CodehostConfig
	Network  NetworkConfig
	// HTTPClient's transport and timeout call the providers; nil: the
	// default transport; no timeout: 10 s. Redirects are never followed and
	// every answer is cut at 1 MiB.
	HTTPClient *http.Client
}

// Social runs social sign-in: the redirect to a provider's authorization
// page with a state bound to the browser, and the callback that exchanges
// the provider's code and signs the account in.
type Social struct {
	svc      *Service
	cfg      SocialConfig
	client   *http.Client // provider APIs
	token    *http.Client // code-hosting token endpoint: asks for JSON
	state    *sealed.Box  // seals the state cookie
	verifier *oidc.IDTokenVerifier
}

// NewSocial returns the social sign-in of svc with cfg (defaults filled in).
func NewSocial(svc *Service, cfg SocialConfig) *Social {
	def := func(v *string, d string) {
		if *v = strings.TrimSpace(*v); *v == "" {
			*v = d
		}
	}
	c, n := &cfg.Codehost, &cfg.Network
	def(&c.AuthorizeURL, DefaultCodehostAuthorizeURL)
	def(&c.TokenURL, DefaultCodehostTokenURL)
	def(&c.APIURL, DefaultCodehostAPIURL)
	c.APIURL = strings.TrimRight(c.APIURL, "/")
	def(&n.Issuer, DefaultNetworkIssuer)
	def(&n.AuthorizeURL, DefaultNetworkAuthorizeURL)
	def(&n.TokenURL, DefaultNetworkTokenURL)
	def(&n.JWKSURL, DefaultNetworkJWKSURL)
	def(&n.UserinfoURL, DefaultNetworkUserinfoURL)
	base := cfg.HTTPClient
	if base == nil {
		base = &http.Client{Timeout: SocialProviderTimeout}
	}
	rt := base.Transport
	if rt == nil {
		rt = http.DefaultTransport
	}
	timeout := base.Timeout
	if timeout <= 0 {
		timeout = SocialProviderTimeout
	}
	client := &http.Client{Timeout: timeout, Transport: limitTransport{rt},
		// never follow a redirect: it would carry the bearer token elsewhere
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	token := *client
	token.Transport = acceptJSON{client.Transport}
	box, err := sealed.New(svc.master.Derive("social sign-in state"))
	if err != nil {
		panic(err) // a derived key is 32 bytes
	}
	// The key set lives as long as the process: it caches the provider's
	// keys and fetches them again (with this client) when a token names a
	// key it does not know.
	keys := oidc.NewRemoteKeySet(oidc.ClientContext(context.Background(), client), n.JWKSURL)
	v := oidc.NewVerifier(n.Issuer, keys, &oidc.Config{ClientID: n.ClientID, Now: svc.clock.Now})
	return &Social{svc: svc, cfg: cfg, client: client, token: &token, state: box, verifier: v}
}

// limitTransport cuts every provider answer at MaxProviderResponse bytes
// (reading more is an error, not a silent truncation).
type limitTransport struct{ rt http.RoundTripper }

func (l limitTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := l.rt.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	resp.Body = &limitedBody{rc: resp.Body, left: MaxProviderResponse}
	return resp, nil
}

type limitedBody struct {
	rc   io.ReadCloser
	left int64
}

var errProviderTooLarge = errors.New("provider answer exceeds 1 MiB")

func (b *limitedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		var one [1]byte
		n, err := b.rc.Read(one[:])
		if n > 0 {
			return 0, errProviderTooLarge
		}
		return 0, err
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	return n, err
}

func (b *limitedBody) Close() error { return b.rc.Close() }

// acceptJSON asks the code-hosting provider's token endpoint for JSON: it
// answers application/x-www-form-urlencoded otherwise.
type acceptJSON struct{ rt http.RoundTripper }

func (a acceptJSON) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Accept", "application/json")
	return a.rt.RoundTrip(r)
}

// providerLabel names a provider in messages.
func providerLabel(provider string) string {
	if provider == ProviderNetwork {
		return "the professional-network provider"
	}
	return "the code-hosting provider"
}

// configured returns a 503 naming the missing settings of provider, or nil.
func (x *Social) configured(provider string) error {
	var id, secret string
	switch provider {
	case ProviderCodehost:
		id, secret = x.cfg.Codehost.ClientID, x.cfg.Codehost.ClientSecret
	case ProviderNetwork:
		id, secret = x.cfg.Network.ClientID, x.cfg.Network.ClientSecret
	default:
		return kernel.NotFound("unknown sign-in provider " + provider)
	}
	prefix := "STRATA_" + strings.ToUpper(provider) + "_"
	var missing []string
	if strings.TrimSpace(id) == "" {
		missing = append(missing, prefix+"CLIENT_ID")
	}
	if strings.TrimSpace(secret) == "" {
		missing = append(missing, prefix+"CLIENT_SECRET")
	}
	if len(missing) == 0 {
		return nil
	}
	return kernel.Unavailable(provider+" sign-in is not configured: set "+strings.Join(missing, " and "), nil)
}

// socialState is the content of the state cookie, sealed (AES-256-GCM under
// a key derived from the master key): any process can open it, nobody can
// read or forge it.
type socialState struct {
	Provider    string `json:"p"`
	State       string `json:"s"`
	Nonce       string `json:"n,omitempty"`
	RedirectURI string `json:"r"`
	Exp         int64  `json:"exp"`
}

func (x *Social) seal(st socialState) string {
	plain, _ := json.Marshal(st)
	return x.state.Seal(plain, "social:"+st.Provider)
}

func (x *Social) open(provider, value string) (socialState, bool) {
	plain, err := x.state.Open(value, "social:"+provider)
	if err != nil {
		return socialState{}, false
	}
	var st socialState
	if json.Unmarshal(plain, &st) != nil || st.Provider != provider || x.svc.clock.Now().Unix() >= st.Exp {
		return socialState{}, false
	}
	return st, true
}

// SocialStart is where to send the browser and the state cookie to set.
type SocialStart struct {
	URL     string    // the provider's authorization page with our parameters
	Cookie  string    // the sealed state: set it HttpOnly, SameSite=Lax
	Expires time.Time // the cookie's expiry (SocialStateTTL)
}

// Start begins a sign-in with provider: the provider will send the browser
// back to redirectURI with a code and a random state, which the callback
// compares with the state sealed in the cookie (and, for the network, the
// ID token's nonce with the sealed nonce).
func (x *Social) Start(provider, redirectURI string) (SocialStart, error) {
	if err := x.configured(provider); err != nil {
		return SocialStart{}, err
	}
	if err := checkSocialRedirect(redirectURI); err != nil {
		return SocialStart{}, err
	}
	exp := x.svc.clock.Now().Add(SocialStateTTL)
	st := socialState{Provider: provider, State: randomToken(), RedirectURI: redirectURI, Exp: exp.Unix()}
	q := url.Values{"redirect_uri": {redirectURI}, "state": {st.State}}
	var page string
	switch provider {
	case ProviderCodehost:
		page = x.cfg.Codehost.AuthorizeURL
		q.Set("client_id", x.cfg.Codehost.ClientID)
		q.Set("scope", codehostScope)
	case ProviderNetwork:
		page = x.cfg.Network.AuthorizeURL
		st.Nonce = randomToken()
		q.Set("response_type", "code")
		q.Set("client_id", x.cfg.Network.ClientID)
		q.Set("scope", networkScope)
		q.Set("nonce", st.Nonce)
	}
	u, err := url.Parse(page)
	if err != nil {
		return SocialStart{}, kernel.Unavailable(provider+" sign-in is misconfigured: its authorization URL does not parse", err)
	}
	merged := u.Query()
	for k, v := range q {
		merged[k] = v
	}
	u.RawQuery = merged.Encode()
	return SocialStart{URL: u.String(), Cookie: x.seal(st), Expires: exp}, nil
}

func checkSocialRedirect(redirectURI string) error {
	if redirectURI == "" {
		return kernel.Invalid("redirect_uri", "required", "redirect_uri is required: where the provider sends the browser back")
	}
	if err := ident.CheckRedirectURI(redirectURI); err != nil {
		var oe *ident.OAuthError
		msg := "redirect_uri must be an absolute https URL (or http on a loopback host)"
		if errors.As(err, &oe) {
			msg = oe.Description
		}
		return kernel.Invalid("redirect_uri", "redirect_uri", msg)
	}
	return nil
}

func randomToken() string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic("crypto/rand failed: " + err.Error())
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// SocialCallback is the callback's input: the JSON body and the state
// cookie the browser sent ("" when none).
type SocialCallback struct {
	Code        string
	RedirectURI string
	State       string
	Cookie      string
}

// SocialResult is a signed-in account and the provider's picture.
type SocialResult struct {
	Session
	Picture string // avatar_url (codehost) or picture (network)
}

// Callback finishes a sign-in with provider: it checks the state against
// the cookie, exchanges the code with the provider, reads the provider's
// profile and signs in the account linked to it, linking or creating the
// account by the provider's verified email on the first sign-in.
func (x *Social) Callback(ctx context.Context, provider string, in SocialCallback) (SocialResult, error) {
	if err := x.configured(provider); err != nil {
		return SocialResult{}, err
	}
	switch {
	case in.Code == "":
		return SocialResult{}, kernel.Invalid("code", "required", "code is required: the code the provider sent back")
	case in.RedirectURI == "":
		return SocialResult{}, kernel.Invalid("redirect_uri", "required", "redirect_uri is required: the one the sign-in started with")
	case in.State == "":
		return SocialResult{}, kernel.Invalid("state", "required", "state is required: the state the provider sent back")
	}
	st, err := x.checkState(provider, in.Cookie, in.State)
	if err != nil {
		return SocialResult{}, err
	}
	if in.RedirectURI != st.RedirectURI {
		return SocialResult{}, kernel.Invalid("redirect_uri", "matches_start", "redirect_uri differs from the one this sign-in started with")
	}
	var p socialProfile
	switch provider {
	case ProviderCodehost:
		p, err = x.codehost(ctx, in.Code, in.RedirectURI)
	case ProviderNetwork:
		p, err = x.network(ctx, in.Code, in.RedirectURI, st.Nonce)
	}
	if err != nil {
		return SocialResult{}, err
	}
	u, err := x.svc.socialAccount(ctx, p)
	if err != nil {
		return SocialResult{}, err
	}
	s, err := x.svc.session(u)
	if err != nil {
		return SocialResult{}, err
	}
	return SocialResult{Session: s, Picture: p.Picture}, nil
}

// checkState opens the state cookie of provider and compares its state
// with the presented one; every refusal names field state.
func (x *Social) checkState(provider, cookie, state string) (socialState, error) {
	if cookie == "" {
		return socialState{}, kernel.Invalid("state", "matches_cookie",
			"no "+provider+" sign-in is in progress in this browser (no state cookie); start again at /api/v1/auth/"+provider+"/start")
	}
	st, ok := x.open(provider, cookie)
	if !ok {
		return socialState{}, kernel.Invalid("state", "matches_cookie",
			"the "+provider+" sign-in state cookie is invalid or older than 10 minutes; start again at /api/v1/auth/"+provider+"/start")
	}
	if subtle.ConstantTimeCompare([]byte(st.State), []byte(state)) != 1 {
		return socialState{}, kernel.Invalid("state", "matches_cookie", "state does not match the sign-in started in this browser")
	}
	return st, nil
}
