package chat

import "regexp"

// tokenRE is the gateway's one approximate token rule: a token is a run of
// letters, digits and underscores, or any other single non-space character
// (so "Hello, world!" is four tokens: Hello , world !). The development
// upstream counts by it, and the gateway estimates by it what an upstream
// never told (the input of a stream cut off before its usage).
var tokenRE = regexp.MustCompile(`[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_]`)

// ImageTokens is what one image counts as input.
const ImageTokens = 85

// TokenIndex returns the [start, end) byte offsets of s's tokens.
func TokenIndex(s string) [][]int { return tokenRE.FindAllStringIndex(s, -1) }

// CountTokens counts the tokens of s by the rule.
func CountTokens(s string) int { return len(TokenIndex(s)) }

// InputTokens counts a request's input by the rule, over the IR, so a
// request counts the same whichever format carried it: the text of the
// system parts; of every message part (PartTokens); and of every tool's
// name, description and input schema.
func InputTokens(r Request) int {
	n := 0
	for _, p := range r.System {
		n += PartTokens(p)
	}
	for _, m := range r.Messages {
		for _, p := range m.Content {
			n += PartTokens(p)
		}
	}
	for _, t := range r.Tools {
		n += CountTokens(t.Name) + CountTokens(t.Description) + CountTokens(string(t.InputSchema))
	}
	return n
}

// PartTokens counts a part: text; a tool_use's name and input JSON; a
// tool_result's content; ImageTokens per image.
func PartTokens(p Part) int {
	switch p.Type {
	case PartText:
		return CountTokens(p.Text)
	case PartImage:
		return ImageTokens
	case PartToolUse:
		return CountTokens(p.Name) + CountTokens(string(p.Input))
	case PartToolResult:
		n := 0
		for _, c := range p.Content {
			n += PartTokens(c)
		}
		return n
	}
	return 0
}
