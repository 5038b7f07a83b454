package discovery

import (
	"encoding/json"
	"html"
	"strings"
)

const (
	apiName    = "Strata platform API"
	apiSummary = "Strata's platform API: identity and API keys, an OAuth 2.1 / OpenID Connect provider, community events, memory v2 with an MCP server, the inference gateway (model catalog, chat, embeddings, credits), payments, the agent-readiness audit and the internal agent briefing. Errors are RFC 9457 problem details."
)

// area is one part of the API, as llms.txt and the home page list it.
type area struct {
	title, tag, notes string
}

var areas = []area{
	{"Identity and sessions", "Identity", "register, sign in (session JWTs), refresh, /auth/me, passwords, sign-in with the code host or the professional network"},
	{"API keys", "API keys", "create, list and revoke sk_live_/sk_test_ keys; verify a key; a 72-hour tmp_ trial key for agents"},
	{"Organizations", "Organizations", "workspaces, members and invitations"},
	{"OAuth 2.1 and OpenID Connect", "OAuth", "RFC 8414 and RFC 9728 metadata, dynamic client registration, authorization code with PKCE, tokens, userinfo, revocation, introspection"},
	{"Community events", "Community", "events, RSVPs with capacity and waitlists, calendar export and feeds, comments and moderation"},
	{"Memory", "Memory", "remember, recall, forget, the temporal entity graph, reflection, profiles, context synthesis, and an MCP server at /mcp"},
	{"Inference gateway", "Gateway", "the model catalog, chat in the OpenAI and messages formats, embeddings, credits and usage"},
	{"Payments", "Payments", "subscriptions through hosted checkout, the billing portal and payment history"},
	{"Agent-readiness audit", "Audit", "scan a site's agent-readiness (public by default, rate limited; an operator may gate reports, benchmarks and leads by audit plan): quick scans, reports, benchmarks, badges"},
	{"Data marketplace", "Data", "imported datasets in file order with search, filters and version pins, seed data, industries, lead scores with evidence, DCAT-US metadata (public, 60 requests a minute)"},
	{"Agent briefing (internal)", "Briefing", "observations in, signals, correlations, the market regime and trending companies out, for Strata's own agents (X-Internal-API-Key)"},
}

func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
			dash = false
		} else if !dash {
			b.WriteByte('-')
			dash = true
		}
	}
	return b.String()
}

// docsSection is the documentation page's section of a tag.
func docsSection(base, tag string) string { return base + PathDocs + "#tag-" + slug(tag) }

// llmsTxt is /llms.txt in the llmstxt.org format.
func llmsTxt(base string) []byte {
	var b strings.Builder
	b.WriteString("# " + apiName + "\n\n")
	b.WriteString("> " + apiSummary + "\n\n")
	b.WriteString("Authenticate with `Authorization: Bearer <JWT>` (POST /api/v1/auth/login), `X-API-Key: <key>`, or an OAuth access token on the routes a scope grants. ")
	b.WriteString("A request without credentials to a protected route is 401 with `WWW-Authenticate: Bearer realm=\"strata\", resource_metadata=...`; every error is `application/problem+json`.\n\n")
	b.WriteString("## Start here\n\n")
	b.WriteString("- [OpenAPI description](" + base + PathOpenAPI + "): OpenAPI 3.1, every route of the platform API with its security and errors\n")
	b.WriteString("- [Interactive documentation](" + base + PathDocs + "): the description rendered, with a Try it form per operation\n")
	b.WriteString("- [API catalog](" + base + PathAPICatalog + "): RFC 9727 linkset naming the API, its description and its documentation\n")
	b.WriteString("- [OAuth protected resource metadata](" + base + "/.well-known/oauth-protected-resource): RFC 9728, where agents find the authorization server\n")
	b.WriteString("- [OAuth authorization server metadata](" + base + "/.well-known/oauth-authorization-server): RFC 8414 endpoints, scopes and PKCE\n\n")
	b.WriteString("## API areas\n\n")
	for _, a := range areas {
		b.WriteString("- [" + a.title + "](" + docsSection(base, a.tag) + "): " + a.notes + "\n")
	}
	b.WriteString("\n## Optional\n\n")
	b.WriteString("- [Health](" + base + "/health): readiness of the API (database and projectors)\n")
	b.WriteString("- [Token signing keys](" + base + "/.well-known/jwks.json): the RS256 public keys (JWKS)\n")
	b.WriteString("- [OpenID Connect discovery](" + base + "/.well-known/openid-configuration): the provider's metadata\n")
	b.WriteString("- [Sitemap](" + base + PathSitemap + "): the public pages\n")
	return []byte(b.String())
}

