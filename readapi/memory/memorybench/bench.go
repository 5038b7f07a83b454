// Package memorybench measures the memory service on the labelled corpus of
// package corpus (seeded, deterministic), against baselines measured in the
// same run on the same machine, so that ratios and not absolute times carry
// the result:
//
//  1. Load: every corpus memory is remembered for one user through
//     commands/memory.Service.RememberMany in chunks (business time =
//     the corpus CreatedAt, the corpus entity's name as entity_id), with
//     the memory projector running and read-your-writes. Baseline: the
//     same memories appended as sealed events through the same store.
//  2. Quality on the evaluation split through readapi/memory.API.Recall
//     (limit 10): top-5 hit rate and MRR@10 overall and per query kind,
//     current-above-superseded, as_of correctness, the paraphrased lead
//     over the baseline and the near-duplicate share of result slots;
//     again with query expansion, and with rerank after fitting the rerank
//     model on the training split. Baseline: plain Okapi BM25 (bm25.go)
//     over the same texts, given the same entity and as_of filters.
//  3. Speed with every corpus memory in the user: recall latency
//     sequentially and with concurrent clients (baseline: BM25), POST
//     /context's token budget (every answer within max_tokens), and
//     remember under concurrent writers with read-your-writes (baseline:
//     a plain eventstore Append of one event of the same sealed size).
//  4. Extraction (extraction.go, no database): entity, relation and
//     ended-fact precision, recall and F1 on a hand-labelled set of
//     sentences (corpus/extraction.jsonl), for the offline extractor and
//     for offline+model, the model being a scripted loopback server
//     (`strata bench memory --extraction` runs this step alone).
//
// The engine is never told anything about the corpus labels: the bench
// only measures. `strata bench memory` runs it in a scratch database.
package memorybench

import (
	"bytes"
	"context"
	stdsql "database/sql"
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"time"

	cmd "github.com/strata-platform/strata/commands/memory"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/memory"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/shred"
	"github.com/strata-platform/strata/projections"
	projmemory "github.com/strata-platform/strata/projections/memory"
	readmemory "github.com/strata-platform/strata/readapi/memory"
	"github.com/strata-platform/strata/readapi/memory/memorybench/corpus"
	"github.com/strata-platform/strata/readapi/memory/wordnet"
)

// Options size a run. Start from Full or Quick and set DB.
type Options struct {
	DB       *stdsql.DB // a migrated database reserved for the bench (see storebench.NewScratch)
	Progress io.Writer  // a line per step; nil discards them
	Mode     string     // names the preset in the report

	Seed     uint64 // corpus seed
	Memories int    // corpus memories, duplicates included
	Entities int    // corpus entities
	Queries  int    // corpus queries (train and eval)
	Chunk    int    // memories per RememberMany call while loading

	FitCandidates  int           // recall candidates per training query the rerank model is fitted on
	Clients        int           // concurrent clients of the concurrent recall latency figures
	ContextQueries int           // queries asked of POST /context, each with every max_tokens budget
	Writers        int           // concurrent writers of the remember figures
	WriteDuration  time.Duration // how long the writers (and the baseline's) run

	// WordNetDir is the WordNet database recall reads noun kinds from
	// (readapi/memory/wordnet); "" or a directory without one: none.
	WordNetDir string

	// Split is the split the quality figures are measured on: "" or
	// corpus.SplitEval for the figures, corpus.SplitTrain while tuning.
	Split string
	// Misses, when set, receives every query of the plain recall run whose
	// top 5 holds no relevant memory, with what it found and what it missed,
	// and every result that duplicates a higher-ranked one.
	Misses io.Writer
}

// Full is the preset of `strata bench memory`: 50,000 memories over 200
// entities and 1,000 queries (seed 42).
func Full() Options {
	return Options{Mode: "full", Seed: 42, Memories: 50_000, Entities: 200, Queries: 1000, Chunk: 500,
		FitCandidates: 50, Clients: 2, ContextQueries: 200, Writers: 8, WriteDuration: 10 * time.Second,
		WordNetDir: wordnet.DefaultDir}
}

// Quick is the preset of `--quick`: 5,000 memories over 40 entities and 200
// queries, shorter write runs.
func Quick() Options {
	return Options{Mode: "quick", Seed: 42, Memories: 5000, Entities: 40, Queries: 200, Chunk: 250,
		FitCandidates: 50, Clients: 2, ContextQueries: 60, Writers: 8, WriteDuration: 3 * time.Second,
		WordNetDir: wordnet.DefaultDir}
}

// Logf prints a progress line to o.Progress, if set.
func (o Options) Logf(format string, args ...any) {
	if o.Progress != nil {
		fmt.Fprintf(o.Progress, "bench: "+format+"\n", args...)
	}
}

func (o Options) check() error {
	if o.DB == nil || o.Memories < 100 || o.Entities < 10 || o.Queries < 20 || o.Chunk < 1 || o.FitCandidates < 1 ||
		o.Clients < 1 || o.ContextQueries < 1 || o.Writers < 1 || o.WriteDuration <= 0 {
		return fmt.Errorf("memorybench: options out of range: %+v", o)
	}
	return nil
}

// benchUser is the one user whose store holds the corpus.
const benchUser = "memorybench-user"

// bench is one run: the memory service on the scratch database with its
// projector running live, the corpus and what loading it produced.
type bench struct {
	o      Options
	c      corpus.Corpus
	lab    *labels
	store  *eventstore.Store
	keys   *shred.KeyRing
	runner *projections.Runner
	svc    *cmd.Service
	api    *readmemory.API
	bm     *bm25
	stop   context.CancelFunc
	done   chan struct{}
}

