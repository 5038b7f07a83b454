package audit

import (
	"bytes"
	"strings"
)

// robotsMaxBytes is the parsing limit RFC 9309 section 2.5 sets (500 KiB).
const robotsMaxBytes = 500 * 1024

// Robots is a robots.txt file read by RFC 9309 semantics.
//
//   - Lines are "key: value"; keys are case-insensitive; "#" starts a comment.
//   - A group starts with one or more consecutive user-agent lines followed
//     by allow/disallow rules; rules before any user-agent line are ignored;
//     sitemap lines belong to no group.
//   - A crawler obeys the groups whose user-agent equals its product token
//     (case-insensitive; the line's value is cut to the product-token
//     characters [A-Za-z_-], and digits); several matching groups are merged; with none,
//     the "*" groups apply; with none of those, everything is allowed.
//   - The rule with the longest matching pattern (in octets) wins; on a tie
//     between allow and disallow, allow wins. "*" matches any sequence of
//     characters, "$" at the end of a pattern anchors it to the end of the
//     path. An empty pattern matches nothing. Matching is case-sensitive,
//     after percent-encoding normalisation (unreserved characters decoded,
//     other escapes upper-cased, non-ASCII octets encoded).
//   - /robots.txt itself is always allowed.
//   - Unavailable (4xx): allow everything; unreachable (5xx, network error):
//     disallow everything (see RobotsFromResponse).
type Robots struct {
	groups      []robotsGroup
	Sitemaps    []string // sitemap lines, in order
	Lines       int      // recognised lines (user-agent, allow, disallow, sitemap)
	allowAll    bool
	disallowAll bool
}

type robotsGroup struct {
	agents []string // lower-case product tokens ("*" for any)
	rules  []robotsRule
}

type robotsRule struct {
	allow   bool
	pattern string // normalised
}

// RobotsAllowAll is the robots.txt of a site whose file is unavailable (4xx).
func RobotsAllowAll() *Robots { return &Robots{allowAll: true} }

// RobotsDisallowAll is the robots.txt of a site whose file is unreachable (5xx, failure).
func RobotsDisallowAll() *Robots { return &Robots{disallowAll: true} }

// RobotsFromResponse interprets a fetched /robots.txt by status (RFC 9309
// 2.3.1): 2xx is parsed; 3xx left after the scanner followed redirects and
// 4xx mean unavailable (allow all); 5xx, a failed request or a nil
// response mean unreachable (disallow all).
func RobotsFromResponse(r *Response) *Robots {
	switch {
	case r == nil || r.Err != "" || r.Status == 0 || r.Status >= 500:
		return RobotsDisallowAll()
	case r.Status >= 300:
		return RobotsAllowAll()
	default:
		return ParseRobots(r.Body)
	}
}

// ParseRobots parses a robots.txt body (the first 500 KiB).
func ParseRobots(body []byte) *Robots {
	if len(body) > robotsMaxBytes {
		body = body[:robotsMaxBytes]
	}
	body = bytes.TrimPrefix(body, []byte("\xef\xbb\xbf"))
	text := strings.ReplaceAll(strings.ReplaceAll(string(body), "\r\n", "\n"), "\r", "\n")
	rb := &Robots{}
	var cur *robotsGroup
	lastWasAgent := false
	for _, line := range strings.Split(text, "\n") {
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		key, value, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		key = strings.ToLower(strings.TrimSpace(key))
		value = strings.TrimSpace(value)
		switch key {
		case "user-agent", "useragent", "user agent":
			rb.Lines++
			token := productToken(value)
			if token == "" {
				continue
			}
			if cur == nil || !lastWasAgent {
				rb.groups = append(rb.groups, robotsGroup{})
				cur = &rb.groups[len(rb.groups)-1]
			}
			cur.agents = append(cur.agents, token)
			lastWasAgent = true
		case "allow", "disallow":
			rb.Lines++
			lastWasAgent = false
			if cur == nil {
				continue // rules before any user-agent line are ignored
			}
			cur.rules = append(cur.rules, robotsRule{allow: key == "allow", pattern: normalisePattern(value)})
		case "sitemap", "site-map":
			rb.Lines++
			if value != "" {
				rb.Sitemaps = append(rb.Sitemaps, value)
			}
		default:
			// Unknown keys (crawl-delay, host, ...) neither end nor join a group.
		}
	}
	return rb
}

