package identity

import (
	"strings"
	"time"
)

// Key prefixes (seed "Key prefixes"). A key is the prefix, an underscore,
// a LookupLen-character public lookup id and a SecretLen-character secret,
// all base62: "sk_live_" + lookup + secret.
const (
	PrefixLive      = "sk_live"
	PrefixTest      = "sk_test"
	PrefixTemporary = "tmp"
	PrefixClaimed   = "sdb_live" // <db>_live_: a claimed tmp_ project; the database product is "sdb"
	LookupLen       = 16
	SecretLen       = 32
)

// Environments of a key created through POST /api-keys.
const (
	EnvLive = "live"
	EnvTest = "test"
)

// KeyIDPrefix starts every key record id: "key_" + a UUID.
const KeyIDPrefix = "key_"

// PrefixFor returns the key prefix of an environment ("" for an unknown one).
func PrefixFor(env string) string {
	switch env {
	case EnvLive, "":
		return PrefixLive
	case EnvTest:
		return PrefixTest
	}
	return ""
}

// knownPrefixes is ordered so that no entry is a prefix of a later one.
var knownPrefixes = []string{PrefixLive, PrefixTest, PrefixClaimed, PrefixTemporary}

// ParseKey splits a presented key into its prefix, lookup id and secret. ok
// is false for anything that is not shaped like a Strata key.
func ParseKey(key string) (prefix, lookup, secret string, ok bool) {
	for _, p := range knownPrefixes {
		rest, found := strings.CutPrefix(key, p+"_")
		if !found {
			continue
		}
		if len(rest) != LookupLen+SecretLen || !base62(rest) {
			return "", "", "", false
		}
		return p, rest[:LookupLen], rest[LookupLen:], true
	}
	return "", "", "", false
}

// LooksLikeKey reports whether a bearer credential is an API key rather than
// a JWT (keys carry a known prefix; JWTs start with "eyJ").
func LooksLikeKey(credential string) bool {
	_, _, _, ok := ParseKey(credential)
	return ok
}

func base62(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

// Key is the state of an API key record.
type Key struct {
	ID             string
	UserID         string
	OrganizationID string
	ProjectID      string
	Name           string
	Prefix         string
	Lookup         string
	SecretHash     string
	ExpiresAt      time.Time
	CreatedAt      time.Time
	Revoked        bool
	RevokedReason  string
	UsageCount     int64
	LastUsedAt     time.Time
}

// Temporary reports whether k is a tmp_ key.
func (k *Key) Temporary() bool { return k.Prefix == PrefixTemporary }

// Expired reports whether k is past its expiry at now.
func (k *Key) Expired(now time.Time) bool { return !now.Before(k.ExpiresAt) }

// Verification statuses (seed "Key verification status").
const (
	StatusReady               = "READY"
	StatusInsufficientCredits = "insufficient_credits"
	StatusTrialActive         = "trial_active"
	StatusTrialExpired        = "trial_expired"
	StatusUpgradeRequired     = "upgrade_required"
)

// Capabilities says what a verified key may do.
type Capabilities struct {
	ChatCompletions bool `json:"chat_completions"`
	Embeddings      bool `json:"embeddings"`
	Database        bool `json:"database"`
	FileUpload      bool `json:"file_upload"`
}

// Verdict is the computed verification of a key for its owner.
type Verdict struct {
	Status       string
	Message      string
	Tier         string
	SubStatus    string // subscription status: active, free, trialing, expired
	Capabilities Capabilities
}

// Verify computes the verification status of k (a key that is neither
// revoked nor, unless temporary, expired) owned by u at now:
//   - a tmp_ key: trial_active within its 72 hours, trial_expired after
//     (the data is kept until the account is claimed);
//   - a free plan: upgrade_required (chat completions need a paid plan);
//   - a paid plan without credits left: insufficient_credits;
//   - otherwise READY.
func Verify(k *Key, u *User, creditsRemaining int64, now time.Time) Verdict {
	switch {
	case k.Temporary() && k.Expired(now):
		return Verdict{Status: StatusTrialExpired, Tier: "trial", SubStatus: "expired",
			Message: "the 72-hour trial has expired; register and claim this project (merge-identity) before its data is deleted"}
	case k.Temporary():
		return Verdict{Status: StatusTrialActive, Tier: "trial", SubStatus: "trialing",
			Capabilities: Capabilities{Database: true},
			Message:      "temporary key; register and claim this project to keep its data and unlock chat"}
	case u.Plan == PlanFree || u.Plan == "":
		return Verdict{Status: StatusUpgradeRequired, Tier: PlanFree, SubStatus: "free",
			Capabilities: Capabilities{Embeddings: true, Database: true, FileUpload: true},
			Message:      "chat completions need a paid plan"}
	case creditsRemaining <= 0:
		return Verdict{Status: StatusInsufficientCredits, Tier: u.Plan, SubStatus: "active",
			Capabilities: Capabilities{Database: true, FileUpload: true},
			Message:      "no credits left; buy credits to use paid operations"}
	}
	return Verdict{Status: StatusReady, Tier: u.Plan, SubStatus: "active",
		Capabilities: Capabilities{ChatCompletions: true, Embeddings: true, Database: true, FileUpload: true}}
}
