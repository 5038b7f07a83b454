package community_test

import (
	"context"
	"maps"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	ical "github.com/emersion/go-ical"

	"github.com/strata-platform/strata/domain/identity"
)

const feedPath = base + "/calendar-feed"

// export fetches an event's iCalendar export as u: its content and filename.
func (w *world) export(u *user, id string) (string, string) {
	w.t.Helper()
	r := w.must(u, http.StatusOK, "GET", base+"/"+id+"/export/ical", nil)
	content, _ := r["ical_content"].(string)
	filename, _ := r["filename"].(string)
	return content, filename
}

// join adds the registered user u to owner's organization and returns u
// acting there; u itself keeps acting in its own organization.
func (w *world) join(owner, u *user) *user {
	w.t.Helper()
	if _, err := w.api.Svc.AddMember(context.Background(), owner.ID, owner.Org, u.Email, identity.OrgMember); err != nil {
		w.t.Fatal(err)
	}
	c := *u
	c.Org = owner.Org
	return &c
}

// parseICal checks the RFC 5545 line rules of content and parses it with
// go-ical, an independent reader.
func parseICal(t *testing.T, content string) *ical.Calendar {
	t.Helper()
	if !strings.HasSuffix(content, "\r\n") {
		t.Fatalf("calendar does not end with CRLF: %q", content[max(0, len(content)-20):])
	}
	for i, l := range strings.Split(strings.TrimSuffix(content, "\r\n"), "\r\n") {
		if strings.ContainsAny(l, "\r\n") || len(l) > 75 || !utf8.ValidString(l) {
			t.Errorf("physical line %d breaks the line rules (%d octets): %q", i, len(l), l)
		}
	}
	for _, want := range []string{"BEGIN:VCALENDAR\r\n", "\r\nVERSION:2.0\r\n", "\r\nPRODID:"} {
		if !strings.Contains(content, want) {
			t.Errorf("calendar lacks %q", want)
		}
	}
	cal, err := ical.NewDecoder(strings.NewReader(content)).Decode()
	if err != nil {
		t.Fatalf("go-ical cannot parse the calendar: %v\n%s", err, content)
	}
	return cal
}

// only returns the single VEVENT of content.
func only(t *testing.T, content string) ical.Event {
	t.Helper()
	evs := parseICal(t, content).Events()
	if len(evs) != 1 {
		t.Fatalf("%d VEVENTs, want 1", len(evs))
	}
	return evs[0]
}

// prop reads a property of ev: TEXT values unescaped, others raw.
func prop(t *testing.T, ev ical.Event, name string) string {
	t.Helper()
	p := ev.Props.Get(name)
	if p == nil {
		t.Fatalf("VEVENT has no %s", name)
	}
	if name == "URL" || name == "DTSTART" || name == "DTEND" || name == "SEQUENCE" {
		return p.Value
	}
	s, err := p.Text()
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return s
}

func sequence(t *testing.T, ev ical.Event) int {
	t.Helper()
	n, err := strconv.Atoi(prop(t, ev, "SEQUENCE"))
	if err != nil {
		t.Fatalf("SEQUENCE: %v", err)
	}
	return n
}

// utc is an API time as an iCalendar UTC date-time.
func utc(t *testing.T, apiTime any) string {
	t.Helper()
	tm, err := time.Parse(time.RFC3339, apiTime.(string))
	if err != nil {
		t.Fatal(err)
	}
	return tm.UTC().Format("20060102T150405Z")
}

