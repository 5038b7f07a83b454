package memorybench

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"time"

	"github.com/google/uuid"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/memory"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/readapi/memory/memorybench/corpus"
)

// labels index the corpus for measuring, and map corpus memories to the
// stored memories loading produced.
type labels struct {
	idx     map[string]int32  // corpus memory id → index in Memories
	entName map[string]string // corpus entity id → name
	group   []int32           // per memory: its original (itself for an original)
	dups    map[int32][]int32 // original → its duplicates
	until   []time.Time       // per fact memory: when its value stopped being valid (zero: still valid)

	// filled by load
	stored  []string           // per corpus memory: the stored memory id
	members map[string][]int32 // stored memory id → corpus memories in it, the one that created it first
	merged  int                // corpus memories merged into an existing memory
}

func newLabels(c corpus.Corpus) *labels {
	l := &labels{idx: make(map[string]int32, len(c.Memories)), entName: map[string]string{},
		group: make([]int32, len(c.Memories)), dups: map[int32][]int32{}, until: make([]time.Time, len(c.Memories))}
	for _, e := range c.Entities {
		l.entName[e.ID] = e.Name
	}
	for i, m := range c.Memories {
		l.idx[m.ID] = int32(i)
	}
	starts := map[string][]time.Time{} // subject|predicate → the chain's ValidFrom times
	for i, m := range c.Memories {
		l.group[i] = int32(i)
		if m.DuplicateOf != "" {
			o := l.idx[m.DuplicateOf]
			l.group[i] = o
			l.dups[o] = append(l.dups[o], int32(i))
		}
		if m.Fact != nil {
			k := m.Fact.Subject + "|" + m.Fact.Predicate
			starts[k] = append(starts[k], m.Fact.ValidFrom)
		}
	}
	for _, ts := range starts {
		sort.Slice(ts, func(i, j int) bool { return ts[i].Before(ts[j]) })
	}
	for i, m := range c.Memories {
		if m.Fact == nil {
			continue
		}
		for _, t := range starts[m.Fact.Subject+"|"+m.Fact.Predicate] {
			if t.After(m.Fact.ValidFrom) {
				l.until[i] = t
				break
			}
		}
	}
	return l
}

// validAt reports whether corpus memory i states no fact or a fact valid at t.
func (b *bench) validAt(i int32, t time.Time) bool {
	f := b.c.Memories[i].Fact
	return f == nil || !t.Before(f.ValidFrom) && (b.lab.until[i].IsZero() || t.Before(b.lab.until[i]))
}

// input is corpus memory i as a remember call: its business time, namespace,
// type, importance, and its entity's name as entity_id.
func (b *bench) input(i int) memory.RememberInput {
	m := &b.c.Memories[i]
	return memory.RememberInput{Content: m.Content, EntityRef: b.lab.entName[m.EntityID], MemoryType: m.MemoryType,
		Importance: m.Importance, Namespace: m.Namespace, At: m.CreatedAt}
}

