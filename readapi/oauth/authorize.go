package oauth

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	cmd "github.com/strata-platform/strata/commands/identity"
	ident "github.com/strata-platform/strata/domain/identity"
	"github.com/strata-platform/strata/domain/kernel"
)

// Cookies of the authorization server's pages; both live under /oauth only.
const (
	sessionCookie = "strata_session"
	csrfCookie    = "strata_csrf"
)

// authorizeRequest reads the authorization parameters of q. A parameter
// given twice is refused (RFC 6749 section 3.1).
func authorizeRequest(q url.Values) (cmd.AuthorizeRequest, string) {
	for k, v := range q {
		if len(v) > 1 && k != "resource" {
			return cmd.AuthorizeRequest{ClientID: q.Get("client_id"), RedirectURI: q.Get("redirect_uri"), State: q.Get("state")}, k
		}
	}
	return cmd.AuthorizeRequest{ResponseType: q.Get("response_type"), ClientID: q.Get("client_id"),
		RedirectURI: q.Get("redirect_uri"), Scope: q.Get("scope"), State: q.Get("state"),
		CodeChallenge: q.Get("code_challenge"), CodeChallengeMethod: q.Get("code_challenge_method"),
		Resources: q["resource"], Nonce: q.Get("nonce"), Prompt: q.Get("prompt")}, ""
}

// check validates the authorization request in q. It writes the answer
// itself (an error page, or a redirect with the error) and returns false
// when the request cannot go on.
func (h *handlers) check(w http.ResponseWriter, r *http.Request, q url.Values) (cmd.Authorization, bool) {
	req, repeated := authorizeRequest(q)
	a, err := h.svc.CheckAuthorize(req)
	if err == nil && repeated != "" {
		err = invalidRequest("parameter " + repeated + " is repeated")
	}
	if err == nil {
		return a, true
	}
	if a.RedirectURI == "" {
		var ke *kernel.Error
		msg := "the authorization request is invalid"
		if errors.As(err, &ke) {
			msg = ke.Message
		}
		errorPage(w, r, http.StatusBadRequest, "Invalid authorization request", msg)
		return a, false
	}
	var oe *ident.OAuthError
	if !errors.As(err, &oe) {
		oe = &ident.OAuthError{Code: "server_error", Description: "the request could not be processed"}
	}
	h.redirect(w, r, a, url.Values{"error": {oe.Code}, "error_description": {oe.Description}})
	return a, false
}

// redirect sends the browser back to the client with params, the state and
// the issuer (RFC 9207), keeping any query the redirect URI has.
func (h *handlers) redirect(w http.ResponseWriter, r *http.Request, a cmd.Authorization, params url.Values) {
	u, _ := url.Parse(a.RedirectURI) // registered URIs parse
	q := u.Query()
	for k, v := range params {
		q[k] = v
	}
	if a.State != "" {
		q.Set("state", a.State)
	}
	q.Set("iss", h.issuer)
	u.RawQuery = q.Encode()
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, u.String(), http.StatusSeeOther)
}

// authorize is GET /oauth/authorize: the sign-in page, or the consent page
// for a browser that is signed in.
func (h *handlers) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	a, ok := h.check(w, r, q)
	if !ok {
		return
	}
	u, _, signedIn := h.session(r)
	switch {
	case a.Prompt == "none" && !signedIn:
		h.redirect(w, r, a, url.Values{"error": {"login_required"}, "error_description": {"the user is not signed in"}})
	case a.Prompt == "none":
		h.redirect(w, r, a, url.Values{"error": {"consent_required"}, "error_description": {"consent is asked every time"}})
	case !signedIn || a.Prompt == "login":
		h.loginPage(w, r, http.StatusOK, a, q, "", "")
	default:
		h.consentPage(w, r, a, q, u)
	}
}

func (h *handlers) session(r *http.Request) (ident.User, time.Time, bool) {
	c, err := r.Cookie(sessionCookie)
	if err != nil {
		return ident.User{}, time.Time{}, false
	}
	return h.svc.OpenSession(c.Value)
}

// csrf returns the form token for this browser, setting its CSRF cookie
// when it has none.
func (h *handlers) csrf(w http.ResponseWriter, r *http.Request) string {
	if c, err := r.Cookie(csrfCookie); err == nil && len(c.Value) >= 32 {
		return h.svc.Browser().CSRFToken(c.Value)
	}
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic("crypto/rand failed: " + err.Error())
	}
	v := base64.RawURLEncoding.EncodeToString(b)
	http.SetCookie(w, &http.Cookie{Name: csrfCookie, Value: v, Path: "/oauth", HttpOnly: true,
		Secure: h.secure(), SameSite: http.SameSiteStrictMode})
	return h.svc.Browser().CSRFToken(v)
}

// checkCSRF reports whether a POST carries the token of its CSRF cookie.
func (h *handlers) checkCSRF(r *http.Request) bool {
	c, err := r.Cookie(csrfCookie)
	return err == nil && h.svc.Browser().CheckCSRF(c.Value, r.PostForm.Get("csrf_token"))
}

