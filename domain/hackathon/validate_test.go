package hackathon_test

import (
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/domain/hackathon"
	"github.com/strata-platform/strata/domain/kernel"
)

// invalid checks err is KindInvalid on field and mentions says.
func invalid(t *testing.T, err error, fld, says string) {
	t.Helper()
	if kernel.KindOf(err) != kernel.KindInvalid || field(err) != fld {
		t.Fatalf("err %v (field %q), want invalid %s", err, field(err), fld)
	}
	mentions(t, err, says)
}

func TestDetailsNormalize(t *testing.T) {
	paris := time.FixedZone("CET", 3600)
	with := func(f func(*hackathon.Details)) hackathon.Details {
		d := baseDetails(nil)
		f(&d)
		return d
	}
	bad := []struct {
		name  string
		d     hackathon.Details
		field string
		says  string
	}{
		{"no name", with(func(d *hackathon.Details) { d.Name = "" }), "name", "name is required"},
		{"blank name", with(func(d *hackathon.Details) { d.Name = " \t " }), "name", "name is required"},
		{"name too long", with(func(d *hackathon.Details) { d.Name = strings.Repeat("n", 201) }), "name", "at most 200 characters (got 201)"},
		{"line break in name", with(func(d *hackathon.Details) { d.Name = "Spring\nHack" }), "name", "control characters"},
		{"NUL in name", with(func(d *hackathon.Details) { d.Name = "Spring\x00Hack" }), "name", "control characters"},
		{"DEL in location", with(func(d *hackathon.Details) { d.Location = "Lyon\x7f" }), "location", "control characters"},
		{"escape in description", with(func(d *hackathon.Details) { d.Description = "a\x1b[31m" }), "description", "control characters"},
		{"description too long", with(func(d *hackathon.Details) { d.Description = strings.Repeat("d", 10001) }), "description", "at most 10000"},
		{"location too long", with(func(d *hackathon.Details) { d.Location = strings.Repeat("l", 501) }), "location", "at most 500"},
		{"no start date", with(func(d *hackathon.Details) { d.StartDate = time.Time{} }), "start_date", "required"},
		{"no end date", with(func(d *hackathon.Details) { d.EndDate = time.Time{} }), "end_date", "required"},
		{"end before start", with(func(d *hackathon.Details) { d.EndDate = d.StartDate.Add(-time.Second) }), "end_date", "before start_date"},
		{"end before start across zones", with(func(d *hackathon.Details) { d.EndDate = d.StartDate.In(paris).Add(-time.Minute) }), "end_date", "before"},
		{"max zero", with(func(d *hackathon.Details) { d.MaxParticipants = intp(0) }), "max_participants", "from 1 to 1000000"},
		{"max negative", with(func(d *hackathon.Details) { d.MaxParticipants = intp(-5) }), "max_participants", "from 1 to"},
		{"max above the cap", with(func(d *hackathon.Details) { d.MaxParticipants = intp(1_000_001) }), "max_participants", "1000000"},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.d.Normalize()
			invalid(t, err, tt.field, tt.says)
		})
	}

	good := []struct {
		name string
		d    hackathon.Details
	}{
		{"end equal to start", with(func(d *hackathon.Details) { d.EndDate = d.StartDate })},
		{"max one", with(func(d *hackathon.Details) { d.MaxParticipants = intp(1) })},
		{"max at the cap", with(func(d *hackathon.Details) { d.MaxParticipants = intp(hackathon.MaxParticipantsCap) })},
		{"200 runes of two bytes", with(func(d *hackathon.Details) { d.Name = strings.Repeat("é", 200) })},
		{"multiline description", with(func(d *hackathon.Details) { d.Description = "line 1\r\n\tline 2" })},
	}
	for _, tt := range good {
		if _, err := tt.d.Normalize(); err != nil {
			t.Errorf("%s: %v", tt.name, err)
		}
	}

	d, err := with(func(d *hackathon.Details) {
		d.Name, d.Location, d.StartDate = "  Spring Hack  ", " Lyon ", d.StartDate.In(paris)
	}).Normalize()
	if err != nil || d.Name != "Spring Hack" || d.Location != "Lyon" || d.StartDate.Location() != time.UTC ||
		!d.StartDate.Equal(t0.Add(24*time.Hour)) {
		t.Fatalf("normalised %+v, err %v", d, err)
	}
}

func TestTrackNormalize(t *testing.T) {
	tests := []struct {
		color, want string // want "" with bad: refused
		bad         bool
	}{
		{"#abc", "#aabbcc", false},
		{"#A1B2C3", "#a1b2c3", false},
		{"#FfF", "#ffffff", false},
		{" #123456 ", "#123456", false},
		{"", "", false},
		{"red", "", true},
		{"#12345", "", true},
		{"#ggg", "", true},
		{"abc", "", true},
		{"#abcd", "", true},
		{"#1234567", "", true},
		{"rgb(1,2,3)", "", true},
	}
	for _, tt := range tests {
		tr, err := hackathon.Track{Name: "AI", Color: tt.color}.Normalize()
		if tt.bad {
			if kernel.KindOf(err) != kernel.KindInvalid || field(err) != "color" {
				t.Errorf("color %q: err %v", tt.color, err)
			}
			continue
		}
		if err != nil || tr.Color != tt.want {
			t.Errorf("color %q: got %q, err %v; want %q", tt.color, tr.Color, err, tt.want)
		}
	}
	_, err := hackathon.Track{Name: strings.Repeat("t", 101)}.Normalize()
	invalid(t, err, "name", "at most 100")
	_, err = hackathon.Track{Name: "A\x00I"}.Normalize()
	invalid(t, err, "name", "control characters")
	_, err = hackathon.Track{Color: "#abc"}.Normalize()
	invalid(t, err, "name", "required")
}

