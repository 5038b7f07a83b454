package hackathon

import (
	"context"
	stdsql "database/sql"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/strata-platform/strata/domain/hackathon"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/readapi/httpx"
)

// MaxQueryLength bounds the search query, in characters.
const MaxQueryLength = 200

// Result types of the search.
const (
	ResultHackathon  = "hackathon"
	ResultTeam       = "team"
	ResultSubmission = "submission"
)

// searchResult is one full-text match. Snippet is a plain-text extract of
// the description with the matched words between ** and ** ("" without a
// description); Rank is PostgreSQL's ts_rank (higher is better).
type searchResult struct {
	Type        string  `json:"type"`
	ID          string  `json:"id"`
	HackathonID string  `json:"hackathon_id"`
	Title       string  `json:"title"`
	Snippet     string  `json:"snippet"`
	Rank        float64 `json:"rank"`
}

// searchView is a page of results and the query they answer.
type searchView struct {
	Query string `json:"query"`
	listOf[searchResult]
}

// searchScope says where to search: every hackathon the user may see, or
// the teams and submissions of one hackathon (of one track for
// submissions when track is set).
type searchScope struct {
	user      string
	hackathon string // "" for all
	track     string
}

// queryParam reads the required query parameter.
func queryParam(r *http.Request) (string, error) {
	q := strings.TrimSpace(r.URL.Query().Get("query"))
	if q == "" {
		return "", kernel.Invalid("query", "required", "query is required: the words to search for")
	}
	if utf8.RuneCountInString(q) > MaxQueryLength {
		return "", kernel.Invalid("query", "max_length", "query must be at most "+strconv.Itoa(MaxQueryLength)+" characters")
	}
	return q, nil
}

// search is GET /api/v1/search: full-text search over the hackathons,
// teams and submissions the caller may see (a DRAFT only by its
// organisers), best match first.
func (a *API) search(w http.ResponseWriter, r *http.Request, c caller) {
	q, err := queryParam(r)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	limit, offset, err := page(r)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	v, err := a.runSearch(r.Context(), q, searchScope{user: c.UserID}, limit, offset)
	writeJSON(w, r, http.StatusOK, v, err)
}

// searchHackathon is GET /api/v1/search/{hackathon_id}: full-text search
// over one hackathon's teams and submissions; track_id keeps the
// submissions of that track (teams are not filtered).
func (a *API) searchHackathon(w http.ResponseWriter, r *http.Request, c caller) {
	q, err := queryParam(r)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	limit, offset, err := page(r)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	track := r.URL.Query().Get("track_id")
	err = a.view(r, c, func(h *hackathon.Hackathon) error {
		if _, ok := h.Tracks[track]; track != "" && !ok {
			return hackathon.TrackNotFound(track)
		}
		return nil
	})
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	v, err := a.runSearch(r.Context(), q, searchScope{user: c.UserID, hackathon: hid(r), track: track}, limit, offset)
	writeJSON(w, r, http.StatusOK, v, err)
}

// headlineOptions make ts_headline's snippet plain text: matches between
// ** and **, at most two fragments.
const headlineOptions = `StartSel="**", StopSel="**", MaxWords=30, MinWords=12, MaxFragments=2, FragmentDelimiter=" ... "`

// runSearch ranks the matches of q in scope with websearch_to_tsquery
// against the search columns of the read model: ts_rank desc, then id;
// snippets are made for the page only. The total counts every match.
func (a *API) runSearch(ctx context.Context, q string, s searchScope, limit, offset int) (searchView, error) {
	v := searchView{Query: q, listOf: listOf[searchResult]{Items: []searchResult{}, Limit: limit, Offset: offset}}
	args := []any{q, s.user, limit, offset}
	// where keeps the rows (alias x) of hackathons (alias h) the user may
	// see, of the scope's hackathon.
	const visible = `(h.status <> 'DRAFT' OR $2 = ANY(h.organizers))`
	where := visible
	if s.hackathon != "" {
		args = append(args, s.hackathon)
		where += ` AND x.hackathon_id = $5::uuid`
	}
	trackFilter := ""
	if s.track != "" {
		args = append(args, s.track)
		trackFilter = ` AND x.track_id::text = $` + strconv.Itoa(len(args))
	}
	var parts []string
	if s.hackathon == "" {
		parts = append(parts, `SELECT 'hackathon' AS type, h.hackathon_id AS id, h.hackathon_id, h.name AS title, h.description,
			ts_rank(h.search, q.q) AS rank
			FROM rm_hackathon_v1.hackathons h, q WHERE h.search @@ q.q AND `+visible)
	}
	parts = append(parts, `SELECT 'team' AS type, x.team_id AS id, x.hackathon_id, x.name AS title, x.description, ts_rank(x.search, q.q) AS rank
			FROM rm_hackathon_v1.teams x JOIN rm_hackathon_v1.hackathons h ON h.hackathon_id = x.hackathon_id, q
			WHERE x.search @@ q.q AND `+where,
		`SELECT 'submission', x.submission_id, x.hackathon_id, x.project_name, x.description, ts_rank(x.search, q.q)
			FROM rm_hackathon_v1.submissions x JOIN rm_hackathon_v1.hackathons h ON h.hackathon_id = x.hackathon_id, q
			WHERE x.search @@ q.q AND `+where+trackFilter)
	rows, err := a.db.QueryContext(ctx, `WITH q AS (SELECT websearch_to_tsquery('english', $1) AS q),
		hits AS (`+strings.Join(parts, "\n\t\tUNION ALL\n\t\t")+`),
		top AS (SELECT * FROM hits ORDER BY rank DESC, id LIMIT $3 OFFSET $4)
		SELECT c.total, t.type, t.id::text, t.hackathon_id::text, t.title,
			CASE WHEN t.description = '' THEN '' ELSE ts_headline('english', t.description, (SELECT q FROM q), '`+headlineOptions+`') END,
			t.rank
		FROM (SELECT count(*) AS total FROM hits) c LEFT JOIN top t ON true
		ORDER BY t.rank DESC, t.id`, args...)
	if err != nil {
		return v, err
	}
	defer rows.Close()
	for rows.Next() {
		var typ, id, hackathonID, title, snippet stdsql.NullString
		var rank stdsql.NullFloat64
		if err := rows.Scan(&v.Total, &typ, &id, &hackathonID, &title, &snippet, &rank); err != nil {
			return v, err
		}
		if typ.Valid { // the one row of a page without matches has none
			v.Items = append(v.Items, searchResult{Type: typ.String, ID: id.String, HackathonID: hackathonID.String,
				Title: title.String, Snippet: snippet.String, Rank: rank.Float64})
		}
	}
	return v, rows.Err()
}
