package memory

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/memory"
	proj "github.com/strata-platform/strata/projections/memory"
	"github.com/strata-platform/strata/readapi/httpx"
	"github.com/strata-platform/strata/readapi/memory/search"
)

// MaxQuery bounds a recall or context query, in characters.
const MaxQuery = 2000

// recallBody is POST /recall's body.
type recallBody struct {
	Query               string  `json:"query"`
	EntityID            *string `json:"entity_id"`
	Layer               *string `json:"layer"`
	Namespace           *string `json:"namespace"`
	AllowCrossNamespace *bool   `json:"allow_cross_namespace"`
	Limit               *int    `json:"limit"`
	AsOf                *string `json:"as_of"`
	QueryExpansion      *bool   `json:"query_expansion"`
	Rerank              *bool   `json:"rerank"`
}

// RecallRequest is a checked recall, shared by the REST route and the MCP tool.
type RecallRequest struct {
	Query          string
	EntityRef      string
	Layer          string
	Namespace      string
	CrossNamespace bool
	Limit          int
	AsOf           time.Time
	Expand         bool
	Rerank         bool
}

// RecallHit is one recalled memory.
type RecallHit struct {
	MemoryID     string    `json:"memory_id"`
	Content      string    `json:"content"`
	Score        float64   `json:"score"`
	LLMRelevance *float64  `json:"llm_relevance,omitempty"`
	Importance   float64   `json:"importance"`
	MemoryType   string    `json:"memory_type"`
	Namespace    string    `json:"namespace"`
	CreatedAt    time.Time `json:"created_at"`
}

// RecallResult is the answer to a recall.
type RecallResult struct {
	Results        []RecallHit `json:"results"`
	Count          int         `json:"count"`
	QueryExpansion bool        `json:"query_expansion"`
	Reranked       bool        `json:"reranked"`
}

func (b recallBody) request() (RecallRequest, error) {
	req := RecallRequest{Query: strings.TrimSpace(b.Query), EntityRef: orDefault(b.EntityID, ""),
		Layer: orDefault(b.Layer, ""), Namespace: orDefault(b.Namespace, "global"),
		CrossNamespace: orDefault(b.AllowCrossNamespace, true), Expand: orDefault(b.QueryExpansion, false),
		Rerank: orDefault(b.Rerank, false)}
	var err error
	if req.Limit, err = LimitField("limit", b.Limit, 10, 1, 100); err != nil {
		return req, err
	}
	if req.AsOf, err = optionalTime("as_of", b.AsOf); err != nil {
		return req, err
	}
	return req, req.Check()
}

// Check validates a recall request.
func (req *RecallRequest) Check() error {
	if req.Query == "" {
		return kernel.Invalid("query", "required", "query is required")
	}
	if utf8.RuneCountInString(req.Query) > MaxQuery {
		return kernel.Invalid("query", "max_length:2000", "query must be at most 2000 characters")
	}
	if req.Layer != "" && !memory.ValidMemoryType(req.Layer) {
		return kernel.Invalid("layer", "enum", "layer must be one of working, episodic, semantic")
	}
	if req.Namespace == "" {
		req.Namespace = "global"
	}
	return memory.CheckNamespace("namespace", req.Namespace)
}

func (a *API) recall(w http.ResponseWriter, r *http.Request, c caller) {
	var body recallBody
	if err := httpx.DecodeJSON(r, &body); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	req, err := body.request()
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	res, err := a.Recall(r.Context(), c.UserID, req)
	writeJSON(w, r, http.StatusOK, res, err)
}

