package voice

import (
	"net/http"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/readapi/httpx"
)

// span reads date_start and date_end (ISO 8601; a date_end that is a date
// includes its day); the default is the 30 days up to now. At most
// maxSpan long.
func (a *API) span(r *http.Request, maxSpan time.Duration) (time.Time, time.Time, error) {
	start, err := timeParam(r, "date_start")
	if err != nil {
		return time.Time{}, time.Time{}, err
	}
	end, err := timeParam(r, "date_end")
	if err != nil {
		return time.Time{}, time.Time{}, err
	}
	to := a.svc.Now()
	if end != nil {
		to = *end
		if len(r.URL.Query().Get("date_end")) == len("2006-01-02") {
			to = to.Add(24 * time.Hour)
		}
	}
	from := to.Add(-30 * 24 * time.Hour)
	if start != nil {
		from = *start
	}
	if !to.After(from) {
		return from, to, kernel.Invalid("date_end", "after:date_start", "date_end must be after date_start")
	}
	if to.Sub(from) > maxSpan {
		return from, to, kernel.Invalid("date_start", "max_span", "the range from date_start to date_end is at most "+maxSpan.String()+" for this interval")
	}
	return from, to, nil
}

type volumeBucket struct {
	PeriodStart     string `json:"period_start"`
	Total           int    `json:"total"`
	Inbound         int    `json:"inbound"`
	Outbound        int    `json:"outbound"`
	Answered        int    `json:"answered"`
	Completed       int    `json:"completed"`
	Busy            int    `json:"busy"`
	NoAnswer        int    `json:"no_answer"`
	Failed          int    `json:"failed"`
	Canceled        int    `json:"canceled"`
	TalkSeconds     int    `json:"talk_seconds"`
	AverageDuration int    `json:"average_duration_seconds"`
}

// callVolume counts the tenant's calls per interval (UTC buckets; weeks
// start on Monday, ISO 8601), every bucket of the range present.
func (a *API) callVolume(w http.ResponseWriter, r *http.Request, c caller) {
	interval, err := httpx.EnumParam(r, "interval", "hour", "day", "week", "month")
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	if interval == "" {
		interval = "day"
	}
	maxSpan := map[string]time.Duration{"hour": 31 * 24 * time.Hour, "day": 731 * 24 * time.Hour,
		"week": 5 * 366 * 24 * time.Hour, "month": 20 * 366 * 24 * time.Hour}[interval]
	from, to, err := a.span(r, maxSpan)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	step := map[string]string{"hour": "1 hour", "day": "1 day", "week": "1 week", "month": "1 month"}[interval]
	rows, err := a.db.QueryContext(r.Context(), `
		WITH b AS (
			SELECT generate_series(date_trunc($1, $3::timestamptz AT TIME ZONE 'UTC'), $4::timestamptz AT TIME ZONE 'UTC', $2::interval) AS p
		)
		SELECT b.p, count(c.call_id), count(c.call_id) FILTER (WHERE c.direction = 'inbound'),
			count(c.call_id) FILTER (WHERE c.direction = 'outbound'), count(c.answered_at),
			count(c.call_id) FILTER (WHERE c.status = 'completed'), count(c.call_id) FILTER (WHERE c.status = 'busy'),
			count(c.call_id) FILTER (WHERE c.status = 'no-answer'), count(c.call_id) FILTER (WHERE c.status = 'failed'),
			count(c.call_id) FILTER (WHERE c.status = 'canceled'), coalesce(sum(c.duration), 0)::int
		FROM b LEFT JOIN rm_voice_v1.calls c ON c.tenant = $5
			AND date_trunc($1, c.requested_at AT TIME ZONE 'UTC') = b.p
			AND c.requested_at >= $3 AND c.requested_at < $4
		WHERE b.p < $4::timestamptz AT TIME ZONE 'UTC'
		GROUP BY b.p ORDER BY b.p`, interval, step, from, to, c.actor.Tenant)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	defer rows.Close()
	out := []volumeBucket{}
	for rows.Next() {
		var v volumeBucket
		var p time.Time
		if err := rows.Scan(&p, &v.Total, &v.Inbound, &v.Outbound, &v.Answered, &v.Completed, &v.Busy, &v.NoAnswer, &v.Failed,
			&v.Canceled, &v.TalkSeconds); err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		v.PeriodStart = time.Date(p.Year(), p.Month(), p.Day(), p.Hour(), 0, 0, 0, time.UTC).Format(time.RFC3339)
		if v.Answered > 0 {
			v.AverageDuration = v.TalkSeconds / v.Answered
		}
		out = append(out, v)
	}
	writeJSON(w, r, http.StatusOK, map[string]any{"interval": interval, "date_start": stamp(from), "date_end": stamp(to),
		"timezone": "UTC", "buckets": out}, rows.Err())
}

type agentRow struct {
	AgentID         string  `json:"agent_id"`
	Calls           int     `json:"calls"`
	Answered        int     `json:"answered"`
	AnswerRate      float64 `json:"answer_rate"`
	TalkSeconds     int     `json:"talk_seconds"`
	AverageDuration float64 `json:"average_duration_seconds"`
	Dispositioned   int     `json:"with_disposition"`
}

