package httpx

import (
	"encoding/json"
	"net/http"

	"github.com/strata-platform/strata/domain/kernel"
)

// problemTypeBase prefixes the "type" URI of problem details; the kind's
// snake_case name completes it.
const problemTypeBase = "https://strata.dev/problems/"

// errorView is an error reduced to what any style may show.
type errorView struct {
	info      kindInfo
	kind      kernel.Kind
	message   string // client message, names field and rule when there is a field
	field     string
	rule      string
	detail    string // the kernel message alone, for voice's details.message
	code      string // the error's own code (kernel.Error.Code), printed by the voice style
	requestID string
	path      string
	members   map[string]any // extension members (problem style only)
}

type problemBody struct {
	Type      string `json:"type"`
	Title     string `json:"title"`
	Status    int    `json:"status"`
	Detail    string `json:"detail"`
	Instance  string `json:"instance"`
	Code      string `json:"code"`
	Field     string `json:"field,omitempty"`
	Rule      string `json:"rule,omitempty"`
	RequestID string `json:"request_id,omitempty"`
}

type captableBody struct {
	Error      string  `json:"error"`
	Message    string  `json:"message"`
	Field      *string `json:"field"`
	StatusCode int     `json:"statusCode"`
	RequestID  string  `json:"requestId,omitempty"`
}

type voiceDetails struct {
	Field   string `json:"field"`
	Rule    string `json:"rule,omitempty"`
	Message string `json:"message"`
}

type voiceBody struct {
	Error     string        `json:"error"`
	Code      string        `json:"code"`
	Details   *voiceDetails `json:"details,omitempty"`
	RequestID string        `json:"request_id,omitempty"`
}

type hackathonError struct {
	StatusCode int    `json:"status_code"`
	Message    string `json:"message"`
	Path       string `json:"path"`
	RequestID  string `json:"request_id,omitempty"`
}

type hackathonBody struct {
	Error hackathonError `json:"error"`
}

// writeBody writes v in style. Headers a handler may have set for a body it
// never wrote (length, encoding) are dropped so the error body stays intact.
func writeBody(w http.ResponseWriter, r *http.Request, style Style, v errorView) {
	h := w.Header()
	h.Del("Content-Length")
	h.Del("Content-Encoding")
	h.Set("X-Content-Type-Options", "nosniff")
	if v.requestID != "" {
		h.Set(HeaderRequestID, v.requestID)
	}
	contentType := "application/json"
	var body any
	switch style {
	case StyleCaptable:
		cb := captableBody{Error: v.info.captable, Message: v.message, StatusCode: v.info.status, RequestID: v.requestID}
		if v.field != "" {
			cb.Field = &v.field
		}
		body = cb
	case StyleVoice:
		vb := voiceBody{Error: v.message, Code: v.info.voice, RequestID: v.requestID}
		if v.code != "" {
			vb.Code = v.code
		}
		if v.field != "" {
			msg := v.detail
			if msg == "" {
				msg = v.rule
			}
			vb.Details = &voiceDetails{Field: v.field, Rule: v.rule, Message: msg}
		}
		body = vb
	case StyleHackathon:
		body = hackathonBody{Error: hackathonError{StatusCode: v.info.status, Message: v.message, Path: v.path, RequestID: v.requestID}}
	default:
		contentType = "application/problem+json"
		pb := problemBody{
			Type: problemTypeBase + v.kind.String(), Title: http.StatusText(v.info.status),
			Status: v.info.status, Detail: v.message, Instance: v.path, Code: v.kind.String(),
			Field: v.field, Rule: v.rule, RequestID: v.requestID,
		}
		if v.code != "" {
			pb.Code = v.code // the error's own code (not_connected, outcome_unknown...) says more than its kind
		}
		body = pb
	}
	if len(v.members) > 0 {
		body = withMembers(body, v.members)
	}
	h.Set("Content-Type", contentType)
	w.WriteHeader(v.info.status)
	if r.Method == http.MethodHead {
		return
	}
	// Every body type above marshals without error; a failed write means the
	// client went away, and there is no one left to tell.
	_ = json.NewEncoder(w).Encode(body)
}

// withMembers flattens an error body and its extension members into one
// object; a member never overrides one of the style's own.
func withMembers(pb any, members map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range members {
		out[k] = v
	}
	raw, _ := json.Marshal(pb)
	var std map[string]any
	_ = json.Unmarshal(raw, &std)
	for k, v := range std {
		out[k] = v
	}
	return out
}
