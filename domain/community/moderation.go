package community

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/strata-platform/strata/domain/kernel"
)

// Limits of a moderation policy.
const (
	MaxBlockedTerms = 500
	MaxTermLength   = 100
	MaxLinksLimit   = 100
)

// Policy is a tenant's comment moderation policy. The zero policy allows
// every comment.
type Policy struct {
	// BlockedTerms are refused as whole words or phrases, ignoring case
	// ("ass" blocks "Ass!" but not "class").
	BlockedTerms []string `json:"blocked_terms"`
	// MaxLinks is the most links (http://, https://, www.) a comment may
	// hold; nil means no limit.
	MaxLinks *int `json:"max_links"`
}

// Moderation is the fold of a tenant's moderation stream.
type Moderation struct {
	Policy    Policy
	UpdatedAt time.Time
	UpdatedBy string
	Version   int64
}

// Apply folds one event of the moderation stream.
func (m *Moderation) Apply(ev kernel.Event) {
	if ev, ok := ev.(*ModerationPolicySet); ok {
		m.Policy, m.UpdatedAt, m.UpdatedBy = ev.Policy, ev.At, ev.By
	}
}

// SetPolicy decides a new policy for tenant: terms are trimmed, lowered,
// deduplicated and sorted.
func SetPolicy(tenant, actor string, p Policy, now time.Time) (*ModerationPolicySet, error) {
	if tenant == "" {
		return nil, NoTenant()
	}
	terms := make([]string, 0, len(p.BlockedTerms))
	for _, t := range p.BlockedTerms {
		t = strings.ToLower(strings.Join(strings.Fields(t), " "))
		if t == "" {
			return nil, kernel.Invalid("blocked_terms", "non_empty", "blocked terms must not be blank")
		}
		if utf8.RuneCountInString(t) > MaxTermLength {
			return nil, kernel.Invalid("blocked_terms", fmt.Sprintf("max_length:%d", MaxTermLength),
				fmt.Sprintf("each blocked term must be at most %d characters", MaxTermLength))
		}
		terms = append(terms, t)
	}
	slices.Sort(terms)
	terms = slices.Compact(terms)
	if len(terms) > MaxBlockedTerms {
		return nil, kernel.Invalid("blocked_terms", fmt.Sprintf("max_items:%d", MaxBlockedTerms),
			fmt.Sprintf("at most %d blocked terms", MaxBlockedTerms))
	}
	if p.MaxLinks != nil && (*p.MaxLinks < 0 || *p.MaxLinks > MaxLinksLimit) {
		return nil, kernel.Invalid("max_links", "range", fmt.Sprintf("max_links must be from 0 to %d, or null for no limit", MaxLinksLimit))
	}
	return &ModerationPolicySet{TenantID: tenant, Policy: Policy{BlockedTerms: terms, MaxLinks: p.MaxLinks}, By: actor, At: stamp(now)}, nil
}

var linkPattern = regexp.MustCompile(`(?i)(?:https?://|\bwww\.)[^\s<>"]+`)

// Check refuses text that breaks the policy, naming the rule and the
// reason. Terms are matched on the text lowered with its whitespace runs
// collapsed to one space, as terms are stored, so "Buy   now" or a line
// break inside a blocked phrase does not slip through.
func (p Policy) Check(text string) error {
	lower := strings.Join(strings.Fields(strings.ToLower(text)), " ")
	for _, t := range p.BlockedTerms {
		if containsWord(lower, t) {
			return kernel.Invalid("comment", "moderation:blocked_term",
				fmt.Sprintf("the comment was rejected by moderation: it contains the blocked term %q", t))
		}
	}
	if p.MaxLinks != nil {
		if n := len(linkPattern.FindAllStringIndex(text, -1)); n > *p.MaxLinks {
			return kernel.Invalid("comment", "moderation:max_links",
				fmt.Sprintf("the comment was rejected by moderation: it has %d links and at most %d are allowed", n, *p.MaxLinks))
		}
	}
	return nil
}

// containsWord reports whether term occurs in s with no letter or digit
// right before or after it.
func containsWord(s, term string) bool {
	for from := 0; from <= len(s); {
		i := strings.Index(s[from:], term)
		if i < 0 {
			return false
		}
		start, end := from+i, from+i+len(term)
		before, _ := utf8.DecodeLastRuneInString(s[:start])
		after, _ := utf8.DecodeRuneInString(s[end:])
		if !wordRune(before) && !wordRune(after) {
			return true
		}
		_, size := utf8.DecodeRuneInString(s[start:])
		from = start + size
	}
	return false
}

func wordRune(r rune) bool {
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r))
}
