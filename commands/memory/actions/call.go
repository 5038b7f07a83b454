package actions

import (
	"context"
	"net/http"
	"net/url"

	"github.com/strata-platform/strata/commands/connections"
)

// base holds what every adapter shares: its name, label, settings and the
// client its calls go through.
type base struct {
	name, label string
	s           connections.Settings
	d           connections.Doer
}

// Name implements connections.Provider.
func (b *base) Name() string { return b.name }

// Label implements connections.Provider.
func (b *base) Label() string { return b.label }

// Settings implements connections.Provider.
func (b *base) Settings() connections.Settings { return b.s }

// newJSON builds a request with a JSON body (nil: none) and the bearer
// token ("": none).
func newJSON(ctx context.Context, method, u, token string, body any) (*http.Request, error) {
	req, err := connections.NewRequest(ctx, method, u, body)
	if err != nil {
		return nil, err
	}
	return connections.Bearer(req, token), nil
}

// newForm builds a form POST.
func newForm(ctx context.Context, u string, form url.Values) (*http.Request, error) {
	return connections.NewRequest(ctx, http.MethodPost, u, form)
}

// send makes one call through connections.Call and decodes a successful
// JSON answer into out (nil: the body is discarded). An answer that cannot
// be read is Unconfirmed for a call that may have acted, Transient for an
// idempotent one (connections.ReadJSON).
func send(ctx context.Context, d connections.Doer, req *http.Request, idempotent bool,
	reason func(status int, body []byte) string, out any) (int, error) {
	resp, err := connections.Call(ctx, d, req, idempotent, reason)
	if err != nil {
		return 0, err
	}
	return resp.StatusCode, connections.ReadJSON(resp, out, idempotent)
}

// oauthReason reads an RFC 6749 error answer ("invalid_grant: Bad Request").
func oauthReason(status int, body []byte) string {
	return connections.OAuthProblem(status, body).Reason()
}
