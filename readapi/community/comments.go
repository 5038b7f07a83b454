package community

import (
	"net/http"
	"strconv"
	"time"

	"github.com/gorilla/mux"

	"github.com/strata-platform/strata/domain/community"
	"github.com/strata-platform/strata/domain/kernel"
	proj "github.com/strata-platform/strata/projections/community"
	"github.com/strata-platform/strata/readapi/httpx"
)

// commentJSON is the seed's comment; updated_at is null until edited.
type commentJSON struct {
	ID          string  `json:"id"`
	UserID      string  `json:"user_id"`
	UserName    *string `json:"user_name"`
	UserAvatar  *string `json:"user_avatar"`
	ContentType string  `json:"content_type"`
	ContentID   int64   `json:"content_id"`
	Comment     string  `json:"comment"`
	CreatedAt   string  `json:"created_at"`
	UpdatedAt   *string `json:"updated_at"`
}

func (a *API) toComment(c community.Comment) commentJSON {
	out := commentJSON{ID: c.ID, UserID: c.UserID, ContentType: c.ContentType, ContentID: c.ContentID, Comment: c.Text,
		CreatedAt: ts(c.CreatedAt)}
	if c.UpdatedAt != nil {
		s := ts(*c.UpdatedAt)
		out.UpdatedAt = &s
	}
	if name, avatar, ok := a.people.Profile(c.UserID); ok {
		out.UserName, out.UserAvatar = strPtr(name), strPtr(avatar)
	}
	return out
}

func fromRow(r proj.CommentRow) community.Comment {
	c := community.Comment{ID: r.ID, TenantID: r.TenantID, UserID: r.UserID, ContentType: r.ContentType,
		ContentID: r.ContentID, Text: r.Comment, CreatedAt: r.CreatedAt}
	if r.UpdatedAt.Valid {
		t := r.UpdatedAt.Time
		c.UpdatedAt = &t
	}
	return c
}

type commentBody struct {
	ContentType string `json:"content_type"`
	ContentID   *int64 `json:"content_id"`
	Comment     string `json:"comment"`
}

// postComment serves POST /community/comments.
func (a *API) postComment(w http.ResponseWriter, r *http.Request, c caller) {
	var body commentBody
	var out community.Comment
	err := httpx.DecodeJSON(r, &body)
	if err == nil && body.ContentID == nil {
		err = kernel.Invalid("content_id", "required", "content_id is required (an integer)")
	}
	if err == nil {
		out, err = a.svc.PostComment(r.Context(), c.Tenant, c.UserID, body.ContentType, *body.ContentID, body.Comment)
	}
	writeJSON(w, r, http.StatusOK, a.toComment(out), err)
}

// editComment serves PATCH /community/comments/{comment_id} (beyond the
// seed): the author replaces the text; moderation applies again.
func (a *API) editComment(w http.ResponseWriter, r *http.Request, c caller) {
	var body struct {
		Comment string `json:"comment"`
	}
	var out community.Comment
	id := mux.Vars(r)["comment_id"]
	err := a.svc.MayEditComment(r.Context(), c.UserID, id) // authorize before the body is read
	if err == nil {
		err = httpx.DecodeJSON(r, &body)
	}
	if err == nil {
		out, err = a.svc.EditComment(r.Context(), c.UserID, id, body.Comment)
	}
	writeJSON(w, r, http.StatusOK, a.toComment(out), err)
}

// deleteComment serves DELETE /community/comments/{comment_id}: the author,
// a platform administrator or an administrator of the comment's tenant.
func (a *API) deleteComment(w http.ResponseWriter, r *http.Request, c caller) {
	isAdmin := func(tenant string) bool { return a.people.Administers(tenant, c.UserID) }
	err := a.svc.DeleteComment(r.Context(), c.UserID, mux.Vars(r)["comment_id"], isAdmin)
	writeJSON(w, r, http.StatusOK, map[string]any{"success": true, "message": "comment deleted"}, err)
}

// commentList is a page of a content item's comments.
type commentList struct {
	Comments []commentJSON `json:"comments"`
	Total    int           `json:"total"`
	Limit    int           `json:"limit"`
	Offset   int           `json:"offset"`
	HasMore  bool          `json:"has_more"`
}

// listComments serves GET /community/comments/{content_type}/{content_id}
// without authentication: newest first.
func (a *API) listComments(w http.ResponseWriter, r *http.Request) {
	out := commentList{Comments: []commentJSON{}}
	p, err := page(r, 50)
	vars := mux.Vars(r)
	id, perr := strconv.ParseInt(vars["content_id"], 10, 64)
	if err == nil && perr != nil {
		err = kernel.Invalid("content_id", "integer", "content_id must be an integer")
	}
	if err == nil {
		err = community.CheckContent(vars["content_type"], id)
	}
	var rows []proj.CommentRow
	if err == nil {
		rows, out.Total, err = proj.Comments(r.Context(), a.db, vars["content_type"], id, p)
	}
	for _, row := range rows {
		out.Comments = append(out.Comments, a.toComment(fromRow(row)))
	}
	out.Limit, out.Offset, out.HasMore = p.Limit, p.Offset, p.Offset+len(rows) < out.Total
	writeJSON(w, r, http.StatusOK, out, err)
}

// policyJSON is a tenant's moderation policy.
type policyJSON struct {
	TenantID     string   `json:"tenant_id"`
	BlockedTerms []string `json:"blocked_terms"`
	MaxLinks     *int     `json:"max_links"`
	UpdatedAt    *string  `json:"updated_at"`
	UpdatedBy    *string  `json:"updated_by"`
}

// getPolicy serves GET /community/moderation-policy for the caller's tenant.
func (a *API) getPolicy(w http.ResponseWriter, r *http.Request, c caller) {
	m, err := a.svc.Policy(r.Context(), c.Tenant)
	out := policyJSON{TenantID: c.Tenant, BlockedTerms: m.Policy.BlockedTerms, MaxLinks: m.Policy.MaxLinks,
		UpdatedBy: strPtr(m.UpdatedBy)}
	if out.BlockedTerms == nil {
		out.BlockedTerms = []string{}
	}
	if !m.UpdatedAt.Equal(time.Time{}) {
		s := ts(m.UpdatedAt)
		out.UpdatedAt = &s
	}
	writeJSON(w, r, http.StatusOK, out, err)
}

// putPolicy serves PUT /community/moderation-policy: an owner or admin of
// the tenant replaces its policy.
func (a *API) putPolicy(w http.ResponseWriter, r *http.Request, c caller) {
	var body community.Policy
	err := c.tenant()
	if err == nil && !a.people.Administers(c.Tenant, c.UserID) {
		err = kernel.Forbidden("only an owner or admin of the organization may set its moderation policy")
	}
	if err == nil {
		err = httpx.DecodeJSON(r, &body)
	}
	if err == nil {
		err = a.svc.SetPolicy(r.Context(), c.Tenant, c.UserID, body)
	}
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	a.getPolicy(w, r, c)
}
