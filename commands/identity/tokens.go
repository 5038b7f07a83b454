package identity

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/golang-jwt/jwt/v5"

	ident "github.com/strata-platform/strata/domain/identity"
	"github.com/strata-platform/strata/domain/kernel"
)

// Claims are the claims of a Strata access token: the seed's sub, email,
// role, exp and iat, plus jti, iss and aud, and sv, the user's security stamp
// when the token was issued (a password change or reset raises the stamp and
// so revokes every older token).
type Claims struct {
	jwt.RegisteredClaims
	Email string `json:"email"`
	Role  string `json:"role"`
	SV    int64  `json:"sv"`
}

// SigningKeySource lists the signing keys in the order they were added.
type SigningKeySource interface {
	SigningKeys() []ident.SigningKeyAdded
}

type signingKey struct {
	kid     string
	pub     *rsa.PublicKey
	priv    *rsa.PrivateKey
	addedAt time.Time
	retired time.Time // zero while it is the newest key
}

// Tokens issues and verifies RS256 access tokens with the signing keys kept
// (sealed) in the event store. The newest key signs; an older key verifies
// until every token it signed has expired, then it leaves the JWKS.
type Tokens struct {
	src      SigningKeySource
	master   *MasterKey
	issuer   string
	audience string
	clock    kernel.Clock
	parser   *jwt.Parser
	// accessParser parses OAuth access tokens, whose audience is a resource.
	accessParser *jwt.Parser
	sessions     verifiedCache[Claims]
	accesses     verifiedCache[AccessClaims]

	mu   sync.RWMutex
	seen int // how many of src's keys are parsed
	keys []*signingKey
	kids map[string]*signingKey
}

// NewTokens returns a token service for issuer and audience.
func NewTokens(src SigningKeySource, master *MasterKey, issuer, audience string, clock kernel.Clock) *Tokens {
	t := &Tokens{src: src, master: master, issuer: issuer, audience: audience, clock: clock, kids: map[string]*signingKey{}}
	t.parser = jwt.NewParser(jwt.WithValidMethods([]string{"RS256"}), jwt.WithIssuer(issuer), jwt.WithAudience(audience),
		jwt.WithExpirationRequired(), jwt.WithIssuedAt(), jwt.WithLeeway(5*time.Second),
		jwt.WithTimeFunc(func() time.Time { return t.clock.Now() }))
	t.accessParser = jwt.NewParser(jwt.WithValidMethods([]string{"RS256"}), jwt.WithIssuer(issuer),
		jwt.WithExpirationRequired(), jwt.WithIssuedAt(), jwt.WithLeeway(5*time.Second),
		jwt.WithTimeFunc(func() time.Time { return t.clock.Now() }))
	return t
}

// Issuer returns the iss of issued tokens.
func (t *Tokens) Issuer() string { return t.issuer }

