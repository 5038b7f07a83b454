package memory

import (
	"encoding/json"
	"math"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/memory/extract"
)

// Memory types (the "layer" when filtering).
const (
	TypeWorking  = "working"
	TypeEpisodic = "episodic"
	TypeSemantic = "semantic"
)

// Entity types.
const (
	EntityPerson  = "person"
	EntityOrg     = "org"
	EntityTech    = "tech"
	EntityConcept = "concept"
)

// Limits of what a memory may hold.
const (
	MaxContent        = 16_000 // characters of a memory's content
	MaxTags           = 50
	MaxTag            = 100 // characters of one tag
	MaxMetadata       = 16_384
	MaxName           = 200 // characters of an entity name or relate subject/object
	MaxPredicate      = 64
	DefaultImportance = 0.5
	DefaultConfidence = 0.8
)

// ValidMemoryType reports whether t is a memory type.
func ValidMemoryType(t string) bool {
	return t == TypeWorking || t == TypeEpisodic || t == TypeSemantic
}

// ValidEntityType reports whether t is an entity type.
func ValidEntityType(t string) bool {
	return t == EntityPerson || t == EntityOrg || t == EntityTech || t == EntityConcept
}

// CheckNamespace accepts "global", "session:<id>" and "project:<id>" where
// the id is 1-128 characters without white space, and a content twin's
// namespace "twin_<uuid>" (the content workflow hands it out with each
// twin; like every namespace it lives inside the caller's own memory).
func CheckNamespace(field, ns string) error {
	if ns == "global" || isTwinNamespace(ns) {
		return nil
	}
	for _, p := range []string{"session:", "project:"} {
		if id, ok := strings.CutPrefix(ns, p); ok && id != "" && utf8.RuneCountInString(id) <= 128 && !strings.ContainsAny(id, " \t\r\n") {
			return nil
		}
	}
	return kernel.Invalid(field, "namespace", field+` must be "global", "session:<id>", "project:<id>" (id 1-128 characters, no spaces) or a twin's "twin_<uuid>" (lower case)`)
}

// isTwinNamespace reports whether ns is "twin_" and a UUID in its 36
// character lower-case form (as a twin's memory_namespace gives it: one
// spelling per namespace, so an upper-case copy cannot split a twin's
// memories in two).
func isTwinNamespace(ns string) bool {
	id, ok := strings.CutPrefix(ns, "twin_")
	if !ok || len(id) != 36 {
		return false
	}
	for i, r := range id {
		switch {
		case i == 8 || i == 13 || i == 18 || i == 23:
			if r != '-' {
				return false
			}
		case !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f'):
			return false
		}
	}
	return true
}

// CheckUnit checks a score in [0, 1].
func CheckUnit(field string, v float64) error {
	if math.IsNaN(v) || v < 0 || v > 1 {
		return kernel.Invalid(field, "range:0-1", field+" must be a number from 0.0 to 1.0")
	}
	return nil
}

// RememberInput is what a caller asks to remember.
type RememberInput struct {
	Content    string
	EntityRef  string // the entity the memory is about: an entity id or a name ("" for none)
	MemoryType string
	Importance float64
	Namespace  string
	Tags       []string
	Metadata   map[string]any
	At         time.Time // when it was stated (business time)
	// Model is a language model's entities and facts for Content, asked
	// before the decision (nil: none). Remember checks it against the text
	// and merges it with the offline extractor's (Facts); it is never
	// recorded as such, only the merged facts are.
	Model *extract.Result
}

// Check validates the input and fills defaults left empty.
func (in *RememberInput) Check(now time.Time) error {
	in.Content = strings.TrimSpace(in.Content)
	if in.Content == "" {
		return kernel.Invalid("content", "required", "content is required")
	}
	if utf8.RuneCountInString(in.Content) > MaxContent {
		return kernel.Invalid("content", "max_length:16000", "content must be at most 16000 characters")
	}
	if in.MemoryType == "" {
		in.MemoryType = TypeEpisodic
	}
	if !ValidMemoryType(in.MemoryType) {
		return kernel.Invalid("memory_type", "enum", "memory_type must be one of working, episodic, semantic")
	}
	if err := CheckUnit("importance", in.Importance); err != nil {
		return err
	}
	if in.Namespace == "" {
		in.Namespace = "global"
	}
	if err := CheckNamespace("namespace", in.Namespace); err != nil {
		return err
	}
	if len(in.Tags) > MaxTags {
		return kernel.Invalid("tags", "max_items:50", "at most 50 tags")
	}
	for _, t := range in.Tags {
		if strings.TrimSpace(t) == "" || utf8.RuneCountInString(t) > MaxTag {
			return kernel.Invalid("tags", "tag_length:1-100", "each tag must be 1-100 characters")
		}
	}
	if in.Metadata != nil {
		raw, err := json.Marshal(in.Metadata)
		if err != nil || len(raw) > MaxMetadata {
			return kernel.Invalid("metadata", "max_bytes:16384", "metadata must be a JSON object of at most 16384 bytes")
		}
	}
	if err := checkName("entity_id", in.EntityRef, false); err != nil {
		return err
	}
	if in.At.IsZero() {
		in.At = now
	}
	if in.At.After(now.Add(time.Minute)) {
		return kernel.Invalid("occurred_at", "not_future", "occurred_at cannot be in the future")
	}
	return nil
}

func checkName(field, v string, required bool) error {
	v = strings.TrimSpace(v)
	if v == "" {
		if required {
			return kernel.Invalid(field, "required", field+" is required")
		}
		return nil
	}
	if utf8.RuneCountInString(v) > MaxName {
		return kernel.Invalid(field, "max_length:200", field+" must be at most 200 characters")
	}
	return nil
}

// NormalizePredicate turns "Works At" or "works-at" into "works_at"; the
// result is 1-64 characters of a-z, 0-9 and underscores.
func NormalizePredicate(p string) (string, error) {
	var b strings.Builder
	under := false
	for _, r := range strings.ToLower(strings.TrimSpace(p)) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
			under = false
		case r == ' ' || r == '-' || r == '_' || r == '.':
			if !under && b.Len() > 0 {
				b.WriteByte('_')
				under = true
			}
		default:
			if r < utf8.RuneSelf {
				return "", kernel.Invalid("predicate", "pattern", "predicate may hold letters, digits, spaces, dashes and underscores")
			}
			b.WriteRune(r)
			under = false
		}
	}
	out := strings.TrimRight(b.String(), "_")
	if out == "" {
		return "", kernel.Invalid("predicate", "required", "predicate is required")
	}
	if utf8.RuneCountInString(out) > MaxPredicate {
		return "", kernel.Invalid("predicate", "max_length:64", "predicate must be at most 64 characters")
	}
	return out, nil
}
