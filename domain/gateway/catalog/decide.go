package catalog

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// ImportResult says what an import did.
type ImportResult struct {
	Version   int64    // the catalog's version after the import
	Hash      string   // its content hash
	Added     []string // models new to the catalog
	Changed   []string // models whose entry changed
	Retired   []string // models retired (or pointed at another replacement)
	Unchanged bool     // the file is the catalog already: nothing recorded
	// Skipped: the built-in catalog was not imported because an operator
	// manages the catalog.
	Skipped bool
}

// Import decides an import of a parsed file (Parse) from source
// (SourceImport, or SourceBuiltin for the built-in catalog) named name.
// The catalog becomes equal to the file:
//   - a file equal to the catalog (the same content hash) records nothing,
//     so importing the same file twice gives no new version;
//   - the built-in catalog is never imported once an operator manages the
//     catalog (Skipped);
//   - every model the catalog has must be in the file: a model is never
//     dropped, because requests naming it must keep getting
//     model_deprecated with its replacement; retire it in the file
//     ("status": "retired", "replaced_by": a live model) instead;
//   - a new or changed entry is a catalog.model_upserted, a live model
//     now retired (or an alias pointed elsewhere) with the rest of its
//     entry unchanged a catalog.model_retired, and catalog.imported closes
//     the import with the routers, the defaults, the version and the hash.
func (s *State) Import(f File, source, name string, now time.Time) ([]kernel.Event, ImportResult, error) {
	if source != SourceImport && source != SourceBuiltin {
		return nil, ImportResult{}, fmt.Errorf("catalog import: unknown source %q", source)
	}
	if source == SourceBuiltin && s.Managed {
		return nil, ImportResult{Version: s.Version, Hash: s.Hash(), Skipped: true}, nil
	}
	if err := f.Validate(); err != nil {
		return nil, ImportResult{}, err
	}
	f = f.canonical()
	in := map[string]Model{}
	for _, m := range f.Models {
		in[m.ID] = m
	}
	var missing []string
	for id := range s.models {
		if _, ok := in[id]; !ok {
			missing = append(missing, id)
		}
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		return nil, ImportResult{}, kernel.Invalid("models", "keeps_models",
			fmt.Sprintf("the file drops %s, which the catalog has; a model is never dropped: list it with \"status\": \"retired\" and \"replaced_by\" a live model",
				quoteAll(missing)))
	}
	hash := f.Hash()
	if hash == s.Hash() {
		return nil, ImportResult{Version: s.Version, Hash: hash, Unchanged: true}, nil
	}
	at := stamp(now, s.Modified)
	var evs []kernel.Event
	res := ImportResult{Hash: hash}
	for _, m := range f.Models {
		cur, had := s.models[m.ID]
		switch {
		case !had:
			evs = append(evs, &ModelUpserted{Model: m, Source: source, At: at})
			res.Added = append(res.Added, m.ID)
		case cur.equal(m):
		case !m.Live() && onlyRetirement(cur, m):
			evs = append(evs, &ModelRetired{ModelID: m.ID, ReplacedBy: m.ReplacedBy, Source: source, At: at})
			res.Retired = append(res.Retired, m.ID)
		default:
			evs = append(evs, &ModelUpserted{Model: m, Source: source, At: at})
			if cur.Live() && !m.Live() {
				res.Retired = append(res.Retired, m.ID)
			} else {
				res.Changed = append(res.Changed, m.ID)
			}
		}
	}
	res.Version = s.Version + int64(len(evs)) + 1
	evs = append(evs, &Imported{Version: res.Version, Hash: hash, Source: source, Name: name, Routers: cloneRouters(f.Routers),
		Defaults: f.Defaults, Added: res.Added, Changed: res.Changed, Retired: res.Retired, At: at})
	return evs, res, nil
}

// onlyRetirement reports whether next is cur with only its status and
// replacement changed.
func onlyRetirement(cur, next Model) bool {
	cur.Status, cur.ReplacedBy = next.Status, next.ReplacedBy
	return cur.equal(next)
}

func quoteAll(ids []string) string {
	q := make([]string, len(ids))
	for i, id := range ids {
		q[i] = fmt.Sprintf("%q", id)
	}
	return strings.Join(q, ", ")
}

// Upsert decides an operator's change of one live model (new or changed),
// checked with the whole catalog it makes (a model a router or a default
// names must stay a live chat model of their tier or below). The same
// entry again records nothing. Retire a model with Retire.
func (s *State) Upsert(m Model, now time.Time) ([]kernel.Event, error) {
	if s.Imports == 0 {
		return nil, kernel.Invalid("catalog", "imported", "the catalog has not been imported yet: import a catalog file first")
	}
	m = m.normalize()
	if !m.Live() {
		return nil, kernel.Invalid("status", "live", fmt.Sprintf("model %q: an upsert records a live model; retire one with its replacement instead", m.ID))
	}
	if cur, ok := s.models[m.ID]; ok && cur.equal(m) {
		return nil, nil
	}
	f := s.File()
	if i := slices.IndexFunc(f.Models, func(x Model) bool { return x.ID == m.ID }); i >= 0 {
		f.Models[i] = m
	} else {
		f.Models = append(f.Models, m)
	}
	if err := f.Validate(); err != nil {
		return nil, err
	}
	return []kernel.Event{&ModelUpserted{Model: m, Source: SourceOperator, At: stamp(now, s.Modified)}}, nil
}

// Retire decides an operator's retirement of model id in favour of
// replacedBy, a live model of its tier or below. Retired aliases that
// pointed at id are pointed at replacedBy in the same decision, so every
// alias always names a live model. A model that a router or a tier's
// default still names cannot be retired (import a catalog that changes
// them). Retiring again with the same replacement records nothing.
func (s *State) Retire(id, replacedBy string, now time.Time) ([]kernel.Event, error) {
	cur, ok := s.models[id]
	if !ok {
		return nil, kernel.NotFound(fmt.Sprintf("model %q is not in the catalog", id))
	}
	if replacedBy == "" {
		return nil, kernel.Invalid("replaced_by", "required", fmt.Sprintf("model %q: name the live model that replaces it", id))
	}
	if !cur.Live() && cur.ReplacedBy == replacedBy {
		return nil, nil
	}
	f := s.File()
	at := stamp(now, s.Modified)
	evs := []kernel.Event{&ModelRetired{ModelID: id, ReplacedBy: replacedBy, Source: SourceOperator, At: at}}
	for i, m := range f.Models {
		switch {
		case m.ID == id:
			f.Models[i].Status, f.Models[i].ReplacedBy = StatusRetired, replacedBy
		case !m.Live() && m.ReplacedBy == id:
			f.Models[i].ReplacedBy = replacedBy
			evs = append(evs, &ModelRetired{ModelID: m.ID, ReplacedBy: replacedBy, Source: SourceOperator, At: at})
		}
	}
	if err := f.Validate(); err != nil {
		return nil, err
	}
	return evs, nil
}
