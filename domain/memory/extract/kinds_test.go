package extract

import (
	"slices"
	"testing"
)

// The sentence decides a name's kind before the lists do.
func TestKindsFromTheSentence(t *testing.T) {
	cases := []struct {
		text string
		want []string
	}{
		{"We use Mailgun for transactional email.", []string{"Mailgun/org"}},
		{"We pay Gusto for payroll.", []string{"Gusto/org"}},
		{"We pay Datadog $2k a month.", []string{"Datadog/org"}},
		{"Datadog's sales team called again.", []string{"Datadog/org"}},
		{"Stripe's API is down.", []string{"Stripe/org"}},
		{"Notion raised a new round.", []string{"Notion/org"}},
		{"Linear is the company behind our issue tracker.", []string{"Linear/org"}},
		{"We signed a contract with Vanta.", []string{"Vanta/org"}},
		{"Invoice from Figma came in.", []string{"Figma/org"}},
		{"Twilio charged us twice.", []string{"Twilio/org"}},
		// Pets are no persons and no companies.
		{"Our dog Pepper hates the vacuum.", []string{"Pepper/concept"}},
		{"Pepper, our corgi, turned five.", []string{"Pepper/concept"}},
		{"We adopted a puppy named Biscuit.", []string{"Biscuit/concept"}},
		{"Pepper the dog chewed my charger.", []string{"Pepper/concept"}},
		// A product named after its company is the company, whatever the
		// verb; a technology stays one.
		{"Datadog paged us at 3am.", []string{"Datadog/org"}},
		{"We use Figma for design.", []string{"Figma/org"}},
		{"We moved from Heroku to Fly.io.", []string{"Heroku/org", "Fly.io/org"}},
		{"We moved from MySQL to Postgres.", []string{"MySQL/tech", "PostgreSQL/tech"}},
		{"I met Pepper Potts today.", []string{"Pepper Potts/person"}},
		{"Alice is building Acme's new billing system.", []string{"Alice/person", "Acme/org"}},
	}
	for _, c := range cases {
		if got := ents(Extract(c.text, Options{Self: "user"})); !slices.Equal(got, c.want) {
			t.Errorf("%q: entities %q, want %q", c.text, got, c.want)
		}
	}
	r := Extract("My cat Miso sleeps on the keyboard.", Options{Self: "user"})
	if got := rels(r.Relations); !slices.Equal(got, []string{"user owns Miso"}) {
		t.Errorf("pet relations %q", got)
	}
}

// A contact's company beside the name is where they work; the place of a
// meeting is not.
func TestAffiliationsBesideTheName(t *testing.T) {
	cases := []struct {
		text string
		want []string
	}{
		{"Naomi Park at Index Ventures replied.", []string{"Naomi Park works_at Index Ventures"}},
		{"Ravi Kumar (Stripe) intro'd us to their bank.", []string{"Ravi Kumar works_at Stripe"}},
		{"Had coffee with Ravi Kumar at Globex Corporation.", []string{"user knows Ravi Kumar"}},
		{"If Naomi Park at Index Ventures replies, we pitch.", []string{}},
		{"Is Naomi Park at Index Ventures now?", []string{}},
	}
	for _, c := range cases {
		if got := rels(Extract(c.text, Options{Self: "user"}).Relations); !slices.Equal(got, c.want) {
			t.Errorf("%q: relations %q, want %q", c.text, got, c.want)
		}
	}
}
