package hackathon_test

import (
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/domain/hackathon"
	"github.com/strata-platform/strata/domain/kernel"
)

// fullScenario decides a whole hackathon, producing every event type.
func fullScenario(t *testing.T) *world {
	t.Helper()
	w := newWorld(t, intp(50))
	name, online := "Spring Hack 2026", true
	w.must(w.h.Update(org, hackathon.DetailsPatch{Name: &name, IsOnline: &online}, t0))
	w.must(w.h.AddOrganizer(org, "o2", t0))
	w.must(w.h.AddOrganizer("o2", "o3", t0))
	w.must(w.h.RemoveOrganizer(org, "o3", t0))
	w.must(w.h.SaveTrack(org, "tr1", true, hackathon.TextPatch{"name": "AI", "color": "#F0A"}, t0))
	w.must(w.h.SaveTrack("o2", "tr1", false, hackathon.TextPatch{"description": "Models"}, t0))
	w.must(w.h.SaveTrack(org, "tr2", true, hackathon.TextPatch{"name": "Web"}, t0))
	w.must(w.h.DeleteTrack(org, "tr2", t0))
	w.must(w.h.SavePrize(org, "p1", true, hackathon.TextPatch{"name": "Best", "amount": "1000.50", "currency": "eur", "track_id": "tr1"}, t0))
	w.must(w.h.SavePrize(org, "p1", false, hackathon.TextPatch{"description": "Jury pick"}, t0))
	w.must(w.h.SavePrize(org, "p2", true, hackathon.TextPatch{"name": "Fun"}, t0))
	w.must(w.h.DeletePrize(org, "p2", t0))
	w.join("j1", hackathon.RoleJudge) // in DRAFT, by invitation
	w.must(w.h.Join(joiner(org), hackathon.RoleJudge, t0))
	w.invite("j9") // never accepted
	w.rubric("r1", stdRubric())
	w.rubric("r2", rubricOf(crit("a", "0.25", "0", "10")))
	w.must(w.h.SaveRubric(org, "r2", false, rubricOf(crit("a", "0.5", "0", "10")), []string{"criteria"}, true, t0))
	w.must(w.h.DeleteRubric(org, "r1", t0))
	w.status(hackathon.StatusLive)
	later := t0.Add(time.Hour) // times differ so their round trip is checked
	for _, u := range []string{"b1", "b2", "b3", "b4"} {
		w.must(w.h.Join(joiner(u), builder, later))
	}
	w.join("m1", mentor)
	w.join("j2", hackathon.RoleJudge)
	w.team("b1", "t1", "Rocket")
	w.must(w.h.UpdateTeam("b1", "t1", hackathon.TextPatch{"description": "Fast"}, later))
	w.member("t1", "b2", builder)
	w.member("t1", "m1", mentor)
	w.team("b3", "t2", "Comet")
	w.must(w.h.AddMember("b3", "t2", "b4", builder, later))
	w.must(w.h.RemoveMember("b4", "t2", "b4", later))
	w.team("b4", "t3", "Dust")
	w.must(w.h.DeleteTeam("b4", "t3", later))
	w.member("t2", "m1", mentor)
	w.must(w.h.CreateSubmission("b1", "s1", hackathon.Submission{TeamID: "t1", ProjectName: "Probe", TrackID: "tr1"}, later))
	w.must(w.h.UpdateSubmission("b2", "s1", hackathon.TextPatch{"description": "A probe"}, later))
	w.must(w.h.AttachFile("b1", "s1", hackathon.File{FileID: "f1", Name: "deck.pdf", ContentType: "application/pdf", Size: 1234, SHA256: strings.Repeat("ab", 32)}, later))
	w.submit("b3", "s2", "t2")
	w.must(w.h.DeleteSubmission("b3", "s2", later))
	w.submit("b3", "s3", "t2")
	w.must(w.h.RecordScore("j1", sc("j1", "s1", "4.5", "a", "9"), later))
	w.must(w.h.RecordScore(org, hackathon.ScoreInput{SubmissionID: "s1", JudgeID: "j1", Scores: map[string]string{"a": "8.75"}, TotalScore: "4.38", Feedback: "Solid\nwork"}, later))
	w.must(w.h.RecordScore("j2", sc("j2", "s3", "5", "a", "10"), later))
	w.must(w.h.Recuse("j2", "j2", "s1", "former colleague", later))
	w.must(w.h.NextPair("j1", later))
	w.must(w.h.NextPair("j1", later))
	w.must(w.h.VotePair("j1", "current", later))
	w.status(hackathon.StatusCompleted)
	return w
}

func foldAll(evs []kernel.Event) *hackathon.Hackathon {
	h := &hackathon.Hackathon{}
	for _, e := range evs {
		h.Apply(e)
		h.Version++
	}
	return h
}

func constructors() map[string]func() kernel.Event {
	m := map[string]func() kernel.Event{}
	for _, c := range hackathon.Events() {
		m[c().EventType()] = c
	}
	return m
}

// roundTrip marshals each event and reads it back into a fresh value from
// the registered constructors, as the event store does.
func roundTrip(t *testing.T, evs []kernel.Event) []kernel.Event {
	t.Helper()
	ctors := constructors()
	out := make([]kernel.Event, len(evs))
	for i, e := range evs {
		b, err := json.Marshal(e)
		if err != nil {
			t.Fatalf("marshal %s: %v", e.EventType(), err)
		}
		c, ok := ctors[e.EventType()]
		if !ok {
			t.Fatalf("%s is not registered in Events()", e.EventType())
		}
		out[i] = c()
		if err := json.Unmarshal(b, out[i]); err != nil {
			t.Fatalf("unmarshal %s: %v", e.EventType(), err)
		}
		if !reflect.DeepEqual(out[i], e) {
			t.Errorf("%s changed in its JSON round trip:\n got %#v\nwant %#v", e.EventType(), out[i], e)
		}
	}
	return out
}