// load remembers every corpus memory for the bench user, in CreatedAt
// order, o.Chunk per RememberMany call, each call waiting for the read
// model; then it measures the baseline and loads the recall index.
func (b *bench) load(ctx context.Context) ([]Figure, error) {
	o, n := b.o, len(b.c.Memories)
	l := b.lab
	l.stored, l.members = make([]string, n), make(map[string][]int32, n)
	ctx = eventstore.WithMetadata(ctx, eventstore.Metadata{Actor: benchUser})
	o.Logf("loading %d memories through RememberMany, %d per call ...", n, o.Chunk)
	begin := time.Now()
	for lo := 0; lo < n; lo += o.Chunk {
		hi := min(n, lo+o.Chunk)
		ins := make([]memory.RememberInput, 0, hi-lo)
		for i := lo; i < hi; i++ {
			ins = append(ins, b.input(i))
		}
		out, err := b.svc.RememberMany(ctx, benchUser, ins)
		if err != nil {
			return nil, fmt.Errorf("load memories %d-%d: %w", lo, hi, err)
		}
		for k, r := range out {
			l.stored[lo+k] = r.MemoryID
			l.members[r.MemoryID] = append(l.members[r.MemoryID], int32(lo+k))
			if r.Merged {
				l.merged++
			}
		}
		if done := hi / o.Chunk; done%20 == 0 || hi == n {
			o.Logf("  %d/%d memories, %.0f/s, %d merged", hi, n, float64(hi)/time.Since(begin).Seconds(), l.merged)
		}
	}
	elapsed := time.Since(begin)
	sample := min(n, 20*o.Chunk)
	o.Logf("baseline: appending %d sealed memories, %d per append ...", sample, o.Chunk)
	baseRate, err := b.appendChunks(ctx, sample)
	if err != nil {
		return nil, err
	}
	o.Logf("loading the recall index ...")
	t0 := time.Now()
	ix, err := b.api.Indexes().For(ctx, benchUser)
	if err != nil {
		return nil, err
	}
	indexMs := float64(time.Since(t0)) / float64(time.Millisecond)
	dups, foreign := 0, 0
	for _, m := range b.c.Memories {
		if m.DuplicateOf != "" {
			dups++
		}
	}
	for _, ms := range l.members {
		for _, m := range ms[1:] {
			if l.group[m] != l.group[ms[0]] {
				foreign++
			}
		}
	}
	o.Logf("  %d memories stored (%d merged, %d of them into another original; the corpus has %d paraphrased duplicates), "+
		"index of %d loaded in %.0f ms", len(l.members), l.merged, foreign, dups, ix.Len(), indexMs)
	return []Figure{
		{Name: fmt.Sprintf("load: RememberMany (%d per call) + read model", o.Chunk), Unit: UnitMemS,
			Ours: float64(n) / elapsed.Seconds(), Baseline: baseRate, HasBaseline: true, Samples: n},
		{Name: fmt.Sprintf("load: merged into a near-duplicate (corpus has %d duplicates)", dups), Unit: UnitMems,
			Ours: float64(l.merged), Samples: n},
		{Name: "load: merged into a memory that is not its corpus original", Unit: UnitMems,
			Ours: float64(foreign), Samples: n},
		{Name: fmt.Sprintf("load: recall index first load (%d memories)", ix.Len()), Unit: UnitMs, Ours: indexMs, Samples: 1},
	}, nil
}

// sealedNote is the baseline's event: a memory's sealed text with the
// plain fields of memory.MemoryRemembered, under a bench-only type that no
// projector handles.
type sealedNote struct {
	MemoryID   string        `json:"memory_id"`
	UserID     string        `json:"user_id"`
	Namespace  string        `json:"namespace"`
	MemoryType string        `json:"memory_type"`
	Importance float64       `json:"importance"`
	Secret     kernel.Sealed `json:"secret"`
	At         time.Time     `json:"at"`
}

// EventType implements kernel.Event.
func (sealedNote) EventType() string { return "memorybench.sealed_note" }

// baselineStream is the stream type of the baseline's appends.
const baselineStream = "memorybench.baseline"

// seal builds the baseline event of in: its text sealed under a fresh key,
// as the command service seals a new memory.
func (b *bench) seal(in memory.RememberInput) (*sealedNote, error) {
	id := "mem_" + uuid.Must(uuid.NewV7()).String()
	raw, err := json.Marshal(memory.MemoryText{Content: in.Content, Tags: in.Tags, Metadata: in.Metadata})
	if err != nil {
		return nil, err
	}
	k, err := b.keys.Fresh(memory.MemoryKey(id), benchUser)
	if err != nil {
		return nil, err
	}
	return &sealedNote{MemoryID: id, UserID: benchUser, Namespace: in.Namespace, MemoryType: in.MemoryType,
		Importance: in.Importance, Secret: k.Seal(raw), At: in.At}, nil
}

// appendChunks appends the first n corpus memories as sealed notes, o.Chunk
// per append to a new stream, and returns the rate in memories per second.
func (b *bench) appendChunks(ctx context.Context, n int) (float64, error) {
	begin := time.Now()
	for lo := 0; lo < n; lo += b.o.Chunk {
		var evs []kernel.Event
		for i := lo; i < min(n, lo+b.o.Chunk); i++ {
			ev, err := b.seal(b.input(i))
			if err != nil {
				return 0, err
			}
			evs = append(evs, ev)
		}
		stream := eventstore.Stream{Type: baselineStream, ID: "load-" + uuid.Must(uuid.NewV7()).String()}
		if _, err := b.store.Append(ctx, stream, eventstore.NoStream, evs...); err != nil {
			return 0, err
		}
	}
	return float64(n) / time.Since(begin).Seconds(), nil
}
