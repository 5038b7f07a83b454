package devupstream

import (
	"regexp"
	"strings"

	"github.com/strata-platform/strata/domain/gateway/chat"
)

// tokenRE is the development upstream's one token rule: a token is a run of
// letters, digits and underscores, or any other single non-space character
// (so "Hello, world!" is four tokens: Hello , world !).
var tokenRE = regexp.MustCompile(`[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_]`)

// ImageTokens is what one image counts as input.
const ImageTokens = 85

// CountTokens counts the tokens of s by the development upstream's rule.
func CountTokens(s string) int { return len(tokenRE.FindAllStringIndex(s, -1)) }

// spans cuts s into pieces, one per token, each with the whitespace before
// it; their concatenation is s without its trailing whitespace.
func spans(s string) []string {
	idx := tokenRE.FindAllStringIndex(s, -1)
	out := make([]string, len(idx))
	prev := 0
	for i, m := range idx {
		out[i] = s[prev:m[1]]
		prev = m[1]
	}
	return out
}

// InputTokens counts a request's input by the one rule, over the IR, so a
// request counts the same whichever format carried it: the text of the
// system parts; of every message part (text; a tool_use's name and input
// JSON; a tool_result's text content; ImageTokens per image); and of every
// tool's name, description and input schema.
func InputTokens(r chat.Request) int {
	n := 0
	for _, p := range r.System {
		n += partTokens(p)
	}
	for _, m := range r.Messages {
		for _, p := range m.Content {
			n += partTokens(p)
		}
	}
	for _, t := range r.Tools {
		n += CountTokens(t.Name) + CountTokens(t.Description) + CountTokens(string(t.InputSchema))
	}
	return n
}

func partTokens(p chat.Part) int {
	switch p.Type {
	case chat.PartText:
		return CountTokens(p.Text)
	case chat.PartImage:
		return ImageTokens
	case chat.PartToolUse:
		return CountTokens(p.Name) + CountTokens(string(p.Input))
	case chat.PartToolResult:
		n := 0
		for _, c := range p.Content {
			n += partTokens(c)
		}
		return n
	}
	return 0
}

// outputTokens counts a reply's content by the same rule.
func outputTokens(parts []chat.Part) int {
	n := 0
	for _, p := range parts {
		n += partTokens(p)
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
