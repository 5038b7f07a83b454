package voice

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"

	cmd "github.com/strata-platform/strata/commands/voice"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/voice"
	"github.com/strata-platform/strata/readapi/httpx"
)

// callView is a call as the API shows it. from and to are E.164 as the
// call went (for an inbound call, from is the caller); a number erased on
// request shows as null.
type callView struct {
	ID                string  `json:"id"`
	Direction         string  `json:"direction"`
	From              *string `json:"from"`
	To                *string `json:"to"`
	Status            string  `json:"status"`
	Sequence          int     `json:"sequence"`
	SIPCode           *int    `json:"sip_code"`
	Reason            *string `json:"reason"`
	Record            bool    `json:"record"`
	QueueID           *string `json:"queue_id"`
	AgentID           *string `json:"agent_id"`
	Disposition       *string `json:"disposition"`
	OnHold            bool    `json:"on_hold"`
	Transferred       bool    `json:"transferred"`
	Duration          int     `json:"duration"`
	Provider          string  `json:"provider"`
	ProviderCallID    *string `json:"provider_call_id"`
	StatusCallbackURL *string `json:"status_callback_url"`
	NumberID          *string `json:"number_id"`
	RequestedBy       *string `json:"requested_by"`
	CreatedAt         string  `json:"created_at"`
	AnsweredAt        *string `json:"answered_at"`
	EndedAt           *string `json:"ended_at"`
	UpdatedAt         string  `json:"updated_at"`
}

func optS(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func optI(n int) *int {
	if n == 0 {
		return nil
	}
	return &n
}

const callCols = `call_id, direction, line, remote, status, seq, sip_code, reason, record, queue_id, agent_id, disposition,
	on_hold, transferred, duration, provider, provider_call_id, callback_url, number_id, requested_by, requested_at,
	answered_at, ended_at, updated_at`

type scanner interface{ Scan(dest ...any) error }

// scanCall reads one row of callCols and opens its remote number.
func (a *API) scanCall(ctx context.Context, row scanner) (callView, error) {
	var v callView
	var line, reason, queue, agent, disp, pcid, cb, num, by string
	var remote []byte
	var sip int
	var req, upd time.Time
	var ans, end *time.Time
	if err := row.Scan(&v.ID, &v.Direction, &line, &remote, &v.Status, &v.Sequence, &sip, &reason, &v.Record, &queue, &agent,
		&disp, &v.OnHold, &v.Transferred, &v.Duration, &v.Provider, &pcid, &cb, &num, &by, &req, &ans, &end, &upd); err != nil {
		return v, err
	}
	number, err := a.openNumber(ctx, remote)
	if err != nil {
		return v, err
	}
	v.From, v.To = &line, number
	if v.Direction == voice.Inbound {
		v.From, v.To = number, &line
	}
	v.SIPCode, v.Reason, v.QueueID, v.AgentID, v.Disposition = optI(sip), optS(reason), optS(queue), optS(agent), optS(disp)
	v.ProviderCallID, v.StatusCallbackURL, v.NumberID, v.RequestedBy = optS(pcid), optS(cb), optS(num), optS(by)
	v.CreatedAt, v.AnsweredAt, v.EndedAt, v.UpdatedAt = stamp(req), stampPtr(ans), stampPtr(end), stamp(upd)
	return v, nil
}

// openNumber opens a sealed {number} value; null once erased.
func (a *API) openNumber(ctx context.Context, sealed []byte) (*string, error) {
	var s kernel.Sealed
	if err := json.Unmarshal(sealed, &s); err != nil {
		return nil, err
	}
	raw, err := a.svc.OpenSealed(ctx, s)
	if err != nil || raw == nil {
		return nil, err
	}
	var r voice.Remote
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, err
	}
	return &r.Number, nil
}

// getCall reads one of the tenant's calls from the read model.
func (a *API) getCallView(ctx context.Context, tenant, callID string) (callView, error) {
	if !isUUID(callID) {
		return callView{}, kernel.NotFound("call not found")
	}
	row := a.db.QueryRowContext(ctx, `SELECT `+callCols+` FROM rm_voice_v1.calls WHERE call_id = $1 AND tenant = $2`, callID, tenant)
	v, err := a.scanCall(ctx, row)
	if isNoRows(err) {
		return v, kernel.NotFound("call not found")
	}
	return v, err
}

type outboundBody struct {
	FromNumber        string `json:"from_number"`
	ToNumber          string `json:"to_number"`
	Record            bool   `json:"record"`
	QueueID           string `json:"queue_id"`
	StatusCallbackURL string `json:"status_callback_url"`
}

// outbound places a call: 201 with the call as recorded (status queued, or
// further when the provider was quick).
func (a *API) outbound(w http.ResponseWriter, r *http.Request, c caller) {
	var b outboundBody
	if err := decode(r, &b); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	callID, err := a.svc.Dial(r.Context(), c.actor, cmd.OutboundInput{From: strings.TrimSpace(b.FromNumber), To: strings.TrimSpace(b.ToNumber),
		Record: b.Record, QueueID: b.QueueID, CallbackURL: b.StatusCallbackURL})
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	w.Header().Set("Location", "/api/v1/calls/"+callID)
	v, err := a.getCallView(r.Context(), c.actor.Tenant, callID)
	if kernel.KindOf(err) == kernel.KindNotFound {
		// Placed, but the read model is behind: the call as requested.
		from, to := strings.TrimSpace(b.FromNumber), strings.TrimSpace(b.ToNumber)
		v = callView{ID: callID, Direction: voice.Outbound, From: &from, To: &to, Status: voice.StatusQueued, Sequence: 1,
			Record: b.Record, QueueID: optS(b.QueueID), StatusCallbackURL: optS(b.StatusCallbackURL), Provider: a.svc.Provider().Name(),
			RequestedBy: optS(c.actor.User), CreatedAt: stamp(a.svc.Now()), UpdatedAt: stamp(a.svc.Now())}
		err = nil
	}
	writeJSON(w, r, http.StatusCreated, v, err)
}

