package briefing

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"time"

	cmd "github.com/strata-platform/strata/commands/briefing"
	"github.com/strata-platform/strata/domain/briefing"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/readapi/httpx"
)

// Query limits of the briefing.
const (
	defaultSinceHours = 24
	maxSinceHours     = 8760
	defaultLimit      = 50
	maxLimit          = 500
)

// briefing serves GET /agent-briefing.
func (a *API) briefing(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	name := q.Get("agent")
	if name == "" {
		name = "ir_agent"
	}
	if err := a.onlyParams(r, "agent", "since_hours", "limit"); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	agent, err := a.svc.Agent(name)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	since, err := httpx.IntParam(r, "since_hours", defaultSinceHours, 1, maxSinceHours)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	limit, err := httpx.IntParam(r, "limit", defaultLimit, 1, maxLimit)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	b, err := a.read(r.Context(), agent, a.svc.Now(), since, limit)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	_ = httpx.WriteJSON(w, http.StatusOK, b)
}

// consume serves POST /consume-signal?signal_id=&agent= (or the two in a
// JSON body).
func (a *API) consume(w http.ResponseWriter, r *http.Request) {
	if err := a.onlyParams(r, "signal_id", "agent"); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	q := r.URL.Query()
	id, agent := q.Get("signal_id"), q.Get("agent")
	if r.ContentLength != 0 && r.Body != nil && r.Body != http.NoBody {
		// The seed passes both in the query; a JSON body {signal_id, agent}
		// is read too, and must not contradict the query.
		var body struct {
			SignalID string `json:"signal_id"`
			Agent    string `json:"agent"`
		}
		if err := httpx.DecodeJSON(r, &body); err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		for _, f := range []struct{ name, query, body string }{{"signal_id", id, body.SignalID}, {"agent", agent, body.Agent}} {
			if f.query != "" && f.body != "" && f.query != f.body {
				httpx.WriteError(w, r, kernel.Invalid(f.name, "conflict", f.name+" differs between the query and the body"))
				return
			}
		}
		if id == "" {
			id = body.SignalID
		}
		if agent == "" {
			agent = body.Agent
		}
	}
	if id == "" {
		httpx.WriteError(w, r, kernel.Invalid("signal_id", "required", "the signal_id query parameter is required"))
		return
	}
	if agent == "" {
		httpx.WriteError(w, r, kernel.Invalid("agent", "required", "the agent query parameter is required"))
		return
	}
	c, err := a.svc.Consume(r.Context(), agent, id)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	_ = httpx.WriteJSON(w, http.StatusOK, c)
}

// observations serves POST /observations: a JSON array of observations,
// an object {"observations": [...]}, or NDJSON (application/x-ndjson, one
// observation a line). All or nothing: an invalid observation records
// none, and the error names it.
func (a *API) observations(w http.ResponseWriter, r *http.Request) {
	obs, err := decodeObservations(r)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	out, err := a.svc.Ingest(r.Context(), obs, "api")
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	_ = httpx.WriteJSON(w, http.StatusOK, out)
}

// decodeObservations reads the three accepted bodies.
func decodeObservations(r *http.Request) ([]briefing.Observation, error) {
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mt == "application/x-ndjson" || mt == "application/jsonl" {
		return DecodeNDJSON(r.Body, briefing.MaxBatch)
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, &kernel.Error{Kind: kernel.KindTooLarge, Field: "body", Rule: "max_bytes",
				Message: fmt.Sprintf("the body is over %d bytes; split the batch", mbe.Limit)}
		}
		return nil, kernel.Invalid("body", "read", "the request body could not be read")
	}
	if mt != "application/json" {
		return nil, &kernel.Error{Kind: kernel.KindUnsupportedMediaType, Field: "Content-Type", Rule: "media_type",
			Message: "Content-Type must be application/json or application/x-ndjson"}
	}
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) > 0 && trimmed[0] == '[' {
		var list []briefing.Observation
		if err := httpx.DecodeJSONBytes(body, &list); err != nil {
			return nil, err
		}
		return list, nil
	}
	var wrapped struct {
		Observations []briefing.Observation `json:"observations"`
	}
	if err := httpx.DecodeJSONBytes(body, &wrapped); err != nil {
		return nil, err
	}
	return wrapped.Observations, nil
}

// DecodeNDJSON reads one observation a line (blank lines skipped), each
// checked as every JSON body is (httpx.DecodeJSONBytes: UTF-8, no NUL,
// strict fields); more than max observations (max > 0) is refused. The
// route and `strata briefing import` read NDJSON with it.
func DecodeNDJSON(body io.Reader, max int) ([]briefing.Observation, error) {
	sc := bufio.NewScanner(body)
	sc.Buffer(make([]byte, 64*1024), 4<<20)
	var out []briefing.Observation
	line := 0
	for sc.Scan() {
		line++
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		if max > 0 && len(out) == max {
			return nil, kernel.Invalid("observations", fmt.Sprintf("max:%d", max),
				fmt.Sprintf("at most %d observations in one batch; split it", max))
		}
		var o briefing.Observation
		if err := httpx.DecodeJSONBytes(text, &o); err != nil {
			var ke *kernel.Error
			if errors.As(err, &ke) {
				return nil, &kernel.Error{Kind: ke.Kind, Field: fmt.Sprintf("line %d: %s", line, ke.Field), Rule: ke.Rule,
					Message: fmt.Sprintf("line %d: %s", line, ke.Message)}
			}
			return nil, err
		}
		out = append(out, o)
	}
	if err := sc.Err(); err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, &kernel.Error{Kind: kernel.KindTooLarge, Field: "body", Rule: "max_bytes",
				Message: fmt.Sprintf("the body is over %d bytes; split the batch", mbe.Limit)}
		}
		return nil, kernel.Invalid("body", "ndjson", "a line is too long or the body could not be read")
	}
	return out, nil
}

// runs serves POST /runs {"algo": "..."|"all", "as_of": "YYYY-MM-DD"}:
// an operator's on-demand run, answered with the runs' reports.
func (a *API) runs(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Algo string `json:"algo"`
		AsOf string `json:"as_of"`
	}
	if err := httpx.DecodeJSON(r, &req); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	day := briefing.Day(a.svc.Now())
	if req.AsOf != "" {
		d, err := time.Parse(time.DateOnly, req.AsOf)
		if err != nil {
			httpx.WriteError(w, r, kernel.Invalid("as_of", "date", "as_of must be a date YYYY-MM-DD"))
			return
		}
		day = d
	}
	var reports []cmd.RunReport
	var err error
	switch req.Algo {
	case "all":
		reports, err = a.svc.RunAll(r.Context(), day, briefing.TriggerAPI)
	case "":
		err = kernel.Invalid("algo", "required", "algo is required: one of "+strings.Join(briefing.Algorithms(), ", ")+", or all")
	default:
		var rep cmd.RunReport
		rep, err = a.svc.Run(r.Context(), req.Algo, day, briefing.TriggerAPI)
		reports = []cmd.RunReport{rep}
	}
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	_ = httpx.WriteJSON(w, http.StatusOK, map[string]any{"runs": reports})
}

// onlyParams refuses query parameters the route does not read.
func (a *API) onlyParams(r *http.Request, names ...string) error {
	for k := range r.URL.Query() {
		known := false
		for _, n := range names {
			known = known || k == n
		}
		if !known {
			return kernel.Invalid(k, "unknown_parameter", "unknown query parameter "+k+"; this route reads "+strings.Join(names, ", "))
		}
	}
	return nil
}
