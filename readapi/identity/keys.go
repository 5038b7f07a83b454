package identity

import (
	"net/http"
	"time"

	"github.com/gorilla/mux"

	cmd "github.com/strata-platform/strata/commands/identity"
	ident "github.com/strata-platform/strata/domain/identity"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/readapi/auth"
	"github.com/strata-platform/strata/readapi/httpx"
)

// keyRecord is the seed's API key record (api_key only on creation).
type keyRecord struct {
	ID          string     `json:"id"`
	APIKey      string     `json:"api_key,omitempty"`
	Name        string     `json:"name"`
	Prefix      string     `json:"prefix"`
	IsActive    bool       `json:"is_active"`
	LastUsedAt  *time.Time `json:"last_used_at"`
	UsageCount  int64      `json:"usage_count"`
	ExpiresAt   time.Time  `json:"expires_at"`
	CreatedAt   time.Time  `json:"created_at"`
	ProjectID   string     `json:"project_id"`
	Environment string     `json:"environment"`
}

func recordOf(k ident.Key, now time.Time) keyRecord {
	rec := keyRecord{ID: k.ID, Name: k.Name, Prefix: k.Prefix, IsActive: !k.Revoked && !k.Expired(now),
		UsageCount: k.UsageCount, ExpiresAt: k.ExpiresAt, CreatedAt: k.CreatedAt, ProjectID: k.ProjectID,
		Environment: ident.EnvLive}
	if k.Prefix == ident.PrefixTest {
		rec.Environment = ident.EnvTest
	}
	if !k.LastUsedAt.IsZero() {
		t := k.LastUsedAt
		rec.LastUsedAt = &t
	}
	return rec
}

func (h *handlers) createKey(w http.ResponseWriter, r *http.Request) {
	p, _ := auth.From(r.Context())
	var in struct {
		Name          string `json:"name"`
		ExpiresInDays *int   `json:"expires_in_days"`
		Environment   string `json:"environment"`
	}
	if err := httpx.DecodeJSON(r, &in); err != nil {
		fail(w, r, err)
		return
	}
	k, err := h.svc.IssueKey(r.Context(), cmd.IssueKey{UserID: p.UserID, Name: in.Name, ExpiresInDays: in.ExpiresInDays,
		Environment: in.Environment, OrganizationID: p.OrganizationID, ProjectID: p.ProjectID})
	if err != nil {
		fail(w, r, err)
		return
	}
	rec := recordOf(k.Key, h.svc.Now())
	rec.APIKey = k.Secret
	reply(w, r, http.StatusCreated, rec)
}

func (h *handlers) listKeys(w http.ResponseWriter, r *http.Request) {
	p, _ := auth.From(r.Context())
	now := h.svc.Now()
	keys := h.svc.Directory().UserKeys(p.UserID)
	out := make([]keyRecord, 0, len(keys))
	for _, k := range keys {
		out = append(out, recordOf(k, now))
	}
	reply(w, r, http.StatusOK, out)
}

func (h *handlers) revokeKey(w http.ResponseWriter, r *http.Request) {
	p, _ := auth.From(r.Context())
	id := mux.Vars(r)["key_id"]
	if err := h.svc.RevokeKey(r.Context(), p.UserID, id); err != nil {
		fail(w, r, err)
		return
	}
	reply(w, r, http.StatusOK, message{Message: "API key " + id + " revoked"})
}

// verification is the seed's key verification result.
type verification struct {
	Status           string             `json:"status"`
	Message          *string            `json:"message"`
	Email            string             `json:"email"`
	UserID           string             `json:"user_id"`
	OrganizationID   string             `json:"organization_id"`
	OrganizationName string             `json:"organization_name"`
	Tier             string             `json:"tier"`
	UserPlan         string             `json:"user_plan"`
	Subscription     subscription       `json:"subscription"`
	Capabilities     ident.Capabilities `json:"capabilities"`
}

type subscription struct {
	Tier             string `json:"tier"`
	Status           string `json:"status"`
	CreditsTotal     int64  `json:"credits_total"`
	CreditsRemaining int64  `json:"credits_remaining"`
}

func (h *handlers) verifyKey(w http.ResponseWriter, r *http.Request) {
	presented, ok := PresentedKey(r)
	if !ok {
		w.Header().Set("WWW-Authenticate", `Bearer realm="strata"`)
		fail(w, r, kernel.Unauthenticated("send the API key as X-API-Key: <key> or Authorization: Bearer <key>"))
		return
	}
	p, err := h.auth.key(presented, true)
	if err != nil {
		w.Header().Set("WWW-Authenticate", `Bearer realm="strata"`)
		fail(w, r, err)
		return
	}
	k, _ := h.svc.Directory().APIKey(p.KeyID)
	u, _ := h.svc.Directory().User(p.UserID)
	org, _ := h.svc.Directory().Organization(k.OrganizationID)
	total, remaining, err := h.creditsOf(r.Context(), u) // the gateway's credit ledger
	if err != nil {
		fail(w, r, err)
		return
	}
	v := ident.Verify(&k, &u, remaining, h.svc.Now())
	out := verification{Status: v.Status, Email: u.Email, UserID: u.ID, OrganizationID: org.ID,
		OrganizationName: org.Name, Tier: v.Tier, UserPlan: u.Plan, Capabilities: v.Capabilities,
		Subscription: subscription{Tier: v.Tier, Status: v.SubStatus, CreditsTotal: total, CreditsRemaining: remaining}}
	if v.Message != "" {
		out.Message = &v.Message
	}
	reply(w, r, http.StatusOK, out)
}

func (h *handlers) createTemporaryKey(w http.ResponseWriter, r *http.Request) {
	k, err := h.svc.CreateTemporary(r.Context(), clientOf(r))
	if err != nil {
		fail(w, r, err)
		return
	}
	rec := recordOf(k.Key, h.svc.Now())
	rec.APIKey = k.Secret
	rec.Environment = "trial"
	reply(w, r, http.StatusCreated, rec)
}

func (h *handlers) mergeIdentity(w http.ResponseWriter, r *http.Request) {
	p, _ := auth.From(r.Context())
	var in struct {
		TempAPIKey string `json:"temp_api_key"`
	}
	if err := httpx.DecodeJSON(r, &in); err != nil {
		fail(w, r, err)
		return
	}
	m, err := h.svc.MergeIdentity(r.Context(), p.UserID, in.TempAPIKey)
	if err != nil {
		fail(w, r, err)
		return
	}
	rec := recordOf(m.Claimed.Key, h.svc.Now())
	rec.APIKey = m.Claimed.Secret
	reply(w, r, http.StatusOK, map[string]any{
		"message":        "temporary identity merged: its projects and keys now belong to your workspace",
		"temp_user_id":   m.TempUserID,
		"projects_moved": m.ProjectIDs,
		"keys_moved":     m.KeyIDs,
		"api_key":        rec,
	})
}
