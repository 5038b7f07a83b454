package content_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/jobs"
)

// reelsCSV is a bulk-reel CSV of n rows, each a one-word script (cheap to
// render) on short_video in flite-slt.
func reelsCSV(n int, script string) []byte {
	var b strings.Builder
	b.WriteString("script,platform,voice_id\n")
	for i := range n {
		fmt.Fprintf(&b, "%q,short_video,flite-slt\n", fmt.Sprintf("%s %d.", script, i+1))
	}
	return []byte(b.String())
}

// queued counts what a bulk-reel request left behind: batch and task
// streams, task rows and reel jobs.
func (w *world) queued(t *testing.T) (batches, tasks, rows, reelJobs int) {
	t.Helper()
	ctx := context.Background()
	db := w.Platform.DB
	if err := db.QueryRowContext(ctx, `SELECT count(*) FILTER (WHERE stream_type = 'content.batch'),
		count(*) FILTER (WHERE stream_type = 'content.task') FROM es.streams`).Scan(&batches, &tasks); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM rm_content_v1.tasks`).Scan(&rows); err != nil {
		t.Fatal(err)
	}
	js, err := w.Jobs.List(ctx, jobs.Filter{Kinds: []string{"content.reel"}, Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	return batches, tasks, rows, len(js)
}

func (w *world) nothingQueued(t *testing.T, what string) {
	t.Helper()
	if b, ts, rows, js := w.queued(t); b+ts+rows+js != 0 {
		t.Fatalf("%s: %d batch streams, %d task streams, %d task rows, %d reel jobs; want none", what, b, ts, rows, js)
	}
}

func TestBulkReelsLimitsAndReplay(t *testing.T) {
	tools := mediaTools(t)
	w := startWith(t, options{Tools: tools})
	ada := w.user(t, "ada@content.test")
	twin := w.twin(t, ada, nil)
	submit := func(csv []byte) reply {
		return w.multipart(t, ada, base+"/bulk/reels", map[string]string{"twin_id": twin, "platform": "short_video"},
			map[string][]byte{"csv_file": csv})
	}

	// 101 rows: the plan limit, and nothing queued.
	r := submit(reelsCSV(101, "Hi"))
	if r.Status != http.StatusForbidden || !strings.Contains(string(r.Raw), "100") {
		t.Fatalf("101 rows: %d %s", r.Status, r.Raw)
	}
	w.nothingQueued(t, "101 rows")

	// Bad rows: every failure by row, line and column; nothing queued.
	bad := "script,platform,voice_id\n" +
		"Fine.,short_video,flite-slt\n" +
		"Wrong network.,myspace,flite-slt\n" +
		"\"Two\nlines.\",short_video,nobody\n" +
		",short_video,flite-rms\n"
	r = submit([]byte(bad))
	if r.Status != http.StatusBadRequest {
		t.Fatalf("bad rows: %d %s", r.Status, r.Raw)
	}
	errs, _ := r.Body["errors"].([]any)
	type cell struct {
		row, line       int
		column, rule    string
		messageContains string
	}
	want := []cell{{2, 3, "platform", "enum", "myspace"}, {3, 4, "voice_id", "voice", "nobody"}, {4, 6, "script", "required", "script"}}
	if len(errs) != len(want) {
		t.Fatalf("errors: %s; want %d", r.Raw, len(want))
	}
	for i, c := range want {
		e := errs[i].(map[string]any)
		if e["row"] != float64(c.row) || e["line"] != float64(c.line) || e["column"] != c.column || e["rule"] != c.rule ||
			!strings.Contains(str(e, "message"), c.messageContains) {
			t.Errorf("error %d = %v; want row %d line %d column %s rule %s", i, e, c.row, c.line, c.column, c.rule)
		}
	}
	if !strings.Contains(string(r.Raw), "row 2") {
		t.Errorf("the message does not name the first bad row: %s", r.Raw)
	}
	w.nothingQueued(t, "bad rows")

	// Form checks.
	if r := w.multipart(t, ada, base+"/bulk/reels", map[string]string{"platform": "short_video"},
		map[string][]byte{"csv_file": reelsCSV(1, "Hi")}); r.Status != http.StatusBadRequest || !strings.Contains(string(r.Raw), "twin_id") {
		t.Errorf("no twin_id: %d %s", r.Status, r.Raw)
	}
	if r := w.multipart(t, ada, base+"/bulk/reels", map[string]string{"twin_id": "6f1c2a43-5d0e-4b51-9f3e-0f8e2a1b7c90"},
		map[string][]byte{"csv_file": reelsCSV(1, "Hi")}); r.Status != http.StatusNotFound {
		t.Errorf("unknown twin: %d %s", r.Status, r.Raw)
	}
	if r := w.multipart(t, ada, base+"/bulk/reels", map[string]string{"twin_id": twin}, nil); r.Status != http.StatusUnprocessableEntity ||
		!strings.Contains(string(r.Raw), "csv_file") {
		t.Errorf("no csv_file: %d %s", r.Status, r.Raw)
	}
	w.nothingQueued(t, "refused forms")

	// 100 rows: accepted, one render queued per row; the same file again
	// is the same batch, with nothing more queued.
	file := reelsCSV(100, "Hi")
	r = submit(file)
	if r.Status != http.StatusAccepted || r.Body["total_rows"] != float64(100) || str(r.Body, "batch_id") == "" ||
		str(r.Body, "task_id") == "" || r.Body["progress"] != float64(0) {
		t.Fatalf("100 rows: %d %s", r.Status, r.Raw)
	}
	batch, task := str(r.Body, "batch_id"), str(r.Body, "task_id")
	again := submit(file)
	if again.Status != http.StatusAccepted || str(again.Body, "batch_id") != batch || str(again.Body, "task_id") != task ||
		again.Body["total_rows"] != float64(100) {
		t.Fatalf("the same file again: %d %s; want batch %s", again.Status, again.Raw, batch)
	}
	// The same small file sent at once from several requests: one batch.
	small := reelsCSV(3, "Hey")
	ids := make(chan string, 4)
	for range 4 {
		go func() {
			r := w.multipart(t, ada, base+"/bulk/reels", map[string]string{"twin_id": twin, "platform": "short_video"},
				map[string][]byte{"csv_file": small})
			if r.Status != http.StatusAccepted {
				t.Errorf("concurrent submission: %d %s", r.Status, r.Raw)
			}
			ids <- str(r.Body, "batch_id")
		}()
	}
	first := <-ids
	for range 3 {
		if id := <-ids; id != first || id == "" || id == batch {
			t.Fatalf("concurrent submissions of one file: batches %q and %q", first, id)
		}
	}
	// Stop the renders: acceptance is what is tested here (a small batch
	// renders in TestBulkReelsRender).
	list, err := w.Jobs.List(context.Background(), jobs.Filter{Kinds: []string{"content.reel"}, Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range list {
		_, _ = w.Jobs.Cancel(context.Background(), j.ID)
	}
	if len(list) != 103 {
		t.Fatalf("%d reel jobs queued for 100 rows sent twice and 3 rows sent four times; want 103", len(list))
	}
	if b, ts, _, _ := w.queued(t); b != 2 || ts != 2 {
		t.Fatalf("%d batches and %d tasks for two files; want 2", b, ts)
	}
	g := w.must(t, http.StatusOK, ada, "GET", base+"/bulk/reels/"+batch, nil)
	if jobs, _ := g.Body["jobs"].([]any); len(jobs) != 100 || g.Body["task_id"] != task {
		t.Fatalf("batch: %.400s", g.Raw)
	}
	// Another user sees none of it; another twin is another batch.
	bob := w.user(t, "bob@content.test")
	w.must(t, http.StatusNotFound, bob, "GET", base+"/bulk/reels/"+batch, nil)
	w.must(t, http.StatusNotFound, ada, "GET", base+"/bulk/reels/not-a-batch", nil)
}

func TestBulkReelsRender(t *testing.T) {
	tools := mediaTools(t)
	w := startWith(t, options{Tools: tools})
	ada := w.user(t, "ada@content.test")
	twin := w.twin(t, ada, map[string]any{"voice_id": "flite-slt"})
	// A spreadsheet's export: a byte-order mark, capitalised headers, CRLF
	// lines. The second row takes the twin's voice and the form's platform.
	csv := "\ufeffScript,Platform,Voice_ID\r\nHello there.,short_video,FLITE-RMS\r\nGood morning.,,\r\n"
	r := w.multipart(t, ada, base+"/bulk/reels", map[string]string{"twin_id": twin, "platform": "video_site"},
		map[string][]byte{"csv_file": []byte(csv)})
	if r.Status != http.StatusAccepted || r.Body["total_rows"] != float64(2) {
		t.Fatalf("submit: %d %s", r.Status, r.Raw)
	}
	batch, task := str(r.Body, "batch_id"), str(r.Body, "task_id")
	g := w.poll(t, ada, base+"/bulk/reels/"+batch, time.Minute, final)
	if g.Body["status"] != "done" || g.Body["completed"] != float64(2) || g.Body["failed"] != float64(0) || g.Body["progress"] != float64(100) {
		t.Fatalf("batch: %s", g.Raw)
	}
	jobs := g.Body["jobs"].([]any)
	want := []struct{ platform, voice string }{{"short_video", "flite-rms"}, {"video_site", "flite-slt"}}
	for i, x := range jobs {
		j := x.(map[string]any)
		if j["row"] != float64(i+1) || j["status"] != "done" || j["platform"] != want[i].platform || j["voice_id"] != want[i].voice ||
			str(j, "result_url") == "" || j["duration_seconds"] == nil {
			t.Fatalf("job %d: %v", i, j)
		}
	}
	first := jobs[0].(map[string]any)
	path := w.fetch(t, str(first, "result_url"))
	info := probe(t, tools, path)
	if info.VideoCodec != "h264" || info.AudioCodec != "aac" || info.Width != 720 || info.Height != 1280 || info.Duration <= 0 {
		t.Fatalf("reel: %+v; want h264/aac 720x1280", info)
	}
	if d := info.Duration.Seconds() - first["duration_seconds"].(float64); d < -0.05 || d > 0.05 {
		t.Fatalf("reel lasts %v; the batch says %v s", info.Duration, first["duration_seconds"])
	}
	task1 := w.waitTask(t, ada, task)
	if task1.Body["status"] != "done" || obj(task1.Body, "result")["completed"] != float64(2) {
		t.Fatalf("task: %s", task1.Raw)
	}
}
