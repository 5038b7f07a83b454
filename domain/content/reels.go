package content

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/strata-platform/strata/domain/kernel"
)

// StreamBatch is the stream type of bulk-reel batches.
const StreamBatch = "content.batch"

// BatchStream names a batch's stream.
func BatchStream(id string) string { return "content-batch:" + id }

// TaskBulkReels is the task kind of a bulk-reel batch.
const TaskBulkReels = "bulk_reels"

// MaxReelRows is the most rows a batch may have (the seed's plan limit).
const MaxReelRows = 100

// ReelColumns are the columns a bulk-reel CSV may have; script is required.
var ReelColumns = []string{"script", "platform", "voice_id"}

// ReelRow is one reel to render: Row is its 1-based number among the data
// rows, Line the CSV line it starts on.
type ReelRow struct {
	Row      int    `json:"row"`
	Line     int    `json:"line"`
	Script   string `json:"script"`
	Platform string `json:"platform"`
	VoiceID  string `json:"voice_id"`
}

// RowError is one failed rule of a row's column.
type RowError struct {
	Row     int    `json:"row"`
	Line    int    `json:"line"`
	Column  string `json:"column"`
	Rule    string `json:"rule"`
	Message string `json:"message"`
}

// ReelDefaults are what a row without a platform or voice takes, and the
// voices a row may name.
type ReelDefaults struct {
	Platform string   // the form's platform ("" none)
	VoiceID  string   // the twin's voice ("" none)
	Voices   []string // the voice ids that can speak a reel
}

// ErrTooManyRows is the plan limit: a batch of more than MaxReelRows rows.
var ErrTooManyRows = errors.New("too many rows")

// ParseReels reads a bulk-reel CSV (UTF-8, a header row naming the
// columns, an optional byte-order mark) and checks every row. A file that
// is not such a CSV is a *kernel.Error naming csv_file; more than
// MaxReelRows data rows is ErrTooManyRows (wrapped in a 403 error); rows
// breaking rules give every failure, by row and column, in errs.
func ParseReels(data []byte, d ReelDefaults) (rows []ReelRow, errs []RowError, err error) {
	if !utf8.Valid(data) || bytes.IndexByte(data, 0) >= 0 {
		return nil, nil, kernel.Invalid("csv_file", "utf8", "csv_file must be UTF-8 text")
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1
	header, err := r.Read()
	if errors.Is(err, io.EOF) {
		return nil, nil, kernel.Invalid("csv_file", "header", "csv_file is empty: it needs a header row with the columns "+strings.Join(ReelColumns, ", "))
	}
	if err != nil {
		return nil, nil, csvError(err)
	}
	col := map[string]int{}
	for i, h := range header {
		h = strings.ToLower(strings.TrimSpace(h))
		if !slices.Contains(ReelColumns, h) {
			return nil, nil, kernel.Invalid("csv_file", "columns", fmt.Sprintf("csv_file has an unknown column %q: the columns are %s",
				clip(h, 40), strings.Join(ReelColumns, ", ")))
		}
		if _, dup := col[h]; dup {
			return nil, nil, kernel.Invalid("csv_file", "columns", "csv_file names the column "+h+" twice")
		}
		col[h] = i
	}
	if _, ok := col["script"]; !ok {
		return nil, nil, kernel.Invalid("csv_file", "columns", "csv_file needs a script column (columns: "+strings.Join(ReelColumns, ", ")+")")
	}
	var records [][]string
	var lines []int
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, nil, csvError(err)
		}
		if len(records) == MaxReelRows {
			return nil, nil, &kernel.Error{Kind: kernel.KindForbidden, Field: "csv_file", Rule: fmt.Sprintf("max_rows:%d", MaxReelRows),
				Message: fmt.Sprintf("a batch may have at most %d rows; this file has more", MaxReelRows), Code: "plan_limit", Err: ErrTooManyRows}
		}
		line, _ := r.FieldPos(0)
		records, lines = append(records, rec), append(lines, line)
	}
	if len(records) == 0 {
		return nil, nil, kernel.Invalid("csv_file", "rows", "csv_file has a header but no rows")
	}
	cell := func(rec []string, name string) string {
		if i, ok := col[name]; ok && i < len(rec) {
			return strings.TrimSpace(rec[i])
		}
		return ""
	}
	for i, rec := range records {
		row := ReelRow{Row: i + 1, Line: lines[i], Script: cell(rec, "script"), Platform: strings.ToLower(cell(rec, "platform")),
			VoiceID: cell(rec, "voice_id")}
		fail := func(column, rule, msg string) {
			errs = append(errs, RowError{Row: row.Row, Line: row.Line, Column: column, Rule: rule, Message: msg})
		}
		if len(rec) != len(header) {
			fail("*", "fields", fmt.Sprintf("row %d has %d fields; the header has %d", row.Row, len(rec), len(header)))
		}
		if err := CheckLocalScript("script", row.Script); err != nil {
			var ke *kernel.Error
			errors.As(err, &ke)
			fail("script", ke.Rule, ke.Message)
		}
		if row.Platform == "" {
			row.Platform = d.Platform
		}
		switch {
		case row.Platform == "":
			fail("platform", "required", "platform is required: give it in the row or as the form's platform")
		case !slices.Contains(Platforms, row.Platform):
			fail("platform", "enum", fmt.Sprintf("platform %q is not one of %s", clip(row.Platform, 40), strings.Join(Platforms, ", ")))
		}
		if row.VoiceID == "" {
			row.VoiceID = d.VoiceID
		}
		switch {
		case row.VoiceID == "":
			fail("voice_id", "required", "voice_id is required: give it in the row or on the twin")
		case !containsFold(d.Voices, row.VoiceID):
			fail("voice_id", "voice", fmt.Sprintf("voice_id %q is not a voice on this server: %s", clip(row.VoiceID, 40), strings.Join(d.Voices, ", ")))
		}
		rows = append(rows, row)
	}
	return rows, errs, nil
}

