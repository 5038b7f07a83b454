package content_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"net/http"
	"strings"
	"testing"
	"time"

	cmd "github.com/strata-platform/strata/commands/content"
	"github.com/strata-platform/strata/commands/content/platforms"
	"github.com/strata-platform/strata/commands/content/platforms/platformtest"
	domconn "github.com/strata-platform/strata/domain/connections"
)

func num(n int64) *int64 { return &n }

// today is the platform clock's UTC date.
func (w *world) today() time.Time {
	y, m, d := w.Platform.Clock.Now().UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// sync runs an analytics sync of u's account at platform inline.
func (w *world) sync(t *testing.T, u *user, platform string) int {
	t.Helper()
	n, err := w.Svc.SyncNow(context.Background(), u.owner(), platform)
	if err != nil {
		t.Fatalf("sync %s: %v", platform, err)
	}
	return n
}

// statuses maps each listed platform to its status.
func statuses(t *testing.T, r reply) map[string]map[string]any {
	t.Helper()
	out := map[string]map[string]any{}
	list, _ := r.Body["platforms"].([]any)
	for _, x := range list {
		m := x.(map[string]any)
		out[m["platform"].(string)] = m
	}
	return out
}

func rowsOf(r reply) []map[string]any {
	var out []map[string]any
	list, _ := r.Body["rows"].([]any)
	for _, x := range list {
		out = append(out, x.(map[string]any))
	}
	return out
}

func TestAnalyticsNotConnectedAndRowsOnlyFromConnectedPlatforms(t *testing.T) {
	w, f := startWithFakes(t)
	ada := w.user(t, "ada@analytics.test")
	bob := w.user(t, "bob@analytics.test")

	// Nothing connected: every platform not_connected, no numbers at all.
	r := w.must(t, http.StatusOK, ada, "GET", base+"/analytics/social", nil)
	if len(rowsOf(r)) != 0 || r.Body["days"] != float64(30) {
		t.Fatalf("rows without a connection: %s", r.Raw)
	}
	for _, p := range platforms.Names {
		st := statuses(t, r)[p]
		if st == nil || st["status"] != "not_connected" || st["last_synced_at"] != nil {
			t.Fatalf("%s: %v in %s", p, st, r.Raw)
		}
	}

	w.connect(t, ada, f, platforms.PhotoNetwork)
	w.connect(t, ada, f, platforms.ShortVideo)
	today := w.today()
	photo := f.Server(platforms.PhotoNetwork)
	photo.SetInsights(photo.Account().ID, today, platformtest.Numbers{Views: num(120), Likes: num(12), Comments: num(3), Shares: num(1)})
	photo.SetInsights(photo.Account().ID, today.AddDate(0, 0, -1), platformtest.Numbers{Views: num(80), Likes: num(0)})
	// The other platforms have numbers at the fakes, but no account of
	// ada's is connected there: they must never show up.
	f.Server(platforms.VideoSite).SetInsights(f.Server(platforms.VideoSite).Account().ID, today, platformtest.Numbers{Views: num(999)})
	if n := w.sync(t, ada, platforms.PhotoNetwork); n != cmd.SyncDays {
		t.Fatalf("first photo sync recorded %d days, want %d", n, cmd.SyncDays)
	}
	if n := w.sync(t, ada, platforms.ShortVideo); n != cmd.SyncDays {
		t.Fatalf("first short-video sync recorded %d days, want %d", n, cmd.SyncDays)
	}
	if _, err := w.Svc.SyncNow(context.Background(), ada.owner(), platforms.VideoSite); err == nil {
		t.Fatal("a sync of a platform without an account succeeded")
	}

	r = w.must(t, http.StatusOK, ada, "GET", base+"/analytics/social?days=7", nil)
	rows := rowsOf(r)
	if len(rows) != 14 {
		t.Fatalf("want 7 days x 2 connected platforms, got %d: %s", len(rows), r.Raw)
	}
	for i, row := range rows {
		if p := row["platform"]; p != platforms.PhotoNetwork && p != platforms.ShortVideo {
			t.Fatalf("row of a platform that is not connected: %v", row)
		}
		if i > 0 && (row["date"].(string) < rows[i-1]["date"].(string) ||
			row["date"] == rows[i-1]["date"] && row["platform"].(string) < rows[i-1]["platform"].(string)) {
			t.Fatalf("rows not ordered by date then platform: %s", r.Raw)
		}
		for _, k := range []string{"views", "likes", "comments", "shares", "followers_gained"} {
			if _, ok := row[k]; !ok {
				t.Fatalf("row without %s: %v", k, row)
			}
		}
		if row["platform"] == platforms.ShortVideo {
			for _, k := range []string{"views", "likes", "comments", "shares", "followers_gained"} {
				if row[k] != nil {
					t.Fatalf("short-video %s is %v; the platform gives no daily numbers, so it must be null", k, row[k])
				}
			}
		}
	}
	// Ordered by date then platform: ..., yesterday's photo, yesterday's
	// short video, today's photo, today's short video.
	n := len(rows)
	if rows[n-1]["platform"] != platforms.ShortVideo || rows[n-2]["platform"] != platforms.PhotoNetwork {
		t.Fatalf("order: %s", r.Raw)
	}
	if got := rows[n-2]; got["date"] != today.Format(time.DateOnly) || got["views"] != float64(120) || got["likes"] != float64(12) ||
		got["followers_gained"] != nil {
		t.Fatalf("today's photo row: %v", got)
	}
	if got := rows[n-4]; got["views"] != float64(80) || got["likes"] != float64(0) || got["comments"] != nil {
		t.Fatalf("yesterday's photo row (0 given stays 0, nothing given stays null): %v", got)
	}
	if !bytes.Contains(r.Raw, []byte(`"followers_gained":null`)) {
		t.Fatalf("null numbers not written as null: %s", r.Raw)
	}
	st := statuses(t, r)
	if st[platforms.PhotoNetwork]["status"] != "connected" || st[platforms.PhotoNetwork]["last_synced_at"] == nil ||
		st[platforms.VideoSite]["status"] != "not_connected" || st[platforms.ProfessionalNetwork]["status"] != "not_connected" ||
		st[platforms.VideoSite]["last_synced_at"] != nil {
		t.Fatalf("statuses: %s", r.Raw)
	}
	if bytes.Contains(r.Raw, []byte("999")) {
		t.Fatalf("numbers of a platform that is not connected: %s", r.Raw)
	}

	// A platform that is not connected, asked for alone: 200, no rows.
	r = w.must(t, http.StatusOK, ada, "GET", base+"/analytics/social?platform=video_site", nil)
	if len(rowsOf(r)) != 0 || len(statuses(t, r)) != 1 || statuses(t, r)[platforms.VideoSite]["status"] != "not_connected" {
		t.Fatalf("video_site alone: %s", r.Raw)
	}
	r = w.must(t, http.StatusOK, ada, "GET", base+"/analytics/social?platform=photo_network&days=1", nil)
	if rows := rowsOf(r); len(rows) != 1 || rows[0]["views"] != float64(120) {
		t.Fatalf("photo_network today: %s", r.Raw)
	}

	// Another owner sees none of it.
	r = w.must(t, http.StatusOK, bob, "GET", base+"/analytics/social", nil)
	if len(rowsOf(r)) != 0 || statuses(t, r)[platforms.PhotoNetwork]["status"] != "not_connected" {
		t.Fatalf("bob sees ada's analytics: %s", r.Raw)
	}
}

func TestAnalyticsSyncRecordsOnlyChangesAndNeverInventsNumbers(t *testing.T) {
	w, f := startWithFakes(t)
	ada := w.user(t, "ada@analytics.test")
	w.connect(t, ada, f, platforms.PhotoNetwork)
	photo := f.Server(platforms.PhotoNetwork)
	today := w.today()
	photo.SetInsights(photo.Account().ID, today, platformtest.Numbers{Views: num(10)})
	w.sync(t, ada, platforms.PhotoNetwork)
	if n := w.sync(t, ada, platforms.PhotoNetwork); n != 0 {
		t.Fatalf("an unchanged sync recorded %d days", n)
	}
	photo.SetInsights(photo.Account().ID, today, platformtest.Numbers{Views: num(15), Likes: num(2)})
	if n := w.sync(t, ada, platforms.PhotoNetwork); n != 1 {
		t.Fatalf("one day changed, %d recorded", n)
	}
	// The platform leaves views out later: the number it gave is kept,
	// never replaced by 0 or erased.
	photo.SetInsights(photo.Account().ID, today, platformtest.Numbers{Likes: num(2)})
	if n := w.sync(t, ada, platforms.PhotoNetwork); n != 0 {
		t.Fatalf("silence recorded as a change: %d", n)
	}
	r := w.must(t, http.StatusOK, ada, "GET", base+"/analytics/social?days=1", nil)
	if rows := rowsOf(r); len(rows) != 1 || rows[0]["views"] != float64(15) || rows[0]["likes"] != float64(2) || rows[0]["shares"] != nil {
		t.Fatalf("today: %s", r.Raw)
	}

	// The durable job does the same, retrying a transient failure.
	photo.SetInsights(photo.Account().ID, today, platformtest.Numbers{Views: num(40), Likes: num(2)})
	photo.Fail(platformtest.Failure{Match: "GET /", Kind: platformtest.Transient})
	if _, err := w.Jobs.Enqueue(context.Background(), nil, cmd.SyncArgs{Owner: ada.owner(), Platform: platforms.PhotoNetwork,
		Run: w.Platform.Clock.Now()}, nil); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the sync job's numbers", func() bool {
		r := w.must(t, http.StatusOK, ada, "GET", base+"/analytics/social?days=1", nil)
		rows := rowsOf(r)
		return len(rows) == 1 && rows[0]["views"] == float64(40)
	})

	// Tokens refused: the account needs reconnecting; the numbers
	// received stay, under that status.
	photo.Fail(platformtest.Failure{Match: "GET /", Kind: platformtest.Expired})
	if _, err := w.Svc.SyncNow(context.Background(), ada.owner(), platforms.PhotoNetwork); err == nil {
		t.Fatal("a sync with refused tokens succeeded")
	}
	acct, err := w.Conn.Account(context.Background(), ada.owner(), platforms.PhotoNetwork)
	if err != nil || acct.Status != domconn.StatusNeedsReconnect {
		t.Fatalf("account after refused tokens: %+v %v", acct, err)
	}
	r = w.must(t, http.StatusOK, ada, "GET", base+"/analytics/social?days=1", nil)
	if st := statuses(t, r)[platforms.PhotoNetwork]; st["status"] != "needs_reconnect" || len(rowsOf(r)) != 1 {
		t.Fatalf("after refused tokens: %s", r.Raw)
	}
}