func (h *handlers) secure() bool { return strings.HasPrefix(h.issuer, "https://") }

func (h *handlers) loginPage(w http.ResponseWriter, r *http.Request, status int, a cmd.Authorization, q url.Values, email, msg string) {
	render(w, r, status, "login.html", pageData{Title: "Sign in", ClientName: clientName(a.Client), CSRF: h.csrf(w, r),
		Request: q.Encode(), Email: email, Error: msg}, "")
}

func (h *handlers) consentPage(w http.ResponseWriter, r *http.Request, a cmd.Authorization, q url.Values, u ident.User) {
	var lines []scopeLine
	for _, s := range strings.Fields(a.Scope) {
		lines = append(lines, scopeLine{Name: s, Description: scopeDescriptions[s]})
	}
	render(w, r, http.StatusOK, "consent.html", pageData{Title: "Authorize", ClientName: clientName(a.Client), CSRF: h.csrf(w, r),
		Request: q.Encode(), Email: u.Email, Scopes: lines, RedirectHost: origin(a.RedirectURI)}, origin(a.RedirectURI))
}

func clientName(c ident.OAuthClient) string {
	if c.Name != "" {
		return c.Name
	}
	return c.ID
}

// postForm parses a page's POST, checks its CSRF token and the
// authorization request it carries. It answers itself when it returns false.
func (h *handlers) postForm(w http.ResponseWriter, r *http.Request) (cmd.Authorization, url.Values, bool) {
	if err := r.ParseForm(); err != nil {
		errorPage(w, r, http.StatusBadRequest, "Invalid form", "the form could not be read")
		return cmd.Authorization{}, nil, false
	}
	if !h.checkCSRF(r) {
		errorPage(w, r, http.StatusForbidden, "Form expired", "the form's security token is missing or does not match this browser; go back, reload the page and try again")
		return cmd.Authorization{}, nil, false
	}
	q, err := url.ParseQuery(r.PostForm.Get("request"))
	if err != nil {
		errorPage(w, r, http.StatusBadRequest, "Invalid authorization request", "the authorization request could not be read")
		return cmd.Authorization{}, nil, false
	}
	a, ok := h.check(w, r, q)
	return a, q, ok
}

// login is POST /oauth/login: email and password from the sign-in page.
func (h *handlers) login(w http.ResponseWriter, r *http.Request) {
	a, q, ok := h.postForm(w, r)
	if !ok {
		return
	}
	email := r.PostForm.Get("email")
	u, err := h.svc.CheckPassword(r.Context(), email, r.PostForm.Get("password"), clientAddr(r))
	var th *cmd.Throttled
	switch {
	case errors.As(err, &th):
		w.Header().Set("Retry-After", retryAfter(th.RetryAfter))
		h.loginPage(w, r, http.StatusTooManyRequests, a, q, email, th.Message)
		return
	case kernel.KindOf(err) == kernel.KindUnauthenticated || kernel.KindOf(err) == kernel.KindInvalid:
		h.loginPage(w, r, http.StatusUnauthorized, a, q, email, "Incorrect email or password.")
		return
	case err != nil:
		errorPage(w, r, http.StatusServiceUnavailable, "Sign-in unavailable", "signing in failed; try again shortly")
		return
	}
	value, exp := h.svc.Browser().SealSession(u, h.svc.Now())
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: value, Path: "/oauth", Expires: exp, HttpOnly: true,
		Secure: h.secure(), SameSite: http.SameSiteLaxMode})
	if q.Get("prompt") == "login" {
		q.Del("prompt") // satisfied: the user just signed in
	}
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, "/oauth/authorize?"+q.Encode(), http.StatusSeeOther)
}

// consent is POST /oauth/consent: Allow issues a code, Deny answers
// access_denied; both go back to the client with 303.
func (h *handlers) consent(w http.ResponseWriter, r *http.Request) {
	a, q, ok := h.postForm(w, r)
	if !ok {
		return
	}
	u, authTime, signedIn := h.session(r)
	if !signedIn {
		http.Redirect(w, r, "/oauth/authorize?"+q.Encode(), http.StatusSeeOther)
		return
	}
	switch r.PostForm.Get("decision") {
	case "allow":
		code, err := h.svc.GrantAuthorization(r.Context(), a, u.ID, authTime)
		if err != nil {
			errorPage(w, r, http.StatusServiceUnavailable, "Authorization failed", "the authorization could not be recorded; try again")
			return
		}
		h.redirect(w, r, a, url.Values{"code": {code}})
	case "deny":
		if err := h.svc.DenyAuthorization(r.Context(), a, u.ID); err != nil {
			errorPage(w, r, http.StatusServiceUnavailable, "Authorization failed", "your answer could not be recorded; try again")
			return
		}
		h.redirect(w, r, a, url.Values{"error": {"access_denied"}, "error_description": {"the user denied access"}})
	default:
		errorPage(w, r, http.StatusBadRequest, "Invalid form", "choose Allow or Deny")
	}
}

func retryAfter(d time.Duration) string {
	s := int(d.Seconds() + 0.999)
	if s < 1 {
		s = 1
	}
	return strconv.Itoa(s)
}
