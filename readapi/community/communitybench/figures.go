package communitybench

import (
	"context"
	"fmt"
	"net/http"

	"github.com/google/uuid"

	"github.com/strata-platform/strata/domain/community"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/storebench"
	"github.com/strata-platform/strata/readapi/identity/identitybench"
)

// Targets of the issue.
const (
	listP95Ms = 20
	rsvpP95Ms = 20
)

const base = "/api/v1/community-events"

// lists measures the list routes against GET /{event_id} (one row of the
// same read model, same authentication), in alternating rounds. Pages
// cycle through the first ten, as people page.
func (s *server) lists(ctx context.Context, t *tenant) ([]storebench.Figure, error) {
	o := s.o
	single := func(i int) string { return base + "/" + t.upcoming[(i*7919)%len(t.upcoming)] }
	routes := []struct {
		name string
		path func(i int) string
	}{
		{"GET /browse (by start_time)", func(i int) string { return fmt.Sprintf("%s/browse?offset=%d", base, (i%10)*20) }},
		{"GET /browse?sort_by=attendee_count&sort_order=desc", func(i int) string {
			return fmt.Sprintf("%s/browse?sort_by=attendee_count&sort_order=desc&offset=%d", base, (i%10)*20)
		}},
		{"GET /?filter_type=upcoming (list)", func(i int) string {
			return fmt.Sprintf("%s/?filter_type=upcoming&limit=50&offset=%d", base, (i%10)*50)
		}},
		{"GET /my-events", func(i int) string { return base + "/my-events" }},
	}
	get := func(path func(int) string) func(i int) error {
		return func(i int) error { return s.call(ctx, t, i, http.MethodGet, path(i), "", http.StatusOK) }
	}
	for _, r := range append(routes, routes[0]) { // warm-up
		if _, err := run(ctx, o.Clients, min(o.Requests, 4*o.Clients), get(r.path)); err != nil {
			return nil, err
		}
	}
	var figs []storebench.Figure
	for _, r := range routes {
		o.Logf("%s, %d clients ...", r.name, o.Clients)
		var baseLoad, ours load
		for range o.Rounds {
			b, err := run(ctx, o.Clients, o.Requests, get(single))
			if err != nil {
				return nil, err
			}
			baseLoad.add(b)
			c, err := run(ctx, o.Clients, o.Requests, get(r.path))
			if err != nil {
				return nil, err
			}
			ours.add(c)
		}
		o.Logf("  p50 %.2f p95 %.2f ms (%.0f req/s); GET one event p50 %.2f p95 %.2f ms", identitybench.Quantile(ours.lat, .5),
			identitybench.Quantile(ours.lat, .95), ours.rate(), identitybench.Quantile(baseLoad.lat, .5), identitybench.Quantile(baseLoad.lat, .95))
		figs = append(figs, storebench.Figure{Name: r.name + " p95", Unit: storebench.UnitMs, Ours: identitybench.Quantile(ours.lat, .95),
			Baseline: identitybench.Quantile(baseLoad.lat, .95), Target: storebench.Target{Max: listP95Ms}, Samples: len(ours.lat)})
	}
	return figs, nil
}

// rsvpBody picks command i's status: mostly going, some changes of mind.
func rsvpBody(i int) string {
	switch i % 5 {
	case 3:
		return `{"status":"interested"}`
	case 4:
		return `{"status":"not_going"}`
	}
	return `{"status":"going","response_message":"see you there"}`
}

// rsvp sends RSVP command i: member i mod members to an upcoming event.
// A refusal at capacity (400) is a served command.
func (s *server) rsvp(ctx context.Context, t *tenant, i int) error {
	ev := t.upcoming[(i*104729)%len(t.upcoming)]
	return s.call(ctx, t, i, http.MethodPost, base+"/"+ev+"/rsvp", rsvpBody(i), http.StatusCreated, http.StatusBadRequest)
}

