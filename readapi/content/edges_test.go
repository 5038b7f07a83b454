package content_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-ical"
)

// TestCalendarEdgeCases: CR line breaks export, items without text are not
// duplicates of each other, an item scheduled with allow_duplicate still
// counts for later ones, upper-case twin ids name the same twin.
func TestCalendarEdgeCases(t *testing.T) {
	w := start(t)
	ada := w.user(t, "ada@content.test")
	twin := w.must(t, http.StatusCreated, ada, "POST", base+"/twins", map[string]any{"name": "Ada"}).Body["id"].(string)
	w.must(t, http.StatusCreated, ada, "POST", base+"/content/calendar", map[string]any{"title": "windows\r\ntitle",
		"platform": "professional_network", "scheduled_at": w.at(0), "script": "windows\r\nline endings\rold mac"})
	ics := w.must(t, http.StatusOK, ada, "GET", base+"/content/calendar/export.ics", nil)
	cal, err := ical.NewDecoder(strings.NewReader(string(ics.Raw))).Decode()
	if err != nil || len(cal.Events()) != 1 {
		t.Fatalf("export.ics: %v\n%s", err, ics.Raw)
	}
	if d, _ := cal.Events()[0].Props.Text(ical.PropDescription); d != "windows\nline endings\nold mac" {
		t.Fatalf("description %q", d)
	}
	csv := w.must(t, http.StatusOK, ada, "GET", base+"/content/calendar/export.csv", nil)
	if !strings.Contains(string(csv.Raw), "published_urls\r\n") {
		t.Fatalf("CSV records do not end in CRLF: %q", csv.Raw[:80])
	}
	video := w.Media.URL + "/video.mp4"
	w.must(t, http.StatusCreated, ada, "POST", base+"/content/calendar", map[string]any{"twin_id": twin, "title": "one",
		"platform": "short_video", "scheduled_at": w.at(24 * time.Hour), "reel_url": video})
	w.must(t, http.StatusCreated, ada, "POST", base+"/content/calendar", map[string]any{"twin_id": strings.ToUpper(twin), "title": "two",
		"platform": "short_video", "scheduled_at": w.at(48 * time.Hour), "reel_url": video, "script": "  "})
	// allow_duplicate: B takes the free text key; a later C with B's text is refused.
	a := w.must(t, http.StatusCreated, ada, "POST", base+"/content/calendar", map[string]any{"twin_id": twin, "title": "a",
		"platform": "video_site", "scheduled_at": w.at(72 * time.Hour), "script": "text a", "reel_url": video}).Body["id"].(string)
	b := w.must(t, http.StatusCreated, ada, "POST", base+"/content/calendar", map[string]any{"twin_id": twin, "title": "b",
		"platform": "video_site", "scheduled_at": w.at(72*time.Hour + 30*time.Minute), "script": "text b", "reel_url": video,
		"allow_duplicate": true}).Body["id"].(string)
	c := w.do(t, ada, "POST", base+"/content/calendar", map[string]any{"twin_id": twin, "title": "c",
		"platform": "video_site", "scheduled_at": w.at(96 * time.Hour), "script": "TEXT   b", "reel_url": video})
	if c.Status != http.StatusConflict || c.Body["duplicate_of"] != b {
		t.Fatalf("same text as an allowed duplicate: %d %s", c.Status, c.Raw)
	}
	_ = a
}
