package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
	readmemory "github.com/strata-platform/strata/readapi/memory"
)

// APIError is an error answer of the platform API (problem details) as the
// HTTP backend received it. Its text is the API's own: for bad input it
// names the field and the rule, e.g. "importance: range:0-1 (...)".
type APIError struct {
	Status int
	Code   string // the problem's code: invalid, not_found, unauthenticated, ...
	Detail string
	Field  string
	Rule   string
}

// Error returns the API's detail.
func (e *APIError) Error() string { return e.Detail }

// HTTP is the Backend that calls the memory service's REST routes on a
// platform API with one bearer credential (an API key or a token); the
// credential's account is whose memory it acts on. It needs no database.
type HTTP struct {
	base   string
	bearer string
	client *http.Client
}

// NewHTTP returns the HTTP backend for the platform API at baseURL (for
// example http://127.0.0.1:8080), authenticating with bearer. A nil client
// means one with a 60 s timeout.
func NewHTTP(baseURL, bearer string, client *http.Client) *HTTP {
	if client == nil {
		client = &http.Client{Timeout: 60 * time.Second}
	}
	return &HTTP{base: strings.TrimRight(baseURL, "/") + readmemory.Base, bearer: bearer, client: client}
}

// Remember calls POST /remember.
func (h *HTTP) Remember(ctx context.Context, in RememberArgs) (RememberResult, error) {
	var out RememberResult
	return out, h.call(ctx, http.MethodPost, "/remember", in, &out)
}

// Recall calls POST /recall.
func (h *HTTP) Recall(ctx context.Context, in RecallArgs) (RecallResult, error) {
	var out RecallResult
	if err := h.call(ctx, http.MethodPost, "/recall", in, &out); err != nil {
		return out, err
	}
	// The REST answer does not echo the namespace searched: it is the one
	// asked for, REST defaults applied.
	out.Namespace, out.AllowCrossNamespace = in.Namespace, deref(in.AllowCrossNamespace, true)
	if out.Namespace == "" {
		out.Namespace = "global"
	}
	out.Results = nonNil(out.Results)
	return out, nil
}

// Forget calls DELETE /forget/{memory_id}.
func (h *HTTP) Forget(ctx context.Context, memoryID string) (ForgetResult, error) {
	var out ForgetResult
	return out, h.call(ctx, http.MethodDelete, "/forget/"+url.PathEscape(memoryID), nil, &out)
}

// Relate calls POST /relate.
func (h *HTTP) Relate(ctx context.Context, in RelateArgs) (RelateResult, error) {
	var out RelateResult
	return out, h.call(ctx, http.MethodPost, "/relate", in, &out)
}

// Reflect calls POST /reflect.
func (h *HTTP) Reflect(ctx context.Context, entity string) (Reflection, error) {
	var out Reflection
	return out, h.call(ctx, http.MethodPost, "/reflect", EntityArgs{EntityID: entity}, &out)
}

// Profile calls POST /profile.
func (h *HTTP) Profile(ctx context.Context, entity string) (Profile, error) {
	var out Profile
	return out, h.call(ctx, http.MethodPost, "/profile", EntityArgs{EntityID: entity}, &out)
}

// Timeline calls GET /entities/{entity_id}/timeline.
func (h *HTTP) Timeline(ctx context.Context, entity string) (Timeline, error) {
	var out Timeline
	return out, h.call(ctx, http.MethodGet, "/entities/"+url.PathEscape(entity)+"/timeline", nil, &out)
}

// Context calls POST /context.
func (h *HTTP) Context(ctx context.Context, in ContextArgs) (ContextResult, error) {
	var out ContextResult
	return out, h.call(ctx, http.MethodPost, "/context", in, &out)
}

// MergeEntities calls POST /entities/{entity_id}/merge.
func (h *HTTP) MergeEntities(ctx context.Context, in MergeArgs) (MergeResult, error) {
	var out MergeResult
	return out, h.call(ctx, http.MethodPost, "/entities/"+url.PathEscape(in.EntityID)+"/merge",
		map[string]string{"into": in.Into}, &out)
}

// maxAnswer bounds an answer the backend reads.
const maxAnswer = 16 << 20

// call sends body (nil: none) and decodes a 2xx answer into out; another
// status is an *APIError, and an unreachable API is a kernel unavailable
// error.
func (h *HTTP) call(ctx context.Context, method, path string, body, out any) error {
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequestWithContext(ctx, method, h.base+path, rd)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Authorization", "Bearer "+h.bearer)
	resp, err := h.client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return kernel.Unavailable("the platform API at "+strings.TrimSuffix(h.base, readmemory.Base)+" is unreachable", err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
	if err != nil {
		return kernel.Unavailable("the platform API's answer was cut off", err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return problem(resp.StatusCode, raw)
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("mcpserver: %s %s: decoding the answer: %w", method, path, err)
	}
	return nil
}

// problem reads an error answer (problem details; anything else keeps
// its status text).
func problem(status int, raw []byte) error {
	var p struct {
		Detail string `json:"detail"`
		Code   string `json:"code"`
		Field  string `json:"field"`
		Rule   string `json:"rule"`
	}
	e := &APIError{Status: status}
	if json.Unmarshal(raw, &p) == nil && p.Code != "" {
		e.Code, e.Detail, e.Field, e.Rule = p.Code, p.Detail, p.Field, p.Rule
	}
	if e.Code == "" {
		e.Code = strings.ReplaceAll(strings.ToLower(http.StatusText(status)), " ", "_")
	}
	if e.Detail == "" {
		e.Detail = http.StatusText(status)
	}
	return e
}

// isAPIError reports whether err is an answer of the platform API.
func isAPIError(err error) (*APIError, bool) {
	var e *APIError
	ok := errors.As(err, &e)
	return e, ok
}
