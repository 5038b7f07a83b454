package identity

import (
	"net/http"
	"time"

	"github.com/gorilla/mux"

	ident "github.com/strata-platform/strata/domain/identity"
	"github.com/strata-platform/strata/projections/accounts"
	"github.com/strata-platform/strata/readapi/auth"
	"github.com/strata-platform/strata/readapi/httpx"
)

// sentView answers an invitation: the same fields whether or not the
// address has an account, and nothing that would tell.
type sentView struct {
	ID             string    `json:"id"`
	OrganizationID string    `json:"organization_id"`
	Role           string    `json:"role"`
	Status         string    `json:"status"`
	ExpiresAt      time.Time `json:"expires_at"`
}

// invitationView is an invitation as its organization's owner and admins
// see it.
type invitationView struct {
	ID             string     `json:"id"`
	OrganizationID string     `json:"organization_id"`
	Email          string     `json:"email"`
	Role           string     `json:"role"`
	Status         string     `json:"status"`
	InvitedBy      string     `json:"invited_by"`
	CreatedAt      time.Time  `json:"created_at"`
	ExpiresAt      time.Time  `json:"expires_at"`
	AcceptedAt     *time.Time `json:"accepted_at,omitempty"`
}

func invitationViewOf(inv ident.Invitation, now time.Time) invitationView {
	v := invitationView{ID: inv.InvitationID, OrganizationID: inv.OrganizationID, Email: inv.Email, Role: inv.Role,
		Status: inv.Status(now), InvitedBy: inv.InvitedBy, CreatedAt: inv.At, ExpiresAt: inv.ExpiresAt}
	if !inv.AcceptedAt.IsZero() {
		at := inv.AcceptedAt
		v.AcceptedAt = &at
	}
	return v
}

// invite answers POST /organizations/{id}/members: the caller's right to
// manage the organization is checked before the body is read, so an
// outsider learns nothing (404) whatever it sends.
func (h *handlers) invite(w http.ResponseWriter, r *http.Request) {
	p, _ := auth.From(r.Context())
	id := mux.Vars(r)["id"]
	if err := h.svc.Manageable(id, p.UserID); err != nil {
		fail(w, r, err)
		return
	}
	var in struct {
		Email string `json:"email"`
		Role  string `json:"role"`
	}
	if err := httpx.DecodeJSON(r, &in); err != nil {
		fail(w, r, err)
		return
	}
	inv, err := h.svc.Invite(r.Context(), p.UserID, id, in.Email, in.Role)
	if err != nil {
		fail(w, r, err)
		return
	}
	reply(w, r, http.StatusAccepted, sentView{ID: inv.InvitationID, OrganizationID: inv.OrganizationID, Role: inv.Role,
		Status: ident.StatusPending, ExpiresAt: inv.ExpiresAt})
}

func (h *handlers) listInvitations(w http.ResponseWriter, r *http.Request) {
	p, _ := auth.From(r.Context())
	invs, err := h.svc.Invitations(p.UserID, mux.Vars(r)["id"])
	if err != nil {
		fail(w, r, err)
		return
	}
	now := h.svc.Now()
	out := make([]invitationView, 0, len(invs))
	for _, inv := range invs {
		out = append(out, invitationViewOf(inv, now))
	}
	reply(w, r, http.StatusOK, out)
}

func (h *handlers) revokeInvitation(w http.ResponseWriter, r *http.Request) {
	p, _ := auth.From(r.Context())
	v := mux.Vars(r)
	if err := h.svc.RevokeInvitation(r.Context(), p.UserID, v["id"], v["invitation_id"]); err != nil {
		fail(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (h *handlers) acceptInvitation(w http.ResponseWriter, r *http.Request) {
	p, _ := auth.From(r.Context())
	var in struct {
		Token string `json:"token"`
	}
	if err := httpx.DecodeJSON(r, &in); err != nil {
		fail(w, r, err)
		return
	}
	inv, err := h.svc.AcceptInvitation(r.Context(), p.UserID, in.Token)
	if err != nil {
		fail(w, r, err)
		return
	}
	dir := h.svc.Directory()
	org, _ := dir.Organization(inv.OrganizationID)
	u, _ := dir.User(p.UserID)
	reply(w, r, http.StatusOK, viewOf(accounts.Membership{Organization: org, Role: dir.Role(org.ID, p.UserID)}, u.OrganizationID))
}
