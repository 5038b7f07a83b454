package builder

import (
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/strata-platform/strata/domain/kernel"
)

// Limits of app runtime secrets.
const (
	// SecretNamePattern is the rule of a secret's name: an environment
	// variable name in upper case, at most 64 characters.
	SecretNamePattern = `^[A-Z_][A-Z0-9_]{0,63}$`
	// MaxSecretNameLen is the longest name.
	MaxSecretNameLen = 64
	// MaxSecretValueBytes is the largest value, in bytes of UTF-8 (32 KiB).
	MaxSecretValueBytes = 32 << 10
	// MaxSecrets is how many secrets one company keeps.
	MaxSecrets = 100
)

// ReservedSecretNames are names an app's secret may not take, because the
// runtime sets them or they change how the app's process or Node itself
// starts: PORT, HOST and DATA_FILE (the runtime's own, see
// commands/builder/runtime), ALLOW_ORIGIN (set by the deploys for the
// sandboxed preview), PATH, HOME, NODE_ENV and NODE_OPTIONS (the process's
// base environment and Node's start-up), and PWD, SHELL, USER, TMPDIR (the
// process's identity and working places).
func ReservedSecretNames() []string {
	return []string{"PORT", "HOST", "DATA_FILE", "ALLOW_ORIGIN", "PATH", "HOME", "NODE_ENV", "NODE_OPTIONS", "PWD", "SHELL", "USER", "TMPDIR"}
}

// ReservedSecretPrefixes are prefixes no secret's name may start with:
// STRATA_ (the platform's own settings), NODE_ (every variable Node reads,
// such as NODE_PATH, NODE_EXTRA_CA_CERTS, NODE_TLS_REJECT_UNAUTHORIZED), LD_
// and DYLD_ (the dynamic loader's, which could load code into the process).
func ReservedSecretPrefixes() []string { return []string{"STRATA_", "NODE_", "LD_", "DYLD_"} }

