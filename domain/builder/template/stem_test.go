package template

import (
	"slices"
	"testing"
)

func TestStem(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"crm", "crm"}, {"log", "log"}, {"crms", "crm"},
		{"bookings", "book"}, {"booking", "book"}, {"booked", "book"}, {"books", "book"},
		{"stories", "story"}, {"communities", "community"}, {"ties", "tie"},
		{"classes", "class"}, {"class", "class"}, {"business", "business"},
		{"coaches", "coach"}, {"boxes", "box"}, {"courses", "course"}, {"invoices", "invoice"},
		{"status", "status"}, {"analysis", "analysis"},
		{"running", "run"}, {"shipped", "ship"}, {"shopping", "shop"}, {"selling", "sell"},
		{"listings", "list"}, {"tracking", "track"}, {"tracked", "track"}, {"tracker", "tracker"},
		{"thing", "thing"}, {"string", "string"}, {"need", "need"}, {"speed", "speed"},
		{"scheduling", "schedul"}, {"schedule", "schedule"},
	} {
		if got := Stem(c.in); got != c.want {
			t.Errorf("Stem(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestSingularKeepsVerbForms(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"sneakers", "sneaker"}, {"restaurants", "restaurant"}, {"running", "running"}, {"pottery", "pottery"},
	} {
		if got := Singular(c.in); got != c.want {
			t.Errorf("Singular(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestTokenize(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"Book yoga classes at my studio's", []string{"book", "yoga", "class", "at", "my", "studio"}},
		{"an e-commerce site, 24/7!", []string{"an", "commerce", "site", "24", "7"}},
		{"Café-Verzeichnis für München", []string{"café", "verzeichnis", "für", "münchen"}},
		{"?!", nil},
	} {
		var got []string
		for _, tk := range tokenize(c.in) {
			got = append(got, tk.Stem)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("tokenize(%q) stems = %q, want %q", c.in, got, c.want)
		}
	}
}
