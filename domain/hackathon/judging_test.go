package hackathon_test

import (
	"strings"
	"testing"

	"github.com/strata-platform/strata/domain/hackathon"
	"github.com/strata-platform/strata/domain/kernel"
)

// conflictWorld adds to judgedWorld: jb (builder of t1 and judge), jm
// (mentor of t1 and judge), jr (judge recused from s1) and jx (builder of
// t2 and judge: no conflict with s1).
func conflictWorld(t *testing.T) *world {
	t.Helper()
	w := judgedWorld(t)
	for _, u := range []string{"jb", "jx"} {
		w.join(u, builder)
		w.join(u, hackathon.RoleJudge)
	}
	w.join("jm", mentor)
	w.join("jm", hackathon.RoleJudge)
	w.join("jr", hackathon.RoleJudge)
	w.member("t1", "jb", builder)
	w.member("t1", "jm", mentor)
	w.member("t2", "jx", builder)
	w.must(w.h.Recuse("jr", "jr", "s1", "former colleague of b1", t0))
	return w
}

func TestRecordScoreConflictsOfInterest(t *testing.T) {
	tests := []struct {
		name, by, judge, sub string
		want                 kernel.Kind
		says                 string
	}{
		{name: "judge scores as themselves", by: "j1", judge: "j1", sub: "s1"},
		{name: "organiser enters a judge's score", by: org, judge: "j1", sub: "s1"},
		{name: "builder of another team", by: "jx", judge: "jx", sub: "s1"},
		{"judge as another judge", "j2", "j1", "s1", kernel.KindForbidden, "as themselves"},
		{"builder as a judge", "b1", "j1", "s1", kernel.KindForbidden, "as themselves"},
		{"mentor as a judge", "m1", "j1", "s1", kernel.KindForbidden, "as themselves"},
		{"judge is a builder of the team", "jb", "jb", "s1", kernel.KindForbidden, "jb is a member of team t1"},
		{"organiser for a conflicted judge", org, "jb", "s1", kernel.KindForbidden, "member of team t1"},
		{"judge mentors the team", "jm", "jm", "s1", kernel.KindForbidden, "jm mentors team t1"},
		{"recused judge", "jr", "jr", "s1", kernel.KindForbidden, "recused"},
		{"organiser for a recused judge", org, "jr", "s1", kernel.KindForbidden, "recused"},
		{"user not joined as judge", "b4", "b4", "s1", kernel.KindUnprocessable, "has not joined"},
		{"organiser for a non-judge", org, "m1", "s1", kernel.KindUnprocessable, "has not joined"},
		{"unknown submission", "j1", "j1", "s9", kernel.KindNotFound, "s9"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := conflictWorld(t)
			evs, err := w.h.RecordScore(tt.by, std16(tt.judge, tt.sub), t0)
			if tt.want != kernel.KindInternal {
				refused(t, evs, err, tt.want)
				mentions(t, err, tt.says)
				return
			}
			w.must(evs, err)
			ev := evs[0].(*hackathon.ScoreRecorded)
			if ev.JudgeID != tt.judge || ev.By != tt.by || ev.RubricID != "r1" || ev.Total != "16" || ev.Revision != 1 {
				t.Fatalf("score %+v", ev)
			}
		})
	}
}

func TestConflictedFollowsTheTeam(t *testing.T) {
	w := conflictWorld(t)
	if got := w.h.Conflicted("j1", "s1"); got != "" {
		t.Fatalf("j1: %q", got)
	}
	if got := w.h.Conflicted("jb", "s9"); got != "" {
		t.Fatalf("unknown submission: %q", got)
	}
	w.must(w.h.RemoveMember("jb", "t1", "jb", t0)) // jb leaves the team: still a conflict
	evs, err := w.h.RecordScore("jb", std16("jb", "s1"), t0)
	refused(t, evs, err, kernel.KindForbidden)
}