// ReservedSecretName reports whether name is reserved (ReservedSecretNames
// or a name starting with one of ReservedSecretPrefixes).
func ReservedSecretName(name string) bool {
	for _, n := range ReservedSecretNames() {
		if name == n {
			return true
		}
	}
	for _, p := range ReservedSecretPrefixes() {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// checkSecretNameFormat checks name against SecretNamePattern only.
func checkSecretNameFormat(name string) error {
	if name == "" {
		return kernel.Invalid("name", "required", "name is required: the environment variable the app reads, such as STRIPE_API_KEY")
	}
	if len(name) > MaxSecretNameLen {
		return kernel.Invalid("name", fmt.Sprintf("max_length:%d", MaxSecretNameLen),
			fmt.Sprintf("name is longer than %d characters (rule %s)", MaxSecretNameLen, SecretNamePattern))
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		ok := c == '_' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9'
		if !ok {
			return kernel.Invalid("name", "pattern",
				"name must match "+SecretNamePattern+": upper-case letters A-Z, digits and underscores, not starting with a digit")
		}
	}
	return nil
}

// CheckSecretName validates a secret's name for a write: SecretNamePattern
// (rules "required", "max_length:64", "pattern") and not reserved (rule
// "reserved"). Errors name the field "name".
func CheckSecretName(name string) error {
	if err := checkSecretNameFormat(name); err != nil {
		return err
	}
	if ReservedSecretName(name) {
		return kernel.Invalid("name", "reserved", fmt.Sprintf("%s is reserved: the runtime sets it or it changes how the app starts (reserved: %s, and names starting with %s)",
			name, strings.Join(ReservedSecretNames(), ", "), strings.Join(ReservedSecretPrefixes(), ", ")))
	}
	return nil
}

// CheckSecretValue validates a secret's value: 1 to MaxSecretValueBytes
// bytes of valid UTF-8 without NUL (rules "required", "max_bytes:32768",
// "utf8", "no_nul"). Errors name the field "value" and never show the
// value or its length.
func CheckSecretValue(value string) error {
	switch {
	case value == "":
		return kernel.Invalid("value", "required", "value is required")
	case len(value) > MaxSecretValueBytes:
		return kernel.Invalid("value", fmt.Sprintf("max_bytes:%d", MaxSecretValueBytes), "value is larger than 32 KiB")
	case !utf8.ValidString(value):
		return kernel.Invalid("value", "utf8", "value must be valid UTF-8")
	case strings.IndexByte(value, 0) >= 0:
		return kernel.Invalid("value", "no_nul", "value may not contain the NUL character (U+0000)")
	}
	return nil
}

// Secret is what is known of one secret without its value.
type Secret struct {
	Name      string
	Version   int
	UpdatedAt time.Time
	UpdatedBy string
	// Revision is the version of the secrets stream at which this version
	// of the secret was set.
	Revision int64
}

// Secrets is a company's secrets folded from its stream (the zero value
// is a company without any).
type Secrets struct {
	CompanyID string
	// Version is the stream's version: the revision of the whole set, which
	// moves on with every change (deletions too).
	Version int64
	// ChangedAt is when the last change (a deletion too) was made.
	ChangedAt time.Time
	live      map[string]Secret
	last      map[string]int // the last version of every name ever set
}

// Apply folds one event of the stream at version v.
func (s *Secrets) Apply(e kernel.Event, v int64) {
	s.Version = v
	if s.live == nil {
		s.live, s.last = map[string]Secret{}, map[string]int{}
	}
	switch e := e.(type) {
	case *SecretSet:
		s.CompanyID, s.ChangedAt = e.CompanyID, e.At
		s.live[e.Name] = Secret{Name: e.Name, Version: e.Version, UpdatedAt: e.At, UpdatedBy: e.UpdatedBy, Revision: v}
		s.last[e.Name] = e.Version
	case *SecretDeleted:
		s.ChangedAt = e.At
		delete(s.live, e.Name)
		s.last[e.Name] = max(s.last[e.Name], e.Version)
	}
}

// Get returns the live secret name.
func (s *Secrets) Get(name string) (Secret, bool) {
	sec, ok := s.live[name]
	return sec, ok
}

// Len is how many secrets are live.
func (s *Secrets) Len() int { return len(s.live) }

// List returns the live secrets sorted by name.
func (s *Secrets) List() []Secret {
	out := make([]Secret, 0, len(s.live))
	for _, sec := range s.live {
		out = append(out, sec)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// SetSecret decides a write of name in company companyID by founder by:
// the name and value are valid, and a new name fits under MaxSecrets. The
// version is the next one of the name, counting deleted versions, so a
// (company, name, version) triple is never sealed twice.
func SetSecret(s *Secrets, companyID, name, value, by string, at time.Time) (*SecretSet, error) {
	if err := CheckSecretName(name); err != nil {
		return nil, err
	}
	if err := CheckSecretValue(value); err != nil {
		return nil, err
	}
	if _, ok := s.live[name]; !ok && len(s.live) >= MaxSecrets {
		return nil, kernel.Invalid("name", fmt.Sprintf("max_secrets:%d", MaxSecrets),
			fmt.Sprintf("this company has %d secrets, the most it may keep; delete one first", MaxSecrets))
	}
	return &SecretSet{CompanyID: companyID, Name: name, Version: s.last[name] + 1, UpdatedBy: by, At: at}, nil
}

// DeleteSecret decides a deletion of name: it must be a live secret (a
// reserved name is not refused here, so a secret whose name became
// reserved later can still be deleted).
func DeleteSecret(s *Secrets, companyID, name, by string, at time.Time) (*SecretDeleted, error) {
	if err := checkSecretNameFormat(name); err != nil {
		return nil, err
	}
	sec, ok := s.live[name]
	if !ok {
		return nil, &kernel.Error{Kind: kernel.KindNotFound, Field: "name", Rule: "unknown", Message: "this company has no secret named " + name}
	}
	return &SecretDeleted{CompanyID: companyID, Name: name, Version: sec.Version, DeletedBy: by, At: at}, nil
}