func TestPrizeNormalize(t *testing.T) {
	tests := []struct {
		name             string
		amount, currency string
		wantAmount       string
		wantCurrency     string
		field            string // "" when accepted
	}{
		{"USD", "100", "USD", "100", "USD", ""},
		{"lower case eur", "50", "eur", "50", "EUR", ""},
		{"padded code", "5", " gbp ", "5", "GBP", ""},
		{"trailing zeros", "100.50", "USD", "100.5", "USD", ""},
		{"four decimals", "0.1234", "USD", "0.1234", "USD", ""},
		{"zero", "0.00", "JPY", "0", "JPY", ""},
		{"no amount, no currency", "", "", "", "", ""},
		{"currency without amount", "", "CHF", "", "CHF", ""},
		{"unknown code", "100", "XYZ", "", "", "currency"},
		{"two letters", "100", "US", "", "", "currency"},
		{"a word", "100", "DOLLAR", "", "", "currency"},
		{"a symbol", "100", "$", "", "", "currency"},
		{"amount without currency", "100", "", "", "", "currency"},
		{"negative amount", "-1", "USD", "", "", "amount"},
		{"five decimals", "1.00001", "USD", "", "", "amount"},
		{"not a number", "lots", "USD", "", "", "amount"},
		{"exponent", "1e3", "USD", "", "", "amount"},
		{"above the ceiling", "1000000000000.0001", "USD", "", "", "amount"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := hackathon.Prize{Name: "Best", Amount: tt.amount, Currency: tt.currency}.Normalize()
			if tt.field != "" {
				if kernel.KindOf(err) != kernel.KindInvalid || field(err) != tt.field {
					t.Fatalf("err %v (field %q), want invalid %s", err, field(err), tt.field)
				}
				return
			}
			if err != nil || p.Amount != tt.wantAmount || p.Currency != tt.wantCurrency {
				t.Fatalf("prize %+v, err %v", p, err)
			}
		})
	}
	_, err := hackathon.Prize{Name: "Best\x07"}.Normalize()
	invalid(t, err, "name", "control characters")
	_, err = hackathon.Prize{Name: "Best", Description: strings.Repeat("x", 2001)}.Normalize()
	invalid(t, err, "description", "at most 2000")
}

func TestPrizeTrackMustExist(t *testing.T) {
	w := worldIn(t, live)
	evs, err := w.h.SavePrize(org, "p1", true, hackathon.TextPatch{"name": "Best", "track_id": "tr1"}, t0)
	refused(t, evs, err, kernel.KindInvalid)
	w.must(w.h.SaveTrack(org, "tr1", true, hackathon.TextPatch{"name": "AI", "color": "#ABC"}, t0))
	if w.h.Tracks["tr1"].Color != "#aabbcc" {
		t.Fatalf("stored colour %q", w.h.Tracks["tr1"].Color)
	}
	w.must(w.h.SavePrize(org, "p1", true, hackathon.TextPatch{"name": "Best", "track_id": "tr1", "amount": "100.50", "currency": "usd"}, t0))
	if p := w.h.Prizes["p1"]; p.Amount != "100.5" || p.Currency != "USD" {
		t.Fatalf("stored prize %+v", p)
	}
	evs, err = w.h.DeleteTrack(org, "tr1", t0)
	refused(t, evs, err, kernel.KindConflict) // a prize is for it
	evs, err = w.h.SavePrize(org, "p1", false, hackathon.TextPatch{"amount": "100.5000"}, t0)
	noop(t, evs, err)
	evs, err = w.h.SavePrize("stranger", "p1", false, hackathon.TextPatch{"amount": "1"}, t0)
	refused(t, evs, err, kernel.KindForbidden)
	w.must(w.h.DeletePrize(org, "p1", t0))
	w.must(w.h.DeleteTrack(org, "tr1", t0))
}

func TestSubmissionTeamTextAndEmail(t *testing.T) {
	_, err := hackathon.Submission{TeamID: "t1", ProjectName: strings.Repeat("p", 201)}.Normalize()
	invalid(t, err, "project_name", "at most 200")
	_, _, err = hackathon.TeamText("Rocket", strings.Repeat("d", 2001))
	invalid(t, err, "description", "at most 2000")
	name, desc, err := hackathon.TeamText("  Rocket ", " line 1\nline 2 ")
	if err != nil || name != "Rocket" || desc != "line 1\nline 2" {
		t.Fatalf("team text %q %q %v", name, desc, err)
	}
	for in, want := range map[string]string{"Judge@Example.COM": "judge@example.com", " a.b@c.io ": "a.b@c.io"} {
		if got, err := hackathon.NormalizeEmail("email", in); err != nil || got != want {
			t.Errorf("NormalizeEmail(%q) = %q, %v", in, got, err)
		}
	}
	for _, in := range []string{"", "judge", "judge@localhost", "Judge <judge@example.com>", "a@b@c.com"} {
		if _, err := hackathon.NormalizeEmail("emails[0]", in); field(err) != "emails[0]" {
			t.Errorf("NormalizeEmail(%q): %v", in, err)
		}
	}
}
