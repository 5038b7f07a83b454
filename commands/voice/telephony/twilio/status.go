package twilio

import (
	"crypto/hmac"
	"crypto/sha1"
	"encoding/base64"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"
)

// SignatureHeader is the header Twilio signs its requests in.
const SignatureHeader = "X-Twilio-Signature"

// Signature is Twilio's request signature: the base64 HMAC-SHA1, keyed
// with the auth token, of the full URL Twilio requested (query included)
// followed by each POST parameter's name and value, the names sorted (a
// repeated name contributes each of its values, sorted).
func Signature(authToken, fullURL string, params url.Values) string {
	names := make([]string, 0, len(params))
	for k := range params {
		names = append(names, k)
	}
	sort.Strings(names)
	m := hmac.New(sha1.New, []byte(authToken))
	m.Write([]byte(fullURL))
	for _, k := range names {
		vs := append([]string(nil), params[k]...)
		sort.Strings(vs)
		for _, v := range vs {
			m.Write([]byte(k))
			m.Write([]byte(v))
		}
	}
	return base64.StdEncoding.EncodeToString(m.Sum(nil))
}

// StatusHandler serves Config.StatusCallbackURL: Twilio's call, recording
// and message status callbacks. A request without a valid
// X-Twilio-Signature gets 403; a callback for a call this process does not
// know (already ended, or placed by another process) is acknowledged and
// ignored.
func (p *Provider) StatusHandler() http.Handler {
	return http.HandlerFunc(p.serveStatus)
}

func (p *Provider) serveStatus(w http.ResponseWriter, r *http.Request) {
	if !p.webhook(w, r, p.cfg.StatusCallbackURL, "status callback") {
		return
	}
	f := r.PostForm
	callSid := f.Get("CallSid")
	if callSid == "" && f.Get("MessageSid") != "" {
		if p.cfg.OnMessageStatus != nil {
			p.cfg.OnMessageStatus(MessageStatus{ProviderID: f.Get("MessageSid"),
				Status: f.Get("MessageStatus"), ErrorCode: f.Get("ErrorCode")})
		}
		w.WriteHeader(http.StatusNoContent)
		return
	}
	p.mu.Lock()
	c := p.byToken[r.URL.Query().Get("strata_call")]
	if c == nil && callSid != "" {
		c = p.bySid[callSid]
	}
	p.mu.Unlock()
	if c == nil && callSid != "" && p.inboundStatus(callSid, f.Get("CallStatus")) {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	if c == nil {
		p.log.Debug("twilio: status callback for an unknown call", "sid", callSid, "status", f.Get("CallStatus"))
		w.WriteHeader(http.StatusNoContent)
		return
	}
	switch {
	case f.Get("RecordingSid") != "" || f.Get("RecordingUrl") != "" || f.Get("RecordingStatus") != "":
		c.recordingUpdate(callSid, f.Get("RecordingStatus"), f.Get("RecordingUrl"))
	case f.Get("CallStatus") != "":
		u := statusUpdate{CallSid: callSid, Status: f.Get("CallStatus"), At: p.now()}
		u.SIPCode, _ = strconv.Atoi(f.Get("SipResponseCode"))
		if d, err := strconv.Atoi(f.Get("CallDuration")); err == nil && d > 0 {
			u.Duration = time.Duration(d) * time.Second
		}
		if t, err := time.Parse(time.RFC1123Z, f.Get("Timestamp")); err == nil {
			u.At = t
		}
		c.status(u)
	}
	w.WriteHeader(http.StatusNoContent)
}

// validSignature checks X-Twilio-Signature against the URL Twilio posted
// to: the configured public URL's origin and path (we may sit behind a
// proxy that rewrites them) with the request's query, tried as written,
// without the default port and with it (Twilio's own libraries accept
// either).
func (p *Provider) validSignature(r *http.Request, public string) bool {
	got := r.Header.Get(SignatureHeader)
	if got == "" || public == "" {
		return false
	}
	base, _, _ := strings.Cut(public, "?")
	full := base
	if r.URL.RawQuery != "" {
		full += "?" + r.URL.RawQuery
	}
	for _, u := range portVariants(full) {
		if hmac.Equal([]byte(got), []byte(Signature(p.cfg.AuthToken, u, r.PostForm))) {
			return true
		}
	}
	return false
}

func portVariants(raw string) []string {
	out := []string{raw}
	u, err := url.Parse(raw)
	if err != nil {
		return out
	}
	def := map[string]string{"https": "443", "http": "80"}[u.Scheme]
	if def == "" {
		return out
	}
	switch u.Port() {
	case "":
		u.Host += ":" + def
		out = append(out, u.String())
	case def:
		u.Host = u.Hostname()
		if strings.Contains(u.Host, ":") {
			u.Host = "[" + u.Host + "]"
		}
		out = append(out, u.String())
	}
	return out
}

// webhook reads a webhook Twilio posted to url (what names it in the log):
// POST only (405), a form of at most 64 KiB (400), signed with
// X-Twilio-Signature (403). It answers the refusals itself; ok is false
// then.
func (p *Provider) webhook(w http.ResponseWriter, r *http.Request, url, what string) (ok bool) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return false
	}
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	if err := r.ParseForm(); err != nil {
		http.Error(w, "bad form", http.StatusBadRequest)
		return false
	}
	if !p.validSignature(r, url) {
		p.log.Warn("twilio: "+what+" with a bad signature", "remote", r.RemoteAddr)
		http.Error(w, "bad signature", http.StatusForbidden)
		return false
	}
	return true
}
