package memory

import (
	"context"
	stdsql "database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"

	proj "github.com/strata-platform/strata/projections/memory"
	"github.com/strata-platform/strata/readapi/memory/search"
)

// DefaultIndexCacheSize is how many users' recall indexes stay in memory.
const DefaultIndexCacheSize = 500

// Indexes keeps one in-memory recall index per user, caught up with the
// read model before every use: the projector stamps every changed memory
// with the user's new version, so catching up reads only the memories
// changed (and the ids removed) since the index's version, in one
// repeatable-read snapshot. A rebuilt read model has a new epoch, which
// makes the index load again from scratch.
type Indexes struct {
	db    *stdsql.DB
	mu    sync.Mutex
	cache *lru.Cache[string, *userIndex]
	emb   Embedder       // nil: no dense vectors
	lex   search.Lexicon // nil: no noun kinds
}

type userIndex struct {
	mu      sync.Mutex
	ix      *search.Index
	epoch   string
	version int64
}

// Embedder is an optional source of dense vectors (readapi/memory/embeddings):
// memories are embedded in batches as indexes load, queries one at a time.
type Embedder interface {
	search.Embedder
	EmbedMany(ctx context.Context, texts []string) ([][]float32, error)
}

// NewIndexes returns an index cache over the read model in db; emb may be
// nil (the offline similarity alone), lex too (no noun kinds).
func NewIndexes(db *stdsql.DB, size int, emb Embedder, lex search.Lexicon) *Indexes {
	if size <= 0 {
		size = DefaultIndexCacheSize
	}
	cache, err := lru.New[string, *userIndex](size)
	if err != nil {
		panic(err) // only for a size <= 0, excluded above
	}
	return &Indexes{db: db, cache: cache, emb: emb, lex: lex}
}

// newIndex is an empty index with the embedder and lexicon, if any.
func (x *Indexes) newIndex() *search.Index {
	cfg := search.Config{Lexicon: x.lex}
	if x.emb != nil {
		cfg.Embedder = x.emb
	}
	return search.New(cfg)
}

// For returns user's index, caught up with the read model.
func (x *Indexes) For(ctx context.Context, user string) (*search.Index, error) {
	x.mu.Lock()
	u, ok := x.cache.Get(user)
	if !ok {
		u = &userIndex{ix: x.newIndex()}
		x.cache.Add(user, u)
	}
	x.mu.Unlock()
	u.mu.Lock()
	defer u.mu.Unlock()
	if err := x.catchUp(ctx, user, u); err != nil {
		return nil, err
	}
	return u.ix, nil
}

func (x *Indexes) catchUp(ctx context.Context, user string, u *userIndex) error {
	tx, err := x.db.BeginTx(ctx, &stdsql.TxOptions{Isolation: stdsql.LevelRepeatableRead, ReadOnly: true})
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var epoch string
	var version int64
	err = tx.QueryRowContext(ctx, `SELECT epoch::text, version FROM `+proj.Schema+`.users WHERE user_id = $1`, user).
		Scan(&epoch, &version)
	if errors.Is(err, stdsql.ErrNoRows) {
		return nil // nothing remembered yet
	}
	if err != nil {
		return fmt.Errorf("recall index of %s: %w", user, err)
	}
	if epoch != u.epoch {
		u.ix, u.epoch, u.version = x.newIndex(), epoch, 0
	}
	if version == u.version {
		return nil
	}
	if u.version > 0 {
		if err := x.removed(ctx, tx, user, u); err != nil {
			return err
		}
	}
	if err := x.changed(ctx, tx, user, u); err != nil {
		return err
	}
	u.version = version
	return nil
}

func (x *Indexes) removed(ctx context.Context, tx *stdsql.Tx, user string, u *userIndex) error {
	rows, err := tx.QueryContext(ctx, `SELECT memory_id FROM `+proj.Schema+`.removed WHERE user_id = $1 AND version > $2`,
		user, u.version)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return err
		}
		u.ix.Remove(id)
	}
	return rows.Err()
}

