package builder

import (
	"errors"
	"net/http"
	"time"

	"github.com/gorilla/mux"

	cmd "github.com/strata-platform/strata/commands/builder"
	"github.com/strata-platform/strata/readapi/httpx"
)

// SecretRoutes adds the app runtime secrets routes to the builder
// surface's router, each behind a founder session (401 without one):
//
//	GET    /api/build/secrets?companyId=    the masked list
//	POST   /api/build/secrets               {companyId, name, value}: add or edit
//	DELETE /api/build/secrets               {companyId, name}
//
// No answer ever holds a value, its length or a hash of it.
func SecretRoutes(r *mux.Router, f *Founders, s *cmd.Secrets) {
	a := &secretsAPI{secrets: s}
	r.Handle("/api/build/secrets", f.Require(http.HandlerFunc(a.list))).Methods(http.MethodGet)
	r.Handle("/api/build/secrets", f.Require(http.HandlerFunc(a.set))).Methods(http.MethodPost)
	r.Handle("/api/build/secrets", f.Require(http.HandlerFunc(a.remove))).Methods(http.MethodDelete)
}

type secretsAPI struct{ secrets *cmd.Secrets }

type secretItem struct {
	Name            string    `json:"name"`
	UpdatedAt       time.Time `json:"updated_at"`
	UpdatedBy       string    `json:"updated_by"`
	Version         int       `json:"version"`
	PendingRedeploy bool      `json:"pending_redeploy"`
}

type secretList struct {
	CompanyID       string       `json:"companyId"`
	Secrets         []secretItem `json:"secrets"`
	PendingRedeploy bool         `json:"pending_redeploy"`
}

type secretSaved struct {
	CompanyID       string    `json:"companyId"`
	Name            string    `json:"name"`
	Version         int       `json:"version"`
	UpdatedAt       time.Time `json:"updated_at"`
	PendingRedeploy bool      `json:"pending_redeploy"`
}

type secretDeleted struct {
	CompanyID       string `json:"companyId"`
	Name            string `json:"name"`
	Deleted         bool   `json:"deleted"`
	PendingRedeploy bool   `json:"pending_redeploy"`
}

type secretWrite struct {
	CompanyID string `json:"companyId"`
	Name      string `json:"name"`
	Value     string `json:"value"`
}

type secretRemove struct {
	CompanyID string `json:"companyId"`
	Name      string `json:"name"`
}

// founder is the signed-in founder's user id (Require ran).
func founder(r *http.Request) (string, error) {
	s, ok := Founder(r.Context())
	if !ok {
		return "", errors.New("founder session missing from a Require'd route")
	}
	return s.UserID, nil
}

func writeNoStore(w http.ResponseWriter, r *http.Request, v any) {
	w.Header().Set("Cache-Control", "no-store")
	if err := httpx.WriteJSON(w, http.StatusOK, v); err != nil {
		httpx.WriteError(w, r, err)
	}
}

// list serves GET /api/build/secrets?companyId=: the company's secrets by
// name, masked, and whether a redeploy would change the app's secrets.
func (a *secretsAPI) list(w http.ResponseWriter, r *http.Request) {
	who, err := founder(r)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	l, err := a.secrets.List(r.Context(), who, r.URL.Query().Get("companyId"))
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	out := secretList{CompanyID: l.CompanyID, Secrets: make([]secretItem, len(l.Secrets)), PendingRedeploy: l.PendingRedeploy}
	for i, s := range l.Secrets {
		out.Secrets[i] = secretItem{Name: s.Name, UpdatedAt: s.UpdatedAt.UTC(), UpdatedBy: s.UpdatedBy, Version: s.Version,
			PendingRedeploy: s.PendingRedeploy}
	}
	writeNoStore(w, r, out)
}

// set serves POST /api/build/secrets {companyId, name, value}: the secret
// added (version 1) or edited (the next version); it applies on the next
// redeploy.
func (a *secretsAPI) set(w http.ResponseWriter, r *http.Request) {
	who, err := founder(r)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	var req secretWrite
	if err := httpx.DecodeJSON(r, &req); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	saved, err := a.secrets.Set(r.Context(), who, req.CompanyID, req.Name, req.Value)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	writeNoStore(w, r, secretSaved{CompanyID: req.CompanyID, Name: saved.Name, Version: saved.Version, UpdatedAt: saved.UpdatedAt.UTC(),
		PendingRedeploy: saved.PendingRedeploy})
}

// remove serves DELETE /api/build/secrets {companyId, name}: 404 (field
// name) for a name the company does not have.
func (a *secretsAPI) remove(w http.ResponseWriter, r *http.Request) {
	who, err := founder(r)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	var req secretRemove
	if err := httpx.DecodeJSON(r, &req); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	removed, err := a.secrets.Delete(r.Context(), who, req.CompanyID, req.Name)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	writeNoStore(w, r, secretDeleted{CompanyID: req.CompanyID, Name: removed.Name, Deleted: true, PendingRedeploy: removed.PendingRedeploy})
}