// robotsTxt allows every crawler and agent everywhere but the OAuth
// browser pages (nothing to index there), and names the sitemap.
func robotsTxt(base string) []byte {
	return []byte("# Strata platform API: agents and crawlers are welcome.\n" +
		"# The API itself needs credentials; the description is at /openapi.json and /llms.txt.\n" +
		"User-agent: *\n" +
		"Allow: /\n" +
		"Disallow: /oauth/\n" +
		"\n" +
		"Sitemap: " + base + PathSitemap + "\n")
}

// sitemap lists the public pages and documents.
func sitemap(base string) []byte {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for _, p := range []string{PathHome, PathDocs, PathLLMsTxt, PathOpenAPI, PathAPICatalog} {
		b.WriteString("  <url><loc>" + html.EscapeString(base+p) + "</loc></url>\n")
	}
	b.WriteString("</urlset>\n")
	return []byte(b.String())
}

type catalogLink struct {
	Href  string `json:"href"`
	Type  string `json:"type,omitempty"`
	Title string `json:"title,omitempty"`
}

type catalogEntry struct {
	Anchor      string        `json:"anchor"`
	ServiceDesc []catalogLink `json:"service-desc"`
	ServiceDoc  []catalogLink `json:"service-doc"`
	Status      []catalogLink `json:"status"`
	ServiceMeta []catalogLink `json:"service-meta"`
}

// apiCatalog is the RFC 9727 api-catalog (an RFC 9264 linkset).
func apiCatalog(base string) []byte {
	entry := catalogEntry{
		Anchor:      base + "/api/v1",
		ServiceDesc: []catalogLink{{Href: base + PathOpenAPI, Type: "application/openapi+json", Title: apiName + " (OpenAPI 3.1)"}},
		ServiceDoc: []catalogLink{
			{Href: base + PathDocs, Type: "text/html", Title: apiName + " documentation"},
			{Href: base + PathLLMsTxt, Type: "text/plain", Title: "llms.txt"},
		},
		Status:      []catalogLink{{Href: base + "/health", Type: "application/json"}},
		ServiceMeta: []catalogLink{{Href: base + "/.well-known/oauth-protected-resource", Type: "application/json", Title: "OAuth protected resource metadata (RFC 9728)"}},
	}
	out, _ := json.MarshalIndent(map[string]any{"linkset": []catalogEntry{entry}}, "", "  ")
	return append(out, '\n')
}

// jsonLD is the home page's structured data: the website, the
// organization and the Web API.
func jsonLD(base string) []any {
	org := map[string]any{"@type": "Organization", "@id": base + "/#organization", "name": "Strata", "url": base + "/"}
	return []any{
		map[string]any{"@context": "https://schema.org", "@type": "WebSite", "@id": base + "/#website", "name": apiName, "url": base + "/",
			"description": apiSummary, "publisher": map[string]any{"@id": base + "/#organization"}},
		map[string]any{"@context": "https://schema.org", "@type": "WebAPI", "@id": base + "/#api", "name": apiName, "url": base + "/api/v1",
			"description": apiSummary, "documentation": base + PathDocs, "provider": org,
			"hasPart": []any{map[string]any{"@type": "CreativeWork", "name": "OpenAPI description", "encodingFormat": "application/openapi+json", "url": base + PathOpenAPI}}},
	}
}

