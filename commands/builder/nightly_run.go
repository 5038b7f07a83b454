package builder

import (
	"context"
	stdsql "database/sql"
	"fmt"
	"time"

	"github.com/strata-platform/strata/domain/builder"
	"github.com/strata-platform/strata/domain/kernel"
)

// OfflineNote is what an offline report says about itself.
const OfflineNote = "No model is configured for the builder, so this run made the checks only: it wrote no draft and spent no model " +
	"tokens; its proposals are computed from what the checks found."

// approvalNote says what a run never does.
const approvalNote = "Nothing was redeployed, no secret was written and no message was sent: proposals that require approval wait " +
	"for the founder, who acts through the route each names."

// RunNow runs the company's nightly loop now, on demand (strata builder
// nightly): a manual run, reported like a scheduled one but not counted
// as the night's run (the scheduled run still happens). The company must
// be enrolled (404 otherwise: nothing says its budget).
func (n *Nightly) RunNow(ctx context.Context, companyID string) (builder.NightlyReported, error) {
	if err := checkCompanyID(companyID); err != nil {
		return builder.NightlyReported{}, err
	}
	st, err := n.Load(ctx, companyID)
	if err != nil {
		return builder.NightlyReported{}, err
	}
	if st.Enrollment == nil {
		return builder.NightlyReported{}, kernel.NotFound(fmt.Sprintf("company %s is not enrolled in the nightly loop (POST /api/build/enroll)", companyID))
	}
	w, _ := st.Enrollment.WindowAt(n.cfg.Clock.Now())
	rep, _, err := n.run(ctx, companyID, builder.NightlyManual, w.Night, nil)
	return rep, err
}

// run is one run: the read phase, the proposals within the budget, then
// the report appended (with complete, a job's completion, in the same
// transaction). A scheduled run of a night that already has its report is
// not run again (dup true; checked again under the company's lock before
// the append, so two attempts never both report).
func (n *Nightly) run(ctx context.Context, companyID, trigger, night string, complete func(*stdsql.Tx) error) (builder.NightlyReported, bool, error) {
	st, err := n.Load(ctx, companyID)
	if err != nil {
		return builder.NightlyReported{}, false, err
	}
	if st.Enrollment == nil {
		return builder.NightlyReported{}, false, kernel.NotFound("company " + companyID + " is not enrolled in the nightly loop")
	}
	if trigger == builder.NightlyScheduled && st.Reported(night) {
		return n.alreadyReported(st, night), true, nil
	}
	b := st.Enrollment.Budget
	start := n.cfg.Clock.Now()
	rctx, cancel := context.WithTimeout(ctx, time.Duration(b.MaxSeconds)*time.Second)
	found, failed := n.read(rctx, companyID)
	cancel()
	proposed, dropped := builder.Propose(found, b)
	rep := builder.NightlyReported{ReportID: "rep_" + n.cfg.IDs.NewID(), CompanyID: companyID, Night: night, Trigger: trigger,
		Mode: builder.NightlyOffline, Budget: b, Found: found, Proposed: proposed, Dropped: dropped, Failed: failed,
		Notes: []string{OfflineNote, approvalNote}, StartedAt: start}
	if dropped > 0 {
		rep.Notes = append(rep.Notes, fmt.Sprintf("%d more proposals were left out: the budget allows %d per run (max_proposals).", dropped, b.MaxProposals))
	}
	if rep.Failed == nil {
		rep.Failed = []builder.CheckFailure{}
	}
	dup := false
	err = n.cfg.Store.InTx(ctx, func(tx *stdsql.Tx) error {
		dup = false
		if err := lockCompany(ctx, tx, "builder.nightly", companyID); err != nil {
			return err
		}
		now, err := n.Load(ctx, companyID)
		if err != nil {
			return err
		}
		if trigger == builder.NightlyScheduled && now.Reported(night) {
			dup = true
			rep = n.alreadyReported(now, night)
		} else {
			rep.FinishedAt = n.cfg.Clock.Now()
			rep.Spent = builder.NightlySpent{Proposals: len(rep.Proposed), DurationMS: rep.FinishedAt.Sub(start).Milliseconds()}
			if _, err := n.cfg.Store.AppendTx(ctx, tx, nightlyStream(companyID), now.Version, &rep); err != nil {
				return err
			}
		}
		if complete != nil {
			return complete(tx)
		}
		return nil
	})
	if err != nil {
		return builder.NightlyReported{}, false, fmt.Errorf("report the nightly run of %s: %w", companyID, err)
	}
	return rep, dup, nil
}

func (n *Nightly) alreadyReported(st *builder.Nightly, night string) builder.NightlyReported {
	for i := len(st.Reports) - 1; i >= 0; i-- {
		if r := st.Reports[i]; r.Trigger == builder.NightlyScheduled && r.Night == night {
			return r
		}
	}
	return builder.NightlyReported{}
}

// RunAll runs every enrolled company's loop now (manual runs), one after
// another; a company whose run fails is reported in errs and the others
// still run.
func (n *Nightly) RunAll(ctx context.Context) (reports []builder.NightlyReported, errs map[string]error, err error) {
	enrolled, err := n.Enrolled(ctx)
	if err != nil {
		return nil, nil, err
	}
	errs = map[string]error{}
	for _, e := range enrolled {
		rep, err := n.RunNow(ctx, e.CompanyID)
		if err != nil {
			errs[e.CompanyID] = err
			continue
		}
		reports = append(reports, rep)
	}
	return reports, errs, nil
}

// RunNight runs the scheduled run of night for the company, as its job
// does (without the job): dup is true, and nothing is appended, when that
// night already has its report.
func (n *Nightly) RunNight(ctx context.Context, companyID, night string) (builder.NightlyReported, bool, error) {
	return n.run(ctx, companyID, builder.NightlyScheduled, night, nil)
}
