package audit

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

const maxErrors = 15

// checkErrors scores agent-friendly errors (15 points). The audit reads
// the errors its probes provoke (no credentials, a path that cannot
// exist, a method not allowed); it never floods a site to provoke a 429.
func checkErrors(s Snapshot) CheckResult {
	var fs []Finding

	nf := s.NotFound
	npts, nev := 0, describeBody(nf)
	if nf != nil && nf.Err == "" {
		switch {
		case nf.Status == http.StatusNotFound || nf.Status == http.StatusGone:
			npts = 4
		case nf.Status >= 200 && nf.Status < 300:
			if redirectedHome(nf) {
				nev += "; redirected to the home page (a soft 404)"
			} else {
				nev += "; a page that cannot exist answered 2xx (a soft 404)"
			}
		case nf.Status >= 300 && nf.Status < 400:
			nev += "; redirect instead of 404"
		case nf.Status >= 400 && nf.Status < 500:
			npts, nev = 2, nev+"; an error, but not 404"
		default:
			nev += "; a server error for a missing page"
		}
	}
	fs = append(fs, finding("agent_friendly_errors.real_404", "A missing page answers 404", 4, npts, nev,
		"Answer 404 Not Found (or 410 Gone) for paths that do not exist, without redirecting to the home page or answering 200."))

	errs := errorResponses(s)
	machine, act := 0, 0
	var seen []string
	for _, r := range errs {
		eb := readErrorBody(r)
		tag := fmt.Sprintf("%d %s", r.Status, eb.Signature)
		if eb.Machine {
			machine++
			if actionable(eb.Detail, r.Status) {
				act++
				tag += fmt.Sprintf(" (%q)", excerptString(eb.Detail))
			} else if eb.Detail != "" {
				tag += fmt.Sprintf(" (only %q)", excerptString(eb.Detail))
			}
		}
		seen = append(seen, tag)
	}
	list := strings.Join(seen, "; ")
	if list == "" {
		list = "no error responses observed"
	}
	mpts := 0
	switch {
	case len(errs) > 0 && machine == len(errs):
		mpts = 4
	case machine > 0:
		mpts = 2
	}
	fs = append(fs, finding("agent_friendly_errors.machine_readable", "Error bodies are machine-readable (RFC 9457, or a code and a message)", 4, mpts,
		fmt.Sprintf("%d of %d error responses machine-readable: %s", machine, len(errs), excerptString(list)),
		"Answer errors as application/problem+json (RFC 9457: type, title, status, detail) or at least JSON with a stable code and a message."))

	apts := 0
	if len(errs) > 0 {
		apts = 3 * act / len(errs)
	}
	fs = append(fs, finding("agent_friendly_errors.actionable", "Errors say what went wrong and what to do", 3, apts,
		fmt.Sprintf("%d of %d error responses carry a detail beyond the status phrase", act, len(errs)),
		"Put a specific, actionable detail in every error (\"Missing bearer token: send Authorization: Bearer <key>, see /docs/auth\"), not only the status phrase."))

	trace, errBodies := "", 0
	for _, r := range allResponses(s) {
		if r.Err != "" || r.Status < 400 {
			continue
		}
		errBodies++
		if name, ex := stackTrace(r.Body); name != "" {
			trace = fmt.Sprintf("%s in %s %d: %q", name, r.URL, r.Status, ex)
			break
		}
	}
	tev := fmt.Sprintf("no stack trace or debug page in the %d error %s observed", errBodies, plural(errBodies, "body", "bodies"))
	switch {
	case trace != "":
		tev = trace
	case errBodies == 0:
		tev = "no error response observed: nothing to judge"
	}
	fs = append(fs, finding("agent_friendly_errors.no_stack_traces", "No stack traces or debug pages in errors", 2, b2i(trace == "" && errBodies > 0, 2), tev,
		"Turn debug output off in production and log traces server-side; return a problem document with a correlation id instead."))

	w := s.WrongMethod
	wpts, wev := 0, describe(w)
	if w != nil && w.Err == "" {
		allow := ""
		if w.Header != nil {
			allow = strings.Join(w.Header.Values("Allow"), ", ")
		}
		switch {
		case w.Status == http.StatusMethodNotAllowed && strings.TrimSpace(allow) != "":
			wpts, wev = 2, wev+"; Allow: "+excerptString(allow)
		case w.Status == http.StatusMethodNotAllowed:
			wpts, wev = 1, wev+"; no Allow header"
		default:
			wev += "; expected 405 Method Not Allowed"
		}
	}
	fs = append(fs, finding("agent_friendly_errors.method_not_allowed", "A wrong method gets 405 with Allow", 2, wpts, wev,
		"Answer a method a resource does not support with 405 Method Not Allowed and an Allow header listing the methods it does (RFC 9110 15.5.6)."))
	return result(CheckErrors, maxErrors, fs)
}

// redirectedHome: the request was redirected to the site's root.
func redirectedHome(r *Response) bool {
	if r.Final == "" || r.Final == r.URL {
		return false
	}
	u, err := url.Parse(r.Final)
	return err == nil && (u.Path == "" || u.Path == "/")
}