func TestRecuse(t *testing.T) {
	w := judgedWorld(t)
	evs, err := w.h.Recuse("j1", "j1", "s1", "  ", t0)
	refused(t, evs, err, kernel.KindInvalid)
	evs, err = w.h.Recuse("j2", "j1", "s1", "conflict", t0)
	refused(t, evs, err, kernel.KindForbidden)
	evs, err = w.h.Recuse("b1", "b1", "s1", "conflict", t0)
	refused(t, evs, err, kernel.KindUnprocessable)
	evs, err = w.h.Recuse("j1", "j1", "s9", "conflict", t0)
	refused(t, evs, err, kernel.KindNotFound)

	w.must(w.h.Recuse(org, "j1", "s1", "knows the team", t0))
	if !w.h.Recusals[hackathon.ScoreKey{SubmissionID: "s1", JudgeID: "j1"}] {
		t.Fatal("recusal not folded")
	}
	evs, err = w.h.Recuse("j1", "j1", "s1", "again", t0)
	noop(t, evs, err)
	evs, err = w.h.RecordScore("j1", std16("j1", "s1"), t0)
	refused(t, evs, err, kernel.KindForbidden)

	w.must(w.h.RecordScore("j2", std16("j2", "s1"), t0))
	evs, err = w.h.Recuse("j2", "j2", "s1", "too late", t0)
	refused(t, evs, err, kernel.KindConflict) // a recorded score stays
}

func TestRecordScoreNeedsAnActiveRubric(t *testing.T) {
	w := newWorld(t, nil)
	w.status(live)
	w.join("b1", builder)
	w.join("j1", hackathon.RoleJudge)
	w.team("b1", "t1", "Rocket")
	w.submit("b1", "s1", "t1")
	evs, err := w.h.RecordScore("j1", std16("j1", "s1"), t0)
	refused(t, evs, err, kernel.KindConflict)
	mentions(t, err, "no active rubric")
}

func TestRecordScoreChecksTheRubric(t *testing.T) {
	tests := []struct {
		name string
		in   hackathon.ScoreInput
		want kernel.Kind
		says string
	}{
		{"missing criterion", sc("j1", "s1", "11", "impact", "4", "design", "3"), kernel.KindUnprocessable, "scores.tech is missing"},
		{"extra key", sc("j1", "s1", "16", "impact", "4", "design", "3", "tech", "5", "fun", "5"), kernel.KindUnprocessable, "scores.fun"},
		{"above max", sc("j1", "s1", "17", "impact", "4", "design", "3", "tech", "6"), kernel.KindUnprocessable, "from 1 to 5"},
		{"below min", sc("j1", "s1", "11.5", "impact", "4", "design", "3", "tech", "0.5"), kernel.KindUnprocessable, "(got 0.5)"},
		{"three decimals", sc("j1", "s1", "16", "impact", "4", "design", "3.001", "tech", "5"), kernel.KindInvalid, "scores.design"},
		{"not a number", sc("j1", "s1", "16", "impact", "four", "design", "3", "tech", "5"), kernel.KindInvalid, "scores.impact"},
		{"no scores", sc("j1", "s1", "16"), kernel.KindInvalid, "impact, design, tech"},
		{"total mismatch", sc("j1", "s1", "12", "impact", "4", "design", "3", "tech", "5"), kernel.KindUnprocessable, "16 (got 12)"},
		{"total missing", sc("j1", "s1", "", "impact", "4", "design", "3", "tech", "5"), kernel.KindInvalid, "total_score"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := judgedWorld(t)
			evs, err := w.h.RecordScore("j1", tt.in, t0)
			refused(t, evs, err, tt.want)
			mentions(t, err, tt.says)
		})
	}
}

func TestScoreRevisions(t *testing.T) {
	w := judgedWorld(t)
	in := sc("j1", "s1", "16.004", "impact", "4.00", "design", "3", "tech", "5.0")
	evs := w.must(w.h.RecordScore("j1", in, t0))
	ev := evs[0].(*hackathon.ScoreRecorded)
	if ev.Total != "16" || ev.Revision != 1 || ev.Scores["impact"] != "4" || ev.Scores["tech"] != "5" {
		t.Fatalf("score %+v", ev)
	}
	evs, err := w.h.RecordScore("j1", std16("j1", "s1"), t0) // the same score, written differently
	noop(t, evs, err)

	in = sc("j1", "s1", "15.5", "impact", "4", "design", "2.5", "tech", "5")
	w.must(w.h.RecordScore(org, in, t0))
	in.Feedback = "Great demo"
	w.must(w.h.RecordScore("j1", in, t0))
	got := w.h.Scores[hackathon.ScoreKey{SubmissionID: "s1", JudgeID: "j1"}]
	if got.Revision != 3 || got.Total != "15.5" || got.Feedback != "Great demo" || got.By != "j1" {
		t.Fatalf("latest score %+v", got)
	}
	evs, err = w.h.RecordScore("j1", in, t0)
	noop(t, evs, err)
	in.Feedback = strings.Repeat("x", hackathon.MaxFeedback+1)
	evs, err = w.h.RecordScore("j1", in, t0)
	refused(t, evs, err, kernel.KindInvalid)
	mentions(t, err, "5000")
}

