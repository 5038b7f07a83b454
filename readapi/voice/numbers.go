package voice

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/voice"
	"github.com/strata-platform/strata/readapi/httpx"
)

// numberView is a number of the inventory.
type numberView struct {
	ID           string         `json:"id"`
	PhoneNumber  string         `json:"phone_number"`
	Country      string         `json:"country"`
	NumberType   string         `json:"number_type"`
	Region       *string        `json:"region"`
	Capabilities []string       `json:"capabilities"`
	Provider     string         `json:"provider"`
	FriendlyName *string        `json:"friendly_name,omitempty"`
	Routing      *voice.Routing `json:"routing,omitempty"`
	Status       string         `json:"status"` // available, or active (the tenant's)
	PurchasedAt  *string        `json:"purchased_at,omitempty"`
}

const numberCols = `number_id, phone, country, number_type, region, array_to_json(capabilities), provider, tenant, friendly_name,
	routing_type, routing_target, routing_menu, purchased_at`

func scanNumber(row scanner) (numberView, error) {
	var v numberView
	var region, tenant, friendly, rt, rid string
	var purchased *time.Time
	var menu []byte
	if err := row.Scan(&v.ID, &v.PhoneNumber, &v.Country, &v.NumberType, &region, (*jsonTags)(&v.Capabilities), &v.Provider,
		&tenant, &friendly, &rt, &rid, &menu, &purchased); err != nil {
		return v, err
	}
	v.Region, v.Status = optS(region), "available"
	if tenant != "" {
		v.Status, v.FriendlyName, v.PurchasedAt = "active", optS(friendly), stampPtr(purchased)
		if rt != "" {
			v.Routing = &voice.Routing{Type: rt, TargetID: rid}
			if len(menu) > 0 {
				if err := json.Unmarshal(menu, &v.Routing.Menu); err != nil {
					return v, err
				}
			}
		}
	}
	return v, nil
}

// listNumbers lists the tenant's numbers, oldest purchase first.
func (a *API) listNumbers(w http.ResponseWriter, r *http.Request, c caller) {
	pg, limit, err := page(r, 20)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	var total int
	if err := a.db.QueryRowContext(r.Context(), `SELECT count(*) FROM rm_voice_v1.numbers WHERE tenant = $1`, c.actor.Tenant).Scan(&total); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	rows, err := a.db.QueryContext(r.Context(), `SELECT `+numberCols+` FROM rm_voice_v1.numbers WHERE tenant = $1
		ORDER BY purchased_at, number_id LIMIT $2 OFFSET $3`, c.actor.Tenant, limit, (pg-1)*limit)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	defer rows.Close()
	var items []numberView
	for rows.Next() {
		v, err := scanNumber(rows)
		if err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		items = append(items, v)
	}
	writeJSON(w, r, http.StatusOK, newList(items, pg, limit, total), rows.Err())
}

type searchBody struct {
	Country    string `json:"country"`
	NumberType string `json:"number_type"`
	AreaCode   string `json:"area_code"`
	Contains   string `json:"contains"`
	Limit      *int   `json:"limit"`
}

// searchNumbers finds available numbers of the inventory the operator
// imported from the provider (never invented ones): by country, type, area
// code (the national number starts with it) and digits the national
// number contains.
func (a *API) searchNumbers(w http.ResponseWriter, r *http.Request, c caller) {
	var b searchBody
	if err := decode(r, &b); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	b.Country = strings.ToUpper(strings.TrimSpace(b.Country))
	if err := voice.CheckCountry("country", b.Country); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	if err := voice.CheckNumberType("number_type", b.NumberType); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	for _, f := range []struct{ name, v string }{{"area_code", b.AreaCode}, {"contains", b.Contains}} {
		if !digits(f.v) || len(f.v) > 15 {
			httpx.WriteError(w, r, kernel.Invalid(f.name, "digits", f.name+" must be up to 15 digits"))
			return
		}
	}
	limit := 20
	if b.Limit != nil {
		if *b.Limit < 1 || *b.Limit > 50 {
			httpx.WriteError(w, r, kernel.Invalid("limit", "range:1-50", "limit must be a whole number from 1 to 50"))
			return
		}
		limit = *b.Limit
	}
	rows, err := a.db.QueryContext(r.Context(), `SELECT `+numberCols+` FROM rm_voice_v1.numbers
		WHERE tenant = '' AND country = $1 AND number_type = $2
		AND ($3 = '' OR starts_with(national, $3))
		AND ($4 = '' OR position($4 in national) > 0)
		ORDER BY phone LIMIT $5`, b.Country, b.NumberType, b.AreaCode, b.Contains, limit)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	defer rows.Close()
	items := []numberView{}
	for rows.Next() {
		v, err := scanNumber(rows)
		if err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		items = append(items, v)
	}
	writeJSON(w, r, http.StatusOK, map[string]any{"items": items, "total": len(items), "limit": limit}, rows.Err())
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func (a *API) number(r *http.Request, tenant, nid string) (numberView, error) {
	if !isUUID(nid) {
		return numberView{}, kernel.NotFound("number not found")
	}
	v, err := scanNumber(a.db.QueryRowContext(r.Context(), `SELECT `+numberCols+` FROM rm_voice_v1.numbers WHERE number_id = $1 AND tenant = $2`, nid, tenant))
	if isNoRows(err) {
		return v, kernel.NotFound("number not found")
	}
	return v, err
}

func (a *API) purchase(w http.ResponseWriter, r *http.Request, c caller) {
	var b struct {
		PhoneNumber  string `json:"phone_number"`
		FriendlyName string `json:"friendly_name"`
	}
	if err := decode(r, &b); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	n, err := a.svc.Purchase(r.Context(), c.actor, strings.TrimSpace(b.PhoneNumber), b.FriendlyName)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	v, err := a.number(r, c.actor.Tenant, n.ID)
	if err == nil {
		w.Header().Set("Location", "/api/v1/numbers/"+n.ID)
	}
	writeJSON(w, r, http.StatusCreated, v, err)
}

func (a *API) configure(w http.ResponseWriter, r *http.Request, c caller) {
	var b struct {
		FriendlyName string         `json:"friendly_name"`
		Routing      *voice.Routing `json:"routing"`
	}
	if err := decode(r, &b); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	nid := id(r, "number_id")
	if _, err := a.svc.Configure(r.Context(), c.actor, nid, b.FriendlyName, b.Routing); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	v, err := a.number(r, c.actor.Tenant, nid)
	writeJSON(w, r, http.StatusOK, v, err)
}

func (a *API) release(w http.ResponseWriter, r *http.Request, c caller) {
	if err := a.svc.Release(r.Context(), c.actor, id(r, "number_id")); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