func TestAnalyticsSummaryTotalsAndDeltas(t *testing.T) {
	w, f := startWithFakes(t)
	ada := w.user(t, "ada@analytics.test")
	w.connect(t, ada, f, platforms.PhotoNetwork)
	w.connect(t, ada, f, platforms.VideoSite)
	today := w.today()
	photo, video := f.Server(platforms.PhotoNetwork), f.Server(platforms.VideoSite)
	// days=7: this window is today-6..today, the previous today-13..today-7.
	photo.SetInsights(photo.Account().ID, today, platformtest.Numbers{Views: num(100)})
	photo.SetInsights(photo.Account().ID, today.AddDate(0, 0, -6), platformtest.Numbers{Views: num(50)})
	photo.SetInsights(photo.Account().ID, today.AddDate(0, 0, -7), platformtest.Numbers{Views: num(30)})
	photo.SetInsights(photo.Account().ID, today.AddDate(0, 0, -14), platformtest.Numbers{Views: num(1000)}) // outside both
	video.SetInsights(video.Account().ID, today.AddDate(0, 0, -1), platformtest.Numbers{Views: num(10), Likes: num(4)})
	video.SetInsights(video.Account().ID, today.AddDate(0, 0, -10), platformtest.Numbers{Views: num(5), Likes: num(1)})
	w.sync(t, ada, platforms.PhotoNetwork)
	w.sync(t, ada, platforms.VideoSite)

	r := w.must(t, http.StatusOK, ada, "GET", base+"/analytics/social/summary?days=7", nil)
	by := map[string]map[string]any{}
	for _, x := range r.Body["by_platform"].([]any) {
		m := x.(map[string]any)
		by[m["platform"].(string)] = m
	}
	if len(by) != 2 || by[platforms.ShortVideo] != nil {
		t.Fatalf("by_platform must list the connected platforms only: %s", r.Raw)
	}
	get := func(m map[string]any, part, k string) any { return m[part].(map[string]any)[k] }
	ph := by[platforms.PhotoNetwork]
	if get(ph, "totals", "views") != float64(150) || get(ph, "previous", "views") != float64(30) || get(ph, "delta", "views") != float64(120) {
		t.Fatalf("photo views: %v", ph)
	}
	if get(ph, "totals", "likes") != nil || get(ph, "delta", "likes") != nil {
		t.Fatalf("photo likes were never given; they must be null: %v", ph)
	}
	vs := by[platforms.VideoSite]
	if get(vs, "totals", "likes") != float64(4) || get(vs, "previous", "likes") != float64(1) || get(vs, "delta", "likes") != float64(3) {
		t.Fatalf("video likes: %v", vs)
	}
	overall := r.Body["overall"].(map[string]any)
	if get(overall, "totals", "views") != float64(160) || get(overall, "previous", "views") != float64(35) ||
		get(overall, "delta", "views") != float64(125) || get(overall, "totals", "likes") != float64(4) ||
		get(overall, "totals", "followers_gained") == nil {
		// The video site gives every metric (0 when none), so followers
		// gained is a number there.
		t.Fatalf("overall: %s", r.Raw)
	}
	if statuses(t, r)[platforms.ShortVideo]["status"] != "not_connected" || r.Body["previous_to"] != today.AddDate(0, 0, -7).Format(time.DateOnly) {
		t.Fatalf("summary: %s", r.Raw)
	}
	w.must(t, http.StatusBadRequest, ada, "GET", base+"/analytics/social/summary?days=0", nil)
}

