package voice

import (
	"net/http"
	"time"

	"github.com/strata-platform/strata/readapi/httpx"
)

// usage answers the current period's usage (the calendar month, UTC), from
// the recorded calls and messages: minutes per direction (each call's
// talk time rounded up to whole minutes, as carriers bill), SMS segments
// per direction (counted when the message was requested or received) and
// active seats (the users who placed a call or sent a message).
func (a *API) usage(w http.ResponseWriter, r *http.Request, c caller) {
	now := a.svc.Now()
	from := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
	to := from.AddDate(0, 1, 0)
	var out struct {
		PeriodStart     string `json:"period_start"`
		PeriodEnd       string `json:"period_end"`
		OutboundMinutes int    `json:"outbound_minutes"`
		InboundMinutes  int    `json:"inbound_minutes"`
		OutboundCalls   int    `json:"outbound_calls"`
		InboundCalls    int    `json:"inbound_calls"`
		OutboundSeconds int    `json:"outbound_seconds"`
		InboundSeconds  int    `json:"inbound_seconds"`
		SMSSegments     int    `json:"sms_segments"`
		SMSOutbound     int    `json:"sms_segments_outbound"`
		SMSInbound      int    `json:"sms_segments_inbound"`
		ActiveSeats     int    `json:"active_seats"`
	}
	out.PeriodStart, out.PeriodEnd = stamp(from), stamp(to)
	err := a.db.QueryRowContext(r.Context(), `SELECT
			coalesce(sum((duration + 59) / 60) FILTER (WHERE direction = 'outbound'), 0)::int,
			coalesce(sum((duration + 59) / 60) FILTER (WHERE direction = 'inbound'), 0)::int,
			count(*) FILTER (WHERE direction = 'outbound'), count(*) FILTER (WHERE direction = 'inbound'),
			coalesce(sum(duration) FILTER (WHERE direction = 'outbound'), 0)::int,
			coalesce(sum(duration) FILTER (WHERE direction = 'inbound'), 0)::int
		FROM rm_voice_v1.calls WHERE tenant = $1 AND ended_at >= $2 AND ended_at < $3`, c.actor.Tenant, from, to).
		Scan(&out.OutboundMinutes, &out.InboundMinutes, &out.OutboundCalls, &out.InboundCalls, &out.OutboundSeconds, &out.InboundSeconds)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	err = a.db.QueryRowContext(r.Context(), `SELECT
			coalesce(sum(segments) FILTER (WHERE direction = 'outbound' AND status <> 'failed'), 0)::int,
			coalesce(sum(segments) FILTER (WHERE direction = 'inbound'), 0)::int
		FROM rm_voice_v1.messages WHERE tenant = $1 AND created_at >= $2 AND created_at < $3`, c.actor.Tenant, from, to).
		Scan(&out.SMSOutbound, &out.SMSInbound)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	out.SMSSegments = out.SMSOutbound + out.SMSInbound
	err = a.db.QueryRowContext(r.Context(), `SELECT count(DISTINCT u) FROM (
			SELECT requested_by AS u FROM rm_voice_v1.calls WHERE tenant = $1 AND requested_at >= $2 AND requested_at < $3 AND requested_by <> ''
			UNION SELECT requested_by FROM rm_voice_v1.messages WHERE tenant = $1 AND created_at >= $2 AND created_at < $3 AND requested_by <> ''
		) s`, c.actor.Tenant, from, to).Scan(&out.ActiveSeats)
	writeJSON(w, r, http.StatusOK, out, err)
}