func (a *API) getCall(w http.ResponseWriter, r *http.Request, c caller) {
	v, err := a.getCallView(r.Context(), c.actor.Tenant, id(r, "call_id"))
	writeJSON(w, r, http.StatusOK, v, err)
}

// live lists the tenant's calls not yet ended, newest first.
func (a *API) live(w http.ResponseWriter, r *http.Request, c caller) {
	q := r.URL.Query()
	queue, agent := q.Get("queue_id"), q.Get("agent_id")
	if queue != "" && !isUUID(queue) {
		httpx.WriteError(w, r, kernel.Invalid("queue_id", "uuid", "queue_id must be a UUID"))
		return
	}
	if err := voice.CheckText("agent_id", agent, 0, 100); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	where := `tenant = $1 AND ended_at IS NULL AND ($2 = '' OR queue_id = $2) AND ($3 = '' OR agent_id = $3)`
	a.listCalls(w, r, where, []any{c.actor.Tenant, queue, agent}, DefaultLimit)
}

// logs lists the tenant's calls, newest first, filtered.
func (a *API) logs(w http.ResponseWriter, r *http.Request, c caller) {
	q := r.URL.Query()
	args := []any{c.actor.Tenant}
	where := []string{"tenant = $1"}
	add := func(cond string, v any) {
		args = append(args, v)
		where = append(where, strings.ReplaceAll(cond, "?", "$"+strconv.Itoa(len(args))))
	}
	for _, f := range []string{"from", "to"} {
		v := q.Get(f)
		if v == "" {
			continue
		}
		if err := voice.CheckE164(f, v); err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		// from and to are the caller and the callee: the organization's
		// line on one side, the party (blind index) on the other.
		lineSide := voice.Outbound
		if f == "to" {
			lineSide = voice.Inbound
		}
		args = append(args, v, a.svc.Party(c.actor.Tenant, v), lineSide)
		n := len(args)
		where = append(where, "((direction = $"+strconv.Itoa(n)+" AND line = $"+strconv.Itoa(n-2)+") OR (direction <> $"+strconv.Itoa(n)+" AND party = $"+strconv.Itoa(n-1)+"))")
	}
	dir, err := httpx.EnumParam(r, "direction", voice.Inbound, voice.Outbound)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	if dir != "" {
		add("direction = ?", dir)
	}
	if d := q.Get("disposition"); d != "" {
		if err := voice.CheckSlug("disposition", d); err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		add("disposition = ?", d)
	}
	start, err := timeParam(r, "date_start")
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	end, err := timeParam(r, "date_end")
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	if start != nil {
		add("requested_at >= ?", *start)
	}
	if end != nil {
		if len(q.Get("date_end")) == len("2006-01-02") {
			*end = end.Add(24 * time.Hour) // a date includes its whole day
		}
		if start != nil && !end.After(*start) {
			httpx.WriteError(w, r, kernel.Invalid("date_end", "after:date_start", "date_end must be after date_start"))
			return
		}
		add("requested_at < ?", *end)
	}
	a.listCalls(w, r, strings.Join(where, " AND "), args, DefaultLimit)
}

func (a *API) listCalls(w http.ResponseWriter, r *http.Request, where string, args []any, def int) {
	pg, limit, err := page(r, def)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	var total int
	if err := a.db.QueryRowContext(r.Context(), `SELECT count(*) FROM rm_voice_v1.calls WHERE `+where, args...).Scan(&total); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	n := len(args)
	rows, err := a.db.QueryContext(r.Context(), `SELECT `+callCols+` FROM rm_voice_v1.calls WHERE `+where+
		` ORDER BY requested_at DESC, call_id DESC LIMIT $`+strconv.Itoa(n+1)+` OFFSET $`+strconv.Itoa(n+2),
		append(args, limit, (pg-1)*limit)...)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	defer rows.Close()
	var items []callView
	for rows.Next() {
		v, err := a.scanCall(r.Context(), rows)
		if err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		items = append(items, v)
	}
	writeJSON(w, r, http.StatusOK, newList(items, pg, limit, total), rows.Err())
}

func (a *API) hangup(w http.ResponseWriter, r *http.Request, c caller) {
	callID := id(r, "call_id")
	if err := a.svc.Hangup(r.Context(), c.actor, callID); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	a.answerCall(w, r, c, callID)
}

// answerCall waits for the read model to hold the call's latest move and
// answers the call.
func (a *API) answerCall(w http.ResponseWriter, r *http.Request, c caller, callID string) {
	if err := a.svc.SettleCall(r.Context(), callID); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	v, err := a.getCallView(r.Context(), c.actor.Tenant, callID)
	writeJSON(w, r, http.StatusOK, v, err)
}

type transferBody struct {
	TargetNumber string `json:"target_number"`
	TransferType string `json:"transfer_type"`
}

func (a *API) transfer(w http.ResponseWriter, r *http.Request, c caller) {
	var b transferBody
	if err := decode(r, &b); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	callID := id(r, "call_id")
	if err := a.svc.Transfer(r.Context(), c.actor, callID, strings.TrimSpace(b.TargetNumber), b.TransferType); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	a.answerCall(w, r, c, callID)
}
