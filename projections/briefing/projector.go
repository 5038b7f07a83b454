// Package briefing projects the agent-briefing context's events into the
// tables of schema rm_briefing_v1: the observations the algorithms read,
// signals, each agent's consumptions, the latest correlations, regime and
// trending companies of each day, and the runs.
package briefing

import (
	"context"
	stdsql "database/sql"
	"encoding/json"
	"fmt"

	"github.com/strata-platform/strata/domain/briefing"
	"github.com/strata-platform/strata/eventstore"
)

// Name is the projector's name; its tables live in schema rm_briefing_v1.
const Name = "briefing.v1"

// Schema is the schema of the projector's tables, for qualified queries.
const Schema = "rm_briefing_v1"

// Projector maintains rm_briefing_v1.
type Projector struct{}

// Name implements projections.Projector.
func (Projector) Name() string { return Name }

// PartitionedByStream implements projections.Partitioned: an event's rows
// are its stream's alone (a batch's observations, a run day's findings, a
// consumption), so one that cannot be applied parks its stream only.
func (Projector) PartitionedByStream() {}

// Handles implements projections.Projector.
func (Projector) Handles() []string {
	var out []string
	for _, c := range briefing.Events() {
		out = append(out, c().EventType())
	}
	return out
}

// ApplyConsumedTx writes a consumption's row into the live read model
// inside tx: the consume command projects it inline in its append's
// transaction (read-your-writes without waiting for the projector). The
// projector's own write of the row, then, does nothing; during a rebuild
// the fresh tables get it from the replay.
func ApplyConsumedTx(ctx context.Context, tx *stdsql.Tx, ev *briefing.SignalConsumed) error {
	return insertConsumed(ctx, tx, Schema+".consumptions", ev)
}

func insertConsumed(ctx context.Context, tx *stdsql.Tx, table string, ev *briefing.SignalConsumed) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO `+table+` (agent, signal_id, consumed_at) VALUES ($1, $2, $3)
		ON CONFLICT (agent, signal_id) DO NOTHING`, ev.Agent, ev.SignalID, ev.At)
	return err
}

// Apply implements projections.Projector.
func (Projector) Apply(ctx context.Context, tx *stdsql.Tx, e eventstore.Envelope) error {
	var err error
	switch ev := e.Event.(type) {
	case *briefing.ObservationsRecorded:
		// The batch's rows straight from the event's JSON: one statement
		// for thousands of observations.
		_, err = tx.ExecContext(ctx, `INSERT INTO observations (kind, source, source_id, at, series, value, company,
				companies, title, body, url, form, developer, repo, org, metric, count, batch_id)
			SELECT kind, source, source_id, at, series, value, company, companies, title, text, url, form,
				developer, repo, org, metric, CASE WHEN kind = 'developer_activity' THEN coalesce(count, 0) END, $2
			FROM jsonb_to_recordset($1::jsonb -> 'observations') AS x(kind text, source text, source_id text,
				at timestamptz, series text, value double precision, company text, companies text[], title text,
				text text, url text, form text, developer text, repo text, org text, metric text,
				count double precision)
			ON CONFLICT (kind, source, source_id) DO NOTHING`, string(e.Payload), ev.BatchID)
	case *briefing.SignalDetected:
		var payload, evidence []byte
		if payload, err = json.Marshal(orEmpty(ev.Payload)); err != nil {
			return err
		}
		if evidence, err = json.Marshal(ev.Evidence); err != nil {
			return err
		}
		if ev.Evidence == nil {
			evidence = []byte("[]")
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO signals (signal_id, type, algo, subject, day, score, rule, payload,
				evidence, run_id, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
			ON CONFLICT (signal_id) DO NOTHING`,
			ev.SignalID, ev.Type, ev.Algo, ev.Subject, ev.Day, ev.Score, ev.Rule, payload, evidence, ev.RunID, ev.At)
	case *briefing.SignalConsumed:
		err = insertConsumed(ctx, tx, "consumptions", ev) // unqualified: a rebuild's search_path picks its fresh table
	case *briefing.CorrelationsScored:
		if _, err = tx.ExecContext(ctx, `DELETE FROM correlations WHERE algo = $1 AND day = $2`, ev.Algo, ev.Day); err != nil {
			return err
		}
		raw, merr := json.Marshal(ev.Correlations)
		if merr != nil {
			return merr
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO correlations (algo, day, rank, entity_a, entity_b, type, score, metadata, scored_at)
			SELECT $2, $3, x.rank - 1, x.c->>'entity_a', x.c->>'entity_b', x.c->>'type', (x.c->>'score')::double precision,
				coalesce(nullif(x.c->'metadata', 'null'::jsonb), '{}'::jsonb), $4
			FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS x(c, rank)`, string(raw), ev.Algo, ev.Day, ev.At)
	case *briefing.RegimeClassified:
		raw, merr := json.Marshal(ev.Regime)
		if merr != nil {
			return merr
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO regimes (day, regime, recorded_at) VALUES ($1, $2, $3)
			ON CONFLICT (day) DO UPDATE SET regime = EXCLUDED.regime, recorded_at = EXCLUDED.recorded_at`,
			briefing.Day(ev.Regime.AsOf), raw, ev.At)
	case *briefing.TrendingScored:
		raw, merr := json.Marshal(ev.Trending)
		if merr != nil {
			return merr
		}
		if ev.Trending == nil {
			raw = []byte("[]")
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO trending (day, items, scored_at) VALUES ($1, $2, $3)
			ON CONFLICT (day) DO UPDATE SET items = EXCLUDED.items, scored_at = EXCLUDED.scored_at`, ev.Day, raw, ev.At)
	case *briefing.AlgorithmRan:
		_, err = tx.ExecContext(ctx, `INSERT INTO runs (run_id, algo, day, trigger, inputs, no_input, rule_version,
				signals, correlations, at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
			ON CONFLICT (run_id, algo) DO NOTHING`,
			ev.RunID, ev.Algo, ev.Day, ev.Trigger, ev.Inputs, ev.NoInput, ev.RuleVersion, ev.Signals, ev.Correlations, ev.At)
	}
	if err != nil {
		return fmt.Errorf("briefing.v1: %s: %w", e.Type, err)
	}
	return nil
}

func orEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}
