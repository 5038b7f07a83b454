package identity

import (
	"net/http"
	"strings"

	cmd "github.com/strata-platform/strata/commands/identity"
	"github.com/strata-platform/strata/readapi/httpx"
)

// socialHandlers serve social sign-in: GET /api/v1/auth/{provider}/start
// and POST /api/v1/auth/{provider}/callback for codehost and network.
type socialHandlers struct {
	social *cmd.Social
	secure bool // the public URL is https: the state cookie is Secure
}

func newSocialHandlers(svc *cmd.Service, cfg cmd.SocialConfig) *socialHandlers {
	return &socialHandlers{social: cmd.NewSocial(svc, cfg), secure: strings.HasPrefix(svc.Tokens().Issuer(), "https://")}
}

// socialCookie is the name of provider's state cookie; it lives under
// /api/v1/auth/{provider} only (start sets it, callback reads it).
func socialCookie(provider string) (name, path string) {
	return "strata_" + provider + "_state", "/api/v1/auth/" + provider
}

// start sends the browser to the provider's authorization page with a
// fresh state (and, for the network, nonce) sealed in an HttpOnly,
// SameSite=Lax cookie that lasts 10 minutes.
func (h *socialHandlers) start(provider string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		st, err := h.social.Start(provider, r.URL.Query().Get("redirect_uri"))
		if err != nil {
			fail(w, r, err)
			return
		}
		name, path := socialCookie(provider)
		http.SetCookie(w, &http.Cookie{Name: name, Value: st.Cookie, Path: path, Expires: st.Expires,
			MaxAge: int(cmd.SocialStateTTL.Seconds()), HttpOnly: true, Secure: h.secure, SameSite: http.SameSiteLaxMode})
		w.Header().Set("Cache-Control", "no-store")
		http.Redirect(w, r, st.URL, http.StatusFound)
	}
}

// codehostUser and networkUser are the user of the social sign-in result:
// avatar_url for the code-hosting provider, picture for the network.
type codehostUser struct {
	ID        string `json:"id"`
	Email     string `json:"email"`
	Name      string `json:"name"`
	AvatarURL string `json:"avatar_url"`
}

type networkUser struct {
	ID      string `json:"id"`
	Email   string `json:"email"`
	Name    string `json:"name"`
	Picture string `json:"picture"`
}

// socialResult is the seed's social sign-in result; the professional
// network's also carries expires_in.
type socialResult struct {
	AccessToken string `json:"access_token"`
	TokenType   string `json:"token_type"`
	ExpiresIn   *int64 `json:"expires_in,omitempty"`
	User        any    `json:"user"`
}

// callback exchanges the provider's code ({code, redirect_uri, state}; the
// state must be the one sealed in this browser's cookie) and signs in.
func (h *socialHandlers) callback(provider string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var in struct {
			Code        string `json:"code"`
			RedirectURI string `json:"redirect_uri"`
			State       string `json:"state"`
		}
		if err := httpx.DecodeJSON(r, &in); err != nil {
			fail(w, r, err)
			return
		}
		name, path := socialCookie(provider)
		cookie := ""
		if c, err := r.Cookie(name); err == nil {
			cookie = c.Value
		}
		res, err := h.social.Callback(r.Context(), provider, cmd.SocialCallback{Code: in.Code, RedirectURI: in.RedirectURI,
			State: in.State, Cookie: cookie})
		if err != nil {
			fail(w, r, err)
			return
		}
		// The sign-in is done: the state is spent.
		http.SetCookie(w, &http.Cookie{Name: name, Value: "", Path: path, MaxAge: -1, HttpOnly: true, Secure: h.secure,
			SameSite: http.SameSiteLaxMode})
		w.Header().Set("Cache-Control", "no-store")
		u := res.User
		out := socialResult{AccessToken: res.AccessToken, TokenType: "bearer",
			User: codehostUser{ID: u.ID, Email: u.Email, Name: u.FullName, AvatarURL: res.Picture}}
		if provider == cmd.ProviderNetwork {
			out.ExpiresIn = &res.ExpiresIn
			out.User = networkUser{ID: u.ID, Email: u.Email, Name: u.FullName, Picture: res.Picture}
		}
		reply(w, r, http.StatusOK, out)
	}
}
