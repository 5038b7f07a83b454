package identity

import (
	"net/http"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/readapi/auth"
	"github.com/strata-platform/strata/readapi/httpx"
)

// forgotMessage is the one answer to forgot-password, account or not.
const forgotMessage = "if an account exists for this email, a password reset link has been sent to it"

func (h *handlers) forgotPassword(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Email string `json:"email"`
	}
	if err := httpx.DecodeJSON(r, &in); err != nil {
		fail(w, r, err)
		return
	}
	if err := h.svc.ForgotPassword(r.Context(), in.Email, clientOf(r)); err != nil {
		fail(w, r, err)
		return
	}
	reply(w, r, http.StatusAccepted, message{Message: forgotMessage})
}

func (h *handlers) resetPassword(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Token       string `json:"token"`
		NewPassword string `json:"new_password"`
	}
	if err := httpx.DecodeJSON(r, &in); err != nil {
		fail(w, r, err)
		return
	}
	if err := h.svc.ResetPassword(r.Context(), in.Token, in.NewPassword); err != nil {
		fail(w, r, err)
		return
	}
	reply(w, r, http.StatusOK, message{Message: "password reset; log in with the new password"})
}

// sessionOnly refuses API keys where only a signed-in user may act.
func sessionOnly(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if p, _ := auth.From(r.Context()); p.Method != auth.MethodJWT {
			fail(w, r, kernel.Forbidden("this action needs a signed-in user's access token, not an API key"))
			return
		}
		next(w, r)
	}
}

func (h *handlers) changePassword(w http.ResponseWriter, r *http.Request) {
	p, _ := auth.From(r.Context())
	var in struct {
		CurrentPassword string `json:"current_password"`
		NewPassword     string `json:"new_password"`
	}
	if err := httpx.DecodeJSON(r, &in); err != nil {
		fail(w, r, err)
		return
	}
	s, err := h.svc.ChangePassword(r.Context(), p.UserID, in.CurrentPassword, in.NewPassword)
	if err != nil {
		fail(w, r, err)
		return
	}
	out := tokenOf(s)
	out.Message = "password changed; tokens issued before the change are revoked, use this new one"
	reply(w, r, http.StatusOK, out)
}
