// Package memory runs the memory context's commands. Each user's memory
// store is one stream; the service keeps its fold in a bounded cache and
// decides on it under the user's lock. Commands for one user that arrive
// while another is being appended are decided together and appended in one
// transaction (group commit), each command with its own metadata, so a busy
// store writes many memories per commit instead of queueing one commit per
// memory. Personal data is sealed under per-subject keys (eventstore/shred)
// before it reaches the store.
package memory

import (
	"context"
	"crypto/rand"
	"log/slog"
	"strings"
	"sync"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"
	"github.com/oklog/ulid/v2"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/memory"
	"github.com/strata-platform/strata/domain/memory/extract"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/shred"
)

// DefaultCacheSize is how many users' folded stores the service keeps.
const DefaultCacheSize = 1000

// maxConflictRetries bounds how often a batch is decided again after
// another process appended to the same store first.
const maxConflictRetries = 10

// Config tunes the service.
type Config struct {
	// Wait blocks until the read model has applied the event at key (read
	// your writes); nil means do not wait.
	Wait func(ctx context.Context, key eventstore.Key) error
	// Vocabulary says which predicates are single-valued.
	Vocabulary memory.Vocabulary
	// CacheSize bounds the users whose folds are kept (DefaultCacheSize when 0).
	CacheSize int
	// BatchTimeout bounds one group commit (30 s when 0). A batch is not
	// cancelled when the request that leads it goes away.
	BatchTimeout time.Duration
	// Extractor, when set, is asked for each memory's entities and facts
	// before the user's lock is taken (readapi/memory/llm); its answer is
	// checked and merged with the offline extractor's. Nil: offline only.
	Extractor ModelExtractor
	// ExtractTimeout bounds one Extractor call (DefaultExtractTimeout when
	// 0); a call that fails or runs over leaves the offline facts.
	ExtractTimeout time.Duration
}

// ModelExtractor extracts a memory's entities and facts with a language
// model; first-person facts have the subject memory.ModelSelf.
type ModelExtractor interface {
	ExtractFacts(ctx context.Context, text string) (extract.Result, error)
}

// DefaultExtractTimeout bounds a model extraction when
// Config.ExtractTimeout is 0.
const DefaultExtractTimeout = 10 * time.Second

// Service runs the memory commands.
type Service struct {
	store *eventstore.Store
	keys  *shred.KeyRing
	clock kernel.Clock
	log   *slog.Logger
	cfg   Config
	mu    sync.Mutex
	users *lru.Cache[string, *userEntry]
}

// New returns a service over store with keys sealing personal data.
func New(store *eventstore.Store, keys *shred.KeyRing, clock kernel.Clock, log *slog.Logger, cfg Config) *Service {
	if cfg.CacheSize <= 0 {
		cfg.CacheSize = DefaultCacheSize
	}
	if cfg.BatchTimeout <= 0 {
		cfg.BatchTimeout = 30 * time.Second
	}
	if cfg.ExtractTimeout <= 0 {
		cfg.ExtractTimeout = DefaultExtractTimeout
	}
	cache, err := lru.New[string, *userEntry](cfg.CacheSize)
	if err != nil {
		panic(err) // only for a size <= 0, excluded above
	}
	return &Service{store: store, keys: keys, clock: clock, log: log, cfg: cfg, users: cache}
}

// Keys returns the key ring the service seals with.
func (s *Service) Keys() *shred.KeyRing { return s.keys }

// Vocabulary returns the single-valued predicates the service decides with.
func (s *Service) Vocabulary() memory.Vocabulary { return s.cfg.Vocabulary }

// Now is the service's clock.
func (s *Service) Now() time.Time { return s.clock.Now() }

// newID mints "<prefix>_<ULID>" ids (lower case, so they sort by time and
// read well in URLs).
func newID(prefix string) string {
	return prefix + "_" + strings.ToLower(ulid.MustNew(ulid.Now(), rand.Reader).String())
}

// userEntry is one user's fold, the lock its leader holds, and the queue of
// commands waiting for the next batch.
type userEntry struct {
	mu    sync.Mutex // held by the batch leader
	store *memory.Store
	qmu   sync.Mutex
	queue []*job
}

func (s *Service) entry(user string) *userEntry {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.users.Get(user)
	if !ok {
		e = &userEntry{}
		s.users.Add(user, e)
	}
	return e
}

// fold brings the entry's store up to date with the stream: a cold fold
// preloads the user's keys and reads the whole stream; a warm one reads
// only the events after its version.
func (s *Service) fold(ctx context.Context, user string, e *userEntry) error {
	if e.store == nil {
		if err := s.keys.Preload(ctx, s.store.DB(), user); err != nil {
			return err
		}
		e.store = memory.NewStore(user)
	}
	envs, err := s.store.Load(ctx, memory.StoreStream(user), eventstore.LoadOptions{AfterVersion: e.store.Version})
	if err != nil {
		return err
	}
	for _, env := range envs {
		if err := open(ctx, s.keys, s.store.DB(), env.Event); err != nil {
			return err
		}
		e.store.Apply(env.Event)
		e.store.Version = env.StreamVersion
	}
	return nil
}
