package audit

import (
	"fmt"
	"strings"
)

const maxRobots = 10

// checkRobots scores robots.txt against the AI agents list (10 points).
// Agents are checked for "/" by RFC 9309 semantics (Robots).
func checkRobots(s Snapshot) CheckResult {
	r := s.Robots
	rb := RobotsFromResponse(r)
	var fs []Finding
	ev := describe(r)

	parsed := r.OK() && !looksHTML(r.Body) && rb.Lines > 0
	pev := ev
	switch {
	case r == nil || r.Err != "" || r.Status >= 500:
		pev += "; unreachable, so RFC 9309 says crawlers must assume everything is disallowed"
	case r.Status >= 300:
		pev += "; unavailable, so RFC 9309 lets crawlers fetch everything"
	case looksHTML(r.Body):
		pev += "; the body is an HTML page, not robots.txt"
	case rb.Lines == 0:
		pev += "; no user-agent, allow, disallow or sitemap line"
	default:
		pev += fmt.Sprintf("; %d %s, %d %s", rb.Groups(), plural(rb.Groups(), "group", "groups"), rb.Lines, plural(rb.Lines, "rule line", "rule lines"))
	}
	fs = append(fs, finding("robots_ai_permissions.present", "robots.txt is served and parses", 2, b2i(parsed, 2), pev,
		"Serve a plain-text /robots.txt (200) with user-agent groups and rules; a server error there makes every crawler stay away."))

	grade := func(group string, pts int, id, title, fix string) Finding {
		list := AgentsIn(group)
		var blocked []string
		for _, a := range list {
			if !rb.Allowed(a.Token, "/") {
				blocked = append(blocked, a.Token)
			}
		}
		allowed := len(list) - len(blocked)
		earned := pts * allowed / len(list)
		e := fmt.Sprintf("%d of %d %s agents may fetch /", allowed, len(list), group)
		if len(blocked) > 0 {
			e += "; blocked: " + strings.Join(blocked, ", ")
		}
		if !parsed {
			e += " (" + robotsState(r) + ")"
		}
		return finding(id, title, pts, earned, e, fix)
	}
	fs = append(fs, grade(AgentSearch, 4, "robots_ai_permissions.search_agents", "AI search crawlers may fetch the site",
		"Allow the AI search crawlers (OAI-SearchBot, Claude-SearchBot, PerplexityBot, Applebot...): remove their Disallow: / or add a group \"User-agent: OAI-SearchBot\" with \"Allow: /\"."))
	fs = append(fs, grade(AgentUser, 3, "robots_ai_permissions.user_agents", "User-initiated AI fetchers may fetch the site",
		"Allow the fetchers that read a page when a person asks an assistant to (ChatGPT-User, Claude-User, Perplexity-User...)."))

	sm := len(rb.Sitemaps) > 0 && parsed
	smev := "no Sitemap line"
	if sm {
		smev = "Sitemap: " + excerptString(strings.Join(rb.Sitemaps, ", "))
	}
	fs = append(fs, finding("robots_ai_permissions.sitemap", "A Sitemap line", 1, b2i(sm, 1), smev,
		"Add \"Sitemap: https://example.com/sitemap.xml\" (an absolute URL) to robots.txt."))

	var blocked []string
	training := AgentsIn(AgentTraining)
	for _, a := range training {
		if !rb.Allowed(a.Token, "/") {
			blocked = append(blocked, a.Token)
		}
	}
	iev := fmt.Sprintf("%d of %d training crawlers blocked", len(blocked), len(training))
	if len(blocked) > 0 {
		iev += ": " + strings.Join(blocked, ", ")
	}
	iev += fmt.Sprintf(" (agents list %s). Blocking model training is the owner's choice and costs no points.", AgentsListVersion)
	fs = append(fs, infoFinding("robots_ai_permissions.training_agents", "AI training crawlers (information only)", iev))
	return result(CheckRobots, maxRobots, fs)
}

func robotsState(r *Response) string {
	switch {
	case r == nil || r.Err != "" || r.Status >= 500:
		return "robots.txt unreachable: all disallowed"
	case r.Status >= 300:
		return "robots.txt unavailable: all allowed"
	}
	return "robots.txt not parseable: read as allowing all"
}