func TestReplayGivesBackTheDecidedState(t *testing.T) {
	w := fullScenario(t)
	h := w.h
	if h.Version != int64(len(w.log)) || h.Status != hackathon.StatusCompleted || h.Builders != 4 || len(h.Teams) != 2 ||
		len(h.Submissions) != 2 || h.ActiveRubric != "r2" || len(h.Scores) != 2 || len(h.Recusals) != 1 ||
		h.Scores[hackathon.ScoreKey{SubmissionID: "s1", JudgeID: "j1"}].Revision != 2 || len(h.Invitations) != 3 ||
		!h.Accepted["inv-j1"] || h.Accepted["inv-j9"] {
		t.Fatalf("the scenario did not build what it should: %+v", h)
	}

	seen := map[string]bool{}
	for _, e := range w.log {
		seen[e.EventType()] = true
	}
	if want := slices.Sorted(maps.Keys(constructors())); !slices.Equal(slices.Sorted(maps.Keys(seen)), want) {
		t.Fatalf("the scenario covers %v, want every type %v", slices.Sorted(maps.Keys(seen)), want)
	}

	for name, replayed := range map[string]*hackathon.Hackathon{
		"fold":            foldAll(w.log),
		"JSON round trip": foldAll(roundTrip(t, w.log)),
	} {
		t.Run(name, func(t *testing.T) {
			if !reflect.DeepEqual(replayed, h) {
				t.Fatalf("replayed state differs:\n got %+v\nwant %+v", replayed, h)
			}
			for _, f := range []string{"Details", "Organizers", "Tracks", "Prizes", "Participants", "Invitations",
				"Accepted", "Teams", "TeamOf", "Submissions", "Rubrics", "Scores", "Recusals"} {
				got, want := reflect.ValueOf(replayed).Elem().FieldByName(f), reflect.ValueOf(h).Elem().FieldByName(f)
				if !reflect.DeepEqual(got.Interface(), want.Interface()) {
					t.Errorf("%s: got %+v, want %+v", f, got, want)
				}
			}
		})
	}
}

// TestReplayedStateDecidesAlike checks that decisions on a replayed
// LIVE state give the same answers as on the state built step by step.
func TestReplayedStateDecidesAlike(t *testing.T) {
	w := judgedWorld(t)
	w.must(w.h.RecordScore("j1", std16("j1", "s1"), t0))
	replayed := foldAll(roundTrip(t, w.log))
	probes := []func(h *hackathon.Hackathon) ([]kernel.Event, error){
		func(h *hackathon.Hackathon) ([]kernel.Event, error) { return h.Join(joiner("b9"), builder, t0) },
		func(h *hackathon.Hackathon) ([]kernel.Event, error) { return h.AddMember(org, "t2", "b1", builder, t0) },
		func(h *hackathon.Hackathon) ([]kernel.Event, error) {
			return h.CreateTeam("b4", "t9", "rocket", "", t0)
		},
		func(h *hackathon.Hackathon) ([]kernel.Event, error) {
			return h.RecordScore("j1", std16("j1", "s1"), t0)
		},
		func(h *hackathon.Hackathon) ([]kernel.Event, error) {
			return h.RecordScore("m1", std16("m1", "s1"), t0)
		},
		func(h *hackathon.Hackathon) ([]kernel.Event, error) {
			return h.RecordScore("j2", sc("j2", "s1", "15", "impact", "4", "design", "3", "tech", "4"), t0)
		},
		func(h *hackathon.Hackathon) ([]kernel.Event, error) { return h.DeleteSubmission("b1", "s1", t0) },
		func(h *hackathon.Hackathon) ([]kernel.Event, error) {
			return h.SaveRubric(org, "r1", false, stdRubric(), []string{"name"}, false, t0)
		},
	}
	for i, p := range probes {
		wantEvs, wantErr := p(w.h)
		gotEvs, gotErr := p(replayed)
		if !reflect.DeepEqual(gotEvs, wantEvs) || kernel.KindOf(gotErr) != kernel.KindOf(wantErr) {
			t.Errorf("probe %d: replayed gives %v, %v; built gives %v, %v", i, gotEvs, gotErr, wantEvs, wantErr)
		}
	}
}

func TestEventTypesAreUniqueAndNamespaced(t *testing.T) {
	ctors := hackathon.Events()
	types := map[string]bool{}
	goTypes := map[reflect.Type]bool{}
	for _, c := range ctors {
		e, again := c(), c()
		typ := e.EventType()
		if !strings.HasPrefix(typ, "hackathon.") || len(typ) == len("hackathon.") || strings.ToLower(typ) != typ {
			t.Errorf("event type %q: want hackathon.<lower_snake_case>", typ)
		}
		if types[typ] {
			t.Errorf("event type %q is registered twice", typ)
		}
		types[typ] = true
		rt := reflect.TypeOf(e)
		if rt.Kind() != reflect.Pointer || goTypes[rt] {
			t.Errorf("constructor of %q returns %v (want a pointer to a distinct struct)", typ, rt)
		}
		goTypes[rt] = true
		if e == again {
			t.Errorf("constructor of %q returns a shared value", typ)
		}
		if v := reflect.ValueOf(e).Elem().Interface().(kernel.Event); v.EventType() != typ {
			t.Errorf("value and pointer of %v disagree: %q vs %q", rt, v.EventType(), typ)
		}
	}
	if len(types) != 25 {
		t.Errorf("%d event types registered, want 25 (update this test when adding one)", len(types))
	}
}
