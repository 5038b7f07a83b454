package reportfmt

import (
	"fmt"
	"testing"
	"time"

	"github.com/strata-platform/strata/domain/captable"
	"github.com/strata-platform/strata/domain/captable/num"
	"github.com/strata-platform/strata/domain/captable/reports"
	"github.com/strata-platform/strata/domain/kernel"
)

func on(s string) time.Time {
	d, ok := captable.ParseDay(s)
	if !ok {
		panic(s)
	}
	return d.Time
}

// entries is a small company's stream, recorded directly as events: a
// founder with an accented name, a stakeholder whose name looks like a
// spreadsheet formula, an employee who exercised, and extra option grants
// to make the ledger run over several pages.
func entries(extraGrants int) []reports.Entry {
	evs := []kernel.Event{
		&captable.CompanyCreated{CompanyID: "co", Name: "Zoë Robotics, Inc.", CreatedBy: "owner"},
		&captable.ShareClassCreated{ShareClass: captable.ShareClass{ID: "common", Name: "Common", Type: captable.ClassCommon,
			TotalShares: num.Int(10_000_000), At: on("2024-01-01")}},
		&captable.ShareClassCreated{ShareClass: captable.ShareClass{ID: "pool", Name: "2024 Plan", Type: captable.ClassPool,
			TotalShares: num.Int(1_000_000), At: on("2024-01-01")}},
		&captable.StakeholderAdded{Stakeholder: captable.Stakeholder{ID: "zoe", Name: "Zoë Ångström", Type: captable.StakeholderFounder}},
		&captable.StakeholderAdded{Stakeholder: captable.Stakeholder{ID: "bad", Name: "=HYPERLINK(\"http://x\")", Type: captable.StakeholderAdvisor}},
		&captable.StakeholderAdded{Stakeholder: captable.Stakeholder{ID: "eve", Name: "Eve Employee", Type: captable.StakeholderEmployee}},
		&captable.GrantIssued{Grant: grant("g1", "G-0001", "zoe", "common", captable.GrantRestrictedStock, 9_000_000, "0", "2024-01-01")},
		&captable.GrantIssued{Grant: grant("g2", "G-0002", "bad", "pool", captable.GrantOption, 50_000, "0.25", "2024-02-01")},
		&captable.GrantIssued{Grant: grant("g3", "G-0003", "eve", "pool", captable.GrantOption, 100_000, "0.25", "2024-03-01")},
		&captable.GrantAccepted{GrantID: "g3", On: on("2024-03-02")},
		&captable.ValuationRecorded{Valuation: captable.Valuation{ID: "v1", ValuationDate: on("2024-06-30"), Methodology: "409A",
			PricePerShare: num.MustParse("1.25")}},
		&captable.GrantExercised{GrantID: "g3", Quantity: num.Int(25_000), StrikePaid: num.MustParse("6250"), ShareClassID: "common", On: on("2024-09-01")},
	}
	for i := 0; i < extraGrants; i++ {
		id := fmt.Sprintf("x%d", i)
		evs = append(evs, &captable.GrantIssued{Grant: grant(id, fmt.Sprintf("X-%04d", i), "eve", "pool",
			captable.GrantOption, 100, "0.50", "2024-10-01")})
	}
	var out []reports.Entry
	for i, e := range evs {
		v := int64(i + 1)
		out = append(out, reports.Entry{Version: v, EventID: fmt.Sprintf("01JFIXTURE%016d", v), Type: e.EventType(),
			RecordedAt: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC), Event: e})
	}
	return out
}

func grant(id, number, holder, class, typ string, qty int64, price, date string) captable.Grant {
	return captable.Grant{ID: id, GrantNumber: number, StakeholderID: holder, ShareClassID: class, GrantType: typ,
		Quantity: num.Int(qty), StrikePrice: num.MustParse(price), VestingSchedule: "IMMEDIATE",
		VestingStartDate: on(date), GrantDate: on(date), ExerciseWindowDays: 90}
}

// report builds a report of the fixture as of 2024-12-31.
func report(t *testing.T, typ string, extraGrants int) reports.Report {
	t.Helper()
	r, err := reports.Build(entries(extraGrants), reports.Request{Type: typ, AsOf: on("2024-12-31"),
		GeneratedAt: time.Date(2025, 1, 2, 9, 30, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	return r
}
