package gateway

import (
	"net/http"
	"slices"
	"strings"

	"github.com/strata-platform/strata/domain/gateway/catalog"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/readapi/auth"
	"github.com/strata-platform/strata/readapi/httpx"
)

// resolveRequest is what a chat request would carry, as far as choosing
// its model goes.
type resolveRequest struct {
	Model     string `json:"model"`      // a model or router id; "" for the default of the caller's tier
	Kind      string `json:"kind"`       // chat (default) or embeddings
	Text      string `json:"text"`       // the system prompt and user messages, for the routers' classifier
	Tools     int    `json:"tools"`      // how many tool definitions the request would carry
	Images    bool   `json:"images"`     // whether it would carry images
	MaxTokens int    `json:"max_tokens"` // its max_tokens (0: the default)
}

type resolveReply struct {
	OK        bool   `json:"ok"`
	Requested string `json:"requested"`
	Model     Entry  `json:"model"`
	Router    string `json:"router,omitempty"`
	Task      string `json:"task,omitempty"`
	Rule      string `json:"rule,omitempty"`
	MaxTokens int    `json:"max_tokens,omitempty"`
}

// resolve answers POST /v1/public/models/resolve (beyond the seed): the
// model a chat request would be served by, or the refusal it would get,
// without calling a model.
func (a *CatalogAPI) resolve(w http.ResponseWriter, r *http.Request, p auth.Principal) {
	var req resolveRequest
	if err := httpx.DecodeJSON(r, &req); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	if req.Kind != "" && !slices.Contains(catalog.Kinds(), req.Kind) {
		httpx.WriteError(w, r, kernel.Invalid("kind", "enum:"+strings.Join(catalog.Kinds(), ","),
			"kind must be one of "+strings.Join(catalog.Kinds(), ", ")))
		return
	}
	if req.Tools < 0 {
		httpx.WriteError(w, r, kernel.Invalid("tools", "min:0", "tools is the number of tool definitions, 0 or more"))
		return
	}
	res, err := a.Resolve(p, req.Model, catalog.Features{Kind: req.Kind, Text: req.Text, Tools: req.Tools, Images: req.Images,
		MaxTokens: req.MaxTokens})
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	_ = httpx.WriteJSON(w, http.StatusOK, resolveReply{OK: true, Requested: req.Model, Model: EntryOf(res.Model), Router: res.Router,
		Task: res.Task, Rule: res.Rule, MaxTokens: res.MaxTokens})
}

// RefuseVendorKeys answers 401 to a request whose credential is a model
// vendor's API key (X-API-Key or Authorization: Bearer starting with
// "sk-", as sk-ant-... does; Strata's keys are sk_live_, sk_test_, tmp_
// and sdb_live_), telling the caller to send a Strata sk_ key, and serves
// next otherwise. Every gateway route is wrapped in it.
func RefuseVendorKeys(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for _, cred := range []string{r.Header.Get("X-API-Key"), bearerOf(r)} {
			if strings.HasPrefix(strings.TrimSpace(cred), "sk-") {
				w.Header().Set("WWW-Authenticate", `Bearer realm="strata"`)
				httpx.WriteError(w, r, &kernel.Error{Kind: kernel.KindUnauthenticated, Field: "X-API-Key", Rule: "sk_key",
					Message: "this is a model vendor's API key (sk-ant-...); the gateway takes your Strata API key: send X-API-Key: sk_live_... (create one with POST /api/v1/api-keys)"})
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

func bearerOf(r *http.Request) string {
	scheme, cred, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return cred
}

// need refuses vendor keys, authenticates the request (an API key, or a
// bearer key or session JWT; OAuth access tokens are refused) and serves h
// with the principal.
func (a *CatalogAPI) need(h func(w http.ResponseWriter, r *http.Request, p auth.Principal)) http.Handler {
	return RefuseVendorKeys(auth.Require(a.auth, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, _ := auth.From(r.Context())
		h(w, r, p)
	})))
}