// productToken cuts a user-agent line's value to its product token: "*",
// or the leading run of [A-Za-z_-] (RFC 9309 2.2.1), lower case. Digits
// are accepted too, a deliberate leniency: real tokens have them (AI2Bot).
func productToken(v string) string {
	v = strings.TrimSpace(v)
	if strings.HasPrefix(v, "*") {
		return "*"
	}
	end := 0
	for end < len(v) {
		c := v[end]
		if c == '-' || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			end++
			continue
		}
		break
	}
	return strings.ToLower(v[:end])
}

// Groups reports how many groups the file has.
func (r *Robots) Groups() int { return len(r.groups) }

// Allowed reports whether a crawler whose product token is userAgent may
// fetch path (a path with an optional query: "/a/b?c").
func (r *Robots) Allowed(userAgent, path string) bool {
	if r == nil || r.allowAll {
		return true
	}
	if r.disallowAll {
		return false
	}
	if path == "" {
		path = "/"
	}
	if path == "/robots.txt" {
		return true
	}
	rules := r.rulesFor(userAgent)
	p := normalisePath(path)
	best, bestLen := true, -1
	for _, rule := range rules {
		if rule.pattern == "" || !patternMatch(rule.pattern, p) {
			continue
		}
		n := len(rule.pattern)
		if n > bestLen || n == bestLen && rule.allow {
			best, bestLen = rule.allow, n
		}
	}
	return best
}

// rulesFor merges the groups that match the agent's product token, or
// else the "*" groups.
func (r *Robots) rulesFor(userAgent string) []robotsRule {
	token := productToken(userAgent)
	var exact, star []robotsRule
	found := false
	for _, g := range r.groups {
		for _, a := range g.agents {
			if a == "*" {
				star = append(star, g.rules...)
				break
			}
			if token != "" && token != "*" && a == token {
				exact = append(exact, g.rules...)
				found = true
				break
			}
		}
	}
	if found {
		return exact
	}
	return star
}

// patternMatch matches a normalised pattern ("*" any sequence, trailing
// "$" end of path) against a normalised path, from its start.
func patternMatch(pattern, path string) bool {
	anchored := strings.HasSuffix(pattern, "$")
	if anchored {
		pattern = pattern[:len(pattern)-1]
	}
	parts := strings.Split(pattern, "*")
	if !strings.HasPrefix(path, parts[0]) {
		return false
	}
	pos := len(parts[0])
	if len(parts) == 1 {
		return !anchored || pos == len(path)
	}
	for i := 1; i < len(parts); i++ {
		part := parts[i]
		last := i == len(parts)-1
		if last && anchored {
			// The last literal must end the path, somewhere at or after pos.
			return len(path)-len(part) >= pos && strings.HasSuffix(path, part)
		}
		j := strings.Index(path[pos:], part)
		if j < 0 {
			return false
		}
		pos += j + len(part)
	}
	return true
}

const upperHex = "0123456789ABCDEF"

func isUnreserved(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~'
}

func unhex(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// normalisePath applies RFC 9309 2.2.2's percent-encoding rules: escapes of
// unreserved characters are decoded, other escapes upper-cased, octets
// outside printable ASCII encoded.
func normalisePath(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '%' && i+2 < len(s) {
			h, ok1 := unhex(s[i+1])
			l, ok2 := unhex(s[i+2])
			if ok1 && ok2 {
				d := h<<4 | l
				if isUnreserved(d) {
					b.WriteByte(d)
				} else {
					b.WriteByte('%')
					b.WriteByte(upperHex[d>>4])
					b.WriteByte(upperHex[d&15])
				}
				i += 2
				continue
			}
		}
		if c <= 0x20 || c >= 0x7f {
			b.WriteByte('%')
			b.WriteByte(upperHex[c>>4])
			b.WriteByte(upperHex[c&15])
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// normalisePattern normalises a rule's pattern like a path ("*" and "$"
// are kept as they are: both are printable ASCII).
func normalisePattern(s string) string { return normalisePath(s) }
