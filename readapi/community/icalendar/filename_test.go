package icalendar_test

import (
	"strings"
	"testing"

	"github.com/strata-platform/strata/readapi/community/icalendar"
)

func TestFilename(t *testing.T) {
	const id = "0b9f6c1e-3d2a-4c5b-9e8f-7a6b5c4d3e2f"
	for _, tc := range []struct{ name, title, id, want string }{
		{"plain", "Summer BBQ 2026", id, "summer-bbq-2026-" + id + ".ics"},
		{"punctuation", "  Hello, World!!! -- (Draft) v2.0 ", id, "hello-world-draft-v2-0-" + id + ".ics"},
		{"path and quotes", `../etc/"passwd"; rm -rf *`, "x", "etc-passwd-rm-rf-x.ics"},
		{"cjk only", "日本語のイベント", id, "event-" + id + ".ics"},
		{"emoji only", "🎉🎂", "x", "event-x.ics"},
		{"empty", "", id, "event-" + id + ".ics"},
		{"punctuation only", " -!- ", "x", "event-x.ics"},
		{"non-ascii letters", "Café Night — Ünïcode 東京 2", "x", "caf-night-n-code-2-x.ics"},
		{"mixed cjk", "東京 Meetup #3", "x", "meetup-3-x.ics"},
		{"long words", strings.Repeat("word ", 30), "x", strings.Repeat("word-", 11) + "word-x.ics"},
		{"cut between words at 60", strings.Repeat("abcdefghi ", 6) + "tail", "x", strings.TrimSuffix(strings.Repeat("abcdefghi-", 6), "-") + "-x.ics"},
		{"one long word", strings.Repeat("a", 100), "x", strings.Repeat("a", 60) + "-x.ics"},
		{"early dash only", "ab " + strings.Repeat("c", 100), "x", "ab-" + strings.Repeat("c", 57) + "-x.ics"},
		{"empty id", "Summer BBQ", "", "summer-bbq.ics"},
		{"empty both", "", "", "event.ics"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := icalendar.Filename(tc.title, tc.id)
			if got != tc.want {
				t.Errorf("Filename(%q, %q) = %q, want %q", tc.title, tc.id, got, tc.want)
			}
			checkSlug(t, got, tc.id)
		})
	}
}

// checkSlug checks the guarantees of Filename for any title.
func checkSlug(t *testing.T, name, id string) {
	t.Helper()
	suffix := ".ics"
	if id != "" {
		suffix = "-" + id + ".ics"
	}
	slug, ok := strings.CutSuffix(name, suffix)
	if !ok {
		t.Fatalf("%q does not end with %q", name, suffix)
	}
	if slug == "" || len(slug) > 60 || strings.HasPrefix(slug, "-") || strings.HasSuffix(slug, "-") || strings.Contains(slug, "--") {
		t.Errorf("bad slug %q", slug)
	}
	if strings.Trim(slug, "abcdefghijklmnopqrstuvwxyz0123456789-") != "" {
		t.Errorf("slug %q holds characters outside [a-z0-9-]", slug)
	}
}

func TestFilenameAnyTitle(t *testing.T) {
	for _, s := range append(nasty, "\x00\xff", "A-B", "--a--", strings.Repeat("ab-", 40)) {
		checkSlug(t, icalendar.Filename(s, "id"), "id")
	}
}
