package captable_test

import (
	"net/http"
	"testing"
)

// TestOnboardAuthorizesBeforeValidating: onboarding an agent into a
// company checks the caller's standing there before the body: a company
// the caller does not belong to is 404 and a viewer is 403, whatever the
// body; an anonymous malformed body is still the validation error (it
// would create a company of its own).
func TestOnboardAuthorizesBeforeValidating(t *testing.T) {
	w := start(t)
	owner := w.register("Ada", "ada@onboard.test", "Ada Co")
	me := owner.must(http.StatusOK, "GET", "/auth/me", nil).body
	company := str(me["companyId"])
	outsider := w.register("Eve", "eve@onboard.test", "Eve Co")
	outsider.company = company
	viewer := &client{w: w, token: str(owner.must(http.StatusCreated, "POST", "/agents/onboard",
		map[string]any{"agentName": "reader", "role": "viewer"}).body["apiKey"])}

	for name, c := range map[string]struct {
		who    *client
		body   map[string]any
		status int
	}{
		"outsider, bad body":  {outsider, map[string]any{"role": "owner"}, 404},
		"outsider, good body": {outsider, map[string]any{"agentName": "x", "role": "admin"}, 404},
		"viewer, bad body":    {viewer, map[string]any{"role": "owner"}, 403},
		"viewer, good body":   {viewer, map[string]any{"agentName": "x", "role": "viewer"}, 403},
		"owner, bad body":     {owner, map[string]any{"role": "owner"}, 400},
		"anonymous, bad body": {&client{w: w}, map[string]any{"role": "owner"}, 400},
	} {
		if r := c.who.do("POST", "/agents/onboard", c.body); r.status != c.status {
			t.Errorf("%s: %d, want %d: %s", name, r.status, c.status, r.raw)
		}
	}
}
