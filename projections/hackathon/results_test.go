package hackathon_test

import (
	"context"
	stdsql "database/sql"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	cmd "github.com/strata-platform/strata/commands/hackathon"
	"github.com/strata-platform/strata/domain/hackathon"
	"github.com/strata-platform/strata/domain/hackathon/judging"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/pgtest"
	"github.com/strata-platform/strata/projections"
	projhackathon "github.com/strata-platform/strata/projections/hackathon"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

func start(t *testing.T) (*stdsql.DB, *cmd.Service) {
	t.Helper()
	db := pgtest.DB(t)
	reg := eventstore.NewRegistry()
	for _, c := range hackathon.Events() {
		if err := reg.Register(eventstore.EventDef{Name: c().EventType(), Version: 1, New: c}); err != nil {
			t.Fatal(err)
		}
	}
	if err := reg.Seal(); err != nil {
		t.Fatal(err)
	}
	clock := kernel.NewFixedClock(time.Date(2031, 3, 4, 9, 0, 0, 0, time.UTC))
	store := eventstore.New(db.SQL, reg, clock, eventstore.NewULIDs(clock))
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	wake := projections.NewSignal()
	runner, err := projections.NewRunner(db.SQL, reg, wake, logger, projections.Config{PollInterval: 5 * time.Millisecond},
		projhackathon.Projector{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done, notified := make(chan struct{}), make(chan struct{})
	go func() { defer close(done); runner.Run(ctx) }()
	go func() { defer close(notified); store.RunNotifier(ctx, wake.Fire) }()
	t.Cleanup(func() { cancel(); <-done; <-notified })
	wait := func(ctx context.Context, key eventstore.Key) error {
		wctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		defer cancel()
		return runner.WaitFor(wctx, key, projhackathon.Name)
	}
	return db.SQL, cmd.New(store, clock, logger, cmd.Config{Wait: wait})
}

// TestKeptResultsEqualNormalise: after random scores and revisions by
// judges with very different habits (one with zero spread, one with two
// scores), every submission's kept raw mean and z-score mean equal, bit for
// bit, what judging.Normalise computes over the final scores.
func TestKeptResultsEqualNormalise(t *testing.T) {
	db, svc := start(t)
	ctx := context.Background()
	const org = "org"
	do := func(id string, d func(h *hackathon.Hackathon) ([]kernel.Event, error)) {
		t.Helper()
		if _, err := svc.Do(ctx, id, org, false, d); err != nil {
			t.Fatal(err)
		}
	}
	id, err := svc.Create(ctx, org, hackathon.Details{Name: "H", StartDate: time.Now(), EndDate: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	now := svc.Now()
	do(id, func(h *hackathon.Hackathon) ([]kernel.Event, error) {
		return h.SetStatus(org, hackathon.StatusLive, now)
	})
	do(id, func(h *hackathon.Hackathon) ([]kernel.Event, error) {
		return h.SaveRubric(org, cmd.NewID(), true, hackathon.Rubric{Name: "R", Criteria: []hackathon.Criterion{
			{Key: "impact", Weight: "3"}, {Key: "craft", Weight: "1.5"}}}, nil, false, now)
	})
	judges := []string{"judge-a", "judge-b", "judge-c", "judge-d", "judge-flat", "judge-few"}
	for _, j := range judges {
		do(id, func(h *hackathon.Hackathon) ([]kernel.Event, error) { return h.AddOrganizer(org, j, now) })
		do(id, func(h *hackathon.Hackathon) ([]kernel.Event, error) {
			return h.Join(hackathon.Joiner{UserID: j}, hackathon.RoleJudge, now)
		})
	}
	var subs []string
	for i := range 12 {
		b := "builder-" + strconv.Itoa(i)
		team, sub := cmd.NewID(), cmd.NewID()
		do(id, func(h *hackathon.Hackathon) ([]kernel.Event, error) {
			return h.Join(hackathon.Joiner{UserID: b}, hackathon.RoleBuilder, now)
		})
		do(id, func(h *hackathon.Hackathon) ([]kernel.Event, error) { return h.CreateTeam(b, team, "Team "+b, "", now) })
		do(id, func(h *hackathon.Hackathon) ([]kernel.Event, error) {
			return h.CreateSubmission(b, sub, hackathon.Submission{TeamID: team, ProjectName: "P" + b}, now)
		})
		subs = append(subs, sub)
	}
	rng := rand.New(rand.NewPCG(7, 11))
	score := func(j, s string, impact, craft int) {
		total := fmt.Sprintf("%g", 3*float64(impact)+1.5*float64(craft))
		do(id, func(h *hackathon.Hackathon) ([]kernel.Event, error) {
			return h.RecordScore(j, hackathon.ScoreInput{SubmissionID: s, JudgeID: j, TotalScore: total,
				Scores: map[string]string{"impact": strconv.Itoa(impact), "craft": strconv.Itoa(craft)}}, now)
		})
	}
	for round := range 2 { // the second round revises about half
		for _, s := range subs {
			for _, j := range judges[:4] {
				if round == 0 || rng.IntN(2) == 0 {
					score(j, s, 1+rng.IntN(5), 1+rng.IntN(5))
				}
			}
		}
	}
	for _, s := range subs[:5] {
		score("judge-flat", s, 3, 3)
	}
	score("judge-few", subs[0], 5, 5)
	score("judge-few", subs[1], 1, 2)

	h := foldOf(ctx, t, svc, id)
	var all []judging.Score
	for k, s := range h.Scores {
		all = append(all, judging.Score{SubmissionID: k.SubmissionID, JudgeID: k.JudgeID, Total: hackathon.DecimalFloat(s.Total)})
	}
	want := map[string]judging.Result{}
	for _, r := range judging.Normalise(all) {
		want[r.SubmissionID] = r
	}
	rows, err := db.QueryContext(ctx, `SELECT submission_id, n, raw_mean, z_mean FROM rm_hackathon_v1.results WHERE hackathon_id = $1`, id)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	seen := 0
	for rows.Next() {
		var r judging.Result
		if err := rows.Scan(&r.SubmissionID, &r.N, &r.RawMean, &r.ZMean); err != nil {
			t.Fatal(err)
		}
		seen++
		if w := want[r.SubmissionID]; r != w {
			t.Errorf("kept %+v, Normalise gives %+v", r, w)
		}
	}
	if seen != len(subs) {
		t.Errorf("%d results kept, want %d", seen, len(subs))
	}
}

func foldOf(ctx context.Context, t *testing.T, svc *cmd.Service, id string) *hackathon.Hackathon {
	t.Helper()
	var out hackathon.Hackathon
	if err := svc.View(ctx, id, "org", func(h *hackathon.Hackathon) error {
		out = hackathon.Hackathon{Scores: map[hackathon.ScoreKey]hackathon.ScoreRecorded{}}
		for k, v := range h.Scores {
			out.Scores[k] = v
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return &out
}
