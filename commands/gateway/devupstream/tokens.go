package devupstream

import (
	"strings"

	"github.com/strata-platform/strata/domain/gateway/chat"
)

// ImageTokens is what one image counts as input (chat.ImageTokens).
const ImageTokens = chat.ImageTokens

// CountTokens counts the tokens of s by the gateway's one rule
// (chat.CountTokens): a token is a run of letters, digits and
// underscores, or any other single non-space character ("Hello, world!"
// is four tokens).
func CountTokens(s string) int { return chat.CountTokens(s) }

// spans cuts s into pieces, one per token, each with the whitespace before
// it; their concatenation is s without its trailing whitespace.
func spans(s string) []string {
	idx := chat.TokenIndex(s)
	out := make([]string, len(idx))
	prev := 0
	for i, m := range idx {
		out[i] = s[prev:m[1]]
		prev = m[1]
	}
	return out
}

// InputTokens counts a request's input by the one rule (chat.InputTokens).
func InputTokens(r chat.Request) int { return chat.InputTokens(r) }

// outputTokens counts a reply's content by the same rule.
func outputTokens(parts []chat.Part) int {
	n := 0
	for _, p := range parts {
		n += chat.PartTokens(p)
	}
	return n
}

func joinTexts(parts []chat.Part) string {
	var b strings.Builder
	for _, p := range parts {
		if p.Type == chat.PartText {
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(p.Text)
		}
	}
	return b.String()
}