// appendOne is the baseline of the RSVP figures: one small event appended
// to a new stream through the same store.
func (s *server) appendOne(ctx context.Context, t *tenant) func(int) error {
	return func(int) error {
		id := uuid.Must(uuid.NewV7()).String()
		_, err := s.store.Append(ctx, eventstore.Stream{Type: community.StreamFeed, ID: "bench-baseline-" + id}, eventstore.NoStream,
			&community.CalendarFeedRevoked{FeedID: id, TenantID: t.org, UserID: t.members[0]})
		return err
	}
}

// rsvpLatency measures the RSVP command over HTTP against appending one
// event to a new stream through the same store (no HTTP, no fold, no wait
// for the read model), in alternating rounds.
func (s *server) rsvpLatency(ctx context.Context, t *tenant) ([]storebench.Figure, error) {
	o := s.o
	o.Logf("POST /{event_id}/rsvp, %d clients ...", o.Clients)
	appendOne := s.appendOne(ctx, t)
	var baseLoad, ours load
	offset := 0
	for range o.Rounds {
		b, err := run(ctx, o.Clients, o.Requests, appendOne)
		if err != nil {
			return nil, err
		}
		baseLoad.add(b)
		c, err := run(ctx, o.Clients, o.Requests, func(i int) error { return s.rsvp(ctx, t, offset+i) })
		if err != nil {
			return nil, err
		}
		offset += o.Requests
		ours.add(c)
	}
	o.Logf("  RSVP p50 %.2f p95 %.2f ms (%.0f/s); bare append p50 %.2f p95 %.2f ms (%.0f/s)", identitybench.Quantile(ours.lat, .5),
		identitybench.Quantile(ours.lat, .95), ours.rate(), identitybench.Quantile(baseLoad.lat, .5), identitybench.Quantile(baseLoad.lat, .95), baseLoad.rate())
	name := fmt.Sprintf("POST /{event_id}/rsvp, %d clients", o.Clients)
	return []storebench.Figure{
		{Name: name + " (rate)", Unit: "cmd/s", Ours: ours.rate(), Baseline: baseLoad.rate(), Samples: len(ours.lat)},
		{Name: name + " p95", Unit: storebench.UnitMs, Ours: identitybench.Quantile(ours.lat, .95), Baseline: identitybench.Quantile(baseLoad.lat, .95),
			Target: storebench.Target{Max: rsvpP95Ms}, Samples: len(ours.lat)},
	}, nil
}

// sustained paces RSVP commands at o.Rate per second for o.Duration and
// reports the rate reached and the latency under that load, next to the
// bare append paced the same way.
func (s *server) sustained(ctx context.Context, t *tenant) ([]storebench.Figure, error) {
	o := s.o
	o.Logf("bare appends, then RSVP commands, paced at %d/s for %s each ...", o.Rate, o.Duration)
	baseLoad, err := paced(ctx, o.Rate, o.Duration, s.appendOne(ctx, t))
	if err != nil {
		return nil, err
	}
	ours, err := paced(ctx, o.Rate, o.Duration, func(i int) error { return s.rsvp(ctx, t, 1_000_000+i) })
	if err != nil {
		return nil, err
	}
	o.Logf("  %.0f commands/s, p50 %.2f p95 %.2f p99 %.2f ms; bare appends %.0f/s, p95 %.2f ms", ours.rate(),
		identitybench.Quantile(ours.lat, .5), identitybench.Quantile(ours.lat, .95), identitybench.Quantile(ours.lat, .99), baseLoad.rate(), identitybench.Quantile(baseLoad.lat, .95))
	name := fmt.Sprintf("RSVP commands paced at %d/s for %s", o.Rate, o.Duration)
	return []storebench.Figure{
		{Name: name + " (rate reached)", Unit: "cmd/s", Ours: ours.rate(), Baseline: baseLoad.rate(),
			Target: storebench.Target{Min: float64(o.Rate) * 0.98}, Samples: len(ours.lat)},
		{Name: name + " p95", Unit: storebench.UnitMs, Ours: identitybench.Quantile(ours.lat, .95), Baseline: identitybench.Quantile(baseLoad.lat, .95),
			Target: storebench.Target{Max: rsvpP95Ms}, Samples: len(ours.lat)},
	}, nil
}
