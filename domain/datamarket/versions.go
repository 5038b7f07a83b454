package datamarket

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/strata-platform/strata/domain/kernel"
)

// Version statuses. A published version that is no longer current is
// superseded; it can still be read with ?version= until purged.
const (
	StatusStaged     = "staged"
	StatusPublished  = "published"
	StatusSuperseded = "superseded"
	StatusRejected   = "rejected"
	StatusRetracted  = "retracted"
	StatusPurged     = "purged"
)

// VersionState is one version as its events leave it.
type VersionState struct {
	Version   int
	SHA256    string
	Published bool
	Rejected  bool
	Retracted bool
	Purged    bool
}

// State is a dataset's versions folded from its stream.
type State struct {
	Versions map[int]*VersionState
	Current  int
	Last     int
}

// Fold builds a dataset's state from its events in order.
func Fold(events []kernel.Event) *State {
	s := &State{Versions: map[int]*VersionState{}}
	for _, e := range events {
		s.Apply(e)
	}
	return s
}

// Apply folds one event.
func (s *State) Apply(e kernel.Event) {
	switch ev := e.(type) {
	case *VersionStaged:
		s.Versions[ev.Version] = &VersionState{Version: ev.Version, SHA256: ev.Provenance.SHA256}
		s.Last = max(s.Last, ev.Version)
	case *VersionPublished:
		if v := s.Versions[ev.Version]; v != nil {
			v.Published = true
		}
		s.Current = ev.Version
	case *VersionRejected:
		if v := s.Versions[ev.Version]; v != nil {
			v.Rejected = true
		}
	case *VersionRetracted:
		if v := s.Versions[ev.Version]; v != nil {
			v.Retracted = true
		}
		s.Current = ev.Current
	case *VersionPurged:
		if v := s.Versions[ev.Version]; v != nil {
			v.Purged = true
		}
	}
}

// Status is a version's status.
func (s *State) Status(v *VersionState) string {
	switch {
	case v.Retracted:
		return StatusRetracted
	case v.Purged:
		return StatusPurged
	case v.Rejected:
		return StatusRejected
	case v.Published && v.Version == s.Current:
		return StatusPublished
	case v.Published:
		return StatusSuperseded
	}
	return StatusStaged
}

// Same returns the version already made from a file of this checksum, if
// any: the same file makes no new version (a retracted one included:
// retracting says the file is wrong; importing it again changes nothing).
func (s *State) Same(sha256 string) (*VersionState, bool) {
	for _, v := range s.sorted() {
		if v.SHA256 == sha256 && !v.Rejected {
			return v, true
		}
	}
	return nil, false
}

func (s *State) sorted() []*VersionState {
	out := make([]*VersionState, 0, len(s.Versions))
	for _, v := range s.Versions {
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Version < out[j].Version })
	return out
}

// MaxReason is the longest retraction reason.
const MaxReason = 500

// Retract decides a retraction of version v: it must be published (the
// current version or a superseded one). Readers of the dataset move to
// the newest other published version still readable, or to none.
func (s *State) Retract(dataset string, v int, reason string) (int, error) {
	reason = strings.TrimSpace(reason)
	if reason == "" {
		return 0, kernel.Invalid("reason", "required", "a retraction needs a reason")
	}
	if utf8.RuneCountInString(reason) > MaxReason {
		return 0, kernel.Invalid("reason", "max_length", fmt.Sprintf("reason has at most %d characters", MaxReason))
	}
	vs := s.Versions[v]
	if vs == nil {
		return 0, kernel.NotFound(fmt.Sprintf("%s has no version %d", dataset, v))
	}
	if st := s.Status(vs); st != StatusPublished && st != StatusSuperseded {
		return 0, kernel.Conflict(fmt.Sprintf("%s version %d is %s; only a published version can be retracted", dataset, v, st), nil)
	}
	current := s.Current
	if current == v {
		current = 0
		for _, o := range s.sorted() {
			if o.Version != v && o.Published && !o.Retracted && !o.Purged {
				current = o.Version
			}
		}
	}
	return current, nil
}

// Purgeable lists the versions whose rows retention deletes once version
// `current` is published: every readable version but the newest keep
// published ones (retracted versions' rows go at once).
func (s *State) Purgeable(keep int) []int {
	var published, out []int
	for _, v := range s.sorted() {
		switch {
		case v.Purged || v.Rejected || !v.Published:
		case v.Retracted:
			out = append(out, v.Version)
		default:
			published = append(published, v.Version)
		}
	}
	if len(published) > keep {
		for _, v := range published[:len(published)-keep] {
			if v != s.Current {
				out = append(out, v)
			}
		}
	}
	sort.Ints(out)
	return out
}

// TableName is the row table of a dataset's version in schema data_rows.
func TableName(dataset string, version int) string {
	return fmt.Sprintf("%s_v%d", strings.ReplaceAll(dataset, "-", "_"), version)
}