func TestAnalyticsExportSignedLinksExpiring(t *testing.T) {
	w, f := startWithFakes(t)
	ada := w.user(t, "ada@analytics.test")
	bob := w.user(t, "bob@analytics.test")
	w.connect(t, ada, f, platforms.PhotoNetwork)
	w.connect(t, ada, f, platforms.ShortVideo)
	photo := f.Server(platforms.PhotoNetwork)
	today := w.today()
	photo.SetInsights(photo.Account().ID, today, platformtest.Numbers{Views: num(7), Likes: num(-2)})
	w.sync(t, ada, platforms.PhotoNetwork)
	w.sync(t, ada, platforms.ShortVideo)

	r := w.must(t, http.StatusAccepted, ada, "POST", base+"/analytics/social/export", map[string]any{"format": "csv", "days": 3, "platform": "all"})
	id, _ := r.Body["task_id"].(string)
	if id == "" || r.Body["status"] != "queued" {
		t.Fatalf("export: %s", r.Raw)
	}
	w.must(t, http.StatusNotFound, bob, "GET", base+"/tasks/"+id, nil)
	var task reply
	eventually(t, "the export task done", func() bool {
		task = w.must(t, http.StatusOK, ada, "GET", "/api/v1/tasks/"+id, nil)
		return task.Body["status"] == "done"
	})
	res := task.Body["result"].(map[string]any)
	link, _ := res["download_url"].(string)
	if !strings.HasPrefix(link, w.URL+base+"/downloads/") || res["rows"] != float64(6) || res["format"] != "csv" || res["expires_at"] == nil {
		t.Fatalf("result: %s", task.Raw)
	}
	path := strings.TrimPrefix(link, w.URL)

	d := w.must(t, http.StatusOK, nil, "GET", path, nil)
	if !strings.HasPrefix(d.Header.Get("Content-Type"), "text/csv") || !strings.Contains(d.Header.Get("Content-Disposition"), "attachment") ||
		!strings.Contains(d.Header.Get("Content-Disposition"), res["filename"].(string)) || d.Header.Get("Cache-Control") != "private, no-store" {
		t.Fatalf("download headers: %v", d.Header)
	}
	recs, err := csv.NewReader(bytes.NewReader(d.Raw)).ReadAll()
	if err != nil {
		t.Fatalf("csv: %v\n%s", err, d.Raw)
	}
	if strings.Join(recs[0], ",") != "platform,date,views,likes,comments,shares,followers_gained" || len(recs) != 7 {
		t.Fatalf("csv: %q", recs)
	}
	want := []string{platforms.PhotoNetwork, today.Format(time.DateOnly), "7", "-2", "", "", ""}
	if strings.Join(recs[5], "|") != strings.Join(want, "|") {
		t.Fatalf("today's photo line %q, want %q", recs[5], want)
	}
	if want := []string{platforms.ShortVideo, today.Format(time.DateOnly), "", "", "", "", ""}; strings.Join(recs[6], "|") != strings.Join(want, "|") {
		t.Fatalf("short-video line %q: numbers not given must be empty", recs[6])
	}

	// Tampered tokens are refused.
	token := strings.TrimPrefix(path, base+"/downloads/")
	payload, sig, _ := strings.Cut(token, ".")
	flip := "A"
	if strings.HasPrefix(sig, "A") {
		flip = "B"
	}
	w.must(t, http.StatusForbidden, nil, "GET", base+"/downloads/"+payload+"."+flip+sig[1:], nil)
	w.must(t, http.StatusForbidden, nil, "GET", base+"/downloads/"+flip+payload[1:]+"."+sig, nil)
	w.must(t, http.StatusForbidden, nil, "GET", base+"/downloads/not-a-token", nil)

	// Good for one hour, then gone.
	w.Platform.Clock.Advance(59 * time.Minute)
	w.must(t, http.StatusOK, nil, "GET", path, nil)
	w.Platform.Clock.Advance(2 * time.Minute)
	w.must(t, http.StatusGone, nil, "GET", path, nil)
}

