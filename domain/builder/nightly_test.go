package builder

import (
	"testing"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

func intp(n int) *int { return &n }

func TestEnrollValidationNamesTheField(t *testing.T) {
	at := time.Date(2025, 5, 1, 12, 0, 0, 0, time.UTC)
	ok := EnrollInput{CompanyName: "Acme", Track: TrackApp}
	for _, tc := range []struct {
		name        string
		edit        func(*EnrollInput)
		field, rule string
	}{
		{"no name", func(in *EnrollInput) { in.CompanyName = "  " }, "companyName", "required"},
		{"no track", func(in *EnrollInput) { in.Track = "" }, "track", "required"},
		{"bad track", func(in *EnrollInput) { in.Track = "startup" }, "track", "enum:app,company"},
		{"bad zone", func(in *EnrollInput) { in.TimeZone = "Mars/Olympus" }, "timeZone", "iana"},
		{"local zone", func(in *EnrollInput) { in.TimeZone = "Local" }, "timeZone", "iana"},
		{"bad start", func(in *EnrollInput) { in.Window = &Window{Start: "2am", End: "05:00"} }, "window.start", "format:HH:MM"},
		{"bad end", func(in *EnrollInput) { in.Window = &Window{Start: "02:00", End: "25:00"} }, "window.end", "format:HH:MM"},
		{"short window", func(in *EnrollInput) { in.Window = &Window{Start: "02:00", End: "02:30"} }, "window", "length:1h-12h"},
		{"long window", func(in *EnrollInput) { in.Window = &Window{Start: "18:00", End: "07:00"} }, "window", "length:1h-12h"},
		{"proposals over cap", func(in *EnrollInput) { in.Budget = &BudgetInput{MaxProposals: intp(21)} }, "budget.max_proposals", "range:0-20"},
		{"tokens negative", func(in *EnrollInput) { in.Budget = &BudgetInput{MaxTokens: intp(-1)} }, "budget.max_tokens", "range:0-200000"},
		{"seconds too few", func(in *EnrollInput) { in.Budget = &BudgetInput{MaxSeconds: intp(1)} }, "budget.max_seconds", "range:5-600"},
	} {
		in := ok
		tc.edit(&in)
		_, err := Enroll("chat_x", "u1", in, false, at)
		k, f, r := fieldOf(err)
		if k != kernel.KindInvalid || f != tc.field || r != tc.rule {
			t.Errorf("%s: %v %s %s (%v), want %s %s", tc.name, k, f, r, err, tc.field, tc.rule)
		}
	}
	e, err := Enroll("chat_x", "u1", ok, false, at)
	if err != nil || e.TimeZone != "UTC" || e.Window != DefaultWindow() || e.Budget != DefaultBudget() {
		t.Fatalf("defaults: %+v %v", e, err)
	}
	e, err = Enroll("chat_x", "u1", EnrollInput{CompanyName: "Acme", Track: TrackCompany, TimeZone: "America/Los_Angeles",
		Window: &Window{Start: "23:00", End: "01:30"}, Budget: &BudgetInput{MaxProposals: intp(0)}}, true, at)
	if err != nil || e.Budget.MaxProposals != 0 || e.Budget.MaxDrafts != DefaultBudget().MaxDrafts || !e.Updated {
		t.Fatalf("custom: %+v %v", e, err)
	}
}

func TestWindowAtAcrossMidnightAndZones(t *testing.T) {
	e := &NightlyEnrolled{TimeZone: "America/Los_Angeles", Window: Window{Start: "23:00", End: "01:30"}}
	// 2025-05-02 07:30 UTC is 00:30 PDT on May 2: inside the window of May 1.
	n, inside := e.WindowAt(time.Date(2025, 5, 2, 7, 30, 0, 0, time.UTC))
	if !inside || n.Night != "2025-05-01" || !n.Start.Equal(time.Date(2025, 5, 2, 6, 0, 0, 0, time.UTC)) ||
		!n.End.Equal(time.Date(2025, 5, 2, 8, 30, 0, 0, time.UTC)) {
		t.Fatalf("inside: %+v %v", n, inside)
	}
	// 12:00 UTC is 05:00 PDT: the next window starts at 23:00 PDT.
	n, inside = e.WindowAt(time.Date(2025, 5, 2, 12, 0, 0, 0, time.UTC))
	if inside || n.Night != "2025-05-02" || !n.Start.Equal(time.Date(2025, 5, 3, 6, 0, 0, 0, time.UTC)) {
		t.Fatalf("next: %+v %v", n, inside)
	}
	// The spring-forward night: 02:00-05:00 in Los Angeles on 2026-03-08
	// lasts two hours of real time (02:00 does not exist; it starts at 03:00).
	e = &NightlyEnrolled{TimeZone: "America/Los_Angeles", Window: DefaultWindow()}
	n, _ = e.WindowAt(time.Date(2026, 3, 8, 9, 0, 0, 0, time.UTC))
	if n.Night != "2026-03-08" || n.End.Sub(n.Start) != 2*time.Hour {
		t.Fatalf("spring forward: %+v (%s)", n, n.End.Sub(n.Start))
	}
	// NextRun: now inside an unreported night; the next night once reported.
	e = &NightlyEnrolled{TimeZone: "UTC", Window: DefaultWindow()}
	now := time.Date(2025, 5, 1, 3, 0, 0, 0, time.UTC)
	if got := e.NextRun(now, func(string) bool { return false }); !got.Equal(now) {
		t.Fatalf("due now: %s", got)
	}
	if got := e.NextRun(now, func(n string) bool { return n == "2025-05-01" }); !got.Equal(time.Date(2025, 5, 2, 2, 0, 0, 0, time.UTC)) {
		t.Fatalf("after the report: %s", got)
	}
}

func TestProposeCapsAndOrder(t *testing.T) {
	f := NightlyFound{
		Systems: []SystemCount{{ID: "crm", Counts: map[string]int{"total": 0}}},
		Deploy: DeployFound{HasVersion: true, CurrentVersionID: "v2", Deployed: true, VersionID: "v1",
			LastFailure: &DeployFailure{VersionID: "v2", Reason: "no listener"}},
		Secrets:   SecretsFound{Missing: []string{"API_KEY", "APP_WRITE_TOKEN"}},
		Artifacts: ArtifactsFound{Recorded: true, Views: []ArtifactSeen{{View: "prd", Stale: true, Reason: "old"}, {View: "thesis"}}},
		Ask:       AskFound{Open: []OpenQuestion{{Text: "What is our churn?"}}},
	}
	all, dropped := Propose(f, Budget{MaxProposals: 20})
	var kinds []string
	for _, p := range all {
		kinds = append(kinds, p.Kind)
	}
	want := []string{ProposeFixDeploy, ProposeSetSecret, ProposeSetSecret, ProposeRedeploy, ProposeRegenerate, ProposeAnswerQuestion, ProposeConnectSystems}
	if dropped != 0 || len(kinds) != len(want) {
		t.Fatalf("kinds %v dropped %d", kinds, dropped)
	}
	for i := range want {
		if kinds[i] != want[i] {
			t.Fatalf("kinds %v, want %v", kinds, want)
		}
	}
	if !all[0].RequiresApproval || !all[1].RequiresApproval || !all[3].RequiresApproval || all[4].RequiresApproval {
		t.Fatalf("approvals: %+v", all)
	}
	capped, dropped := Propose(f, Budget{MaxProposals: 3})
	if len(capped) != 3 || dropped != 4 || capped[2].ID != "p3" {
		t.Fatalf("capped %+v dropped %d", capped, dropped)
	}
	none, dropped := Propose(f, Budget{})
	if len(none) != 0 || none == nil || dropped != 7 {
		t.Fatalf("zero budget: %+v %d", none, dropped)
	}
}