func TestICalExportRoundTrip(t *testing.T) {
	w := start(t)
	ada := w.register("Ada")
	bob := w.member(ada, "Bob")
	title := "Go, Rust; C\\C++ night 🎉 👩‍👩‍👧‍👦\n第二行 東京"
	description := strings.Repeat("Bring: laptop, charger; snacks \\o/ — 日本語のテキスト、句読点。👨‍👩‍👧‍👦🏳️‍🌈\n", 12) + "End; fin, \\"
	location := "Room 1, Floor 2; Bldg \\A\\ — 東京都渋谷区 🏢 (入口は北側)"
	link := "https://example.com/events/go?tags=a,b;c&q=%E6%97%A5#part"
	ev := w.event(ada, map[string]any{"title": title, "description": description, "location": location, "url": link,
		"start_time": w.api.Clock.Now().Add(48 * time.Hour).In(time.FixedZone("X", -5*3600)).Format(time.RFC3339),
		"end_time":   w.at(50 * time.Hour)})
	id := ev["id"].(string)

	content, filename := w.export(bob, id)
	vev := only(t, content)
	for name, want := range map[string]string{"SUMMARY": title, "DESCRIPTION": description, "LOCATION": location,
		"URL": link, "DTSTART": utc(t, ev["start_time"]), "DTEND": utc(t, ev["end_time"]), "STATUS": "CONFIRMED"} {
		if got := prop(t, vev, name); got != want {
			t.Errorf("%s round trip\n got %q\nwant %q", name, got, want)
		}
	}
	if start, err := vev.DateTimeStart(time.UTC); err != nil || !start.Equal(w.api.Clock.Now().Add(48*time.Hour).Truncate(time.Second)) {
		t.Errorf("DTSTART %v (%v)", start, err)
	}
	uid := prop(t, vev, "UID")
	if !strings.Contains(uid, id) {
		t.Errorf("UID %q does not name the event %s", uid, id)
	}
	if !strings.HasSuffix(filename, ".ics") || !strings.Contains(filename, id) || !regexp.MustCompile(`^[a-z0-9.-]+$`).MatchString(filename) {
		t.Errorf("filename %q", filename)
	}
	again, _ := w.export(ada, id)
	if u := prop(t, only(t, again), "UID"); u != uid {
		t.Errorf("UID changed between exports: %q, then %q", uid, u)
	}
	// A CJK-only title still gives a usable file name.
	cjk := w.event(ada, map[string]any{"title": "東京の夜"})
	if _, f := w.export(ada, cjk["id"].(string)); f != "event-"+cjk["id"].(string)+".ics" {
		t.Errorf("CJK title filename %q", f)
	}
}

func TestICalSequenceAfterPatchAndCancel(t *testing.T) {
	w := start(t)
	ada := w.register("Ada")
	ev := w.event(ada, map[string]any{"title": "Before"})
	id := ev["id"].(string)
	c0, _ := w.export(ada, id)
	v0 := only(t, c0)
	uid, s0 := prop(t, v0, "UID"), sequence(t, v0)

	w.api.Clock.Advance(time.Minute)
	w.must(ada, 200, "PATCH", base+"/"+id, map[string]any{"title": "After"})
	c1, _ := w.export(ada, id)
	v1 := only(t, c1)
	if s1 := sequence(t, v1); s1 <= s0 || prop(t, v1, "SUMMARY") != "After" || prop(t, v1, "UID") != uid {
		t.Fatalf("after PATCH: SEQUENCE %d (was %d), SUMMARY %q, UID %q", s1, s0, prop(t, v1, "SUMMARY"), prop(t, v1, "UID"))
	}

	w.api.Clock.Advance(time.Minute)
	if r := w.do(ada, "DELETE", base+"/"+id, nil); r.status != 204 {
		t.Fatalf("cancel: %d %s", r.status, r.raw)
	}
	c2, _ := w.export(ada, id)
	v2 := only(t, c2)
	if prop(t, v2, "STATUS") != "CANCELLED" || prop(t, v2, "UID") != uid || sequence(t, v2) <= sequence(t, v1) {
		t.Fatalf("after cancel: STATUS %q UID %q SEQUENCE %d (was %d)", prop(t, v2, "STATUS"), prop(t, v2, "UID"), sequence(t, v2), sequence(t, v1))
	}
}

// feedURL is the path and query of an issued feed's url.
func feedURL(t *testing.T, w *world, f map[string]any) string {
	t.Helper()
	raw, _ := f["url"].(string)
	u, err := url.Parse(raw)
	if err != nil || !strings.HasPrefix(raw, w.api.URL+"/") || u.Query().Get("token") != f["token"] {
		t.Fatalf("feed url %q (token %v): %v", raw, f["token"], err)
	}
	return u.RequestURI()
}

// feedUIDs fetches a feed anonymously and returns its VEVENTs by UID.
func feedUIDs(t *testing.T, w *world, path string) map[string]ical.Event {
	t.Helper()
	r := w.do(nil, "GET", path, nil)
	if r.status != 200 || !strings.HasPrefix(r.header.Get("Content-Type"), "text/calendar") {
		t.Fatalf("feed: %d %q: %s", r.status, r.header.Get("Content-Type"), r.raw)
	}
	out := map[string]ical.Event{}
	for _, ev := range parseICal(t, string(r.raw)).Events() {
		out[prop(t, ev, "UID")] = ev
	}
	return out
}

// uidOf is the UID the export gives an event.
func uidOf(t *testing.T, w *world, u *user, ev map[string]any) string {
	t.Helper()
	c, _ := w.export(u, ev["id"].(string))
	return prop(t, only(t, c), "UID")
}

