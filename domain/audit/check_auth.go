package audit

import (
	"fmt"
	"sort"
	"strings"
)

const maxAuth = 15

// checkAuth scores API authentication clarity (15 points).
//
// What can be observed without credentials: the answer to one request
// without credentials (Unauthenticated), its WWW-Authenticate header, the
// description's security schemes, the OAuth metadata documents. What
// cannot: how the API answers valid credentials, or a valid token lacking
// rights (the 403 case): the audit never sends credentials.
func checkAuth(s Snapshot) CheckResult { return authCheck(s, parseSnapshotSpec(s)) }

func authCheck(s Snapshot, ps parsedSpec) CheckResult {
	r := s.Unauthenticated
	var fs []Finding
	ev := describeBody(r)
	st := 0
	if r != nil && r.Err == "" {
		st = r.Status
	}
	upts := 0
	switch {
	case st == 401:
		upts = 4
	case st == 403:
		upts = 1
	}
	uev := ev
	switch {
	case st == 403:
		uev += "; 403 says forbidden, but no credentials were sent: that is 401"
	case st >= 200 && st < 300:
		uev += "; answered without credentials"
	}
	fs = append(fs, finding("api_authentication.unauthenticated_401", "A request without credentials gets 401", 4, upts, uev,
		"Answer requests to protected operations that carry no credentials with 401 Unauthorized (not 200, 403, 404 or 500)."))

	wa := ""
	if r != nil && r.Header != nil {
		wa = strings.TrimSpace(strings.Join(r.Header.Values("WWW-Authenticate"), ", "))
	}
	scheme := authScheme(wa)
	wpts, wev := 0, ""
	switch {
	case st != 401:
		wev = "no 401 to read a WWW-Authenticate header from"
	case scheme == "":
		wev = "401 without a WWW-Authenticate scheme"
		if wa != "" {
			wev += fmt.Sprintf(" (%q)", excerptString(wa))
		}
	default:
		wpts = 4
		wev = fmt.Sprintf("WWW-Authenticate: %s", excerptString(wa))
	}
	fs = append(fs, finding("api_authentication.www_authenticate", "The 401 names its scheme in WWW-Authenticate", 4, wpts, wev,
		"Send WWW-Authenticate with the scheme on every 401, e.g. Bearer realm=\"api\", resource_metadata=\"https://example.com/.well-known/oauth-protected-resource\" (RFC 9110 11.6.1, RFC 9728)."))

	spts, sev := 0, "no parsed description"
	if ps.doc != nil {
		var names []string
		if ps.doc.Components != nil {
			for n := range ps.doc.Components.SecuritySchemes {
				names = append(names, n)
			}
		}
		sort.Strings(names)
		secured := 0
		ops := allOperations(ps.doc)
		for _, o := range ops {
			if o.secured {
				secured++
			}
		}
		switch {
		case len(names) > 0 && secured > 0:
			spts = 3
		case len(names) > 0:
			spts = 2
		}
		sev = fmt.Sprintf("security schemes: %s; %d of %d operations require one", strOrNone(names), secured, len(ops))
	}
	fs = append(fs, finding("api_authentication.security_schemes", "The description declares its security schemes and applies them", 3, spts, sev,
		"Declare components.securitySchemes (http bearer, apiKey, oauth2...) and a security requirement on the document or the protected operations."))

	opts, oev := oauthMetadata(s.AuthServerMeta, s.ProtectedMeta)
	fs = append(fs, finding("api_authentication.oauth_metadata", "OAuth metadata (RFC 8414 or RFC 9728) is served", 3, opts, oev,
		"Serve /.well-known/oauth-protected-resource (RFC 9728: {\"resource\": ..., \"authorization_servers\": [...]}) and, with OAuth, /.well-known/oauth-authorization-server (RFC 8414: issuer, endpoints)."))

	dpts, dev := 0, ""
	documents401 := ps.doc == nil
	if ps.doc != nil {
		for _, o := range allOperations(ps.doc) {
			if o.op.Responses != nil && o.op.Responses.Value("401") != nil {
				documents401 = true
				break
			}
		}
	}
	switch {
	case st == 401 && documents401:
		dpts = 1
		dev = "missing credentials answered 401, not 403"
		if ps.doc != nil {
			dev += "; the description documents 401"
		}
	case st == 401:
		dev = "missing credentials answered 401, but no operation of the description documents a 401 response"
	case st == 403:
		dev = "missing credentials answered 403 (that is for credentials without the right)"
	default:
		dev = fmt.Sprintf("no 401 observed (%s)", describe(r))
	}
	dev += "; a 403 for valid credentials lacking rights cannot be observed without credentials"
	fs = append(fs, finding("api_authentication.401_vs_403", "401 (no or bad credentials) kept distinct from 403 (not allowed)", 1, dpts, dev,
		"Use 401 when credentials are missing or invalid and 403 only when valid credentials lack the right; document both responses."))
	return result(CheckAuth, maxAuth, fs)
}

func strOrNone(l []string) string {
	if len(l) == 0 {
		return "(none)"
	}
	return strings.Join(l, ", ")
}

// authScheme is the first auth-scheme token of a WWW-Authenticate value.
func authScheme(v string) string {
	v = strings.TrimSpace(v)
	end := 0
	for end < len(v) {
		c := v[end]
		if c == ' ' || c == ',' || c == '=' || c == '\t' || c == '"' {
			break
		}
		end++
	}
	if end < len(v) && v[end] == '=' {
		return "" // a parameter, not a scheme
	}
	return v[:end]
}

// oauthMetadata: 3 when either document is JSON with its required member
// (RFC 8414 issuer; RFC 9728 resource); 1 when one is served but not
// valid; 0 when neither is.
func oauthMetadata(as, pr *Response) (int, string) {
	var parts []string
	best := 0
	check := func(r *Response, name, member string) {
		if r == nil {
			parts = append(parts, name+": not fetched")
			return
		}
		if !r.OK() {
			parts = append(parts, name+": "+describe(r))
			return
		}
		v, ok := jsonBody(r)
		m, isObj := v.(map[string]any)
		if !ok || !isObj {
			parts = append(parts, describeBody(r)+"; not a JSON object")
			best = max(best, 1)
			return
		}
		if s, _ := m[member].(string); strings.TrimSpace(s) == "" {
			parts = append(parts, fmt.Sprintf("%s: JSON without %q", r.URL, member))
			best = max(best, 1)
			return
		}
		parts = append(parts, fmt.Sprintf("%s: JSON with %s %q", r.URL, member, excerptString(m[member].(string))))
		best = 3
	}
	check(as, "oauth-authorization-server", "issuer")
	check(pr, "oauth-protected-resource", "resource")
	return best, strings.Join(parts, "; ")
}
