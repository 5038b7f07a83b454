package identity

import (
	"net/http"

	cmd "github.com/strata-platform/strata/commands/identity"
	"github.com/strata-platform/strata/readapi/httpx"
)

// The test-auth routes exist only with STRATA_ENABLE_TEST_AUTH=true (for
// end-to-end test suites); otherwise they are not routed at all (404).

func (h *handlers) testAuthStatus(w http.ResponseWriter, r *http.Request) {
	keys := h.svc.Directory().SigningKeys()
	kid := ""
	if len(keys) > 0 {
		kid = keys[len(keys)-1].KeyID
	}
	reply(w, r, http.StatusOK, map[string]any{"status": "enabled", "test_auth_enabled": true,
		"issuer": h.svc.Tokens().Issuer(), "signing_key_id": kid})
}

type credentials struct {
	Email    string `json:"email"`
	Password string `json:"password"`
}

func (h *handlers) createTestUser(w http.ResponseWriter, r *http.Request) {
	var in credentials
	if err := httpx.DecodeJSON(r, &in); err != nil {
		fail(w, r, err)
		return
	}
	s, err := h.svc.Register(r.Context(), cmd.Register{Email: in.Email, Password: in.Password, FullName: "Test User"})
	if err != nil {
		fail(w, r, err)
		return
	}
	out := tokenOf(s)
	out.ID, out.Email = s.User.ID, s.User.Email
	reply(w, r, http.StatusCreated, out)
}

func (h *handlers) testLogin(w http.ResponseWriter, r *http.Request) {
	var in credentials
	if err := httpx.DecodeJSON(r, &in); err != nil {
		fail(w, r, err)
		return
	}
	h.signIn(w, r, "email", in.Email, in.Password)
}
