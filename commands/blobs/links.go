package blobs

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"time"
)

// Link is what a signed download link grants: one owner's blob, under a
// file name and content type, until Expires.
type Link struct {
	Owner   string    `json:"o"`
	Digest  string    `json:"d"`
	Name    string    `json:"n"`
	Type    string    `json:"t"`
	Expires time.Time `json:"e"`
}

// Links signs and checks expiring download links: the token is the link's
// JSON and its HMAC-SHA256 under a key derived from the master key, both
// unpadded base64url, joined by a dot. Nothing is stored; a link cannot be
// revoked before it expires (keep lifetimes short: the seed's hour).
type Links struct {
	key []byte
	now func() time.Time
}

// Link errors: a token that was not signed here (or was altered) and one
// whose time is up.
var (
	ErrLinkInvalid = errors.New("blobs: download link is invalid")
	ErrLinkExpired = errors.New("blobs: download link has expired")
)

// NewLinks returns a signer with key (32 bytes or more); now is the clock
// (time.Now when nil).
func NewLinks(key []byte, now func() time.Time) *Links {
	if now == nil {
		now = time.Now
	}
	return &Links{key: append([]byte(nil), key...), now: now}
}

func (l *Links) mac(payload string) []byte {
	m := hmac.New(sha256.New, l.key)
	m.Write([]byte("blob link|" + payload))
	return m.Sum(nil)
}

// Sign returns the token of link.
func (l *Links) Sign(link Link) string {
	link.Expires = link.Expires.UTC().Truncate(time.Second)
	raw, _ := json.Marshal(link)
	payload := base64.RawURLEncoding.EncodeToString(raw)
	return payload + "." + base64.RawURLEncoding.EncodeToString(l.mac(payload))
}

// Verify returns the link a token grants: ErrLinkInvalid when it was not
// signed with this key or was altered, ErrLinkExpired once it expired.
func (l *Links) Verify(token string) (Link, error) {
	payload, sig, ok := strings.Cut(token, ".")
	if !ok || len(token) > 4096 {
		return Link{}, ErrLinkInvalid
	}
	got, err := base64.RawURLEncoding.Strict().DecodeString(sig)
	if err != nil || !hmac.Equal(got, l.mac(payload)) {
		return Link{}, ErrLinkInvalid
	}
	raw, err := base64.RawURLEncoding.Strict().DecodeString(payload)
	var link Link
	if err != nil || json.Unmarshal(raw, &link) != nil {
		return Link{}, ErrLinkInvalid
	}
	if !l.now().Before(link.Expires) {
		return link, ErrLinkExpired
	}
	return link, nil
}
