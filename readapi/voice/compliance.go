package voice

import (
	"net/http"
	"strings"
	"time"

	cmd "github.com/strata-platform/strata/commands/voice"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/readapi/httpx"
)

type dncView struct {
	Phone  *string `json:"phone"` // null once erased (the listing stays in force)
	Listed bool    `json:"listed"`
	Source string  `json:"source,omitempty"`
	Reason *string `json:"reason,omitempty"`
	Since  *string `json:"since,omitempty"`
}

// dnc checks one number (phone=...) exactly, or lists the tenant's
// do-not-call list, newest first.
func (a *API) dnc(w http.ResponseWriter, r *http.Request, c caller) {
	if phone := r.URL.Query().Get("phone"); phone != "" {
		e, err := a.svc.CheckDNC(r.Context(), c.actor, strings.TrimSpace(phone))
		writeJSON(w, r, http.StatusOK, dncOf(phone, e), err)
		return
	}
	pg, limit, err := page(r, 50)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	var total int
	if err := a.db.QueryRowContext(r.Context(), `SELECT count(*) FROM rm_voice_v1.dnc WHERE tenant = $1`, c.actor.Tenant).Scan(&total); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	rows, err := a.db.QueryContext(r.Context(), `SELECT source, reason, secret, since FROM rm_voice_v1.dnc WHERE tenant = $1
		ORDER BY since DESC, party LIMIT $2 OFFSET $3`, c.actor.Tenant, limit, (pg-1)*limit)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	defer rows.Close()
	var items []dncView
	for rows.Next() {
		v := dncView{Listed: true}
		var reason string
		var secret []byte
		var since time.Time
		if err := rows.Scan(&v.Source, &reason, &secret, &since); err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		v.Reason, v.Since = optS(reason), stampPtr(&since)
		if v.Phone, err = a.openNumber(r.Context(), secret); err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		items = append(items, v)
	}
	writeJSON(w, r, http.StatusOK, newList(items, pg, limit, total), rows.Err())
}

func (a *API) addDNC(w http.ResponseWriter, r *http.Request, c caller) {
	var b struct {
		Phone  string `json:"phone"`
		Reason string `json:"reason"`
	}
	if err := decode(r, &b); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	phone := strings.TrimSpace(b.Phone)
	if err := a.svc.AddDNC(r.Context(), c.actor, phone, b.Reason); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	e, err := a.svc.CheckDNC(r.Context(), c.actor, phone)
	writeJSON(w, r, http.StatusCreated, dncOf(phone, e), err)
}

// dncOf is a check's answer: the listing as first recorded (a second add
// changes nothing, its reason included).
func dncOf(phone string, e cmd.DNCEntry) dncView {
	v := dncView{Phone: &phone, Listed: e.Listed, Source: e.Source, Reason: optS(e.Reason)}
	if e.Listed {
		v.Since = stampPtr(&e.Since)
	}
	return v
}

func (a *API) removeDNC(w http.ResponseWriter, r *http.Request, c caller) {
	if err := a.svc.RemoveDNC(r.Context(), c.actor, strings.TrimSpace(id(r, "phone"))); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

type hoursView struct {
	Enforced bool   `json:"enforced"`
	Start    string `json:"start"`
	End      string `json:"end"`
	Rule     string `json:"rule"`
}

func hours(on bool) hoursView {
	return hoursView{Enforced: on, Start: "08:00", End: "21:00",
		Rule: "calls start between 08:00 and 21:00 in the callee's local time, judged by the number's time zones (the strictest when there are several)"}
}

func (a *API) callingHours(w http.ResponseWriter, r *http.Request, c caller) {
	on, err := a.svc.CallingHoursEnforced(r.Context(), c.actor)
	writeJSON(w, r, http.StatusOK, hours(on), err)
}

func (a *API) setCallingHours(w http.ResponseWriter, r *http.Request, c caller) {
	var b struct {
		Enforced *bool `json:"enforced"`
	}
	if err := decode(r, &b); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	if b.Enforced == nil {
		httpx.WriteError(w, r, kernel.Invalid("enforced", "required", "enforced (true or false) is required"))
		return
	}
	err := a.svc.SetCallingHours(r.Context(), c.actor, *b.Enforced)
	writeJSON(w, r, http.StatusOK, hours(*b.Enforced), err)
}

// signingSecret answers the tenant's status-callback signing secret and
// how to check a Strata-Signature.
func (a *API) signingSecret(w http.ResponseWriter, r *http.Request, c caller) {
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, r, http.StatusOK, map[string]string{
		"secret": a.svc.SigningSecret(c.actor.Tenant),
		"header": "Strata-Signature",
		"scheme": "t=<unix seconds>,v1=<hex HMAC-SHA256(secret, \"<t>.<raw body>\")>; reject t more than 5 minutes from your clock",
	}, nil)
}
