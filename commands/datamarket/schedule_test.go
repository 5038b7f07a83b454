package datamarket_test

import (
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/jobs"
	"github.com/strata-platform/strata/domain/datamarket"
)

// The refresh schedules run at the seed's Pacific times across both DST
// changes of 2026 (spring forward Sunday 8 March at 2:00 PST, fall back
// Sunday 1 November at 2:00 PDT).
func TestRefreshSchedulesAcrossDaylightSavingChanges(t *testing.T) {
	utc := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	cases := []struct {
		dataset, after string
		want           []string // the next runs, in UTC
	}{
		// Sunday 2 AM: on 8 March 2:00 does not exist; the run is at the end
		// of the gap (3:00 PDT), then 2:00 PDT, ...
		{"smb-directory", "2026-03-01T12:00:00Z", []string{"2026-03-08T10:00:00Z", "2026-03-15T09:00:00Z"}},
		// ... and on 1 November 2:00 PST comes once, after the repeated hour.
		{"smb-directory", "2026-10-25T12:00:00Z", []string{"2026-11-01T10:00:00Z", "2026-11-08T10:00:00Z"}},
		// Wednesday 3 AM, before and after each change.
		{"whois-enrichment", "2026-03-02T00:00:00Z", []string{"2026-03-04T11:00:00Z", "2026-03-11T10:00:00Z"}},
		{"whois-enrichment", "2026-10-26T00:00:00Z", []string{"2026-10-28T10:00:00Z", "2026-11-04T11:00:00Z"}},
		// Sunday 4 AM and 4:30 AM.
		{"montana-livestock", "2026-03-01T12:00:00Z", []string{"2026-03-08T11:00:00Z", "2026-03-15T11:00:00Z"}},
		{"montana-web3", "2026-10-25T12:00:00Z", []string{"2026-11-01T12:30:00Z", "2026-11-08T12:30:00Z"}},
		// The 1st of the month at 5 AM: PST in March, PDT in April, PST again in December.
		{"sc-county-parcels", "2026-02-15T00:00:00Z", []string{"2026-03-01T13:00:00Z", "2026-04-01T12:00:00Z"}},
		{"sc-county-parcels", "2026-10-15T00:00:00Z", []string{"2026-11-01T13:00:00Z", "2026-12-01T13:00:00Z"}},
	}
	for _, c := range cases {
		d, ok := datamarket.Lookup(c.dataset)
		if !ok {
			t.Fatal(c.dataset)
		}
		s, err := jobs.ParseSchedule(d.Refresh, datamarket.RefreshZone)
		if err != nil {
			t.Fatalf("%s: %v", c.dataset, err)
		}
		at := utc(c.after)
		for _, w := range c.want {
			at = s.Next(at)
			if !at.Equal(utc(w)) {
				t.Fatalf("%s after %s: next run %s, want %s", c.dataset, c.after, at.UTC().Format(time.RFC3339), w)
			}
		}
	}
}
