package datamarket_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestETagAndLastModified(t *testing.T) {
	w := newWorld(t, false)
	w.published("smb-directory", smbCSV(numbered("One", 12)), 1)
	published1 := w.clock.Now()

	r := w.get("/smb-directory?per_page=5")
	tag, lm := r.Header.Get("ETag"), r.Header.Get("Last-Modified")
	if r.Status != http.StatusOK || tag == "" || !strings.HasSuffix(tag, `"`) {
		t.Fatalf("page: %d ETag %q", r.Status, tag)
	}
	if at, err := http.ParseTime(lm); err != nil || !at.Equal(published1.Truncate(time.Second)) {
		t.Fatalf("Last-Modified %q, want %s", lm, published1.Format(http.TimeFormat))
	}

	same := w.get("/smb-directory?per_page=5", "If-None-Match", tag)
	if same.Status != http.StatusNotModified || len(same.Raw) != 0 || same.Header.Get("ETag") != tag {
		t.Fatalf("If-None-Match with the ETag: %d %q ETag %q", same.Status, same.Raw, same.Header.Get("ETag"))
	}
	if r := w.get("/smb-directory?per_page=5", "If-None-Match", `"nope", `+tag); r.Status != http.StatusNotModified {
		t.Errorf("If-None-Match listing the ETag: %d", r.Status)
	}
	if r := w.get("/smb-directory?per_page=5", "If-None-Match", strings.TrimPrefix(tag, "W/")); r.Status != http.StatusNotModified {
		t.Errorf("If-None-Match with the ETag's strong form (weak comparison): %d", r.Status)
	}
	if r := w.get("/smb-directory?per_page=5", "If-Modified-Since", lm); r.Status != http.StatusNotModified {
		t.Errorf("If-Modified-Since the Last-Modified: %d", r.Status)
	}
	// another query is another representation
	other := w.get("/smb-directory?per_page=5&page=2", "If-None-Match", tag)
	if other.Status != http.StatusOK || other.Header.Get("ETag") == tag {
		t.Errorf("page 2 with page 1's ETag: %d ETag %q", other.Status, other.Header.Get("ETag"))
	}
	pinned := w.get("/smb-directory?per_page=5&version=1")
	pinnedTag := pinned.Header.Get("ETag")

	// a new publish: the old validators no longer match
	w.clock.Advance(time.Hour)
	w.published("smb-directory", smbCSV(numbered("Two", 12)), 2)
	fresh := w.get("/smb-directory?per_page=5", "If-None-Match", tag)
	p := pageOf(t, fresh, "data")
	if *p.Version != 2 || fresh.Header.Get("ETag") == tag || fresh.Header.Get("ETag") == "" {
		t.Errorf("after publishing: version %d ETag %q (old %q)", *p.Version, fresh.Header.Get("ETag"), tag)
	}
	if at, err := http.ParseTime(fresh.Header.Get("Last-Modified")); err != nil || !at.Equal(w.clock.Now().Truncate(time.Second)) {
		t.Errorf("Last-Modified after publishing %q", fresh.Header.Get("Last-Modified"))
	}
	if r := w.get("/smb-directory?per_page=5", "If-Modified-Since", lm); r.Status != http.StatusOK {
		t.Errorf("If-Modified-Since the old Last-Modified after publishing: %d", r.Status)
	}
	if r := w.get("/smb-directory?per_page=5", "If-None-Match", fresh.Header.Get("ETag")); r.Status != http.StatusNotModified {
		t.Errorf("If-None-Match with the new ETag: %d", r.Status)
	}
	// a pinned version does not change
	if r := w.get("/smb-directory?per_page=5&version=1", "If-None-Match", pinnedTag); r.Status != http.StatusNotModified {
		t.Errorf("pinned version 1 with its ETag after publishing 2: %d", r.Status)
	}
}

func TestLastModifiedAfterRetractingTheCurrentVersion(t *testing.T) {
	w := newWorld(t, false)
	w.published("smb-directory", smbCSV(numbered("One", 3)), 1)
	w.clock.Advance(time.Hour)
	w.published("smb-directory", smbCSV(numbered("Two", 3)), 2)
	r := w.get("/smb-directory")
	lm, tag := r.Header.Get("Last-Modified"), r.Header.Get("ETag")

	// the client holds version 2's rows; they are retracted an hour later
	w.clock.Advance(time.Hour)
	if _, err := w.svc.Retract(context.Background(), "smb-directory", 2, "bad rows", "test"); err != nil {
		t.Fatal(err)
	}
	if r := w.get("/smb-directory", "If-None-Match", tag); r.Status != http.StatusOK || *pageOf(t, r, "data").Version != 1 {
		t.Fatalf("If-None-Match with version 2's ETag after its retraction: %d", r.Status)
	}
	r = w.get("/smb-directory", "If-Modified-Since", lm)
	if r.Status != http.StatusOK {
		t.Fatalf("If-Modified-Since version 2's Last-Modified after its retraction: %d, want 200 with version 1's rows "+
			"(Last-Modified went back to %s)", r.Status, r.Header.Get("Last-Modified"))
	}
}