func csvError(err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return kernel.Invalid("csv_file", "csv", fmt.Sprintf("csv_file is not valid CSV at line %d: %v", pe.Line, pe.Err))
	}
	return kernel.Invalid("csv_file", "csv", "csv_file is not valid CSV")
}

func containsFold(list []string, s string) bool {
	return slices.ContainsFunc(list, func(v string) bool { return strings.EqualFold(v, s) })
}

func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}

// BatchAccepted records a batch whose rows all passed, each a reel to render.
type BatchAccepted struct {
	BatchID    string    `json:"batch_id"`
	TaskID     string    `json:"task_id"`
	Owner      string    `json:"owner"`
	TwinID     string    `json:"twin_id"`
	Title      string    `json:"title"`
	Background string    `json:"background"`
	Foreground string    `json:"foreground"`
	Platform   string    `json:"platform,omitempty"`
	FileSHA256 string    `json:"file_sha256"`
	FileName   string    `json:"file_name,omitempty"`
	Rows       []ReelRow `json:"rows"`
	By         string    `json:"by"`
	At         time.Time `json:"at"`
}

// ReelStarted records a row's render begun.
type ReelStarted struct {
	BatchID string    `json:"batch_id"`
	Row     int       `json:"row"`
	At      time.Time `json:"at"`
}

// ReelRendered records a row's reel done.
type ReelRendered struct {
	BatchID string        `json:"batch_id"`
	Row     int           `json:"row"`
	Video   RenderedVideo `json:"video"`
	// CreditsMicro is what it cost (10 credits a second of the measured
	// video), debited once in the same transaction.
	CreditsMicro int64     `json:"credits_micro"`
	At           time.Time `json:"at"`
}

// ReelFailed records a row's reel that could not be made.
type ReelFailed struct {
	BatchID string    `json:"batch_id"`
	Row     int       `json:"row"`
	Code    string    `json:"code"`
	Message string    `json:"message"`
	At      time.Time `json:"at"`
}

// EventType implements kernel.Event.
func (*BatchAccepted) EventType() string { return "content.batch_accepted" }

// EventType implements kernel.Event.
func (*ReelStarted) EventType() string { return "content.reel_started" }

// EventType implements kernel.Event.
func (*ReelRendered) EventType() string { return "content.reel_rendered" }

// EventType implements kernel.Event.
func (*ReelFailed) EventType() string { return "content.reel_failed" }

// Reel is one row's state.
type Reel struct {
	ReelRow
	Status   string // a task status
	Credits  int64  // micro-credits billed
	Video    *RenderedVideo
	Failure  *ReelFailed
	Finished time.Time
}

// Batch is a batch's state.
type Batch struct {
	BatchAccepted
	Reels []Reel
}

// Apply folds one event.
func (b *Batch) Apply(e kernel.Event) {
	at := func(row int) *Reel {
		if row < 1 || row > len(b.Reels) {
			return &Reel{}
		}
		return &b.Reels[row-1]
	}
	switch ev := e.(type) {
	case *BatchAccepted:
		b.BatchAccepted = *ev
		b.Reels = make([]Reel, len(ev.Rows))
		for i, r := range ev.Rows {
			b.Reels[i] = Reel{ReelRow: r, Status: TaskQueued}
		}
	case *ReelStarted:
		at(ev.Row).Status = TaskProcessing
	case *ReelRendered:
		r := at(ev.Row)
		r.Status, r.Video, r.Credits, r.Finished = TaskDone, &ev.Video, ev.CreditsMicro, ev.At
	case *ReelFailed:
		r := at(ev.Row)
		r.Status, r.Failure, r.Finished = TaskError, ev, ev.At
	}
}

// Counts are how many reels are done and failed.
func (b *Batch) Counts() (done, failed int) {
	for _, r := range b.Reels {
		switch r.Status {
		case TaskDone:
			done++
		case TaskError:
			failed++
		}
	}
	return done, failed
}

// Status is the batch's task status: queued until a reel starts, done when
// every reel is settled and one at least was made, error when all failed.
func (b *Batch) Status() string {
	done, failed := b.Counts()
	switch {
	case done+failed == len(b.Reels) && done > 0:
		return TaskDone
	case done+failed == len(b.Reels):
		return TaskError
	}
	for _, r := range b.Reels {
		if r.Status != TaskQueued {
			return TaskProcessing
		}
	}
	return TaskQueued
}

// Progress is the share of reels settled, 0-100.
func (b *Batch) Progress() int {
	if len(b.Reels) == 0 {
		return 0
	}
	done, failed := b.Counts()
	return (done + failed) * 100 / len(b.Reels)
}
