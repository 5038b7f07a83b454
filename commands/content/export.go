package content

import (
	"bytes"
	"context"
	"crypto/sha256"
	stdsql "database/sql"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/strata-platform/strata/commands/blobs"
	"github.com/strata-platform/strata/commands/jobs"
	"github.com/strata-platform/strata/domain/content"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// Export limits and defaults.
const (
	// ExportCSV is the one export format.
	ExportCSV = "csv"
	// MaxAnalyticsDays bounds an analytics window.
	MaxAnalyticsDays = 365
	// DefaultAnalyticsDays is the window when none is given.
	DefaultAnalyticsDays = 30
	// DownloadTTL is how long a signed download link is good for.
	DownloadTTL = time.Hour
	// DownloadPath is the path of signed downloads; the token follows it.
	DownloadPath = "/api/v1/public/downloads/"
	// AllPlatforms selects every platform.
	AllPlatforms   = "all"
	maxExportBytes = 16 << 20
)

// AnalyticsHeader is the analytics CSV's header.
func AnalyticsHeader() []string {
	return []string{"platform", "date", "views", "likes", "comments", "shares", "followers_gained"}
}

// ExportArgs is the job that writes one analytics export.
type ExportArgs struct {
	TaskID string `json:"task_id"`
}

// Kind implements jobs.Args.
func (ExportArgs) Kind() string { return "content.analytics_export" }

// exportInput is an export task's input.
type exportInput struct {
	Format   string `json:"format"`
	Days     int    `json:"days"`
	Platform string `json:"platform"`
}

// ExportResult is a finished export task's result.
type ExportResult struct {
	// DownloadURL is the signed link (DownloadBase + DownloadPath + token);
	// it answers 410 once ExpiresAt has passed and 403 when altered.
	DownloadURL  string    `json:"download_url"`
	DownloadPath string    `json:"download_path"`
	ExpiresAt    time.Time `json:"expires_at"`
	Format       string    `json:"format"`
	Filename     string    `json:"filename"`
	Rows         int       `json:"rows"`
	Size         int64     `json:"size"`
	Platform     string    `json:"platform"`
	Days         int       `json:"days"`
	From         string    `json:"from"`
	To           string    `json:"to"`
}

// CheckAnalyticsPlatform checks a platform filter: "" or "all" (every
// platform, returned as "all") or one platform.
func CheckAnalyticsPlatform(p string) (string, *kernel.Error) {
	if p == "" || p == AllPlatforms {
		return AllPlatforms, nil
	}
	if !content.ValidPlatform(p) {
		return "", kernel.Invalid("platform", "enum", "platform must be all or one of "+strings.Join(content.Platforms, ", "))
	}
	return p, nil
}

// ExportAnalytics queues an export of the owner's daily analytics of the
// last days days (1-365) at platform ("all" or one) as format (csv): a
// task whose job writes the file and finishes with an ExportResult.
// Only platforms with a live connection are exported, as in the API.
func (s *Service) ExportAnalytics(ctx context.Context, a Actor, format string, days int, platform string) (string, error) {
	if s.cfg.Blobs == nil || s.cfg.Links == nil {
		return "", kernel.Unavailable("exports are not configured (no blob store or link key)", nil)
	}
	var errs []content.FieldError
	if f := strings.ToLower(strings.TrimSpace(format)); f != "" && f != ExportCSV {
		errs = append(errs, content.FieldError{Field: "format", Rule: "enum", Message: "format must be one of: " + ExportCSV})
	}
	if days < 1 || days > MaxAnalyticsDays {
		errs = append(errs, content.FieldError{Field: "days", Rule: "range:1-365", Message: "days must be a whole number from 1 to 365"})
	}
	platform, perr := CheckAnalyticsPlatform(platform)
	if perr != nil {
		errs = append(errs, content.FieldError{Field: perr.Field, Rule: perr.Rule, Message: perr.Message})
	}
	if len(errs) > 0 {
		return "", invalid(errs)
	}
	input, err := json.Marshal(exportInput{Format: ExportCSV, Days: days, Platform: platform})
	if err != nil {
		return "", err
	}
	id := s.cfg.IDs.NewID()
	var ap eventstore.Appended
	err = s.inTx(ctx, func(tx *stdsql.Tx) error {
		ap, err = s.cfg.Store.AppendTx(ctx, tx, taskStream(id), eventstore.NoStream, &content.TaskCreated{TaskID: id, Owner: a.Owner,
			Kind: content.TaskAnalyticsExport, Input: input, By: a.User, At: s.cfg.Clock.Now()})
		if err != nil {
			return err
		}
		_, err = s.cfg.Jobs.Enqueue(ctx, tx, ExportArgs{TaskID: id}, &jobs.Opts{Unique: &jobs.Unique{ByArgs: true}})
		return err
	})
	if err != nil {
		return "", err
	}
	return id, s.wait(ctx, ap)
}

func taskStream(id string) eventstore.Stream {
	return eventstore.Stream{Type: content.StreamTask, ID: content.TaskStream(id)}
}

// loadTask folds a task's stream (a zero Task when there is none).
func (s *Service) loadTask(ctx context.Context, q eventstore.Querier, id string) (content.Task, int64, error) {
	envs, err := s.cfg.Store.LoadTx(ctx, q, content.TaskStream(id), eventstore.LoadOptions{})
	if err != nil {
		return content.Task{}, 0, fmt.Errorf("load task %s: %w", id, err)
	}
	var t content.Task
	for _, e := range envs {
		t.Apply(e.Event)
	}
	return t, int64(len(envs)), nil
}

// appendTask appends ev to an open task (complete, when given, in the
// same transaction); a task already settled is left as it is.
func (s *Service) appendTask(ctx context.Context, id string, ev kernel.Event, complete func(context.Context, *stdsql.Tx) error) error {
	return s.retryConflicts(ctx, func() error {
		return s.inTx(ctx, func(tx *stdsql.Tx) error {
			t, version, err := s.loadTask(ctx, tx, id)
			if err != nil {
				return err
			}
			if version > 0 && t.Status != content.TaskDone && t.Status != content.TaskError {
				if _, err := s.cfg.Store.AppendTx(ctx, tx, taskStream(id), version, ev); err != nil {
					return err
				}
			}
			if complete != nil {
				return complete(ctx, tx)
			}
			return nil
		})
	})
}

// exportJob writes an export: it reads the rows, writes the CSV, stores it
// in the blob store and finishes the task with a link signed for
// DownloadTTL, recording each stage. A failure is retried; the last
// attempt's failure fails the task.
func (s *Service) exportJob(ctx context.Context, job *jobs.Job[ExportArgs]) error {
	id := job.Args.TaskID
	t, version, err := s.loadTask(ctx, s.cfg.Store.DB(), id)
	if err != nil {
		return err
	}
	if version == 0 || t.Kind != content.TaskAnalyticsExport || t.Status == content.TaskDone || t.Status == content.TaskError {
		return nil
	}
	complete := func(ctx context.Context, tx *stdsql.Tx) error { return jobs.CompleteTx(ctx, tx, job) }
	var in exportInput
	if err := json.Unmarshal(t.Input, &in); err != nil {
		return s.appendTask(ctx, id, &content.TaskFailed{TaskID: id, Code: "invalid_input", Message: "the export's input is unreadable",
			At: s.cfg.Clock.Now()}, complete)
	}
	res, err := s.writeExport(ctx, t, in)
	if err != nil {
		if job.Attempt >= job.MaxAttempts {
			s.cfg.Logger.Warn("content: analytics export failed", "task", id, "err", err)
			return s.appendTask(ctx, id, &content.TaskFailed{TaskID: id, Code: "export_failed",
				Message: "the export could not be written; try again", At: s.cfg.Clock.Now()}, complete)
		}
		return err
	}
	raw, err := json.Marshal(res)
	if err != nil {
		return err
	}
	return s.appendTask(ctx, id, &content.TaskFinished{TaskID: id, Result: raw, At: s.cfg.Clock.Now()}, complete)
}

// writeExport runs the export's stages and returns its result.
func (s *Service) writeExport(ctx context.Context, t content.Task, in exportInput) (ExportResult, error) {
	stage := func(progress int, name string) error {
		return s.appendTask(ctx, t.ID, &content.TaskProgressed{TaskID: t.ID, Progress: progress, Stage: name, At: s.cfg.Clock.Now()}, nil)
	}
	if err := stage(25, "reading rows"); err != nil {
		return ExportResult{}, err
	}
	from, to := s.AnalyticsWindow(in.Days)
	rows, err := s.exportRows(ctx, t.Owner, in.Platform, from, to)
	if err != nil {
		return ExportResult{}, err
	}
	if err := stage(50, "writing file"); err != nil {
		return ExportResult{}, err
	}
	file, err := AnalyticsCSV(rows)
	if err != nil {
		return ExportResult{}, err
	}
	if err := stage(75, "storing"); err != nil {
		return ExportResult{}, err
	}
	owner := BlobOwner(t.Owner)
	st, err := s.cfg.Blobs.Stage(ctx, owner, bytes.NewReader(file), maxExportBytes)
	if err != nil {
		return ExportResult{}, err
	}
	if err := st.Commit(ctx); err != nil {
		_ = st.Discard()
		return ExportResult{}, err
	}
	name := fmt.Sprintf("social-analytics-%s-%s-to-%s.csv", in.Platform, from.Format(time.DateOnly), to.Format(time.DateOnly))
	expires := s.cfg.Clock.Now().Add(DownloadTTL).UTC().Truncate(time.Second)
	token := s.cfg.Links.Sign(blobs.Link{Owner: owner, Digest: st.SHA256, Name: name, Type: "text/csv; charset=utf-8", Expires: expires})
	return ExportResult{DownloadURL: strings.TrimRight(s.cfg.DownloadBase, "/") + DownloadPath + token, DownloadPath: DownloadPath + token,
		ExpiresAt: expires, Format: in.Format, Filename: name, Rows: len(rows), Size: st.Size, Platform: in.Platform, Days: in.Days,
		From: from.Format(time.DateOnly), To: to.Format(time.DateOnly)}, nil
}

// exportRows reads the window's rows of the owner's live platforms.
func (s *Service) exportRows(ctx context.Context, owner, platform string, from, to time.Time) ([]AnalyticsRow, error) {
	live, err := s.cfg.Connections.List(ctx, owner, content.Platforms)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, a := range live {
		if platform == AllPlatforms || a.Provider == platform {
			names = append(names, a.Provider)
		}
	}
	rows, err := s.cfg.Store.DB().QueryContext(ctx, `SELECT platform, to_char(day, 'YYYY-MM-DD'), views, likes, comments, shares, followers_gained
		FROM rm_content_v1.analytics WHERE owner = $1 AND platform = ANY($2) AND day BETWEEN $3::date AND $4::date
		ORDER BY day, platform`, owner, names, from.Format(time.DateOnly), to.Format(time.DateOnly))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []AnalyticsRow
	for rows.Next() {
		var d AnalyticsRow
		if err := rows.Scan(&d.Platform, &d.Date, &d.Views, &d.Likes, &d.Comments, &d.Shares, &d.FollowersGained); err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

// AnalyticsRow is one day of one platform's numbers (JSON: platform,
// date, views, likes, comments, shares, followers_gained; null: not given).
type AnalyticsRow struct {
	Platform string `json:"platform"`
	content.DayNumbers
}

// AnalyticsCSV writes rows as CSV (RFC 4180) under AnalyticsHeader: a number the
// platform did not give is an empty cell, never 0. Text cells that a
// spreadsheet would take for a formula are prefixed with an apostrophe;
// number cells are plain integers, which no spreadsheet evaluates.
func AnalyticsCSV(rows []AnalyticsRow) ([]byte, error) {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	if err := w.Write(AnalyticsHeader()); err != nil {
		return nil, err
	}
	num := func(p *int64) string {
		if p == nil {
			return ""
		}
		return strconv.FormatInt(*p, 10)
	}
	for _, r := range rows {
		if err := w.Write([]string{safeText(r.Platform), safeText(r.Date), num(r.Views), num(r.Likes), num(r.Comments),
			num(r.Shares), num(r.FollowersGained)}); err != nil {
			return nil, err
		}
	}
	w.Flush()
	return buf.Bytes(), w.Error()
}

// safeText defuses a text cell a spreadsheet would evaluate as a formula.
func safeText(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// BlobOwner is the blob store's owner name of a content owner key
// ("org:<id>" has a colon, which blob owner names may not): "content-"
// and the first 40 hex digits of the key's SHA-256.
func BlobOwner(owner string) string {
	sum := sha256.Sum256([]byte("content owner|" + owner))
	return "content-" + hex.EncodeToString(sum[:])[:40]
}
