package briefing

import (
	"testing"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

func TestObservationCheck(t *testing.T) {
	at := time.Date(2026, 3, 2, 15, 4, 5, 0, time.UTC)
	v := 21.5
	good := []Observation{
		{Kind: KindIndicator, Source: "fred", SourceID: "VIXCLS:2026-03-02", At: at, Series: "vixcls", Value: &v},
		{Kind: KindMention, Source: "news", SourceID: "n1", At: at, Company: " Acme ", Title: "t", URL: "https://x.example/a"},
		{Kind: KindFiling, Source: "sec_edgar", SourceID: "0001", At: at, Company: "Acme", Form: "sc 13d"},
		{Kind: KindDocument, Source: "news", SourceID: "d1", At: at, Companies: []string{"Acme", "acme", "Beta"}},
		{Kind: KindActivity, Source: "github", SourceID: "a1", At: at, Developer: "ada", Repo: "acme/x", Metric: "commits", Count: 3},
	}
	for i := range good {
		if err := good[i].Check("o"); err != nil {
			t.Errorf("%s: %v", good[i].Kind, err)
		}
	}
	if good[0].Series != "VIXCLS" || !good[0].At.Equal(Day(at)) || good[1].Company != "Acme" || good[2].Form != "SC 13D" || len(good[3].Companies) != 2 {
		t.Errorf("not normalised: %+v", good)
	}
	bad := []struct {
		o     Observation
		field string
		rule  string
	}{
		{Observation{Kind: "tweet", Source: "x", SourceID: "1", At: at}, "o.kind", "enum"},
		{Observation{Kind: KindMention, Source: "", SourceID: "1", At: at, Company: "A"}, "o.source", "format"},
		{Observation{Kind: KindMention, Source: "s", SourceID: " ", At: at, Company: "A"}, "o.source_id", "required"},
		{Observation{Kind: KindMention, Source: "s", SourceID: "1", Company: "A"}, "o.at", "required"},
		{Observation{Kind: KindIndicator, Source: "s", SourceID: "1", At: at, Series: "VIX"}, "o.value", "required"},
		{Observation{Kind: KindIndicator, Source: "s", SourceID: "1", At: at, Series: "VIX CLS", Value: &v}, "o.series", "format"},
		{Observation{Kind: KindMention, Source: "s", SourceID: "1", At: at, Company: "A", Series: "X"}, "o.series", "not_for_kind"},
		{Observation{Kind: KindMention, Source: "s", SourceID: "1", At: at, Company: "A\x01"}, "o.company", "printable"},
		{Observation{Kind: KindMention, Source: "s", SourceID: "1", At: at, Company: "A", URL: "ftp://x"}, "o.url", "url"},
		{Observation{Kind: KindFiling, Source: "s", SourceID: "1", At: at, Company: "A"}, "o.form", "format"},
		{Observation{Kind: KindDocument, Source: "s", SourceID: "1", At: at}, "o.companies", "size"},
		{Observation{Kind: KindActivity, Source: "s", SourceID: "1", At: at, Developer: "d", Repo: "r", Metric: "likes"}, "o.metric", "enum"},
		{Observation{Kind: KindActivity, Source: "s", SourceID: "1", At: at, Developer: "d", Repo: "r", Metric: "stars", Count: -1}, "o.count", "range"},
	}
	for _, c := range bad {
		err := c.o.Check("o")
		var ke *kernel.Error
		if e, ok := err.(*kernel.Error); ok {
			ke = e
		}
		if ke == nil || ke.Field != c.field || ke.Rule != c.rule {
			t.Errorf("%+v: %v, want %s %s", c.o, err, c.field, c.rule)
		}
	}
}