func TestAnalyticsValidation(t *testing.T) {
	w := start(t)
	ada := w.user(t, "ada@analytics.test")
	bob := w.user(t, "bob@analytics.test")
	for _, tc := range []struct {
		path, field string
		status      int
	}{
		{"?platform=fax", "platform", http.StatusBadRequest},
		{"?days=0", "days", http.StatusBadRequest},
		{"?days=366", "days", http.StatusBadRequest},
		{"?days=ten", "days", http.StatusBadRequest},
		{"?twin_id=3f1d2c8e-0000-4000-8000-000000000000", "twin_id", http.StatusNotFound},
		{"?twin_id=nope", "twin_id", http.StatusNotFound},
	} {
		r := w.do(t, ada, "GET", base+"/analytics/social"+tc.path, nil)
		if r.Status != tc.status || !strings.Contains(string(r.Raw), tc.field) {
			t.Errorf("GET %s: %d %s; want %d naming %s", tc.path, r.Status, r.Raw, tc.status, tc.field)
		}
	}
	twin := w.must(t, http.StatusCreated, ada, "POST", base+"/twins", map[string]any{"name": "Ada Twin"})
	tid := twin.Body["id"].(string)
	r := w.must(t, http.StatusOK, ada, "GET", base+"/analytics/social?twin_id="+tid, nil)
	if r.Body["twin_id"] != tid || !strings.Contains(r.Body["note"].(string), "not per twin") {
		t.Fatalf("twin_id: %s", r.Raw)
	}
	w.must(t, http.StatusNotFound, bob, "GET", base+"/analytics/social?twin_id="+tid, nil)

	for _, tc := range []struct {
		body   any
		field  string
		status int
	}{
		{map[string]any{"format": "xlsx"}, "csv", http.StatusBadRequest},
		{map[string]any{"format": "xlsx"}, "format", http.StatusBadRequest},
		{map[string]any{"days": 0}, "days", http.StatusBadRequest},
		{map[string]any{"days": 400}, "days", http.StatusBadRequest},
		{map[string]any{"platform": "fax"}, "platform", http.StatusBadRequest},
		{map[string]any{"days": "7"}, "days", http.StatusUnprocessableEntity},
		{map[string]any{"days": 1.5}, "days", http.StatusUnprocessableEntity},
		{map[string]any{"colour": "red"}, "colour", http.StatusUnprocessableEntity},
	} {
		r := w.do(t, ada, "POST", base+"/analytics/social/export", tc.body)
		if r.Status != tc.status || !strings.Contains(string(r.Raw), tc.field) {
			t.Errorf("POST export %v: %d %s; want %d naming %s", tc.body, r.Status, r.Raw, tc.status, tc.field)
		}
	}
	// No body: every default.
	if r := w.must(t, http.StatusAccepted, ada, "POST", base+"/analytics/social/export", nil); r.Body["task_id"] == nil {
		t.Fatalf("export with defaults: %s", r.Raw)
	}
	w.must(t, http.StatusUnauthorized, nil, "GET", base+"/analytics/social", nil)
	w.must(t, http.StatusUnauthorized, nil, "POST", base+"/analytics/social/export", map[string]any{})
}