// changed loads the memories changed since the index's version, with the
// entities they refer to and the validity of the facts they state.
func (x *Indexes) changed(ctx context.Context, tx *stdsql.Tx, user string, u *userIndex) error {
	rows, err := tx.QueryContext(ctx, `SELECT m.memory_id, m.namespace, m.memory_type, m.importance, m.created_at,
			m.content, array_to_json(m.variants)::text, array_to_json(m.variant_times)::text,
			array_to_json(m.variant_importances)::text, COALESCE(m.first_importance, m.importance),
			COALESCE((SELECT json_agg(n.entity_id) FROM `+proj.Schema+`.mentions n WHERE n.memory_id = m.memory_id), '[]')::text,
			COALESCE((SELECT json_agg(json_build_object('from', e.valid_from, 'until', e.valid_until,
				'subject', e.subject_id, 'predicate', e.predicate, 'object', e.object_id)) FROM `+proj.Schema+`.edges e
				WHERE e.memory_id = m.memory_id), '[]')::text
		FROM `+proj.Schema+`.memories m WHERE m.user_id = $1 AND m.version > $2`, user, u.version)
	if err != nil {
		return err
	}
	defer rows.Close()
	var docs []search.Doc
	for rows.Next() {
		var d search.Doc
		var variants, times, imps, entities, facts string
		if err := rows.Scan(&d.ID, &d.Namespace, &d.Layer, &d.Importance, &d.CreatedAt, &d.Text, &variants,
			&times, &imps, &d.FirstImportance, &entities, &facts); err != nil {
			return err
		}
		if err := decodeDoc(&d, variants, entities, facts); err != nil {
			return fmt.Errorf("memory %s: %w", d.ID, err)
		}
		if err := decodeRevisions(&d, times, imps); err != nil { // after the variants it dates
			return fmt.Errorf("memory %s: %w", d.ID, err)
		}
		docs = append(docs, d)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	x.embed(ctx, docs)
	for _, d := range docs {
		u.ix.Upsert(d)
	}
	return nil
}

// embed sets the documents' embeddings in batches, when there is an
// embedder. If the endpoint fails, the documents get none (an empty
// vector): recall goes on with the offline similarity, and a document is
// embedded again when it next changes.
func (x *Indexes) embed(ctx context.Context, docs []search.Doc) {
	if x.emb == nil || len(docs) == 0 {
		return
	}
	texts := make([]string, len(docs))
	for i := range docs {
		texts[i] = docs[i].Text
	}
	vs, err := x.emb.EmbedMany(ctx, texts)
	for i := range docs {
		if err != nil || vs[i] == nil {
			docs[i].Embedding = []float32{}
		} else {
			docs[i].Embedding = vs[i]
		}
	}
}

func decodeDoc(d *search.Doc, variants, entities, facts string) error {
	if err := json.Unmarshal([]byte(variants), &d.Variants); err != nil {
		return err
	}
	if err := json.Unmarshal([]byte(entities), &d.EntityIDs); err != nil {
		return err
	}
	var spans []struct {
		From, Until                *time.Time
		Subject, Predicate, Object string
	}
	if err := json.Unmarshal([]byte(facts), &spans); err != nil {
		return err
	}
	for _, s := range spans {
		iv := search.Interval{Subject: s.Subject, Predicate: s.Predicate, Object: s.Object}
		if s.From != nil {
			iv.From = s.From.UTC()
		}
		if s.Until != nil {
			iv.Until = s.Until.UTC()
		}
		d.Facts = append(d.Facts, iv)
	}
	d.CreatedAt = d.CreatedAt.UTC()
	return nil
}

// decodeRevisions reads when each variant was stated and the importance
// from then on. Rows projected before these were kept have none: their
// variants count as stated with the memory, at its present importance.
func decodeRevisions(d *search.Doc, times, imps string) error {
	if err := json.Unmarshal([]byte(times), &d.VariantTimes); err != nil {
		return err
	}
	if err := json.Unmarshal([]byte(imps), &d.VariantImportances); err != nil {
		return err
	}
	if len(d.VariantTimes) != len(d.Variants) || len(d.VariantImportances) != len(d.Variants) {
		d.VariantTimes, d.VariantImportances, d.FirstImportance = nil, nil, d.Importance
	}
	for i := range d.VariantTimes {
		d.VariantTimes[i] = d.VariantTimes[i].UTC()
	}
	return nil
}