func TestRubricLifecycle(t *testing.T) {
	w := worldIn(t, live)
	evs, err := w.h.SaveRubric("stranger", "r1", true, stdRubric(), nil, false, t0)
	refused(t, evs, err, kernel.KindForbidden)
	evs, err = w.h.SaveRubric(org, "r1", false, stdRubric(), []string{"name"}, false, t0)
	refused(t, evs, err, kernel.KindNotFound)
	evs, err = w.h.SaveRubric(org, "r1", true, hackathon.Rubric{Name: "Empty"}, nil, false, t0)
	refused(t, evs, err, kernel.KindInvalid)

	evs = w.must(w.h.SaveRubric(org, "r1", true, stdRubric(), nil, false, t0))
	if len(evs) != 2 || evs[1].(*hackathon.RubricActivated).RubricID != "r1" || w.h.ActiveRubric != "r1" {
		t.Fatalf("the first rubric is not activated: %#v", evs)
	}
	if c := w.h.Rubrics["r1"].Criteria[1]; c.Weight != "1" || c.Min != "1" || c.Max != "5" || c.Name != "design" {
		t.Fatalf("stored criterion %+v", c)
	}
	evs = w.must(w.h.SaveRubric(org, "r2", true, stdRubric(), nil, false, t0))
	if len(evs) != 1 || w.h.ActiveRubric != "r1" {
		t.Fatalf("a second rubric changed the active one: %#v", evs)
	}
	evs, err = w.h.DeleteRubric(org, "r1", t0)
	refused(t, evs, err, kernel.KindConflict) // the active rubric
	evs = w.must(w.h.SaveRubric(org, "r2", false, stdRubric(), nil, true, t0))
	if len(evs) != 1 || w.h.ActiveRubric != "r2" {
		t.Fatalf("activation: %#v", evs)
	}
	w.must(w.h.DeleteRubric(org, "r1", t0))
	evs, err = w.h.DeleteRubric(org, "r1", t0)
	refused(t, evs, err, kernel.KindNotFound)
}

func TestActiveRubricFrozenOnceJudgingStarts(t *testing.T) {
	w := judgedWorld(t)
	w.rubric("r2", stdRubric())
	changed := stdRubric()
	changed.Criteria[0].Weight = "3"
	w.must(w.h.SaveRubric(org, "r1", false, changed, []string{"criteria"}, false, t0)) // before judging: allowed
	w.must(w.h.SaveRubric(org, "r1", false, stdRubric(), []string{"criteria"}, false, t0))
	w.must(w.h.RecordScore("j1", std16("j1", "s1"), t0))
	if !w.h.JudgingStarted() {
		t.Fatal("judging not started")
	}
	ladder := stdRubric()
	ladder.TieBreak = []string{"raw_mean", "id"}
	tests := []struct {
		name string
		id   string
		r    hackathon.Rubric
		chg  []string
		act  bool
	}{
		{"change the criteria", "r1", changed, []string{"criteria"}, false},
		{"change the ladder", "r1", ladder, []string{"tie_break"}, false},
		{"rename", "r1", stdRubric(), []string{"name"}, false},
		{"activate another", "r2", stdRubric(), nil, true},
		{"change and activate another", "r2", changed, []string{"criteria"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			evs, err := w.h.SaveRubric(org, tt.id, false, tt.r, tt.chg, tt.act, t0)
			refused(t, evs, err, kernel.KindConflict)
		})
	}
	evs, err := w.h.SaveRubric(org, "r3", true, stdRubric(), nil, true, t0)
	refused(t, evs, err, kernel.KindConflict)
	evs, err = w.h.DeleteRubric(org, "r1", t0)
	refused(t, evs, err, kernel.KindConflict)
	evs, err = w.h.SaveRubric(org, "r1", false, stdRubric(), nil, false, t0)
	noop(t, evs, err)
	w.must(w.h.SaveRubric(org, "r2", false, changed, []string{"criteria"}, false, t0)) // not the active one
	w.must(w.h.DeleteRubric(org, "r2", t0))
}
