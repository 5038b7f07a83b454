package voice

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/voice"
	"github.com/strata-platform/strata/readapi/httpx"
)

type contactBody struct {
	Name    string   `json:"name"`
	Phone   string   `json:"phone"`
	Email   string   `json:"email"`
	Company string   `json:"company"`
	Tags    []string `json:"tags"`
}

// contactView is a contact; its personal fields are null once erased.
type contactView struct {
	ID        string   `json:"id"`
	Name      *string  `json:"name"`
	Phone     *string  `json:"phone"`
	Email     *string  `json:"email"`
	Company   *string  `json:"company"`
	Tags      []string `json:"tags"`
	CreatedAt string   `json:"created_at"`
	Erased    bool     `json:"erased"`
}

func (a *API) createContact(w http.ResponseWriter, r *http.Request, c caller) {
	var b contactBody
	if err := decode(r, &b); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	in := voice.ContactInput{Name: b.Name, Phone: strings.TrimSpace(b.Phone), Email: b.Email, Company: b.Company, Tags: b.Tags}
	cid, err := a.svc.CreateContact(r.Context(), c.actor, in)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	v, err := a.contact(r.Context(), c.actor.Tenant, cid)
	if err == nil {
		w.Header().Set("Location", "/api/v1/contacts/"+cid)
	}
	writeJSON(w, r, http.StatusCreated, v, err)
}

// openContact fills v's personal fields from the sealed row.
func (a *API) openContact(ctx context.Context, v *contactView, secret []byte) error {
	var s kernel.Sealed
	if err := json.Unmarshal(secret, &s); err != nil {
		return err
	}
	raw, err := a.svc.OpenSealed(ctx, s)
	if err != nil {
		return err
	}
	if raw == nil {
		v.Erased = true
		return nil
	}
	var t voice.ContactText
	if err := json.Unmarshal(raw, &t); err != nil {
		return err
	}
	v.Name, v.Phone, v.Email, v.Company = &t.Name, &t.Phone, optS(t.Email), optS(t.Company)
	return nil
}

func (a *API) contact(ctx context.Context, tenant, cid string) (contactView, error) {
	var v contactView
	if !isUUID(cid) {
		return v, kernel.NotFound("contact not found")
	}
	var secret []byte
	var at time.Time
	err := a.db.QueryRowContext(ctx, `SELECT contact_id, array_to_json(tags), secret, created_at FROM rm_voice_v1.contacts WHERE contact_id = $1 AND tenant = $2`,
		cid, tenant).Scan(&v.ID, (*jsonTags)(&v.Tags), &secret, &at)
	if isNoRows(err) {
		return v, kernel.NotFound("contact not found")
	}
	if err != nil {
		return v, err
	}
	v.CreatedAt = stamp(at)
	return v, a.openContact(ctx, &v, secret)
}

func (a *API) getContact(w http.ResponseWriter, r *http.Request, c caller) {
	v, err := a.contact(r.Context(), c.actor.Tenant, id(r, "contact_id"))
	writeJSON(w, r, http.StatusOK, v, err)
}

// maxSearchScan bounds how many contacts a search opens: personal fields
// are sealed, so a search decrypts the tenant's contacts and matches in
// memory (names, phone, email, company; case-insensitive substring).
const maxSearchScan = 50_000

// listContacts lists the tenant's contacts, newest first; search matches
// name, phone, email, company or a tag.
func (a *API) listContacts(w http.ResponseWriter, r *http.Request, c caller) {
	pg, limit, err := page(r, 20)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	search := strings.ToLower(strings.TrimSpace(r.URL.Query().Get("search")))
	if err := voice.CheckText("search", search, 0, 200); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	rows, err := a.db.QueryContext(r.Context(), `SELECT contact_id, array_to_json(tags), secret, created_at FROM rm_voice_v1.contacts
		WHERE tenant = $1 ORDER BY created_at DESC, contact_id DESC LIMIT $2`, c.actor.Tenant, maxSearchScan)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	defer rows.Close()
	var all []contactView
	for rows.Next() {
		var v contactView
		var secret []byte
		var at time.Time
		if err := rows.Scan(&v.ID, (*jsonTags)(&v.Tags), &secret, &at); err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		v.CreatedAt = stamp(at)
		if err := a.openContact(r.Context(), &v, secret); err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		if search == "" || matches(v, search) {
			all = append(all, v)
		}
	}
	if err := rows.Err(); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	from := min(len(all), (pg-1)*limit)
	to := min(len(all), from+limit)
	writeJSON(w, r, http.StatusOK, newList(all[from:to], pg, limit, len(all)), nil)
}

func matches(v contactView, q string) bool {
	for _, p := range []*string{v.Name, v.Phone, v.Email, v.Company} {
		if p != nil && strings.Contains(strings.ToLower(*p), q) {
			return true
		}
	}
	for _, t := range v.Tags {
		if strings.Contains(strings.ToLower(t), q) {
			return true
		}
	}
	return false
}

// contactCalls lists the calls with the contact's number, newest first.
func (a *API) contactCalls(w http.ResponseWriter, r *http.Request, c caller) {
	cid := id(r, "contact_id")
	if !isUUID(cid) {
		httpx.WriteError(w, r, kernel.NotFound("contact not found"))
		return
	}
	var party string
	err := a.db.QueryRowContext(r.Context(), `SELECT party FROM rm_voice_v1.contacts WHERE contact_id = $1 AND tenant = $2`,
		cid, c.actor.Tenant).Scan(&party)
	if isNoRows(err) {
		err = kernel.NotFound("contact not found")
	}
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	a.listCalls(w, r, "tenant = $1 AND party = $2", []any{c.actor.Tenant, party}, DefaultLimit)
}

// jsonTags scans a text[] selected as JSON (array_to_json).
type jsonTags []string

// Scan implements sql.Scanner.
func (t *jsonTags) Scan(src any) error {
	var b []byte
	switch v := src.(type) {
	case []byte:
		b = v
	case string:
		b = []byte(v)
	default:
		*t = []string{}
		return nil
	}
	out := []string{}
	if err := json.Unmarshal(b, &out); err != nil {
		return err
	}
	*t = out
	return nil
}