// Recall searches user's memories. An entity filter that names no entity
// of the user's finds nothing.
func (a *API) Recall(ctx context.Context, user string, req RecallRequest) (RecallResult, error) {
	out := RecallResult{Results: []RecallHit{}, QueryExpansion: req.Expand, Reranked: req.Rerank}
	q := search.Query{Text: req.Query, Namespace: req.Namespace, CrossNamespace: req.CrossNamespace, Layer: req.Layer,
		AsOf: req.AsOf, Now: a.svc.Now(), Limit: req.Limit, Expand: req.Expand, Rerank: req.Rerank}
	if req.EntityRef != "" {
		ent, err := a.resolveEntity(ctx, user, req.EntityRef)
		if kernel.KindOf(err) == kernel.KindNotFound {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		q.EntityID = ent.ID
	}
	if err := a.askedFacts(ctx, user, &q); err != nil {
		return out, err
	}
	ix, err := a.indexes.For(ctx, user)
	if err != nil {
		return out, err
	}
	for _, h := range ix.Search(q) {
		d, ok := ix.Get(h.ID)
		if !ok {
			continue
		}
		if !req.AsOf.IsZero() {
			d = d.AsOf(req.AsOf) // as it read then: its importance then
		}
		hit := RecallHit{MemoryID: h.ID, Content: d.Text, Score: round(h.Score), Importance: d.Importance,
			MemoryType: d.Layer, Namespace: d.Namespace, CreatedAt: d.CreatedAt}
		if h.Reranked {
			rel := round(h.Relevance)
			hit.LLMRelevance = &rel
		}
		out.Results = append(out.Results, hit)
	}
	out.Count = len(out.Results)
	return out, nil
}

// round keeps four decimals of a score.
func round(v float64) float64 {
	const k = 10000
	return float64(int64(v*k+0.5)) / k
}

// askedFacts reads the facts q's text asks for (memory.ParseQuestion): the
// user's entities it names (or the entity filter) and the predicates, so
// that the memories stating them rank first. A name that is none of the
// user's entities is ignored.
func (a *API) askedFacts(ctx context.Context, user string, q *search.Query) error {
	question := memory.ParseQuestion(q.Text)
	if len(question.Predicates) == 0 {
		return nil
	}
	ids, err := a.entityIDs(ctx, user, question.Names)
	if err != nil {
		return err
	}
	q.About = ids
	if q.EntityID != "" && !slices.Contains(q.About, q.EntityID) {
		q.About = append(q.About, q.EntityID)
	}
	q.Predicates, q.History = question.Predicates, question.History
	return nil
}

// entityIDs resolves names (case and white space ignored) to the user's
// entities in at most two queries: exact names through the name index, then
// aliases for the names left. Names of no entity are skipped; the name of
// an entity merged into another is the survivor's.
func (a *API) entityIDs(ctx context.Context, user string, names []string) ([]string, error) {
	if len(names) == 0 {
		return nil, nil
	}
	want := make([]string, 0, len(names))
	for _, n := range names {
		if n = strings.ToLower(strings.Join(strings.Fields(n), " ")); n != "" && !slices.Contains(want, n) {
			want = append(want, n)
		}
	}
	found := map[string]string{}
	lookup := func(q string, names []string) error {
		rows, err := a.db.QueryContext(ctx, q, user, names)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var n, id string
			if err := rows.Scan(&n, &id); err != nil {
				return err
			}
			if _, ok := found[n]; !ok {
				found[n] = id
			}
		}
		return rows.Err()
	}
	err := lookup(`SELECT lower(name), COALESCE(merged_into, entity_id) FROM `+proj.Schema+`.entities
		WHERE user_id = $1 AND lower(name) = ANY($2::text[])
		ORDER BY merged_into IS NULL DESC, memory_count DESC, entity_id`, want)
	if err != nil {
		return nil, err
	}
	var rest []string
	for _, n := range want {
		if _, ok := found[n]; !ok {
			rest = append(rest, n)
		}
	}
	if len(rest) > 0 {
		err = lookup(`SELECT n, COALESCE(e.merged_into, e.entity_id) FROM unnest($2::text[]) n
			JOIN `+proj.Schema+`.entities e ON e.user_id = $1 AND EXISTS (SELECT 1 FROM unnest(e.aliases) al WHERE lower(al) = n)
			ORDER BY e.merged_into IS NULL DESC, e.memory_count DESC, e.entity_id`, rest)
		if err != nil {
			return nil, err
		}
	}
	var out []string
	for _, n := range want {
		if id, ok := found[n]; ok && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out, nil
}