// agentPerformance sums each agent's calls in the range: the agent is the
// call's agent_id, else the user who placed it.
func (a *API) agentPerformance(w http.ResponseWriter, r *http.Request, c caller) {
	from, to, err := a.span(r, 731*24*time.Hour)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	rows, err := a.db.QueryContext(r.Context(), `SELECT coalesce(nullif(agent_id, ''), nullif(requested_by, ''), 'unassigned') AS agent,
			count(*), count(answered_at), coalesce(sum(duration), 0)::int, count(*) FILTER (WHERE disposition <> '')
		FROM rm_voice_v1.calls WHERE tenant = $1 AND requested_at >= $2 AND requested_at < $3
		GROUP BY agent ORDER BY count(*) DESC, agent`, c.actor.Tenant, from, to)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	defer rows.Close()
	out := []agentRow{}
	for rows.Next() {
		var v agentRow
		if err := rows.Scan(&v.AgentID, &v.Calls, &v.Answered, &v.TalkSeconds, &v.Dispositioned); err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		v.AnswerRate = ratio(v.Answered, v.Calls)
		if v.Answered > 0 {
			v.AverageDuration = round2(float64(v.TalkSeconds) / float64(v.Answered))
		}
		out = append(out, v)
	}
	writeJSON(w, r, http.StatusOK, map[string]any{"date_start": stamp(from), "date_end": stamp(to), "agents": out}, rows.Err())
}

func ratio(n, d int) float64 {
	if d == 0 {
		return 0
	}
	return round2(float64(n) / float64(d))
}

func round2(f float64) float64 { return float64(int64(f*100+0.5)) / 100 }

type queueRow struct {
	QueueID         string  `json:"queue_id"`
	Calls           int     `json:"calls"`
	Answered        int     `json:"answered"`
	Abandoned       int     `json:"abandoned"`
	Live            int     `json:"live"`
	AverageWait     float64 `json:"average_wait_seconds"`
	AverageDuration float64 `json:"average_duration_seconds"`
}

// queueReports sums each queue's calls in the range: answered, abandoned
// (ended before an answer), live now, the wait from the request to the
// answer and the talk time.
func (a *API) queueReports(w http.ResponseWriter, r *http.Request, c caller) {
	from, to, err := a.span(r, 731*24*time.Hour)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	rows, err := a.db.QueryContext(r.Context(), `SELECT queue_id, count(*), count(answered_at),
			count(*) FILTER (WHERE answered_at IS NULL AND ended_at IS NOT NULL), count(*) FILTER (WHERE ended_at IS NULL),
			coalesce(avg(extract(epoch FROM answered_at - requested_at)) FILTER (WHERE answered_at IS NOT NULL), 0)::float8,
			coalesce(avg(duration) FILTER (WHERE answered_at IS NOT NULL), 0)::float8
		FROM rm_voice_v1.calls WHERE tenant = $1 AND queue_id <> '' AND requested_at >= $2 AND requested_at < $3
		GROUP BY queue_id ORDER BY queue_id`, c.actor.Tenant, from, to)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	defer rows.Close()
	out := []queueRow{}
	for rows.Next() {
		var v queueRow
		if err := rows.Scan(&v.QueueID, &v.Calls, &v.Answered, &v.Abandoned, &v.Live, &v.AverageWait, &v.AverageDuration); err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		v.AverageWait, v.AverageDuration = round2(v.AverageWait), round2(v.AverageDuration)
		out = append(out, v)
	}
	writeJSON(w, r, http.StatusOK, map[string]any{"date_start": stamp(from), "date_end": stamp(to), "queues": out}, rows.Err())
}

// dispositions counts the range's calls per disposition a person set
// ("none": not set), with the share of each.
func (a *API) dispositions(w http.ResponseWriter, r *http.Request, c caller) {
	from, to, err := a.span(r, 731*24*time.Hour)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	rows, err := a.db.QueryContext(r.Context(), `SELECT coalesce(nullif(disposition, ''), 'none') AS d, count(*)
		FROM rm_voice_v1.calls WHERE tenant = $1 AND requested_at >= $2 AND requested_at < $3 GROUP BY d ORDER BY count(*) DESC, d`,
		c.actor.Tenant, from, to)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	defer rows.Close()
	type row struct {
		Disposition string  `json:"disposition"`
		Count       int     `json:"count"`
		Share       float64 `json:"share"`
	}
	out := []row{}
	total := 0
	for rows.Next() {
		var v row
		if err := rows.Scan(&v.Disposition, &v.Count); err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		total += v.Count
		out = append(out, v)
	}
	for i := range out {
		out[i].Share = ratio(out[i].Count, total)
	}
	writeJSON(w, r, http.StatusOK, map[string]any{"date_start": stamp(from), "date_end": stamp(to), "total": total, "dispositions": out}, rows.Err())
}