// start builds the store, the key ring, the projector runner, the command
// service (read-your-writes through the projector, as the server waits)
// and the read API without routes.
func start(ctx context.Context, o Options) (*bench, error) {
	reg := eventstore.NewRegistry()
	for _, c := range memory.Events() {
		if err := reg.Register(eventstore.EventDef{Name: c().EventType(), Version: 1, New: c}); err != nil {
			return nil, err
		}
	}
	if err := reg.Register(eventstore.EventDef{Name: sealedNote{}.EventType(), Version: 1,
		New: func() kernel.Event { return &sealedNote{} }}); err != nil {
		return nil, err
	}
	if err := reg.Seal(); err != nil {
		return nil, err
	}
	clock := kernel.SystemClock{}
	keys, err := shred.New(bytes.Repeat([]byte{9}, 32), 0)
	if err != nil {
		return nil, err
	}
	b := &bench{o: o, store: eventstore.New(o.DB, reg, clock, eventstore.NewULIDs(clock)), keys: keys,
		done: make(chan struct{})}
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	wake := projections.NewSignal()
	b.runner, err = projections.NewRunner(o.DB, reg, wake, logger, projections.Config{}, projmemory.Projector{Keys: keys})
	if err != nil {
		return nil, err
	}
	wait := func(ctx context.Context, k eventstore.Key) error {
		wctx, cancel := context.WithTimeout(ctx, time.Minute)
		defer cancel()
		return b.runner.WaitFor(wctx, k, projmemory.Name)
	}
	b.svc = cmd.New(b.store, keys, clock, logger, cmd.Config{Wait: wait, Vocabulary: memory.NewVocabulary()})
	cfg := readmemory.Config{Service: b.svc, DB: o.DB}
	if o.WordNetDir != "" {
		if lex, err := wordnet.Open(o.WordNetDir); err == nil {
			cfg.Lexicon = lex
		} else {
			o.Logf("recall runs without noun kinds: %v", err)
		}
	}
	b.api = readmemory.New(cfg)
	bg, stop := context.WithCancel(context.WithoutCancel(ctx))
	b.stop = stop
	go b.store.RunNotifierTypes(bg, wake.FireTypes)
	go func() { defer close(b.done); b.runner.Run(bg) }()
	return b, nil
}

func (b *bench) close() {
	b.stop()
	<-b.done
}

// Run generates the corpus, loads it into the memory service on o.DB and
// measures; the figures are in the order of the package comment.
func Run(ctx context.Context, o Options) (Report, error) {
	begin := time.Now()
	rep := Report{Bench: "memory", Mode: o.Mode, CPUs: runtime.GOMAXPROCS(0),
		Server: fmt.Sprintf("one user, %d memories over %d entities, %d queries (seed %d)", o.Memories, o.Entities, o.Queries, o.Seed)}
	if err := o.check(); err != nil {
		return rep, err
	}
	var version string
	if err := o.DB.QueryRowContext(ctx, `SHOW server_version`).Scan(&version); err == nil {
		rep.Server = "PostgreSQL " + version + ", " + rep.Server
	}
	o.Logf("generating the corpus (%d memories, %d entities, %d queries) ...", o.Memories, o.Entities, o.Queries)
	c := corpus.Generate(corpus.Config{Seed: o.Seed, Memories: o.Memories, Entities: o.Entities, Queries: o.Queries})
	b, err := start(ctx, o)
	if err != nil {
		return rep, err
	}
	defer b.close()
	b.c, b.lab = c, newLabels(c)
	texts := make([]string, len(c.Memories))
	for i, m := range c.Memories {
		texts[i] = m.Content
	}
	b.bm = newBM25(texts)
	for _, step := range []func(context.Context) ([]Figure, error){b.load, b.quality, b.recallLatency, b.contextBudgets, b.writes} {
		figs, err := step(ctx)
		if err != nil {
			return rep, err
		}
		rep.Figures = append(rep.Figures, figs...)
	}
	o.Logf("scoring extraction on the labelled set (offline, offline+model) ...")
	ext, err := measureExtraction(ctx)
	if err != nil {
		return rep, err
	}
	rep.Extraction = ext.scores
	rep.Notes = append(notes(o), extractionNotes(ext)...)
	rep.Elapsed = time.Since(begin)
	return rep, nil
}

// notes say what each baseline is.
func notes(o Options) []string {
	return []string{
		"load baseline: the same memories' texts sealed and appended as bench-only events through the same store, " +
			fmt.Sprintf("%d per append, no decision, no read model", o.Chunk),
		"quality and recall latency baseline: plain Okapi BM25 (k1 1.2, b 0.75, lowercase word tokens, no stemming, " +
			"no stop words) over the corpus texts, each duplicate a document of its own, with the same filters as recall: " +
			"entity queries keep memories about or mentioning the entity, temporal queries keep memories stated at or " +
			"before as_of whose fact (if any) is valid at as_of (from the corpus labels)",
		"quality: evaluation split only; a result is relevant when it holds (created, or had merged into it) a " +
			"Relevant corpus memory; current-above-superseded counts the current value's memories (Current or its " +
			"duplicates); a near-duplicate slot holds a corpus memory with the same original as one held higher up",
		"remember baseline: a plain eventstore Append of one event holding a memory sealed the same way, to a new stream",
	}
}
