package outbound

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// SignatureHeader is the header our signature travels in.
const SignatureHeader = "Strata-Signature"

// DefaultTolerance is how far a signed timestamp may be from the
// verifier's clock when Verify is given 0.
const DefaultTolerance = 5 * time.Minute

// Verification errors.
var (
	ErrSignatureFormat   = errors.New("outbound: malformed signature header")
	ErrSignatureMismatch = errors.New("outbound: no signature matches")
	ErrSignatureExpired  = errors.New("outbound: signature timestamp outside the tolerance")
)

// Sign returns the Strata-Signature value for body signed with secret at
// t: "t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">".
func Sign(secret string, body []byte, t time.Time) string {
	return SignRotating([]string{secret}, body, t)
}

// SignRotating signs with every secret, one v1 each, so that a receiver
// holding either the old or the new secret verifies during a rotation.
func SignRotating(secrets []string, body []byte, t time.Time) string {
	ts := strconv.FormatInt(t.Unix(), 10)
	var b strings.Builder
	b.WriteString("t=")
	b.WriteString(ts)
	for _, s := range secrets {
		b.WriteString(",v1=")
		b.WriteString(mac(s, ts, body))
	}
	return b.String()
}

// SignRequest sets the Strata-Signature header of req for body (which must
// be the bytes req sends) at now.
func SignRequest(req *http.Request, body []byte, now time.Time, secrets ...string) {
	req.Header.Set(SignatureHeader, SignRotating(secrets, body, now))
}

func mac(secret, ts string, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(ts))
	m.Write([]byte{'.'})
	m.Write(body)
	return hex.EncodeToString(m.Sum(nil))
}

// Verify checks a Strata-Signature header against body with secret: some
// v1 must be the HMAC (compared in constant time) and t must be within
// tolerance of now, in the past or the future (DefaultTolerance when
// tolerance is 0).
func Verify(secret string, header string, body []byte, tolerance time.Duration, now time.Time) error {
	if tolerance <= 0 {
		tolerance = DefaultTolerance
	}
	var ts string
	var sigs []string
	for item := range strings.SplitSeq(header, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(item), "=")
		if !ok {
			return ErrSignatureFormat
		}
		switch k {
		case "t":
			if ts != "" {
				return ErrSignatureFormat
			}
			ts = v
		case "v1":
			sigs = append(sigs, v)
		}
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || len(sigs) == 0 {
		return ErrSignatureFormat
	}
	want := []byte(mac(secret, ts, body))
	ok := false
	for _, s := range sigs {
		if hmac.Equal([]byte(s), want) {
			ok = true
		}
	}
	if !ok {
		return ErrSignatureMismatch
	}
	if d := now.Sub(time.Unix(sec, 0)); d > tolerance || d < -tolerance {
		return ErrSignatureExpired
	}
	return nil
}
