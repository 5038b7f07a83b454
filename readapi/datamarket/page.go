package datamarket

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/strata-platform/strata/domain/datamarket"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/readapi/httpx"
)

// Paging limits (the seed: per_page max 500).
const (
	DefaultPerPage = 50
	MaxPerPage     = 500
	// MaxPage bounds how deep a page may be: deeper pages are read by
	// narrowing the query (search, filters), as portals ask.
	MaxPage = 100_000
)

// page serves one dataset's rows: page, per_page, search, the dataset's
// filters and version, in the order of the rows in the imported file.
func (a *API) page(d *datamarket.Dataset) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		qq, pg, per, version, err := parsePage(r, d)
		if err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		p, err := a.q.at(r.Context(), d.Key, version)
		if err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		body := map[string]any{d.Envelope: []json.RawMessage{}, "total": 0, "page": pg, "per_page": per, "has_more": false,
			"dataset": d.Key}
		if p == nil {
			body["status"], body["version"] = "no_data", nil
			body["message"] = "no data has been imported for " + d.Key + " yet (strata data import " + d.Key + " FILE)"
			_ = httpx.WriteJSON(w, http.StatusOK, body)
			return
		}
		if notModified(w, r, d, p) {
			return
		}
		qq.limit++ // one more row says whether a next page exists
		// The rows and their count are read at the same time (a search's
		// count is a query of its own).
		var total int64
		var exact bool
		var cerr error
		counted := make(chan struct{})
		go func() {
			defer close(counted)
			total, exact, cerr = a.q.count(r.Context(), d, p, qq)
		}()
		recs, err := a.q.rows(r.Context(), d, p, qq)
		<-counted
		if err == nil {
			err = cerr
		}
		if err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		more := len(recs) > per
		if more {
			recs = recs[:per]
		}
		body[d.Envelope], body["total"], body["has_more"] = recs, total, more
		body["total_relation"] = "eq"
		if !exact {
			body["total_relation"] = "gte"
		}
		body["status"], body["version"] = p.Status, p.Version
		if more {
			next := *r.URL
			v := next.Query()
			v.Set("page", strconv.Itoa(pg+1))
			v.Set("version", strconv.Itoa(p.Version)) // the next page reads the same version
			next.RawQuery = v.Encode()
			w.Header().Set("Link", "<"+next.RequestURI()+`>; rel="next"`)
		}
		_ = httpx.WriteJSON(w, http.StatusOK, body)
	}
}

// parsePage reads and checks a page's parameters.
func parsePage(r *http.Request, d *datamarket.Dataset) (query, int, int, int, error) {
	qq := query{filters: map[string]any{}}
	pg, err := httpx.IntParam(r, "page", 1, 1, MaxPage)
	if err != nil {
		return qq, 0, 0, 0, err
	}
	per, err := httpx.IntParam(r, "per_page", DefaultPerPage, 1, MaxPerPage)
	if err != nil {
		return qq, 0, 0, 0, err
	}
	version, err := httpx.IntParam(r, "version", 0, 1, 1<<30)
	if err != nil {
		return qq, 0, 0, 0, err
	}
	if qq.search, err = searchQuery(r.URL.Query().Get("search")); err != nil {
		return qq, 0, 0, 0, err
	}
	for _, f := range d.Filters {
		v, err := filterValue(r, f)
		if err != nil {
			return qq, 0, 0, 0, err
		}
		if v != nil {
			qq.filters[f.Column] = v
		}
	}
	qq.limit, qq.offset = per, (pg-1)*per
	return qq, pg, per, version, nil
}

// filterValue reads one filter parameter: nil when absent (or a flag that
// is false).
func filterValue(r *http.Request, f datamarket.Filter) (any, error) {
	raw, present := r.URL.Query()[f.Param]
	if !present || len(raw) == 0 || strings.TrimSpace(raw[0]) == "" {
		return nil, nil
	}
	v := strings.TrimSpace(raw[0])
	switch {
	case f.Flag:
		b, ok := boolParam(v)
		if !ok {
			return nil, kernel.Invalid(f.Param, "boolean", f.Param+" must be true or false")
		}
		if !b {
			return nil, nil
		}
		return true, nil
	case len(f.Values) > 0:
		e, err := enumParam(r, f.Param, f.Values)
		if err != nil {
			return nil, err
		}
		return e, nil
	}
	if len([]rune(v)) > 100 {
		return nil, kernel.Invalid(f.Param, "max_length:100", f.Param+" has at most 100 characters")
	}
	return v, nil
}

// enumParam reads an optional parameter that must be one of values,
// compared without regard to case (every data route reads its keys so):
// "" when absent.
func enumParam(r *http.Request, name string, values []string) (string, error) {
	v := strings.TrimSpace(r.URL.Query().Get(name))
	if v == "" {
		return "", nil
	}
	for _, ok := range values {
		if strings.EqualFold(v, ok) {
			return ok, nil
		}
	}
	return "", kernel.Invalid(name, "enum", name+" must be one of "+strings.Join(values, ", "))
}

func boolParam(v string) (bool, bool) {
	switch strings.ToLower(v) {
	case "true", "1":
		return true, true
	case "false", "0":
		return false, true
	}
	return false, false
}

// notModified sets the page's validators: an ETag naming the version and
// the query, Last-Modified the version's publication. A client holding
// them gets 304 until the data or its query changes.
func notModified(w http.ResponseWriter, r *http.Request, d *datamarket.Dataset, p *pointer) bool {
	tag := etag(d.Key, p.Version, r.URL.Query())
	h := w.Header()
	h.Set("ETag", tag)
	h.Set("Last-Modified", p.Modified.UTC().Format(http.TimeFormat))
	h.Set("Cache-Control", "no-cache")
	if inm := r.Header.Get("If-None-Match"); inm != "" {
		if matchTag(inm, tag) {
			w.WriteHeader(http.StatusNotModified)
			return true
		}
		return false
	}
	// Compared at full precision: two switches within one second must
	// not leave a client on the first (the header has whole seconds).
	if ims, err := http.ParseTime(r.Header.Get("If-Modified-Since")); err == nil && !p.Modified.After(ims) {
		w.WriteHeader(http.StatusNotModified)
		return true
	}
	return false
}

// etag is a weak tag of a version and a canonical form of the query.
func etag(dataset string, version int, q url.Values) string {
	keys := make([]string, 0, len(q))
	for k := range q {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	h := fnv.New64a()
	for _, k := range keys {
		fmt.Fprintf(h, "%s=%s&", k, strings.Join(q[k], ","))
	}
	return fmt.Sprintf(`W/"%s-v%d-%x"`, dataset, version, h.Sum64())
}

// matchTag compares If-None-Match with a tag weakly (RFC 9110 8.8.3.2).
func matchTag(header, tag string) bool {
	want := strings.TrimPrefix(tag, "W/")
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimSpace(t)
		if t == "*" || strings.TrimPrefix(t, "W/") == want {
			return true
		}
	}
	return false
}
