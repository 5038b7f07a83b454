package memory

import (
	"context"
	stdsql "database/sql"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/strata-platform/strata/domain/memory"
	proj "github.com/strata-platform/strata/projections/memory"
)

// entityRow is an entity as the read model holds it.
type entityRow struct {
	ID          string    `json:"entity_id"`
	Name        string    `json:"name"`
	Type        string    `json:"entity_type"`
	Aliases     []string  `json:"aliases"`
	MemoryCount int       `json:"memory_count"`
	FirstSeen   time.Time `json:"first_seen"`
	LastSeen    time.Time `json:"last_seen"`
}

const entityColumns = `entity_id, name, entity_type, array_to_json(aliases)::text, memory_count, first_seen, last_seen`

func scanEntity(row interface{ Scan(...any) error }) (entityRow, error) {
	var e entityRow
	var aliases string
	err := row.Scan(&e.ID, &e.Name, &e.Type, &aliases, &e.MemoryCount, &e.FirstSeen, &e.LastSeen)
	if err == nil {
		err = json.Unmarshal([]byte(aliases), &e.Aliases)
	}
	e.Aliases = nonNil(e.Aliases)
	e.FirstSeen, e.LastSeen = e.FirstSeen.UTC(), e.LastSeen.UTC()
	return e, err
}

// resolveEntity resolves ref (an entity id, a name or an alias, ignoring
// case and runs of white space) in user's graph; another user's entity is
// not found. An entity merged into another resolves to its survivor.
func (a *API) resolveEntity(ctx context.Context, user, ref string) (entityRow, error) {
	name := strings.ToLower(strings.Join(strings.Fields(ref), " "))
	row := a.db.QueryRowContext(ctx, `SELECT `+entityColumns+` FROM `+proj.Schema+`.entities
		WHERE user_id = $1 AND entity_id = (SELECT COALESCE(merged_into, entity_id) FROM `+proj.Schema+`.entities
			WHERE user_id = $1 AND (entity_id = $2 OR lower(name) = $3
				OR EXISTS (SELECT 1 FROM unnest(aliases) al WHERE lower(al) = $3))
			ORDER BY entity_id = $2 DESC, merged_into IS NULL DESC, lower(name) = $3 DESC, memory_count DESC LIMIT 1)`,
		user, ref, name)
	e, err := scanEntity(row)
	if errors.Is(err, stdsql.ErrNoRows) {
		return e, memory.NotFound("entity", ref)
	}
	return e, err
}

func (a *API) entityList(ctx context.Context, user, typ string, limit int) ([]entityRow, error) {
	rows, err := a.db.QueryContext(ctx, `SELECT `+entityColumns+` FROM `+proj.Schema+`.entities
		WHERE user_id = $1 AND ($2 = '' OR entity_type = $2) AND merged_into IS NULL
		ORDER BY memory_count DESC, entity_id LIMIT $3`, user, typ, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []entityRow{}
	for rows.Next() {
		e, err := scanEntity(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// fact is one run of a fact: the edges stating the same object for the same
// subject and predicate that began and ended together (a fact stated again
// is one run, not two).
type fact struct {
	Predicate  string     `json:"predicate"`
	Subject    string     `json:"subject,omitempty"`
	SubjectID  string     `json:"subject_id,omitempty"`
	Object     string     `json:"object"`
	ObjectID   string     `json:"object_id"`
	ValidFrom  time.Time  `json:"valid_from"`
	ValidUntil *time.Time `json:"valid_until"`
	Status     string     `json:"status"`
	Confidence float64    `json:"confidence"`
	Evidence   int        `json:"evidence"` // how many memories or relate calls stated it
}

// timelineOf lists the facts whose subject is entity, by valid_from.
func (a *API) timelineOf(ctx context.Context, entity string) ([]fact, error) {
	return a.facts(ctx, `e.subject_id = $1`, entity, 0, false)
}

// relationships lists the facts the entity takes part in (as subject or
// object), current ones first.
func (a *API) relationships(ctx context.Context, entity string, limit int) ([]fact, error) {
	return a.facts(ctx, `(e.subject_id = $1 OR e.object_id = $1)`, entity, limit, true)
}

func (a *API) facts(ctx context.Context, where, entity string, limit int, currentFirst bool) ([]fact, error) {
	order := `MIN(e.valid_from), e.predicate, o.name`
	if currentFirst {
		order = `(e.status = 'current') DESC, MIN(e.valid_from) DESC, e.predicate, o.name`
	}
	lim := ``
	if limit > 0 {
		lim = ` LIMIT $2`
	}
	q := `SELECT e.predicate, s.name, e.subject_id, o.name, e.object_id, MIN(e.valid_from), e.valid_until, e.status,
			MAX(e.confidence), COUNT(*)
		FROM ` + proj.Schema + `.edges e
		JOIN ` + proj.Schema + `.entities s ON s.entity_id = e.subject_id
		JOIN ` + proj.Schema + `.entities o ON o.entity_id = e.object_id
		WHERE ` + where + `
		GROUP BY e.predicate, s.name, e.subject_id, o.name, e.object_id, e.valid_until, e.status
		ORDER BY ` + order + lim
	args := []any{entity}
	if limit > 0 {
		args = append(args, limit)
	}
	rows, err := a.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []fact{}
	for rows.Next() {
		var f fact
		var until stdsql.NullTime
		if err := rows.Scan(&f.Predicate, &f.Subject, &f.SubjectID, &f.Object, &f.ObjectID, &f.ValidFrom, &until,
			&f.Status, &f.Confidence, &f.Evidence); err != nil {
			return nil, err
		}
		if until.Valid {
			t := until.Time.UTC()
			f.ValidUntil = &t
		}
		f.ValidFrom = f.ValidFrom.UTC()
		out = append(out, f)
	}
	return out, rows.Err()
}

func nonNil[T any](v []T) []T {
	if v == nil {
		return []T{}
	}
	return v
}
