package datamarket

import (
	"reflect"
	"testing"

	"github.com/strata-platform/strata/domain/kernel"
)

func published(v int, sha string) []kernel.Event {
	return []kernel.Event{&VersionStaged{Version: v, Provenance: Provenance{SHA256: sha}}, &VersionValidated{Version: v}, &VersionPublished{Version: v}}
}

func TestVersionStates(t *testing.T) {
	var evs []kernel.Event
	evs = append(evs, published(1, "a")...)
	evs = append(evs, &VersionStaged{Version: 2, Provenance: Provenance{SHA256: "b"}}, &VersionRejected{Version: 2})
	evs = append(evs, published(3, "c")...)
	s := Fold(evs)
	if s.Current != 3 || s.Last != 3 {
		t.Fatalf("current %d last %d", s.Current, s.Last)
	}
	for v, want := range map[int]string{1: StatusSuperseded, 2: StatusRejected, 3: StatusPublished} {
		if got := s.Status(s.Versions[v]); got != want {
			t.Errorf("v%d %s, want %s", v, got, want)
		}
	}
	if v, ok := s.Same("a"); !ok || v.Version != 1 {
		t.Errorf("the same file as v1: %v %v", v, ok)
	}
	if _, ok := s.Same("b"); ok {
		t.Error("a rejected file may be imported again")
	}
	if _, err := s.Retract("d", 2, "x"); kernel.KindOf(err) != kernel.KindConflict {
		t.Errorf("retracting a rejected version: %v", err)
	}
	cur, err := s.Retract("d", 3, "wrong file")
	if err != nil || cur != 1 {
		t.Fatalf("retract the current: %d %v, want readers on 1", cur, err)
	}
	s.Apply(&VersionRetracted{Version: 3, Current: cur})
	if s.Current != 1 || s.Status(s.Versions[3]) != StatusRetracted || s.Status(s.Versions[1]) != StatusPublished {
		t.Fatalf("after retraction: current %d", s.Current)
	}
	if got := s.Purgeable(3); !reflect.DeepEqual(got, []int{3}) {
		t.Errorf("purgeable %v: a retracted version's rows go", got)
	}
	evs = append(evs, &VersionRetracted{Version: 3, Current: 1})
	for v := 4; v <= 6; v++ {
		evs = append(evs, published(v, string(rune('c'+v)))...)
	}
	s = Fold(evs)
	if got := s.Purgeable(2); !reflect.DeepEqual(got, []int{1, 3, 4}) {
		t.Errorf("purgeable keeping 2: %v", got)
	}
}
