package plans

import (
	"errors"
	"testing"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

var t0 = time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)

func TestChangesAreCheckedAgainstTheCatalog(t *testing.T) {
	for _, c := range []struct {
		change Change
		field  string
	}{
		{Change{Line: LineGateway, Plan: "pro", Source: SourceOperator}, "account_id"},
		{Change{AccountID: "a", Line: "crm", Plan: "pro", Source: SourceOperator}, "product_line"},
		{Change{AccountID: "a", Line: LineGateway, Plan: "professional", Source: SourceOperator}, "plan"}, // a platform plan
		{Change{AccountID: "a", Line: LineGateway, Plan: "pro", Status: "frozen", Source: SourceOperator}, "status"},
		{Change{AccountID: "a", Line: LineGateway, Plan: "pro", Source: "magic"}, "source"},
	} {
		err := c.change.Check()
		var ke *kernel.Error
		if !errors.As(err, &ke) || ke.Kind != kernel.KindInvalid || ke.Field != c.field {
			t.Errorf("%+v: %v, want invalid %s", c.change, err, c.field)
		}
	}
	c := Change{AccountID: "a", Line: LineCaptable, Plan: "STARTER", Source: SourceOperator}
	if err := c.Check(); err != nil || c.Plan != "starter" || c.Status != StatusActive {
		t.Fatalf("cap-table spelling: %+v %v", c, err)
	}
}

// The same plan again records nothing; a provider's report older than the
// last one applied records nothing; a newer one moves the plan.
func TestDecideIsIdempotentAndIgnoresStaleReports(t *testing.T) {
	var a Account
	first := Change{AccountID: "a", Line: LineGateway, Plan: "pro", Source: SourceSubscription, SubscriptionID: "sub_1",
		ProviderTime: t0}
	ev := a.Decide(first, t0)
	if ev == nil || ev.Plan != "pro" || ev.Status != StatusActive {
		t.Fatalf("first change: %+v", ev)
	}
	a.Apply(ev)
	if again := a.Decide(first, t0.Add(time.Minute)); again != nil {
		t.Fatalf("the same change again recorded %+v", again)
	}
	stale := first
	stale.Plan, stale.Status, stale.ProviderTime = "business", StatusCanceled, t0.Add(-time.Hour)
	if ev := a.Decide(stale, t0.Add(time.Minute)); ev != nil {
		t.Fatalf("a stale report recorded %+v", ev)
	}
	newer := first
	newer.Status, newer.ProviderTime = StatusCanceled, t0.Add(time.Hour)
	ev = a.Decide(newer, t0.Add(time.Hour))
	if ev == nil {
		t.Fatal("a newer cancellation recorded nothing")
	}
	a.Apply(ev)
	// An operator's change (no provider time) keeps the last provider time:
	// a report older than that still changes nothing afterwards.
	op := Change{AccountID: "a", Line: LineGateway, Plan: "enterprise", Source: SourceOperator}
	a.Apply(a.Decide(op, t0.Add(2*time.Hour)))
	if ev := a.Decide(stale, t0.Add(3*time.Hour)); ev != nil {
		t.Fatalf("a stale report after an operator's change recorded %+v", ev)
	}
	if a.Lines[LineGateway].Plan != "enterprise" {
		t.Fatalf("state %+v", a.Lines[LineGateway])
	}
}

// A cancelled subscription leaves the line's free plan, or none.
func TestEffectivePlan(t *testing.T) {
	p, ok := Effective(LineGateway, State{Plan: "pro", Status: StatusCanceled})
	if !ok || p.ID != "starter" || p.MonthlyCredits != 1000 || p.RequestsPerHour != 60 {
		t.Fatalf("cancelled gateway plan: %+v %v", p, ok)
	}
	if p, ok := Effective(LineGateway, State{Plan: "business", Status: StatusPastDue}); !ok || p.ID != "business" {
		t.Fatalf("past due keeps the plan: %+v %v", p, ok)
	}
	if p, ok := Effective(LineVoice, State{Plan: "pro", Status: StatusCanceled}); ok {
		t.Fatalf("voice has no free plan, got %+v", p)
	}
	if p, _ := Find(LineCaptable, "ENTERPRISE"); p.MonthlyCalls != Unlimited || p.CallsPerMinute != 1000 {
		t.Fatalf("cap-table enterprise %+v", p)
	}
}

// The catalog is built once; what Lines and FindLine return are copies, so
// a caller that changes them changes nothing for the next reader.
func TestTheCatalogCannotBeChangedThroughItsCopies(t *testing.T) {
	l, ok := FindLine(LineGateway)
	if !ok {
		t.Fatal("no gateway line")
	}
	l.Plans[0].RequestsPerHour = 1
	all := Lines()
	for i := range all {
		for j := range all[i].Plans {
			all[i].Plans[j].MonthlyCredits = -7
		}
	}
	p, ok := Find(LineGateway, "starter")
	if !ok || p.RequestsPerHour != 60 || p.MonthlyCredits != 1000 {
		t.Fatalf("the catalog changed through a copy: %+v", p)
	}
	if again, _ := FindLine(LineGateway); again.Plans[0].RequestsPerHour != 60 {
		t.Fatalf("FindLine after a copy's change: %+v", again.Plans[0])
	}
}
