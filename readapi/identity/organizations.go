package identity

import (
	"net/http"
	"sort"
	"time"

	"github.com/gorilla/mux"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/projections/accounts"
	"github.com/strata-platform/strata/readapi/auth"
	"github.com/strata-platform/strata/readapi/httpx"
)

type projectView struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

type organizationView struct {
	ID        string        `json:"id"`
	Name      string        `json:"name"`
	Role      string        `json:"role"`
	OwnerID   string        `json:"owner_id"`
	IsDefault bool          `json:"is_default"`
	Projects  []projectView `json:"projects"`
	CreatedAt time.Time     `json:"created_at"`
}

func viewOf(m accounts.Membership, defaultOrg string) organizationView {
	v := organizationView{ID: m.Organization.ID, Name: m.Organization.Name, Role: m.Role, OwnerID: m.Organization.OwnerID,
		IsDefault: m.Organization.ID == defaultOrg, CreatedAt: m.Organization.CreatedAt, Projects: []projectView{}}
	for _, p := range m.Organization.Projects {
		v.Projects = append(v.Projects, projectView{ID: p.ID, Name: p.Name})
	}
	return v
}

func (h *handlers) listOrganizations(w http.ResponseWriter, r *http.Request) {
	p, _ := auth.From(r.Context())
	u, _ := h.svc.Directory().User(p.UserID)
	out := []organizationView{}
	for _, m := range h.svc.Directory().Memberships(p.UserID) {
		out = append(out, viewOf(m, u.OrganizationID))
	}
	reply(w, r, http.StatusOK, out)
}

func (h *handlers) createOrganization(w http.ResponseWriter, r *http.Request) {
	p, _ := auth.From(r.Context())
	var in struct {
		Name string `json:"name"`
	}
	if err := httpx.DecodeJSON(r, &in); err != nil {
		fail(w, r, err)
		return
	}
	id, err := h.svc.CreateOrganization(r.Context(), p.UserID, in.Name)
	if err != nil {
		fail(w, r, err)
		return
	}
	org, _ := h.svc.Directory().Organization(id)
	reply(w, r, http.StatusCreated, viewOf(accounts.Membership{Organization: org, Role: "owner"}, ""))
}

type memberView struct {
	UserID   string `json:"user_id"`
	Email    string `json:"email"`
	FullName string `json:"full_name"`
	Role     string `json:"role"`
}

func (h *handlers) listMembers(w http.ResponseWriter, r *http.Request) {
	p, _ := auth.From(r.Context())
	id := mux.Vars(r)["id"]
	dir := h.svc.Directory()
	org, ok := dir.Organization(id)
	if _, member := org.Members[p.UserID]; !ok || !member {
		fail(w, r, kernel.NotFound("organization not found"))
		return
	}
	out := []memberView{}
	add := func(uid, role string) {
		if u, ok := dir.User(uid); ok {
			out = append(out, memberView{UserID: u.ID, Email: u.Email, FullName: u.FullName, Role: role})
		}
	}
	add(org.OwnerID, org.Members[org.OwnerID]) // the owner first, then the others by email
	rest := len(out)
	for uid, role := range org.Members {
		if uid != org.OwnerID {
			add(uid, role)
		}
	}
	sort.Slice(out[rest:], func(i, j int) bool { return out[rest+i].Email < out[rest+j].Email })
	reply(w, r, http.StatusOK, out)
}

func (h *handlers) removeMember(w http.ResponseWriter, r *http.Request) {
	p, _ := auth.From(r.Context())
	v := mux.Vars(r)
	if err := h.svc.RemoveMember(r.Context(), p.UserID, v["id"], v["user_id"]); err != nil {
		fail(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
