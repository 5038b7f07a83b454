package content

import (
	"bytes"
	"encoding/csv"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/content/platforms"
	"github.com/strata-platform/strata/domain/content"
)

func n(v int64) *int64 { return &v }

func TestChangedDaysRecordsOnlyChangesAndNeverInventsNumbers(t *testing.T) {
	to := time.Date(2026, 3, 10, 0, 0, 0, 0, time.UTC)
	from := to.AddDate(0, 0, -2)
	got := []platforms.Day{
		{Date: from.AddDate(0, 0, -1), Views: n(1)}, // outside the window
		{Date: from, Views: n(5)},                   // unchanged
		{Date: from.AddDate(0, 0, 1), Likes: n(0)},  // views left out: kept; likes given as 0: a change
		{Date: to}, // new day without numbers: recorded, all null
	}
	held := map[string]dayRow{
		"2026-03-08": {account: "acc", n: content.DayNumbers{Date: "2026-03-08", Views: n(5)}},
		"2026-03-09": {account: "acc", n: content.DayNumbers{Date: "2026-03-09", Views: n(7)}},
	}
	out := changedDays(got, held, "acc", from, to)
	if len(out) != 2 || out[0].Date != "2026-03-09" || out[1].Date != "2026-03-10" {
		t.Fatalf("changed days: %+v", out)
	}
	if out[0].Views == nil || *out[0].Views != 7 || out[0].Likes == nil || *out[0].Likes != 0 || out[0].Shares != nil {
		t.Fatalf("merged day: %+v", out[0])
	}
	if d := out[1]; d.Views != nil || d.Likes != nil || d.Comments != nil || d.Shares != nil || d.FollowersGained != nil {
		t.Fatalf("a day without numbers got some: %+v", d)
	}
	// Held for another account: recorded again, as received.
	if out := changedDays(got[1:2], held, "other", from, to); len(out) != 1 || *out[0].Views != 5 {
		t.Fatalf("another account's day: %+v", out)
	}
	if out := changedDays(got[1:2], held, "acc", from, to); len(out) != 0 {
		t.Fatalf("nothing changed, yet: %+v", out)
	}
}

func TestAnalyticsCSVIsSafeAndLeavesMissingNumbersEmpty(t *testing.T) {
	raw, err := AnalyticsCSV([]AnalyticsRow{
		{Platform: "photo_network", DayNumbers: content.DayNumbers{Date: "2026-03-10", Views: n(0), FollowersGained: n(-3)}},
		{Platform: "=HYPERLINK(\"http://x\")", DayNumbers: content.DayNumbers{Date: "@SUM(A1)"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(bytes.NewReader(raw)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(recs[0], ",") != "platform,date,views,likes,comments,shares,followers_gained" {
		t.Fatalf("header %q", recs[0])
	}
	if strings.Join(recs[1], "|") != "photo_network|2026-03-10|0||||-3" {
		t.Fatalf("row %q", recs[1])
	}
	if !strings.HasPrefix(recs[2][0], "'=") || !strings.HasPrefix(recs[2][1], "'@") {
		t.Fatalf("formula cells not defused: %q", recs[2])
	}
}

func TestBlobOwnerIsAValidBlobOwnerName(t *testing.T) {
	re := regexp.MustCompile(`^[0-9A-Za-z_-]{1,64}$`)
	a, b := BlobOwner("org:1234"), BlobOwner("user:1234")
	if !re.MatchString(a) || !re.MatchString(b) || a == b || a != BlobOwner("org:1234") {
		t.Fatalf("blob owners %q %q", a, b)
	}
}
