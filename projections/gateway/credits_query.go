package gateway

import (
	"context"
	stdsql "database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/strata-platform/strata/domain/gateway/credits"
)

// UsageRecord is one request's usage record (rm_gateway_credits_v1.usage).
type UsageRecord struct {
	RequestID string
	KeyID     string
	Model     string
	Upstream  string
	credits.Tokens
	Cost      credits.Micro
	Refunded  credits.Micro
	Status    string
	LatencyMS int64
	PeriodKey string
	At        time.Time
}

// UsageFilter selects an account's usage records, newest first.
type UsageFilter struct {
	Model string    // only this model ("": all)
	From  time.Time // at or after (zero: no bound)
	To    time.Time // before (zero: no bound)
	Limit int       // at most this many (1-200)
	// After continues a listing after the record with this time and request
	// id (the previous page's last): keyset paging, stable while records
	// are added.
	AfterAt time.Time
	AfterID string
}

// Usage lists an account's usage records by filter f, newest first (at,
// then request id, descending), served by the index on (account_id, at,
// request_id) (with the model, by (account_id, model, at, request_id)).
func Usage(ctx context.Context, db *stdsql.DB, account string, f UsageFilter) ([]UsageRecord, error) {
	where, args := []string{"account_id = $1"}, []any{account}
	add := func(cond string, v any) {
		args = append(args, v)
		where = append(where, fmt.Sprintf(cond, len(args)))
	}
	if f.Model != "" {
		add("model = $%d", f.Model)
	}
	if !f.From.IsZero() {
		add("at >= $%d", f.From)
	}
	if !f.To.IsZero() {
		add("at < $%d", f.To)
	}
	if f.AfterID != "" {
		args = append(args, f.AfterAt, f.AfterID)
		where = append(where, fmt.Sprintf("(at, request_id) < ($%d, $%d)", len(args)-1, len(args)))
	}
	args = append(args, f.Limit)
	rows, err := db.QueryContext(ctx, `SELECT request_id, coalesce(key_id, ''), model, coalesce(upstream, ''), input_tokens,
		output_tokens, cache_read_tokens, cost_micro, refunded_micro, status, latency_ms, coalesce(period_key, ''), at
		FROM `+CreditsSchema+`.usage WHERE `+strings.Join(where, " AND ")+`
		ORDER BY at DESC, request_id DESC LIMIT $`+fmt.Sprint(len(args)), args...)
	if err != nil {
		return nil, fmt.Errorf("usage of %s: %w", account, err)
	}
	defer rows.Close()
	out := []UsageRecord{}
	for rows.Next() {
		var u UsageRecord
		var cost, refunded int64
		if err := rows.Scan(&u.RequestID, &u.KeyID, &u.Model, &u.Upstream, &u.Input, &u.Output, &u.CacheRead, &cost, &refunded,
			&u.Status, &u.LatencyMS, &u.PeriodKey, &u.At); err != nil {
			return nil, fmt.Errorf("usage of %s: %w", account, err)
		}
		u.Cost, u.Refunded, u.At = credits.Micro(cost), credits.Micro(refunded), u.At.UTC()
		out = append(out, u)
	}
	return out, rows.Err()
}
