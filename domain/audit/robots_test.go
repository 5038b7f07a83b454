package audit

import "testing"

// The example file of RFC 9309 section 5.1.
const rfcExample = "User-Agent: *\nDisallow: *.gif$\nDisallow: /example/\nAllow: /publications/\n\nUser-Agent: foobot\nDisallow:/\nAllow:/example/page.html\nAllow:/example/allowed.gif\n\nUser-Agent: barbot\nUser-Agent: bazbot\nDisallow: /example/page.html\n\nUser-Agent: quxbot\n\nEOF\n"

func TestRobotsRFC9309(t *testing.T) {
	type tc struct {
		name, robots, agent, path string
		allowed                   bool
	}
	one := func(agentRules string) string { return "User-agent: *\n" + agentRules }
	cases := []tc{
		// Longest match wins (RFC 9309 2.2.2).
		{"longest allow wins", one("Allow: /p\nDisallow: /\n"), "x", "/page", true},
		{"longest disallow wins", one("Allow: /page\nDisallow: /*.html\n"), "x", "/page.html", false},
		{"equivalent: allow wins the tie", one("Allow: /folder\nDisallow: /folder\n"), "x", "/folder/page", true},
		{"$ root allowed", one("Allow: /$\nDisallow: /\n"), "x", "/", true},
		{"$ root only", one("Allow: /$\nDisallow: /\n"), "x", "/page.htm", false},
		// /fish (Google's and the RFC's examples).
		{"/fish matches /fish", one("Disallow: /fish\n"), "x", "/fish", false},
		{"/fish matches /fish.html", one("Disallow: /fish\n"), "x", "/fish.html", false},
		{"/fish matches /fishheads/yummy.html", one("Disallow: /fish\n"), "x", "/fishheads/yummy.html", false},
		{"/fish matches a query", one("Disallow: /fish\n"), "x", "/fish.php?id=anything", false},
		{"/fish is case-sensitive", one("Disallow: /fish\n"), "x", "/Fish.asp", true},
		{"/fish is a prefix only", one("Disallow: /fish\n"), "x", "/catfish", true},
		{"/fish not in the query", one("Disallow: /fish\n"), "x", "/?id=fish", true},
		{"/fish* equals /fish", one("Disallow: /fish*\n"), "x", "/fishheads", false},
		{"/fish* equals /fish (case)", one("Disallow: /fish*\n"), "x", "/Fish.html", true},
		{"/fish/ not /fish", one("Disallow: /fish/\n"), "x", "/fish", true},
		{"/fish/ matches /fish/?id", one("Disallow: /fish/\n"), "x", "/fish/?id=anything", false},
		{"/*.php anywhere", one("Disallow: /*.php\n"), "x", "/folder/any.php.file.html", false},
		{"/*.php case", one("Disallow: /*.php\n"), "x", "/windows.PHP", true},
		{"/*.php$ end", one("Disallow: /*.php$\n"), "x", "/folder/filename.php", false},
		{"/*.php$ not with a query", one("Disallow: /*.php$\n"), "x", "/filename.php?parameters", true},
		{"/*.php$ not php5", one("Disallow: /*.php$\n"), "x", "/filename.php5", true},
		{"/fish*.php", one("Disallow: /fish*.php\n"), "x", "/fishheads/catfish.php?parameters", false},
		{"empty disallow allows all", one("Disallow:\n"), "x", "/anything", true},
		{"no match allows", one("Disallow: /private\n"), "x", "/public", true},
		{"/robots.txt is always allowed", one("Disallow: /\n"), "x", "/robots.txt", true},
		// Groups.
		{"rfc example: foobot allowed page", rfcExample, "foobot", "/example/page.html", true},
		{"rfc example: foobot allowed gif", rfcExample, "foobot", "/example/allowed.gif", true},
		{"rfc example: foobot elsewhere", rfcExample, "foobot", "/other", false},
		{"rfc example: barbot page", rfcExample, "barbot", "/example/page.html", false},
		{"rfc example: bazbot shares the group", rfcExample, "bazbot", "/example/page.html", false},
		{"rfc example: barbot ignores * rules", rfcExample, "barbot", "/example/other", true},
		{"rfc example: quxbot's empty group allows", rfcExample, "quxbot", "/example/", true},
		{"rfc example: others get *", rfcExample, "otherbot", "/example/x", false},
		{"rfc example: * allow", rfcExample, "otherbot", "/publications/a", true},
		{"rfc example: *.gif$", rfcExample, "otherbot", "/images/a.gif", false},
		{"product token is case-insensitive", "User-agent: FooBot\nDisallow: /\n", "foobot", "/", false},
		{"agent line's version is cut", "User-agent: Googlebot/2.1 (+http://www.google.com/bot.html)\nDisallow: /\n", "Googlebot", "/", false},
		{"digits in a token (AI2Bot)", "User-agent: AI2Bot\nDisallow: /\n", "AI2Bot", "/", false},
		{"a longer token is another agent", "User-agent: Applebot-Extended\nDisallow: /\n", "Applebot", "/", true},
		{"matching groups are merged", "User-agent: a\nDisallow: /x\n\nUser-agent: b\nDisallow: /\n\nUser-agent: a\nDisallow: /y\n", "a", "/y/1", false},
		{"merged groups keep other paths", "User-agent: a\nDisallow: /x\n\nUser-agent: a\nDisallow: /y\n", "a", "/z", true},
		{"specific group beats *", "User-agent: *\nDisallow: /\n\nUser-agent: GPTBot\nAllow: /\n", "GPTBot", "/", true},
		{"rules before any user-agent are ignored", "Disallow: /\nUser-agent: *\nAllow: /x\n", "x", "/", true},
		{"no group at all allows", "Sitemap: https://example.com/s.xml\n", "x", "/", true},
		{"comments and CRLF", "User-agent: * # everyone\r\nDisallow: /private # keep out\r\n", "x", "/private/a", false},
		{"BOM", "\xef\xbb\xbfUser-agent: *\nDisallow: /\n", "x", "/a", false},
		{"unknown lines do not end a group", "User-agent: *\nCrawl-delay: 10\nDisallow: /a\n", "x", "/a", false},
		{"percent: unreserved decoded", one("Disallow: /%7Ejoe\n"), "x", "/~joe/index.html", false},
		{"percent: escapes compare upper-case", one("Disallow: /a%2fb\n"), "x", "/a%2Fb", false},
		{"percent: a reserved escape is not its character", one("Disallow: /a%2Fb\n"), "x", "/a/b", true},
		{"percent: UTF-8 pattern", one("Disallow: /ä\n"), "x", "/%C3%A4", false},
		{"case-insensitive keys", "USER-AGENT: *\nDISALLOW: /a\n", "x", "/a", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := ParseRobots([]byte(c.robots)).Allowed(c.agent, c.path); got != c.allowed {
				t.Errorf("Allowed(%q, %q) = %v, want %v\n%s", c.agent, c.path, got, c.allowed, c.robots)
			}
		})
	}
}

