package identity

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	ident "github.com/strata-platform/strata/domain/identity"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/readapi/auth"
)

// errPageFull stops ReadAll once a page is full.
var errPageFull = errors.New("page full")

// adminEvents serves the event log to ADMIN users, filtered by stream, type,
// position and recording time, one page at a time (the HTTP face of
// `strata events export`).
func (h *handlers) adminEvents(w http.ResponseWriter, r *http.Request) {
	p, _ := auth.From(r.Context())
	if p.Role != ident.RoleAdmin {
		fail(w, r, kernel.Forbidden("the event log is for ADMIN users"))
		return
	}
	q := r.URL.Query()
	f := eventstore.Filter{StreamID: q.Get("stream"), FromPosition: 1, PageSize: 1000}
	for _, t := range q["type"] {
		for _, n := range strings.Split(t, ",") {
			if n = strings.TrimSpace(n); n != "" {
				f.Types = append(f.Types, n)
			}
		}
	}
	if v := q.Get("from_position"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 1 {
			fail(w, r, kernel.Invalid("from_position", "integer:min:1", "from_position must be a whole number of at least 1"))
			return
		}
		f.FromPosition = n
	}
	if v := q.Get("until"); v != "" {
		t, err := time.Parse(time.RFC3339Nano, v)
		if err != nil {
			fail(w, r, kernel.Invalid("until", "rfc3339", "until must be an RFC 3339 time such as 2026-11-22T10:00:00Z"))
			return
		}
		f.Until = t
	}
	limit := 100
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 1000 {
			fail(w, r, kernel.Invalid("limit", "range:1..1000", "limit must be between 1 and 1000"))
			return
		}
		limit = n
	}
	events := []eventstore.Envelope{}
	more := false
	err := h.svc.Store().ReadAll(r.Context(), f, func(e eventstore.Envelope) error {
		if len(events) == limit {
			more = true
			return errPageFull
		}
		events = append(events, redact(e))
		return nil
	})
	if err != nil && !errors.Is(err, errPageFull) {
		fail(w, r, err)
		return
	}
	out := map[string]any{"events": events, "count": len(events), "has_more": more}
	if more {
		out["next_from_position"] = events[len(events)-1].Position + 1
	}
	reply(w, r, http.StatusOK, out)
}

// secret reports whether a payload member is one the admin log never
// shows: every hash (passwords, keys, client secrets, codes, refresh tokens,
// session cookies) and every sealed value (signing keys, stored tokens).
func secret(member string) bool {
	return strings.HasSuffix(member, "_hash") || strings.HasPrefix(member, "sealed_")
}

// redact replaces secret payload members with "[redacted]".
func redact(e eventstore.Envelope) eventstore.Envelope {
	e.Event = nil
	var m map[string]json.RawMessage
	if json.Unmarshal(e.Payload, &m) != nil {
		return e
	}
	changed := false
	for f := range m {
		if secret(f) {
			m[f] = json.RawMessage(`"[redacted]"`)
			changed = true
		}
	}
	if changed {
		if b, err := json.Marshal(m); err == nil {
			e.Payload = b
		}
	}
	return e
}
