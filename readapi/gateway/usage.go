package gateway

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
	projgateway "github.com/strata-platform/strata/projections/gateway"
	"github.com/strata-platform/strata/readapi/auth"
	"github.com/strata-platform/strata/readapi/httpx"
)

// usageYears bounds the usage listing's from and to.
var usageYears = httpx.Years{Min: 2000, Max: 2100}

type usageRecord struct {
	RequestID       string      `json:"request_id"`
	Model           string      `json:"model"`
	Upstream        string      `json:"upstream,omitempty"`
	KeyID           string      `json:"key_id,omitempty"`
	InputTokens     int64       `json:"input_tokens"`
	OutputTokens    int64       `json:"output_tokens"`
	CacheReadTokens int64       `json:"cache_read_tokens"`
	Cost            json.Number `json:"cost"` // credits, exact
	CostMicro       int64       `json:"cost_micro"`
	Refunded        json.Number `json:"refunded"`
	Status          string      `json:"status"`
	LatencyMS       int64       `json:"latency_ms"`
	At              time.Time   `json:"at"`
}

type usageReply struct {
	OK         bool          `json:"ok"`
	Records    []usageRecord `json:"records"`
	NextCursor string        `json:"next_cursor,omitempty"`
}

// usage answers GET /api/v1/public/usage (beyond the seed): the caller's
// per-request usage records, newest first; query model, from and to
// (RFC 3339, to exclusive), limit (1-200, default 50) and cursor (the
// previous page's next_cursor). Records show once their debit is in the
// ledger's read model (within a second of the request).
func (c *CreditsAPI) usage(w http.ResponseWriter, r *http.Request, p auth.Principal) {
	q := r.URL.Query()
	f := projgateway.UsageFilter{Model: strings.TrimSpace(q.Get("model")), Limit: 50}
	var err error
	if v := q.Get("from"); v != "" {
		if f.From, err = httpx.ParseDateTime("from", v, usageYears, true); err != nil {
			httpx.WriteError(w, r, err)
			return
		}
	}
	if v := q.Get("to"); v != "" {
		if f.To, err = httpx.ParseDateTime("to", v, usageYears, true); err != nil {
			httpx.WriteError(w, r, err)
			return
		}
	}
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 200 {
			httpx.WriteError(w, r, kernel.Invalid("limit", "range:1-200", "limit must be a whole number from 1 to 200"))
			return
		}
		f.Limit = n
	}
	if v := q.Get("cursor"); v != "" {
		if f.AfterAt, f.AfterID, err = decodeCursor(v); err != nil {
			httpx.WriteError(w, r, err)
			return
		}
	}
	recs, err := projgateway.Usage(r.Context(), c.cfg.DB, p.UserID, f)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	out := usageReply{OK: true, Records: make([]usageRecord, 0, len(recs))}
	for _, u := range recs {
		out.Records = append(out.Records, usageRecord{RequestID: u.RequestID, Model: u.Model, Upstream: u.Upstream, KeyID: u.KeyID,
			InputTokens: u.Input, OutputTokens: u.Output, CacheReadTokens: u.CacheRead, Cost: u.Cost.Number(),
			CostMicro: int64(u.Cost), Refunded: u.Refunded.Number(), Status: u.Status, LatencyMS: u.LatencyMS, At: u.At})
	}
	if len(recs) == f.Limit {
		last := recs[len(recs)-1]
		out.NextCursor = base64.RawURLEncoding.EncodeToString([]byte(last.At.Format(time.RFC3339Nano) + "|" + last.RequestID))
	}
	_ = httpx.WriteJSON(w, http.StatusOK, out)
}

func decodeCursor(v string) (time.Time, string, error) {
	bad := kernel.Invalid("cursor", "cursor", "cursor must be a next_cursor this listing returned")
	raw, err := base64.RawURLEncoding.DecodeString(v)
	if err != nil {
		return time.Time{}, "", bad
	}
	at, id, ok := strings.Cut(string(raw), "|")
	if !ok || id == "" {
		return time.Time{}, "", bad
	}
	t, err := time.Parse(time.RFC3339Nano, at)
	if err != nil {
		return time.Time{}, "", bad
	}
	return t, id, nil
}