func TestRobotsFromResponse(t *testing.T) {
	cases := []struct {
		name    string
		r       *Response
		allowed bool
	}{
		{"4xx allows all", get("/robots.txt", 404, "text/html", "User-agent: *\nDisallow: /\n"), true},
		{"401 allows all", get("/robots.txt", 401, "", ""), true},
		{"5xx disallows all", get("/robots.txt", 503, "text/plain", ""), false},
		{"failure disallows all", failed("/robots.txt", "timeout"), false},
		{"nil disallows all", nil, false},
		{"3xx left over allows all", get("/robots.txt", 301, "", ""), true},
		{"200 is parsed", get("/robots.txt", 200, "text/plain", "User-agent: *\nDisallow: /\n"), false},
	}
	for _, c := range cases {
		if got := RobotsFromResponse(c.r).Allowed("GPTBot", "/page"); got != c.allowed {
			t.Errorf("%s: %v, want %v", c.name, got, c.allowed)
		}
	}
}

func TestRobotsSitemapsAndCounts(t *testing.T) {
	rb := ParseRobots([]byte("Sitemap: https://example.com/a.xml\nUser-agent: *\nUser-agent: b\nDisallow: /x\nSitemap: https://example.com/b.xml\nAllow: /x/y\n"))
	if len(rb.Sitemaps) != 2 || rb.Groups() != 1 || rb.Lines != 6 {
		t.Fatalf("sitemaps %v groups %d lines %d", rb.Sitemaps, rb.Groups(), rb.Lines)
	}
	// A sitemap line does not end the group: Allow: /x/y still belongs to it.
	if !rb.Allowed("b", "/x/y") || rb.Allowed("b", "/x/z") {
		t.Error("sitemap line split the group")
	}
}

func TestRobotsCheckPartial(t *testing.T) {
	s := excellent()
	s.Robots = get("/robots.txt", 200, "text/plain", "User-agent: ChatGPT-User\nDisallow: /\n\nUser-agent: *\nAllow: /\n")
	c := checkRobots(s)
	want := map[string]int{"robots_ai_permissions.present": 2, "robots_ai_permissions.search_agents": 4, "robots_ai_permissions.user_agents": 2, "robots_ai_permissions.sitemap": 0}
	for _, f := range c.Findings {
		if w, ok := want[f.ID]; ok && f.Earned != w {
			t.Errorf("%s earned %d, want %d (%s)", f.ID, f.Earned, w, f.Evidence)
		}
	}
	if c.Score != 8 {
		t.Errorf("score %d", c.Score)
	}
	// An HTML page at /robots.txt is not a robots.txt.
	s.Robots = get("/robots.txt", 200, "text/html", homeHTML())
	if c := checkRobots(s); c.Findings[0].Earned != 0 || c.Score != 7 {
		t.Errorf("html robots: %d, %+v", c.Score, c.Findings[0])
	}
}

func TestTrainingInfoFinding(t *testing.T) {
	s := excellent()
	s.Robots = get("/robots.txt", 200, "text/plain", "User-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n\nUser-agent: *\nAllow: /\nSitemap: https://example.com/s.xml\n")
	c := checkRobots(s)
	info := c.Findings[len(c.Findings)-1]
	if !info.Info || info.Points != 0 || info.ID != "robots_ai_permissions.training_agents" {
		t.Fatalf("%+v", info)
	}
	if c.Score != 10 || !contains(info.Evidence, "GPTBot, CCBot") || !contains(info.Evidence, AgentsListVersion) {
		t.Errorf("score %d, %s", c.Score, info.Evidence)
	}
}

func TestAgentsList(t *testing.T) {
	seen := map[string]bool{}
	groups := map[string]int{}
	for _, a := range Agents() {
		if a.Token == "" || a.Vendor == "" || seen[productToken(a.Token)] {
			t.Errorf("bad or duplicate agent %+v", a)
		}
		if productToken(a.Token) != toLower(a.Token) {
			t.Errorf("%s is not a product token", a.Token)
		}
		seen[productToken(a.Token)] = true
		groups[a.Group]++
	}
	for _, g := range []string{AgentTraining, AgentSearch, AgentUser} {
		if groups[g] == 0 {
			t.Errorf("no %s agents", g)
		}
	}
	if len(groups) != 3 {
		t.Errorf("groups %v", groups)
	}
}
