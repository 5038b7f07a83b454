package mcpserver

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/gorilla/mux"
	sdkauth "github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/readapi/auth"
	"github.com/strata-platform/strata/readapi/httpx"
	readmemory "github.com/strata-platform/strata/readapi/memory"
)

// Path is where the platform API serves MCP (streamable HTTP).
const Path = "/mcp"

// SessionIdleTimeout closes MCP sessions that sent no request for this
// long.
const SessionIdleTimeout = 30 * time.Minute

// Routes mounts Handler at /mcp (GET, POST and DELETE) on the platform
// API's router.
func Routes(r *mux.Router, api *readmemory.API, authn auth.Authenticator, logger *slog.Logger) {
	r.Handle(Path, Handler(api, authn, logger)).Methods(http.MethodGet, http.MethodPost, http.MethodDelete)
}

// Handler serves the memory tools over streamable HTTP, in process over
// api. Every request needs credentials authn accepts (a platform JWT, an
// API key or an OAuth access token): without them it is answered 401 with
// authn's WWW-Authenticate challenge, and an OAuth token with neither
// memory:read nor memory:write is answered 403. A tool call needs the
// tool's scope (memory:read for the read-only tools, memory:write for the
// others); OAuth tokens without it get a tool error naming the scope.
// Tools act for the request's user, and a session answers only the user
// who created it (403 for anyone else).
func Handler(api *readmemory.API, authn auth.Authenticator, logger *slog.Logger) http.Handler {
	srv := NewServer(Options{Bind: inProcess(api), Logger: logger})
	// Every request carries its own bearer credential (no cookie or other
	// ambient authority), so DNS rebinding gains nothing; the localhost
	// check would instead refuse the API behind a reverse proxy on loopback.
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{Logger: logger, SessionTimeout: SessionIdleTimeout, DisableLocalhostProtection: true})
	// The SDK binds a session to the user id of the token info it finds in
	// the request's context, and refuses the session to other users.
	bind := sdkauth.RequireBearerToken(tokenInfo, &sdkauth.RequireBearerTokenOptions{AllowMissingExpiration: true})
	return authenticate(authn, bind(h))
}

// principalKey and requestIDKey carry the caller into the tools through
// the SDK's token info.
const (
	principalKey = "strata.principal"
	requestIDKey = "strata.request_id"
)

// authenticate answers 401 (with the challenge) or 403 unless authn finds
// a principal who may use the memory service, and serves next with the
// principal in the context.
func authenticate(authn auth.Authenticator, next http.Handler) http.Handler {
	challenge := `Bearer realm="strata"`
	if c, ok := authn.(auth.Challenger); ok {
		challenge = c.Challenge()
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, err := authn.Authenticate(r)
		if err != nil {
			if kernel.KindOf(err) == kernel.KindUnauthenticated {
				w.Header().Set("WWW-Authenticate", challenge)
			}
			httpx.WriteError(w, r, err)
			return
		}
		if !p.HasScope(ScopeRead) && !p.HasScope(ScopeWrite) {
			scopes := ScopeRead + " " + ScopeWrite
			w.Header().Set("WWW-Authenticate", challenge+`, error="insufficient_scope", scope="`+scopes+`"`)
			httpx.WriteError(w, r, httpx.WithMembers(kernel.Forbidden(
				"this access token's scopes do not allow the memory service; it needs scope "+ScopeRead+" or "+ScopeWrite),
				map[string]any{"required_scope": scopes}))
			return
		}
		ctx := auth.WithPrincipal(r.Context(), p)
		if hasBearer(r) {
			next.ServeHTTP(w, r.WithContext(ctx))
			return
		}
		// An API key sent as X-API-Key: the SDK's session binding needs an
		// Authorization header of the bearer shape; the principal decides.
		r = r.Clone(ctx)
		r.Header.Set("Authorization", "Bearer "+strings.TrimSpace(r.Header.Get("X-API-Key")))
		next.ServeHTTP(w, r)
	})
}

func hasBearer(r *http.Request) bool {
	f := strings.Fields(r.Header.Get("Authorization"))
	return len(f) == 2 && strings.EqualFold(f[0], "bearer")
}

// tokenInfo hands the principal authenticate found to the SDK: its user id
// binds the session, and the tools read the principal from the token info.
func tokenInfo(ctx context.Context, _ string, r *http.Request) (*sdkauth.TokenInfo, error) {
	p, ok := auth.From(r.Context())
	if !ok {
		return nil, sdkauth.ErrInvalidToken
	}
	return &sdkauth.TokenInfo{UserID: p.UserID, Scopes: p.Scopes,
		Extra: map[string]any{principalKey: p, requestIDKey: httpx.RequestID(ctx)}}, nil
}

// inProcess is the Binder of the /mcp route: the call acts for the
// request's principal, needs the tool's scope, and its appends record the
// caller and the HTTP request id.
func inProcess(api *readmemory.API) Binder {
	return func(ctx context.Context, req *mcp.CallToolRequest, scope string) (context.Context, Backend, error) {
		var ti *sdkauth.TokenInfo
		if req.Extra != nil {
			ti = req.Extra.TokenInfo
		}
		if ti == nil {
			return ctx, nil, kernel.Unauthenticated("the call carries no credentials")
		}
		p, ok := ti.Extra[principalKey].(auth.Principal)
		if !ok || p.UserID == "" {
			return ctx, nil, kernel.Unauthenticated("the call carries no credentials")
		}
		if !p.HasScope(scope) {
			return ctx, nil, kernel.Forbidden("this access token's scopes do not allow the " + req.Params.Name +
				" tool; it needs scope " + scope)
		}
		rid, _ := ti.Extra[requestIDKey].(string)
		ctx = eventstore.WithMetadata(ctx, eventstore.Metadata{Actor: p.UserID, Tenant: p.OrganizationID,
			RequestID: rid, CorrelationID: rid})
		return ctx, NewLocal(api, p.UserID), nil
	}
}
