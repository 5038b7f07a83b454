// Package audit projects the audit context's events into schema
// rm_audit_v1: stored reports and leads (never their addresses).
package audit

import (
	"context"
	stdsql "database/sql"
	"encoding/json"
	"fmt"

	"github.com/strata-platform/strata/domain/audit"
	"github.com/strata-platform/strata/eventstore"
)

// Name is the projector's name; its tables live in schema rm_audit_v1.
const Name = "audit.v1"

// Schema is the schema of the projector's tables.
const Schema = "rm_audit_v1"

// Projector maintains rm_audit_v1.
type Projector struct{}

// Name implements projections.Projector.
func (Projector) Name() string { return Name }

// PartitionedByStream implements projections.Partitioned: a report's and a
// lead's rows are their stream's.
func (Projector) PartitionedByStream() {}

// Handles implements projections.Projector.
func (Projector) Handles() []string {
	var out []string
	for _, c := range audit.Events() {
		out = append(out, c().EventType())
	}
	return out
}

// Apply implements projections.Projector.
func (Projector) Apply(ctx context.Context, tx *stdsql.Tx, e eventstore.Envelope) error {
	var err error
	switch ev := e.Event.(type) {
	case *audit.ReportStored:
		raw, merr := json.Marshal(ev.Scan)
		if merr != nil {
			return merr
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO reports (report_id, url, host, industry, score, grade, scan, requests,
				scanned_at, stored_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (report_id) DO NOTHING`,
			ev.ReportID, ev.Scan.URL, ev.Host, ev.Industry, ev.Scan.Score, ev.Scan.Grade, raw, ev.Requests, ev.Scan.ScannedAt, ev.At)
	case *audit.ReportUnlocked:
		if _, err = tx.ExecContext(ctx, `UPDATE reports SET unlocked = true WHERE report_id = $1`, ev.ReportID); err != nil {
			break
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO leads (lead_id, kind, url, score, report_id, at)
			SELECT $1, 'unlock', url, score, report_id, $3 FROM reports WHERE report_id = $2
			ON CONFLICT (lead_id) DO NOTHING`, ev.LeadID, ev.ReportID, ev.At)
	case *audit.LeadCaptured:
		var report any
		if ev.ReportID != "" {
			report = ev.ReportID
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO leads (lead_id, kind, url, score, findings_count, dimensions_failed,
				package_interest, utm_source, utm_medium, utm_campaign, report_id, at)
			VALUES ($1, 'form', $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (lead_id) DO NOTHING`,
			ev.LeadID, ev.URL, ev.Score, ev.FindingsCount, ev.DimensionsFailed, ev.PackageInterest, ev.UTMSource,
			ev.UTMMedium, ev.UTMCampaign, report, ev.At)
	case *audit.CrawlRequested:
		_, err = tx.ExecContext(ctx, `INSERT INTO crawls (crawl_id, url, max_pages, tier, status, requested_at)
			VALUES ($1, $2, $3, $4, 'queued', $5) ON CONFLICT (crawl_id) DO NOTHING`, ev.CrawlID, ev.URL, ev.MaxPages, ev.Tier, ev.At)
	case *audit.CrawlStarted:
		_, err = tx.ExecContext(ctx, `UPDATE crawls SET status = 'running', started_at = coalesce(started_at, $2)
			WHERE crawl_id = $1 AND finished_at IS NULL`, ev.CrawlID, ev.At)
	case *audit.CrawlPageScored:
		raw, merr := json.Marshal(ev.Checks)
		if merr != nil {
			return merr
		}
		if _, err = tx.ExecContext(ctx, `INSERT INTO crawl_pages (crawl_id, url, status, score, checks, at)
			VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (crawl_id, url) DO NOTHING`, ev.CrawlID, ev.URL, ev.Status, ev.Score, raw, ev.At); err != nil {
			break
		}
		_, err = tx.ExecContext(ctx, `UPDATE crawls SET pages_crawled = (SELECT count(*) FROM crawl_pages WHERE crawl_id = $1)
			WHERE crawl_id = $1`, ev.CrawlID)
	case *audit.CrawlCancelRequested:
		_, err = tx.ExecContext(ctx, `UPDATE crawls SET cancel_requested = true WHERE crawl_id = $1`, ev.CrawlID)
	case *audit.CrawlFinished:
		raw, merr := json.Marshal(ev.DimensionAverages)
		if merr != nil {
			return merr
		}
		_, err = tx.ExecContext(ctx, `UPDATE crawls SET status = $2, pages_crawled = $3, overall_score = $4, dimension_averages = $5,
			reason = $6, finished_at = $7 WHERE crawl_id = $1`, ev.CrawlID, ev.Status, ev.PagesCrawled, ev.OverallScore, raw, ev.Reason, ev.At)
	}
	if err != nil {
		return fmt.Errorf("audit.v1: %s: %w", e.Type, err)
	}
	return nil
}