func TestAnalyticsSixHourlyRunSyncsEveryConnectedAccount(t *testing.T) {
	w, f := startWithFakes(t)
	ada := w.user(t, "ada@analytics.test")
	bob := w.user(t, "bob@analytics.test")
	w.connect(t, ada, f, platforms.PhotoNetwork)
	w.connect(t, ada, f, platforms.ProfessionalNetwork)
	w.connect(t, bob, f, platforms.PhotoNetwork)
	photo := f.Server(platforms.PhotoNetwork)
	photo.SetInsights(photo.Account().ID, w.today(), platformtest.Numbers{Views: num(3)})
	run := time.Date(2026, 1, 1, 6, 0, 0, 0, time.UTC)
	n, err := w.Svc.EnqueueSyncs(context.Background(), run)
	if err != nil || n != 3 {
		t.Fatalf("enqueued %d syncs (%v), want 3", n, err)
	}
	if n, err := w.Svc.EnqueueSyncs(context.Background(), run); err != nil || n != 0 {
		t.Fatalf("the same run enqueued again: %d %v", n, err)
	}
	eventually(t, "every account synced", func() bool {
		a := w.must(t, http.StatusOK, ada, "GET", base+"/analytics/social?days=1", nil)
		b := w.must(t, http.StatusOK, bob, "GET", base+"/analytics/social?days=1", nil)
		return len(rowsOf(a)) == 2 && len(rowsOf(b)) == 1 && rowsOf(b)[0]["views"] == float64(3)
	})
}
