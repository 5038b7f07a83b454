package content_test

import (
	"encoding/csv"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-ical"
)

// at is a scheduled_at at the start of the hour after next by the
// platform's clock, plus d.
func (w *world) at(d time.Duration) string {
	return w.Platform.Clock.Now().Truncate(time.Hour).Add(2*time.Hour + d).UTC().Format(time.RFC3339)
}

func TestCalendarScheduleTimeValidation(t *testing.T) {
	w := start(t)
	ada := w.user(t, "ada@content.test")
	video := w.Media.URL + "/video.mp4"
	long := func(n int, s string) string { return strings.Repeat(s, n) }
	for _, tc := range []struct {
		name   string
		body   map[string]any
		status int
		field  string
	}{
		{"missing title", map[string]any{"platform": "short_video", "scheduled_at": w.at(0)}, 422, "title"},
		{"missing platform", map[string]any{"title": "t", "scheduled_at": w.at(0)}, 422, "platform"},
		{"unknown platform", map[string]any{"title": "t", "platform": "fax", "scheduled_at": w.at(0)}, 400, "platform"},
		{"no offset", map[string]any{"title": "t", "platform": "short_video", "scheduled_at": "2026-12-01T10:00:00"}, 400, "scheduled_at"},
		{"past", map[string]any{"title": "t", "platform": "short_video", "scheduled_at": w.at(-3 * time.Hour)}, 400, "scheduled_at"},
		// 2,200 UTF-16 units: 1,100 emoji outside the BMP are 2,200 units; one more is too long.
		{"photo caption too long in UTF-16", map[string]any{"title": "t", "platform": "photo_network", "scheduled_at": w.at(0),
			"script": long(1100, "😀") + "x", "reel_url": video}, 400, "script"},
		{"photo 31 hashtags", map[string]any{"title": "t", "platform": "photo_network", "scheduled_at": w.at(0),
			"script": long(31, "#tag "), "reel_url": video}, 400, "script"},
		{"professional 3001 characters", map[string]any{"title": "t", "platform": "professional_network", "scheduled_at": w.at(0),
			"script": long(3001, "é")}, 400, "script"},
		{"video title 101 characters", map[string]any{"title": long(101, "t"), "platform": "video_site", "scheduled_at": w.at(0),
			"reel_url": video}, 400, "title"},
		{"video description angle bracket", map[string]any{"title": "ok", "platform": "video_site", "scheduled_at": w.at(0),
			"script": "a <b> c", "reel_url": video}, 400, "script"},
		{"video description 5001 bytes", map[string]any{"title": "ok", "platform": "video_site", "scheduled_at": w.at(0),
			"script": long(2501, "é"), "reel_url": video}, 400, "script"},
		{"short video with an image", map[string]any{"title": "t", "platform": "short_video", "scheduled_at": w.at(0),
			"media": []map[string]any{{"url": w.Media.URL + "/a.png", "kind": "image"}}}, 400, "media[0].kind"},
		{"two videos", map[string]any{"title": "t", "platform": "short_video", "scheduled_at": w.at(0),
			"media": []map[string]any{{"url": video, "kind": "video"}, {"url": video, "kind": "video"}}}, 400, "media"},
		{"media not a URL", map[string]any{"title": "t", "platform": "professional_network", "scheduled_at": w.at(0),
			"media": []map[string]any{{"url": "ftp://x/y", "kind": "image"}}}, 400, "media[0].url"},
		{"unknown twin", map[string]any{"title": "t", "platform": "professional_network", "scheduled_at": w.at(0),
			"script": "hi", "twin_id": "0b0e7f5e-2f1c-4c55-9e7a-7d1c2b3a4f5e"}, 404, "twin_id"},
	} {
		r := w.do(t, ada, "POST", base+"/content/calendar", tc.body)
		if r.Status != tc.status || !strings.Contains(string(r.Raw), `"`+tc.field) {
			t.Errorf("%s: %d %s; want %d naming %s", tc.name, r.Status, r.Raw, tc.status, tc.field)
		}
	}
	// The limits are exactly the limits: 2,200 UTF-16 units pass.
	w.must(t, http.StatusCreated, ada, "POST", base+"/content/calendar", map[string]any{"title": "t", "platform": "photo_network",
		"scheduled_at": w.at(0), "script": long(1100, "😀"), "reel_url": video})
	w.must(t, http.StatusCreated, ada, "POST", base+"/content/calendar", map[string]any{"title": long(100, "t"), "platform": "video_site",
		"scheduled_at": w.at(2 * time.Hour), "script": long(2500, "é"), "reel_url": video})
	if l := w.must(t, http.StatusOK, ada, "GET", base+"/content/calendar", nil); len(l.List) != 2 {
		t.Fatalf("refused items were stored: %s", l.Raw)
	}
}

