package identity

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"time"

	"github.com/strata-platform/strata/commands/sealed"
	ident "github.com/strata-platform/strata/domain/identity"
)

// BrowserSessionTTL is how long the authorization server's sign-in cookie
// lasts before the sign-in page shows again.
const BrowserSessionTTL = 12 * time.Hour

// browserSession is the content of the authorization server's sign-in
// cookie, sealed (AES-256-GCM under a key derived from the master key), so
// any process can read it and nobody can forge or read it.
type browserSession struct {
	UserID   string `json:"u"`
	SV       int64  `json:"sv"`
	AuthTime int64  `json:"at"`
	Exp      int64  `json:"exp"`
}

// Browser seals and opens sign-in cookies and makes CSRF tokens.
type Browser struct {
	box     *sealed.Box
	csrfKey []byte
}

func newBrowser(m *MasterKey) *Browser {
	box, err := sealed.New(m.Derive("oauth browser session"))
	if err != nil {
		panic(err) // a derived key is 32 bytes
	}
	return &Browser{box: box, csrfKey: m.Derive("oauth csrf")}
}

// Browser returns the sign-in cookie and CSRF helper.
func (s *Service) Browser() *Browser { return s.browser }

// SealSession returns the cookie value of a sign-in of u at authTime and its expiry.
func (b *Browser) SealSession(u ident.User, authTime time.Time) (string, time.Time) {
	exp := authTime.Add(BrowserSessionTTL)
	plain, _ := json.Marshal(browserSession{UserID: u.ID, SV: u.SecurityStamp, AuthTime: authTime.Unix(), Exp: exp.Unix()})
	return b.box.Seal(plain, "session"), exp
}

// OpenSession returns the user signed in by a cookie value and when they
// signed in, if the cookie is genuine, unexpired, and its user is active
// with the same security stamp (a password change signs browsers out).
func (s *Service) OpenSession(value string) (ident.User, time.Time, bool) {
	plain, err := s.browser.box.Open(value, "session")
	if err != nil {
		return ident.User{}, time.Time{}, false
	}
	var bs browserSession
	if json.Unmarshal(plain, &bs) != nil || s.clock.Now().Unix() >= bs.Exp {
		return ident.User{}, time.Time{}, false
	}
	u, ok := s.dir.User(bs.UserID)
	if !ok || !u.Active || u.Temporary || u.SecurityStamp != bs.SV {
		return ident.User{}, time.Time{}, false
	}
	return u, time.Unix(bs.AuthTime, 0).UTC(), true
}

// CSRFToken returns the form token that goes with a CSRF cookie value
// (HMAC-SHA256 under a derived key): a page from another site can neither
// read the cookie nor compute the token.
func (b *Browser) CSRFToken(cookie string) string {
	m := hmac.New(sha256.New, b.csrfKey)
	m.Write([]byte(cookie))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// CheckCSRF reports whether token is the form token of a non-empty cookie.
func (b *Browser) CheckCSRF(cookie, token string) bool {
	return cookie != "" && token != "" && hmac.Equal([]byte(b.CSRFToken(cookie)), []byte(token))
}
