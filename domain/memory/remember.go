package memory

import (
	"sort"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/memory/extract"
)

// SingleValued is the default set of single-valued predicates: a subject
// holds one object of each at a time, so a new object supersedes the old
// one. Deployments extend it (STRATA_MEMORY_SINGLE_VALUED) and a relate
// call can force it (exclusive: true).
var SingleValued = []string{"works_at", "lives_in", "role", "title", "status", "reports_to", "married_to",
	"located_in", "employer", "age", "born_in"}

// Vocabulary says which predicates are single-valued.
type Vocabulary struct{ single map[string]bool }

// NewVocabulary returns the default single-valued predicates plus extra.
func NewVocabulary(extra ...string) Vocabulary {
	v := Vocabulary{single: map[string]bool{}}
	for _, p := range append(append([]string{}, SingleValued...), extra...) {
		if n, err := NormalizePredicate(p); err == nil {
			v.single[n] = true
		}
	}
	return v
}

// Exclusive reports whether predicate is single-valued.
func (v Vocabulary) Exclusive(predicate string) bool { return v.single[predicate] }

// List returns the single-valued predicates in order.
func (v Vocabulary) List() []string {
	out := make([]string, 0, len(v.single))
	for p := range v.single {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// SelfName is the entity first-person statements are about when a memory
// names no entity: the user whose store it is.
const SelfName = "user"

// ExtractedConfidence is the confidence of facts extracted from text.
const ExtractedConfidence = 0.7

// Remembered is the outcome of Remember.
type Remembered struct {
	MemoryID   string
	Merged     bool    // a near-duplicate existed: it was merged into it
	Similarity float64 // the near-duplicate's similarity, when merged
	Entities   []string
	Superseded []string // edges this memory's facts superseded
}

// Remember decides a new memory: a near-duplicate of a live memory in the
// same namespace about the same entity is merged into it; otherwise the
// memory is recorded with the entities it mentions (resolved against the
// user's graph, new ones recognised) and the facts it states, each fact
// settling its subject's timeline. in must have passed Check.
func (d *Decision) Remember(in RememberInput, vocab Vocabulary) Remembered {
	about := d.s.Lookup(in.EntityRef)
	self, selfKind := SelfName, extract.Person
	if in.EntityRef != "" {
		self, selfKind = in.EntityRef, extract.Classify(in.EntityRef)
		if about != nil && about.Name != "" {
			self, selfKind = about.Name, extract.Kind(about.Type)
		}
	}
	found := Facts(in.Content, extract.Options{Self: self, SelfKind: selfKind}, in.Model)
	names := make([]string, 0, len(found.Entities))
	for _, m := range found.Entities {
		names = append(names, m.Name)
	}
	if in.EntityRef == "" || about != nil {
		aboutID := ""
		if about != nil {
			aboutID = about.ID
		}
		if dup, sim := d.s.nearDuplicate(in.Namespace, aboutID, in.Content); dup != nil {
			imp := max(dup.Importance, in.Importance)
			d.emit(&MemoryMerged{MemoryID: dup.ID, UserID: d.s.UserID, Importance: imp, Similarity: sim, At: d.now,
				StatedAt: in.At,
				Text:     &MergedText{Variant: in.Content, Tags: in.Tags, Metadata: in.Metadata}})
			return Remembered{MemoryID: dup.ID, Merged: true, Similarity: sim, Entities: names}
		}
	}
	if in.EntityRef != "" && about == nil {
		about = d.entity(in.EntityRef, string(extract.Classify(in.EntityRef)), true, in.At)
	}
	var mentions []string
	seen := map[string]bool{}
	for _, m := range found.Entities {
		ent := d.aboutEntity(about, m.Name, string(m.Kind), in.At)
		if (about == nil || ent.ID != about.ID) && !seen[ent.ID] {
			seen[ent.ID] = true
			mentions = append(mentions, ent.ID)
		}
	}
	id := d.newID("mem")
	rem := &MemoryRemembered{MemoryID: id, UserID: d.s.UserID, Namespace: in.Namespace, MemoryType: in.MemoryType,
		Importance: in.Importance, Mentions: mentions, At: in.At,
		Text: &MemoryText{Content: in.Content, Tags: in.Tags, Metadata: in.Metadata}}
	if about != nil {
		rem.EntityID = about.ID
	}
	d.emit(rem)
	out := Remembered{MemoryID: id, Entities: names}
	for _, r := range found.Relations {
		out.Superseded = append(out.Superseded, d.extracted(r, id, about, in.At, vocab, false)...)
	}
	for _, r := range found.Ended { // "left Globex": the fact ended by the time this was stated
		out.Superseded = append(out.Superseded, d.extracted(r, id, about, in.At, vocab, true)...)
	}
	return out
}

// extracted records a relation the memory states as an edge (an ending one
// when ends: the fact had stopped holding by at) and settles its subject's
// timeline; it returns the edges this superseded.
func (d *Decision) extracted(r extract.Relation, memoryID string, about *Entity, at time.Time, vocab Vocabulary, ends bool) []string {
	subject := d.aboutEntity(about, r.Subject, string(r.SubjectKind), at)
	object := d.aboutEntity(about, r.Object, string(r.ObjectKind), at)
	pred, err := NormalizePredicate(r.Predicate)
	if err != nil || subject.ID == object.ID {
		return nil
	}
	edge := d.newID("edge")
	d.emit(&EdgeAsserted{EdgeID: edge, UserID: d.s.UserID, SubjectID: subject.ID, ObjectID: object.ID,
		Confidence: ExtractedConfidence, Exclusive: !ends && vocab.Exclusive(pred), Ends: ends, MemoryID: memoryID,
		ValidFrom: at, At: d.now, Text: &EdgeText{Predicate: pred}})
	return d.settleNew(subject.ID, pred, edge)
}

// settleNew settles a subject's timeline after edge was added and returns
// the edges it superseded.
func (d *Decision) settleNew(subject, predicate, edge string) []string {
	before := len(d.Events)
	d.settle(subject, predicate)
	var out []string
	for _, ev := range d.Events[before:] {
		if s, ok := ev.(*EdgeSuperseded); ok && s.ByEdgeID == edge {
			out = append(out, s.EdgeID)
		}
	}
	return out
}

// RelateInput is a fact stated directly.
type RelateInput struct {
	Subject, Predicate, Object string
	Confidence                 float64
	Exclusive                  *bool // nil: the vocabulary decides
	ValidFrom                  time.Time
}

// Check validates the input and fills defaults left empty (a zero
// ValidFrom is now).
func (in *RelateInput) Check(now time.Time) error {
	for _, f := range []struct{ name, v string }{{"subject", in.Subject}, {"object", in.Object}} {
		if err := checkName(f.name, f.v, true); err != nil {
			return err
		}
	}
	if _, err := NormalizePredicate(in.Predicate); err != nil {
		return err
	}
	if err := CheckUnit("confidence", in.Confidence); err != nil {
		return err
	}
	if in.ValidFrom.IsZero() {
		in.ValidFrom = now
	}
	if in.ValidFrom.After(now.Add(time.Minute)) {
		return kernel.Invalid("valid_from", "not_future", "valid_from cannot be in the future")
	}
	return nil
}

// Related is the outcome of Relate.
type Related struct {
	EdgeID, SubjectID, ObjectID, Predicate string
	Exclusive                              bool
	ValidFrom                              time.Time
	Superseded                             []string
}

// Relate records subject predicate object, valid from in.ValidFrom, and
// settles the subject's timeline. The fact is sealed under the subject's
// key.
func (d *Decision) Relate(in RelateInput, vocab Vocabulary) (Related, error) {
	pred, err := NormalizePredicate(in.Predicate)
	if err != nil {
		return Related{}, err
	}
	if s, o := d.s.Lookup(in.Subject), d.s.Lookup(in.Object); normName(in.Subject) == normName(in.Object) ||
		s != nil && s == o {
		return Related{}, kernel.Invalid("object", "distinct", "subject and object must be different entities")
	}
	subject := d.entity(in.Subject, string(extract.Classify(in.Subject)), true, in.ValidFrom)
	object := d.entity(in.Object, string(extract.Classify(in.Object)), true, in.ValidFrom)
	excl := vocab.Exclusive(pred)
	if in.Exclusive != nil {
		excl = *in.Exclusive
	}
	edge := d.newID("edge")
	d.emit(&EdgeAsserted{EdgeID: edge, UserID: d.s.UserID, SubjectID: subject.ID, ObjectID: object.ID,
		Confidence: in.Confidence, Exclusive: excl, ValidFrom: in.ValidFrom, At: d.now, Text: &EdgeText{Predicate: pred}})
	sup := d.settleNew(subject.ID, pred, edge)
	return Related{EdgeID: edge, SubjectID: subject.ID, ObjectID: object.ID, Predicate: pred, Exclusive: excl,
		ValidFrom: in.ValidFrom, Superseded: sup}, nil
}