func TestCalendarItemsListExportDuplicatesDelete(t *testing.T) {
	w := start(t)
	ada := w.user(t, "ada@content.test")
	bob := w.user(t, "bob@content.test")
	twin := w.must(t, http.StatusCreated, ada, "POST", base+"/twins", map[string]any{"name": "Ada"}).Body["id"].(string)
	item := map[string]any{"twin_id": twin, "title": "Launch day", "platform": "short_video", "scheduled_at": w.at(0),
		"script": "We launch =today"}
	r := w.must(t, http.StatusCreated, ada, "POST", base+"/content/calendar", item)
	id := r.Body["id"].(string)
	if r.Body["status"] != "scheduled" || r.Body["platform"] != "short_video" || r.Body["title"] != "Launch day" || r.Body["scheduled_at"] == nil {
		t.Fatalf("created: %s", r.Raw)
	}
	if warn := r.Body["warnings"].([]any); len(warn) != 1 || !strings.Contains(warn[0].(string), "video") {
		t.Fatalf("an item without its video is not warned about: %s", r.Raw)
	}
	// Same twin, platform and text: 409 naming the duplicate; same hour too.
	dup := w.do(t, ada, "POST", base+"/content/calendar", map[string]any{"twin_id": twin, "title": "Again", "platform": "short_video",
		"scheduled_at": w.at(5 * time.Hour), "script": "  we LAUNCH   =today "})
	if dup.Status != http.StatusConflict || dup.Body["duplicate_of"] != id {
		t.Fatalf("same text: %d %s", dup.Status, dup.Raw)
	}
	hour := w.do(t, ada, "POST", base+"/content/calendar", map[string]any{"twin_id": twin, "title": "Other", "platform": "short_video",
		"scheduled_at": w.at(10 * time.Minute), "script": "something else"})
	if hour.Status != http.StatusConflict || hour.Body["duplicate_of"] != id {
		t.Fatalf("same hour: %d %s", hour.Status, hour.Raw)
	}
	forced := w.must(t, http.StatusCreated, ada, "POST", base+"/content/calendar", map[string]any{"twin_id": twin, "title": "Other",
		"platform": "short_video", "scheduled_at": w.at(10 * time.Minute), "script": "something else", "allow_duplicate": true})
	// Another platform is not a duplicate.
	w.must(t, http.StatusCreated, ada, "POST", base+"/content/calendar", map[string]any{"twin_id": twin, "title": "Post",
		"platform": "professional_network", "scheduled_at": w.at(0), "script": "We launch =today"})

	all := w.must(t, http.StatusOK, ada, "GET", base+"/content/calendar", nil)
	if len(all.List) != 3 {
		t.Fatalf("list: %s", all.Raw)
	}
	sv := w.must(t, http.StatusOK, ada, "GET", base+"/content/calendar?platform=short_video&status=scheduled", nil)
	if len(sv.List) != 2 {
		t.Fatalf("filtered list: %s", sv.Raw)
	}
	to := w.at(5 * time.Minute)
	if win := w.must(t, http.StatusOK, ada, "GET", base+"/content/calendar?to_date="+to, nil); len(win.List) != 2 {
		t.Fatalf("to_date: %s", win.Raw)
	}
	w.must(t, http.StatusBadRequest, ada, "GET", base+"/content/calendar?status=sent", nil)
	w.must(t, http.StatusBadRequest, ada, "GET", base+"/content/calendar?from_date=yesterday", nil)
	if other := w.must(t, http.StatusOK, bob, "GET", base+"/content/calendar", nil); len(other.List) != 0 {
		t.Fatalf("bob sees ada's calendar: %s", other.Raw)
	}
	w.must(t, http.StatusNotFound, bob, "GET", base+"/content/calendar/"+id, nil)
	w.must(t, http.StatusNotFound, bob, "DELETE", base+"/content/calendar/"+id, nil)

	// iCalendar export, parsed back by go-ical.
	ics := w.must(t, http.StatusOK, ada, "GET", base+"/content/calendar/export.ics", nil)
	cal, err := ical.NewDecoder(strings.NewReader(string(ics.Raw))).Decode()
	if err != nil {
		t.Fatalf("export.ics does not parse: %v\n%s", err, ics.Raw)
	}
	evs := cal.Events()
	if len(evs) != 3 {
		t.Fatalf("export.ics has %d events", len(evs))
	}
	found := false
	for _, ev := range evs {
		uid, _ := ev.Props.Text(ical.PropUID)
		if uid != id+"@strata-content" {
			continue
		}
		found = true
		start, err := ev.DateTimeStart(time.UTC)
		summary, _ := ev.Props.Text(ical.PropSummary)
		if err != nil || start.Format(time.RFC3339) != w.at(0) || summary != "[short_video] Launch day" {
			t.Fatalf("the item's event: start %v %v, summary %q", start, err, summary)
		}
	}
	if !found {
		t.Fatalf("export.ics has no event for %s", id)
	}
	// CSV export: parsed back; a formula-looking cell is defused.
	c := w.must(t, http.StatusOK, ada, "GET", base+"/content/calendar/export.csv?platform=short_video", nil)
	rows, err := csv.NewReader(strings.NewReader(string(c.Raw))).ReadAll()
	if err != nil || len(rows) != 3 || rows[0][0] != "id" || rows[1][0] != id && rows[2][0] != id {
		t.Fatalf("export.csv: %v %q", err, rows)
	}
	for _, row := range rows[1:] {
		if row[0] == id && row[7] != "We launch =today" {
			t.Fatalf("script cell: %q", row[7])
		}
	}
	// Delete: 204, then 404, gone from the list, and its text may be used again.
	w.must(t, http.StatusNoContent, ada, "DELETE", base+"/content/calendar/"+id, nil)
	w.must(t, http.StatusNotFound, ada, "GET", base+"/content/calendar/"+id, nil)
	w.must(t, http.StatusNotFound, ada, "DELETE", base+"/content/calendar/"+id, nil)
	w.must(t, http.StatusCreated, ada, "POST", base+"/content/calendar", map[string]any{"twin_id": twin, "title": "Launch day",
		"platform": "short_video", "scheduled_at": w.at(3 * time.Hour), "script": "We launch =today"})
	_ = forced
}