func TestCalendarFeed(t *testing.T) {
	w := start(t)
	ada := w.register("Ada")
	home := w.register("Bob")
	bob := w.join(ada, home)
	cy := w.member(ada, "Cy")
	rsvp := func(u *user, ev map[string]any, status string) {
		w.must(u, 201, "POST", base+"/"+ev["id"].(string)+"/rsvp", map[string]any{"status": status})
	}
	going := w.event(ada, map[string]any{"title": "Going, surely; 東京 🎉"})
	cancelled := w.event(ada, map[string]any{"title": "Called off"})
	interested, notGoing, others := w.event(ada, nil), w.event(ada, nil), w.event(ada, nil)
	rsvp(bob, going, "going")
	rsvp(bob, cancelled, "going")
	rsvp(bob, interested, "interested")
	rsvp(bob, notGoing, "not_going")
	rsvp(cy, others, "going")
	homeEvent := w.event(home, map[string]any{"title": "Home"})
	rsvp(home, homeEvent, "going")
	w.must(ada, 204, "DELETE", base+"/"+cancelled["id"].(string), nil)

	f := w.must(bob, 201, "POST", feedPath, nil)
	token, _ := f["token"].(string)
	if f["active"] != true || f["feed_id"] == nil || f["created_at"] == nil || !strings.HasPrefix(token, "scf_") || len(token) < 36 {
		t.Fatalf("issued feed: %v", f)
	}
	path := feedURL(t, w, f)
	got := feedUIDs(t, w, path)
	want := []string{uidOf(t, w, bob, going), uidOf(t, w, bob, cancelled)}
	if len(got) != 2 || got[want[0]].Props == nil || got[want[1]].Props == nil {
		t.Fatalf("feed holds %v, want exactly %v", slices.Collect(maps.Keys(got)), want)
	}
	if s := prop(t, got[want[0]], "SUMMARY"); s != going["title"] || prop(t, got[want[0]], "STATUS") != "CONFIRMED" {
		t.Errorf("going event in the feed: SUMMARY %q", s)
	}
	if s := prop(t, got[want[1]], "STATUS"); s != "CANCELLED" {
		t.Errorf("cancelled event in the feed: STATUS %q", s)
	}

	g := w.must(bob, 200, "GET", feedPath, nil)
	if _, has := g["token"]; has || g["active"] != true || g["feed_id"] != f["feed_id"] || g["created_at"] != f["created_at"] {
		t.Fatalf("feed status must not show the token: %v", g)
	}
	if _, has := g["url"]; has {
		t.Fatalf("feed status must not show the url: %v", g)
	}

	// The same user's feed in the other organization is separate.
	hf := w.must(home, 201, "POST", feedPath, nil)
	if h := feedUIDs(t, w, feedURL(t, w, hf)); len(h) != 1 || h[uidOf(t, w, home, homeEvent)].Props == nil {
		t.Fatalf("home feed holds %v", slices.Collect(maps.Keys(h)))
	}

	// A new feed replaces the old one.
	f2 := w.must(bob, 201, "POST", feedPath, nil)
	if f2["token"] == token || f2["feed_id"] == f["feed_id"] || f2["active"] != true {
		t.Fatalf("reissued feed: %v", f2)
	}
	w.refused(w.do(nil, "GET", path, nil), 401, "", "")
	path2 := feedURL(t, w, f2)
	if len(feedUIDs(t, w, path2)) != 2 {
		t.Fatal("the new feed must list the same events")
	}

	if r := w.do(bob, "DELETE", feedPath, nil); r.status != 204 || len(r.raw) != 0 {
		t.Fatalf("revoke: %d %s", r.status, r.raw)
	}
	w.refused(w.do(nil, "GET", path2, nil), 401, "", "")
	w.refused(w.do(bob, "DELETE", feedPath, nil), 404, "", "")
	if g := w.must(bob, 200, "GET", feedPath, nil); g["active"] != false || g["feed_id"] != nil {
		t.Fatalf("revoked feed status: %v", g)
	}
	feedUIDs(t, w, feedURL(t, w, hf)) // the other organization's feed still works

	for _, q := range []string{"", "?token=", "?token=garbage", "?token=scf_garbage", "?token=" + token + "x"} {
		w.refused(w.do(nil, "GET", base+"/calendar.ics"+q, nil), 401, "", "")
	}
	if r := w.do(nil, "POST", feedPath, nil); r.status != 401 {
		t.Fatalf("anonymous feed issue: %d", r.status)
	}
}