// homeHTML is the home page.
func homeHTML(base string) []byte {
	e := html.EscapeString
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
	b.WriteString("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
	b.WriteString("<title>" + e(apiName) + "</title>\n")
	b.WriteString("<meta name=\"description\" content=\"" + e(apiSummary) + "\">\n")
	b.WriteString("<link rel=\"service-desc\" type=\"application/openapi+json\" href=\"" + PathOpenAPI + "\">\n")
	b.WriteString("<link rel=\"service-doc\" type=\"text/html\" href=\"" + PathDocs + "\">\n")
	b.WriteString("<link rel=\"api-catalog\" type=\"application/linkset+json\" href=\"" + PathAPICatalog + "\">\n")
	for _, block := range jsonLD(base) {
		raw, _ := json.Marshal(block) // json.Marshal escapes <, > and &, so no </script> can appear
		b.WriteString("<script type=\"application/ld+json\">" + string(raw) + "</script>\n")
	}
	b.WriteString("</head>\n<body>\n<main>\n<h1>" + e(apiName) + "</h1>\n<p>" + e(apiSummary) + "</p>\n")
	b.WriteString("<h2>For developers and agents</h2>\n<ul>\n")
	for _, l := range [][2]string{
		{PathDocs, "Interactive documentation"},
		{PathOpenAPI, "OpenAPI 3.1 description"},
		{PathLLMsTxt, "llms.txt"},
		{PathAPICatalog, "API catalog (RFC 9727)"},
		{"/.well-known/oauth-protected-resource", "OAuth protected resource metadata (RFC 9728)"},
		{"/.well-known/oauth-authorization-server", "OAuth authorization server metadata (RFC 8414)"},
		{"/health", "Health"},
	} {
		b.WriteString("<li><a href=\"" + e(l[0]) + "\">" + e(l[1]) + "</a></li>\n")
	}
	b.WriteString("</ul>\n<h2>What the API does</h2>\n<ul>\n")
	for _, a := range areas {
		b.WriteString("<li><a href=\"" + e(PathDocs+"#tag-"+slug(a.tag)) + "\">" + e(a.title) + "</a>: " + e(a.notes) + "</li>\n")
	}
	b.WriteString("</ul>\n<p>Authenticate with <code>Authorization: Bearer &lt;JWT&gt;</code>, <code>X-API-Key</code>, or an OAuth access token. ")
	b.WriteString("Errors are RFC 9457 problem details (<code>application/problem+json</code>).</p>\n</main>\n</body>\n</html>\n")
	return []byte(b.String())
}

// homeJSON is the home page for clients that ask for JSON.
func homeJSON(base string) []byte {
	type link struct {
		Href  string `json:"href"`
		Title string `json:"title"`
	}
	var areaLinks []link
	for _, a := range areas {
		areaLinks = append(areaLinks, link{Href: docsSection(base, a.tag), Title: a.title})
	}
	out, _ := json.MarshalIndent(map[string]any{
		"name":        apiName,
		"description": apiSummary,
		"api":         base + "/api/v1",
		"links": map[string]link{
			"service-desc":  {Href: base + PathOpenAPI, Title: "OpenAPI 3.1 description"},
			"service-doc":   {Href: base + PathDocs, Title: "Interactive documentation"},
			"api-catalog":   {Href: base + PathAPICatalog, Title: "API catalog (RFC 9727)"},
			"llms-txt":      {Href: base + PathLLMsTxt, Title: "llms.txt"},
			"resource-meta": {Href: base + "/.well-known/oauth-protected-resource", Title: "OAuth protected resource metadata (RFC 9728)"},
			"authorization": {Href: base + "/.well-known/oauth-authorization-server", Title: "OAuth authorization server metadata (RFC 8414)"},
			"health":        {Href: base + "/health", Title: "Health"},
		},
		"areas": areaLinks,
	}, "", "  ")
	return append(out, '\n')
}
