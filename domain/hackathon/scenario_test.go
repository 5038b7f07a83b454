package hackathon_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/domain/hackathon"
	"github.com/strata-platform/strata/domain/kernel"
)

// t0 is the fixed time every scenario runs at.
var t0 = time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)

const (
	hid = "h1"  // the hackathon of every scenario
	org = "org" // its creator, hence an organiser
)

// world is a hackathon built step by step: each decision's events are
// folded into h (Version bumped per event) and kept in log, in order.
type world struct {
	t   *testing.T
	h   *hackathon.Hackathon
	log []kernel.Event
}

func baseDetails(max *int) hackathon.Details {
	return hackathon.Details{Name: "Spring Hack", Description: "Build things", StartDate: t0.Add(24 * time.Hour),
		EndDate: t0.Add(72 * time.Hour), Location: "Lyon", MaxParticipants: max}
}

func intp(n int) *int { return &n }

// newWorld creates hackathon hid in DRAFT, organised by org.
func newWorld(t *testing.T, max *int) *world {
	t.Helper()
	w := &world{t: t, h: &hackathon.Hackathon{}}
	w.must(hackathon.Create(hid, org, baseDetails(max), t0))
	return w
}

// must folds a decision's events, failing the test when it was refused.
func (w *world) must(evs []kernel.Event, err error) []kernel.Event {
	w.t.Helper()
	if err != nil {
		w.t.Fatalf("decision refused: %v", err)
	}
	w.fold(evs...)
	return evs
}

func (w *world) fold(evs ...kernel.Event) {
	for _, e := range evs {
		w.h.Apply(e)
		w.h.Version++
		w.log = append(w.log, e)
	}
}

func (w *world) status(to string) { w.t.Helper(); w.must(w.h.SetStatus(org, to, t0)) }

func email(user string) string { return user + "@example.com" }
func token(user string) string { return "hash-of-token-" + user }

// invite records a judge invitation for user's address and token.
func (w *world) invite(user string) {
	w.t.Helper()
	w.must(w.h.InviteJudges(org, []hackathon.Invite{{InvitationID: "inv-" + user, Email: email(user), TokenHash: token(user)}}, t0))
}

// join gives user role; a judge is invited first.
func (w *world) join(user, role string) {
	w.t.Helper()
	j := hackathon.Joiner{UserID: user, Email: email(user)}
	if role == hackathon.RoleJudge && !w.h.IsOrganizer(user) {
		w.invite(user)
		j.TokenHash = token(user)
	}
	w.must(w.h.Join(j, role, t0))
}

func (w *world) team(by, id, name string) {
	w.t.Helper()
	w.must(w.h.CreateTeam(by, id, name, "", t0))
}

func (w *world) member(teamID, user, role string) {
	w.t.Helper()
	w.must(w.h.AddMember(org, teamID, user, role, t0))
}

func (w *world) submit(by, id, teamID string) {
	w.t.Helper()
	w.must(w.h.CreateSubmission(by, id, hackathon.Submission{TeamID: teamID, ProjectName: "Project " + id}, t0))
}

// stdRubric weighs impact 2, design 1, tech 1 on the default 1..5 scale:
// scores 4, 3, 5 total 16.
func stdRubric() hackathon.Rubric {
	return hackathon.Rubric{Name: "Standard", Criteria: []hackathon.Criterion{
		{Key: "impact", Weight: "2"}, {Key: "design"}, {Key: "tech"}}}
}

func (w *world) rubric(id string, r hackathon.Rubric) {
	w.t.Helper()
	w.must(w.h.SaveRubric(org, id, true, r, nil, false, t0))
}

// sc builds a score input from key, value pairs.
func sc(judge, sub, total string, kv ...string) hackathon.ScoreInput {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return hackathon.ScoreInput{SubmissionID: sub, JudgeID: judge, Scores: m, TotalScore: total}
}

// std16 is a valid score of stdRubric: 2×4 + 3 + 5 = 16.
func std16(judge, sub string) hackathon.ScoreInput {
	return sc(judge, sub, "16", "impact", "4", "design", "3", "tech", "5")
}

// judgedWorld is a LIVE hackathon with builders b1, b2 (team t1, which
// submitted s1), b3 (team t2, no submission), b4 (no team), mentor m1 of
// t1, judges j1 and j2 and the active rubric r1 (stdRubric).
func judgedWorld(t *testing.T) *world {
	t.Helper()
	w := newWorld(t, nil)
	w.status(hackathon.StatusLive)
	for _, b := range []string{"b1", "b2", "b3", "b4"} {
		w.join(b, hackathon.RoleBuilder)
	}
	w.join("m1", hackathon.RoleMentor)
	w.join("j1", hackathon.RoleJudge)
	w.join("j2", hackathon.RoleJudge)
	w.team("b1", "t1", "Rocket")
	w.member("t1", "b2", hackathon.RoleBuilder)
	w.member("t1", "m1", hackathon.RoleMentor)
	w.team("b3", "t2", "Comet")
	w.submit("b1", "s1", "t1")
	w.rubric("r1", stdRubric())
	return w
}

// refused checks that a decision failed with kind and produced no events.
func refused(t *testing.T, evs []kernel.Event, err error, kind kernel.Kind) {
	t.Helper()
	if err == nil {
		t.Fatalf("want a %v error, got none (events %d)", kind, len(evs))
	}
	if got := kernel.KindOf(err); got != kind {
		t.Fatalf("want kind %v, got %v: %v", kind, got, err)
	}
	if len(evs) != 0 {
		t.Fatalf("a refused decision returned %d events", len(evs))
	}
}

// noop checks that a decision succeeded without events.
func noop(t *testing.T, evs []kernel.Event, err error) {
	t.Helper()
	if err != nil || len(evs) != 0 {
		t.Fatalf("want no events and no error, got %d events, err %v", len(evs), err)
	}
}

// field returns the offending field of a kernel error.
func field(err error) string {
	var e *kernel.Error
	if errors.As(err, &e) {
		return e.Field
	}
	return ""
}

func mentions(t *testing.T, err error, want string) {
	t.Helper()
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v should mention %q", err, want)
	}
}
