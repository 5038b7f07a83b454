package briefing

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/strata-platform/strata/domain/briefing"
	projbriefing "github.com/strata-platform/strata/projections/briefing"
)

// Signal is a signal as a briefing shows it.
type Signal struct {
	ID        string          `json:"id"`
	Type      string          `json:"type"`
	Algo      string          `json:"algo"`
	Payload   json.RawMessage `json:"payload"`
	CreatedAt time.Time       `json:"created_at"`
	Subject   string          `json:"subject"`
	Score     float64         `json:"score"`
	Rule      string          `json:"rule"`
	Day       string          `json:"day"`
}

// Correlation is a correlation as a briefing shows it.
type Correlation struct {
	Algo     string          `json:"algo"`
	EntityA  string          `json:"entity_a"`
	EntityB  string          `json:"entity_b"`
	Type     string          `json:"type"`
	Score    float64         `json:"score"`
	Metadata json.RawMessage `json:"metadata"`
	Day      string          `json:"day"`
}

// Recommendation says what to do and what it was derived from.
type Recommendation struct {
	Text     string `json:"text"`
	From     string `json:"from"` // signal or regime
	SignalID string `json:"signal_id,omitempty"`
}

// Briefing is an agent's briefing.
type Briefing struct {
	Agent            string              `json:"agent"`
	Timestamp        time.Time           `json:"timestamp"`
	SinceHours       int                 `json:"since_hours"`
	Signals          []Signal            `json:"signals"`
	Correlations     []Correlation       `json:"correlations"`
	MarketRegime     *briefing.Regime    `json:"market_regime"`
	Trending         []briefing.Trending `json:"trending_companies"`
	Recommendations  []string            `json:"recommendations"`
	Sources          []Recommendation    `json:"recommendation_sources"`
	SignalTypes      []string            `json:"signal_types"`
	Algorithms       []string            `json:"algorithms"`
	TrendingAsOf     string              `json:"trending_as_of,omitempty"`
	CorrelationsAsOf map[string]string   `json:"correlations_as_of"`
}

// SignalsQuery reads an agent's unconsumed signals: $1 its types, $2 the
// oldest created_at, $3 the agent, $4 the limit. One index scan per type
// (signals_recent), each stopping after limit rows, merged: a single scan
// over several types could not use the index's order and sorted every
// signal of the window.
const SignalsQuery = `SELECT x.signal_id::text, x.type, x.algo, x.payload::text, x.created_at, x.subject,
				x.score, x.rule, x.day::text
			FROM unnest($1::text[]) AS t(type) CROSS JOIN LATERAL (
				SELECT s.* FROM ` + projbriefing.Schema + `.signals s
				WHERE s.type = t.type AND s.created_at >= $2
				  AND NOT EXISTS (SELECT 1 FROM ` + projbriefing.Schema + `.consumptions c WHERE c.agent = $3 AND c.signal_id = s.signal_id)
				ORDER BY s.created_at DESC, s.signal_id LIMIT $4) x
			ORDER BY x.created_at DESC, x.signal_id LIMIT $4`

// read builds agent's briefing as of now: its unconsumed signals of its
// types created within the window, newest first, at most limit; the
// correlations of its algorithms' latest scored day (when that day
// overlaps the window), strongest first, at most limit; the latest regime
// when it reads market_sentiment; the latest trending companies when it
// reads content_intelligence; and recommendations derived from these.
func (a *API) read(ctx context.Context, agent briefing.Agent, now time.Time, sinceHours, limit int) (*Briefing, error) {
	since := now.Add(-time.Duration(sinceHours) * time.Hour)
	b := &Briefing{Agent: agent.Name, Timestamp: now, SinceHours: sinceHours, Signals: []Signal{}, Correlations: []Correlation{},
		Trending: []briefing.Trending{}, Recommendations: []string{}, Sources: []Recommendation{},
		SignalTypes: agent.Signals, Algorithms: agent.Algorithms, CorrelationsAsOf: map[string]string{}}
	db := a.cfg.DB
	if len(agent.Signals) > 0 {
		rows, err := db.QueryContext(ctx, SignalsQuery, agent.Signals, since, agent.Name, limit)
		if err != nil {
			return nil, fmt.Errorf("briefing: signals: %w", err)
		}
		for rows.Next() {
			var s Signal
			var payload string
			if err := rows.Scan(&s.ID, &s.Type, &s.Algo, &payload, &s.CreatedAt, &s.Subject, &s.Score, &s.Rule, &s.Day); err != nil {
				rows.Close()
				return nil, err
			}
			s.Payload, s.CreatedAt = json.RawMessage(payload), s.CreatedAt.UTC()
			b.Signals = append(b.Signals, s)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	if err := a.correlations(ctx, b, agent, since, limit); err != nil {
		return nil, err
	}
	if agent.Uses(briefing.AlgoSentiment) {
		var raw string
		err := db.QueryRowContext(ctx, `SELECT regime::text FROM `+projbriefing.Schema+`.regimes ORDER BY day DESC LIMIT 1`).Scan(&raw)
		if err == nil {
			var r briefing.Regime
			if err := json.Unmarshal([]byte(raw), &r); err != nil {
				return nil, err
			}
			b.MarketRegime = &r
		}
	}
	if agent.Uses(briefing.AlgoContent) {
		var raw, day string
		err := db.QueryRowContext(ctx, `SELECT items::text, day::text FROM `+projbriefing.Schema+`.trending ORDER BY day DESC LIMIT 1`).Scan(&raw, &day)
		if err == nil {
			if err := json.Unmarshal([]byte(raw), &b.Trending); err != nil {
				return nil, err
			}
			if len(b.Trending) > limit {
				b.Trending = b.Trending[:limit]
			}
			b.TrendingAsOf = day
		}
	}
	recommend(b)
	return b, nil
}

// correlations reads the agent's algorithms' latest correlation sets.
func (a *API) correlations(ctx context.Context, b *Briefing, agent briefing.Agent, since time.Time, limit int) error {
	rows, err := a.cfg.DB.QueryContext(ctx, `WITH latest AS (
			SELECT algo, max(day) AS day FROM `+projbriefing.Schema+`.correlations WHERE algo = ANY($1) GROUP BY algo)
		SELECT c.algo, c.entity_a, c.entity_b, c.type, c.score, c.metadata::text, c.day::text
		FROM `+projbriefing.Schema+`.correlations c JOIN latest l ON l.algo = c.algo AND l.day = c.day
		WHERE c.day + 1 > ($2::timestamptz AT TIME ZONE 'UTC')::date
		ORDER BY c.score DESC, c.algo, c.entity_a, c.entity_b, c.type LIMIT $3`, agent.Algorithms, since.UTC(), limit)
	if err != nil {
		return fmt.Errorf("briefing: correlations: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var c Correlation
		var meta string
		if err := rows.Scan(&c.Algo, &c.EntityA, &c.EntityB, &c.Type, &c.Score, &meta, &c.Day); err != nil {
			return err
		}
		c.Metadata = json.RawMessage(meta)
		b.Correlations = append(b.Correlations, c)
		b.CorrelationsAsOf[c.Algo] = c.Day
	}
	return rows.Err()
}