// refresh parses signing keys the directory learned since the last call.
func (t *Tokens) refresh() error {
	all := t.src.SigningKeys()
	t.mu.RLock()
	n := t.seen
	t.mu.RUnlock()
	if n >= len(all) {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.seen >= len(all) { // another goroutine parsed them meanwhile
		return nil
	}
	for _, k := range all[t.seen:] {
		if k.MasterKeyID != t.master.ID() {
			return fmt.Errorf("signing key %s was sealed with master key %s, this server has %s (set STRATA_MASTER_KEY)", k.KeyID, k.MasterKeyID, t.master.ID())
		}
		pubAny, err := x509.ParsePKIXPublicKey(k.PublicKeyDER)
		if err != nil {
			return fmt.Errorf("signing key %s: %w", k.KeyID, err)
		}
		der, err := t.master.Open(k.SealedPrivate)
		if err != nil {
			return fmt.Errorf("signing key %s: unseal: %w", k.KeyID, err)
		}
		privAny, err := x509.ParsePKCS8PrivateKey(der)
		if err != nil {
			return fmt.Errorf("signing key %s: %w", k.KeyID, err)
		}
		pub, ok1 := pubAny.(*rsa.PublicKey)
		priv, ok2 := privAny.(*rsa.PrivateKey)
		if !ok1 || !ok2 {
			return fmt.Errorf("signing key %s is not an RSA key", k.KeyID)
		}
		sk := &signingKey{kid: k.KeyID, pub: pub, priv: priv, addedAt: k.At}
		if len(t.keys) > 0 {
			t.keys[len(t.keys)-1].retired = k.At
		}
		t.keys = append(t.keys, sk)
		t.kids[sk.kid] = sk
	}
	t.seen = len(all)
	return nil
}

// usable reports whether tokens signed by k may still be valid at now.
func usable(k *signingKey, now time.Time) bool {
	return k.retired.IsZero() || now.Before(k.retired.Add(ident.AccessTokenTTL+time.Minute))
}

// Issue signs an access token for u; it returns the token, its id and expiry.
func (t *Tokens) Issue(u ident.User) (string, string, time.Time, error) {
	now := t.clock.Now()
	exp := now.Add(ident.AccessTokenTTL)
	jti := newTokenID()
	c := Claims{RegisteredClaims: jwt.RegisteredClaims{Subject: u.ID, Issuer: t.issuer, Audience: jwt.ClaimStrings{t.audience},
		IssuedAt: jwt.NewNumericDate(now), ExpiresAt: jwt.NewNumericDate(exp), ID: jti},
		Email: u.Email, Role: u.Role, SV: u.SecurityStamp}
	s, err := t.sign(c, "JWT")
	if err != nil {
		return "", "", time.Time{}, err
	}
	return s, jti, exp.Truncate(time.Second), nil
}

// sign signs claims with the newest key, with typ in the header.
func (t *Tokens) sign(claims jwt.Claims, typ string) (string, error) {
	if err := t.refresh(); err != nil {
		return "", err
	}
	t.mu.RLock()
	var k *signingKey
	if len(t.keys) > 0 {
		k = t.keys[len(t.keys)-1]
	}
	t.mu.RUnlock()
	if k == nil {
		return "", errors.New("no signing key yet")
	}
	tok := jwt.NewWithClaims(jwt.SigningMethodRS256, claims)
	tok.Header["kid"] = k.kid
	tok.Header["typ"] = typ
	s, err := tok.SignedString(k.priv)
	if err != nil {
		return "", fmt.Errorf("sign token: %w", err)
	}
	return s, nil
}

// keyFor is the key function of every parser: the token's kid must name a
// key that may still verify. An OAuth access token (want AccessTokenType)
// must say typ at+jwt; any other token must not (typ is optional in RFC
// 7519, so the platform's own tokens may omit it).
func (t *Tokens) keyFor(want string) jwt.Keyfunc {
	return func(tok *jwt.Token) (any, error) {
		typ, _ := tok.Header["typ"].(string)
		if want == AccessTokenType && !strings.EqualFold(typ, want) || want != AccessTokenType && strings.EqualFold(typ, AccessTokenType) {
			return nil, errors.New("wrong token type")
		}
		kid, _ := tok.Header["kid"].(string)
		t.mu.RLock()
		k := t.kids[kid]
		ok := k != nil && usable(k, t.clock.Now())
		t.mu.RUnlock()
		if !ok {
			return nil, errors.New("unknown signing key")
		}
		return k.pub, nil
	}
}

// Verify checks a token's signature (RS256 only, by a current key), issuer,
// audience, expiry and issue time; it does not consult revocations.
func (t *Tokens) Verify(token string) (*Claims, error) {
	if err := t.refresh(); err != nil {
		return nil, err
	}
	now := t.clock.Now()
	if c, ok := t.sessions.get(token, now); ok {
		return &c, nil
	}
	var c Claims
	_, err := t.parser.ParseWithClaims(token, &c, t.keyFor("JWT"))
	if err != nil {
		return nil, kernel.Unauthenticated("the access token is invalid or has expired; log in again")
	}
	if c.Subject == "" || c.ID == "" {
		return nil, kernel.Unauthenticated("the access token is invalid or has expired; log in again")
	}
	t.sessions.put(token, c, c.ExpiresAt.Time, now)
	return &c, nil
}

// JWKS returns the public keys that may still verify a live token.
func (t *Tokens) JWKS() (jose.JSONWebKeySet, error) {
	if err := t.refresh(); err != nil {
		return jose.JSONWebKeySet{}, err
	}
	now := t.clock.Now()
	t.mu.RLock()
	defer t.mu.RUnlock()
	set := jose.JSONWebKeySet{Keys: []jose.JSONWebKey{}}
	for i := len(t.keys) - 1; i >= 0; i-- {
		k := t.keys[i]
		if usable(k, now) {
			set.Keys = append(set.Keys, jose.JSONWebKey{Key: k.pub, KeyID: k.kid, Algorithm: "RS256", Use: "sig"})
		}
	}
	return set, nil
}

// NewSigningKey generates an RSA-2048 key pair and returns the event that
// records it, its private part sealed with master.
func NewSigningKey(master *MasterKey, kid string, now time.Time) (*ident.SigningKeyAdded, error) {
	priv, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, err
	}
	pub, err := x509.MarshalPKIXPublicKey(&priv.PublicKey)
	if err != nil {
		return nil, err
	}
	der, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		return nil, err
	}
	sealed, err := master.Seal(der)
	if err != nil {
		return nil, err
	}
	return &ident.SigningKeyAdded{KeyID: kid, Algorithm: "RS256", PublicKeyDER: pub, SealedPrivate: sealed,
		MasterKeyID: master.ID(), At: now}, nil
}
