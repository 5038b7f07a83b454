package template

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/strata-platform/strata/domain/kernel"
)

func entityNames(s Spec) []string {
	var out []string
	for _, e := range s.Entities {
		out = append(out, e.Name)
	}
	return out
}

func TestPlan(t *testing.T) {
	for _, c := range []struct {
		idea, archetype, name, slug string
		matched, entities           []string
	}{
		{"a marketplace for handmade pottery", "marketplace", "Handmade Pottery Marketplace",
			"handmade-pottery-marketplace", []string{"marketplace"}, []string{"seller", "listing", "order"}},
		{"book yoga classes at my studio", "booking", "Yoga Class Bookings", "yoga-class-bookings",
			[]string{"book", "classes", "studio"}, []string{"service", "booking", "class"}},
		{"a CRM for my real estate deals", "crm", "Real Estate CRM", "real-estate-crm",
			[]string{"crm", "deals"}, []string{"contact", "deal", "property"}},
		{"helpdesk for my SaaS customers", "helpdesk", "SaaS Customer Helpdesk", "saas-customer-helpdesk",
			[]string{"helpdesk"}, []string{"ticket", "customer"}},
		{"send invoices to my freelance clients", "invoicing", "Freelance Client Invoicing",
			"freelance-client-invoicing", []string{"invoices", "freelance"}, []string{"client", "invoice"}},
		{"track my running workouts", "tracker", "Running Tracker", "running-tracker",
			[]string{"track", "workouts"}, []string{"workout"}},
		{"just an app", "tracker", "My Tracker", "my-tracker", []string{}, []string{"entry"}},
		{"?!", "tracker", "My Tracker", "my-tracker", []string{}, []string{"entry"}},
		// A phrase cue uses its words up: "help desk" scores once, as helpdesk.
		{"a help desk", "helpdesk", "My Helpdesk", "my-helpdesk", []string{"help desk"}, []string{"ticket", "customer"}},
		// A tie goes to the archetype listed first: marketplace before store.
		{"a marketplace that is also a store", "marketplace", "My Marketplace", "my-marketplace",
			[]string{"marketplace"}, []string{"seller", "listing", "order"}},
		// Accents are folded in the slug only.
		{"Café-Verzeichnis für München", "tracker", "Café Verzeichnis Tracker", "cafe-verzeichnis-tracker",
			[]string{}, []string{"entry"}},
		// Long words are cut so the name stays within MaxLabel and the slug within MaxSlug.
		{"marketplace for Pneumonoultramicroscopicsilicovolcanoconiosis Supercalifragilisticexpialidocious",
			"marketplace", "Pneumonoultramicrosc Supercalifragilistic Marketplace", "pneumonoultramicrosc",
			[]string{"marketplace"}, []string{"seller", "listing", "order"}},
		// Extras beyond MaxExtras are left out, in order of appearance.
		{"store with reviews, staff, rooms, events, tasks, goals and habits", "store", "Review Staff Store", "review-staff-store",
			[]string{"store"}, []string{"product", "order", "review", "staff_member", "room", "event", "task"}},
	} {
		s, err := Plan(c.idea)
		if err != nil {
			t.Fatalf("Plan(%q): %v", c.idea, err)
		}
		if s.Archetype != c.archetype || s.AppName != c.name || s.Slug != c.slug {
			t.Errorf("Plan(%q) = %s %q %q, want %s %q %q", c.idea, s.Archetype, s.AppName, s.Slug,
				c.archetype, c.name, c.slug)
		}
		if !slices.Equal(s.Matched, c.matched) {
			t.Errorf("Plan(%q).Matched = %q, want %q", c.idea, s.Matched, c.matched)
		}
		if got := entityNames(s); !slices.Equal(got, c.entities) {
			t.Errorf("Plan(%q) entities = %q, want %q", c.idea, got, c.entities)
		}
		if err := s.Validate(); err != nil {
			t.Errorf("Plan(%q) gave a spec that does not validate: %v", c.idea, err)
		}
	}
}

func TestPlanSaysWhatItAssumedFromWhichWords(t *testing.T) {
	s, err := Plan("an online shop for my bakery where customers can book cake tastings and leave reviews")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"'shop' matched the store archetype (score 3)",
		"'book' also pointed to booking, which scored lower (2)",
		"The app is called 'Bakery Store', from 'bakery'",
		"'customers' added Customers",
		"'reviews' added Reviews",
	} {
		if !slices.ContainsFunc(s.Assumptions, func(a string) bool { return strings.HasPrefix(a, want) }) {
			t.Errorf("no assumption starts with %q in %q", want, s.Assumptions)
		}
	}
	tie, _ := Plan("a marketplace that is also a store")
	if !slices.Contains(tie.Assumptions, "'store' pointed to store with the same score; marketplace comes first in the fixed order") {
		t.Errorf("the tie is not explained: %q", tie.Assumptions)
	}
	none, _ := Plan("just an app")
	if !strings.HasPrefix(none.Assumptions[0], "No word of the idea is in the lexicon") {
		t.Errorf("no-match assumption missing: %q", none.Assumptions)
	}
	capped, _ := Plan("store with reviews, staff, rooms, events, tasks, goals and habits")
	if !slices.Contains(capped.Assumptions, "'goals' would have added Goals, but an app takes at most 5 extra entities") {
		t.Errorf("the cap is not explained: %q", capped.Assumptions)
	}
}

func TestPlanIsDeterministic(t *testing.T) {
	for _, c := range goldenIdeas() {
		a, _ := Plan(c.idea)
		b, _ := Plan(c.idea)
		if !slices.Equal(a.Assumptions, b.Assumptions) || !slices.Equal(entityNames(a), entityNames(b)) ||
			a.AppName != b.AppName || a.Archetype != b.Archetype {
			t.Errorf("Plan(%q) differs between two calls", c.idea)
		}
	}
}

func TestPlanRefusesBadIdeas(t *testing.T) {
	for _, c := range []struct{ idea, rule string }{
		{"", "required"},
		{" \n\t ", "required"},
		{strings.Repeat("é", MaxIdea+1), "max_length:4000"},
		{"book \xff classes", "utf8"},
	} {
		_, err := Plan(c.idea)
		var ke *kernel.Error
		if !errors.As(err, &ke) || !errors.Is(err, kernel.ErrInvalid) {
			t.Fatalf("Plan(%.20q) error = %v, want a kernel invalid error", c.idea, err)
		}
		if ke.Field != "message" || ke.Rule != c.rule {
			t.Errorf("Plan(%.20q) = field %q rule %q, want message %q", c.idea, ke.Field, ke.Rule, c.rule)
		}
	}
	if _, err := Plan(strings.Repeat("é", MaxIdea)); err != nil {
		t.Errorf("an idea of exactly %d characters was refused: %v", MaxIdea, err)
	}
}

// kernelField returns the field of a kernel error, or "".
func kernelField(err error) string {
	var ke *kernel.Error
	if errors.As(err, &ke) {
		return ke.Field
	}
	return ""
}
