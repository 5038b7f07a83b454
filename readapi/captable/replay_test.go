package captable_test

import (
	"context"
	cmd "github.com/strata-platform/strata/commands/captable"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/strata-platform/strata/domain/captable"
	"github.com/strata-platform/strata/domain/captable/num"
	"github.com/strata-platform/strata/domain/kernel"
	projcaptable "github.com/strata-platform/strata/projections/captable"
)

// TestReplayEqualsProjectionAtEveryDate runs random grant histories, in
// business-date order, and after every command compares the live read
// model (as it stood then, read for that day) with a replay of the store
// to that day: fully diluted, issued, pool, each class and each holder.
func TestReplayEqualsProjectionAtEveryDate(t *testing.T) {
	w := start(t)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(7, 11))
	checked, lastCompany := 0, ""
	for round := 0; round < 3; round++ {
		reg := w.register("P", "p"+string(rune('a'+round))+"@r.test", "R")
		me := reg.must(200, "GET", "/auth/me", nil).body
		company := str(me["companyId"])
		lastCompany = company
		do := func(d cmd.Decision) {
			t.Helper()
			app, err := w.svc.Do(ctx, company, d)
			if err != nil && kernel.KindOf(err) != kernel.KindInvalid {
				t.Fatal(err)
			}
			if err := w.svc.Settle(ctx, app.Last); err != nil {
				t.Fatal(err)
			}
		}
		now := w.svc.Now()
		mk := func(id, name, typ string, total int64) {
			do(func(c *captable.Company) ([]kernel.Event, error) {
				return c.CreateClass(id, captable.ClassInput{Name: &name, Type: &typ, TotalShares: ptr(num.Int(total))}, now)
			})
		}
		mk("c"+company, "Common", captable.ClassCommon, 100_000_000)
		mk("p"+company, "Plan", captable.ClassPool, 2_000_000)
		mk("a"+company, "Series A", captable.ClassPreferred, 5_000_000)
		var people, grants []string
		day := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
		for step := 0; step < 40; step++ {
			day = day.AddDate(0, 0, 1+rng.IntN(60))
			if day.After(now) {
				break
			}
			op := rng.IntN(6)
			switch {
			case len(people) < 2 || op == 0:
				id := w.svc.NewID()
				people = append(people, id)
				do(func(c *captable.Company) ([]kernel.Event, error) {
					return c.AddStakeholder(id, captable.StakeholderInput{Name: id[len(id)-4:], Type: captable.StakeholderEmployee}, now)
				})
			case op <= 2:
				id, holder := w.svc.NewID(), people[rng.IntN(len(people))]
				in := captable.GrantInput{StakeholderID: holder, Quantity: num.Int(int64(1 + rng.IntN(200_000))),
					VestingSchedule: []string{"4_YEAR_1_YEAR_CLIFF", "3_YEAR_MONTHLY", "IMMEDIATE"}[rng.IntN(3)],
					GrantDate:       captable.DayOf(day), ExerciseWindowDays: ptr(rng.IntN(120))}
				switch rng.IntN(3) {
				case 0:
					in.GrantType, in.ShareClassID, in.StrikePrice = captable.GrantOption, "p"+company, num.MustParse("0.25")
				case 1:
					in.GrantType, in.ShareClassID = captable.GrantRestrictedStock, "c"+company
				default:
					in.GrantType, in.ShareClassID = captable.GrantRestrictedStock, "a"+company
				}
				grants = append(grants, id)
				do(func(c *captable.Company) ([]kernel.Event, error) { return c.IssueGrant(id, in, now) })
			case len(grants) > 0:
				g := grants[rng.IntN(len(grants))]
				do(func(c *captable.Company) ([]kernel.Event, error) {
					switch op {
					case 3:
						if c.Grants[g].Status() == captable.StatusPending {
							return c.Accept(g, day, now)
						}
						return c.Exercise(g, num.Int(int64(1+rng.IntN(5000))), day, now)
					case 4:
						return c.Terminate(g, day, nil, now)
					}
					return c.Cancel(g, "test", day, now)
				})
			}
			live, err := projcaptable.Summary(ctx, w.platform.DB, company, day, 0)
			if err != nil {
				t.Fatal(err)
			}
			replayed, err := w.svc.Replay(ctx, company, day, time.Time{})
			if err != nil {
				t.Fatal(err)
			}
			want := replayed.Summary(day)
			if !live.FullyDiluted.Equal(want.FullyDiluted) || !live.TotalIssued.Equal(want.TotalIssued) ||
				!live.UnallocatedPool.Equal(want.UnallocatedPool) || len(live.Holders) != len(want.Holders) {
				t.Fatalf("round %d step %d (%s): live %+v\nreplay %+v", round, step, day.Format(time.DateOnly), live, want)
			}
			for i := range want.Classes {
				if !live.Classes[i].Shares.Equal(want.Classes[i].Shares) {
					t.Fatalf("step %d class %s: live %s replay %s", step, want.Classes[i].Name, live.Classes[i].Shares, want.Classes[i].Shares)
				}
			}
			for i := range want.Holders {
				if live.Holders[i].ID != want.Holders[i].ID || !live.Holders[i].Shares.Equal(want.Holders[i].Shares) {
					t.Fatalf("step %d holder %d: live %+v replay %+v", step, i, live.Holders[i], want.Holders[i])
				}
			}
			// Fully diluted = issued (as converted) + outstanding awards + unallocated pool.
			issued := num.Zero
			for _, c := range want.Classes {
				if c.Type == captable.ClassCommon || c.Type == captable.ClassPreferred {
					issued = issued.Add(c.Shares)
				}
			}
			if !want.FullyDiluted.Equal(issued.Add(want.OutstandingAwards).Add(want.UnallocatedPool)) {
				t.Fatalf("step %d: FD %s != issued %s + awards %s + pool %s", step, want.FullyDiluted, issued, want.OutstandingAwards, want.UnallocatedPool)
			}
			checked++
		}
	}
	final, err := w.svc.Replay(ctx, lastCompany, time.Time{}, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	statuses := map[string]int{}
	for _, g := range final.Grants {
		statuses[g.Status()]++
	}
	t.Logf("%d comparisons; last company's grants by status: %v", checked, statuses)
	if checked < 60 || len(statuses) < 3 {
		t.Fatalf("the random histories exercised too little: %d comparisons, statuses %v", checked, statuses)
	}
}

func ptr[T any](v T) *T { return &v }
