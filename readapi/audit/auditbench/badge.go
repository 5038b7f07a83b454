package auditbench

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/strata-platform/strata/domain/audit"
	"github.com/strata-platform/strata/eventstore/storebench"
	readaudit "github.com/strata-platform/strata/readapi/audit"
)

var pngSignature = []byte("\x89PNG\r\n\x1a\n")

// badgePath is the badge route for the i-th input of kind (hosts unique
// to the run, so no render cache holds them before).
func (b *bench) badgePath(kind string, i int) string {
	score := (i * 37) % 101
	q := url.Values{"url": {fmt.Sprintf("https://%s-%d.%s.bench.example/", kind, i, b.run)}, "score": {strconv.Itoa(score)},
		"grade": {audit.GradeOf(score)}}
	return b.srv.URL + readaudit.Base + "/badge?" + q.Encode()
}

// badge GETs path from the next source address of the badge's budget
// (and GET /health from the same client first, the baseline, timed
// apart); header: If-None-Match or nothing. want is 200 (a PNG) or 304.
func (b *bench) badge(ctx context.Context, path string, want int, header ...string) (healthTook, took time.Duration, etag string, err error) {
	c, err := b.src.client("audit.badge", readaudit.BadgePerMinute)
	if err != nil {
		return 0, 0, "", err
	}
	if healthTook, err = timed(func() error { return b.health(ctx, c) }); err != nil {
		return 0, 0, "", err
	}
	var r reply
	took, err = timed(func() error {
		var err error
		r, err = call(ctx, c, http.MethodGet, path, nil, want, nil, header...)
		return err
	})
	if err != nil {
		return 0, 0, "", err
	}
	if want == http.StatusOK && (r.header.Get("Content-Type") != "image/png" || !bytes.HasPrefix(r.raw, pngSignature)) {
		return 0, 0, "", fmt.Errorf("auditbench: GET %s answered %s, %d bytes, not a PNG", path, r.header.Get("Content-Type"), len(r.raw))
	}
	return healthTook, took, r.header.Get("ETag"), nil
}

// badges measures GET .../badge: o.Badges distinct inputs (each rendered:
// a cache miss), then one input o.Badges times (rendered once before:
// from the cache), then that input with its ETag in If-None-Match (304),
// each request after GET /health from the same client.
func (b *bench) badges(ctx context.Context) ([]storebench.Figure, error) {
	o := b.o
	type round struct {
		what, figure string
		path         func(i int) string
		want         int
		header       []string
	}
	_, _, etag, err := b.badge(ctx, b.badgePath("repeated", 0), http.StatusOK) // renders it, and warms the route
	if err != nil {
		return nil, err
	}
	if etag == "" {
		return nil, fmt.Errorf("auditbench: the badge has no ETag")
	}
	for i := range min(10, o.Badges) { // warm the fonts and connections with inputs of their own
		if _, _, _, err := b.badge(ctx, b.badgePath("warm", i), http.StatusOK); err != nil {
			return nil, err
		}
	}
	var figs []storebench.Figure
	for _, r := range []round{
		{what: "distinct inputs, each rendered (cache misses)", figure: "distinct inputs: rendered (cache misses)",
			path: func(i int) string { return b.badgePath("distinct", i) }, want: http.StatusOK},
		{what: "one input repeated (the render cache)", figure: "one input repeated: 200 from the cache",
			path: func(int) string { return b.badgePath("repeated", 0) }, want: http.StatusOK},
		{what: "one input with If-None-Match (304)", figure: "one input, If-None-Match: 304",
			path: func(int) string { return b.badgePath("repeated", 0) }, want: http.StatusNotModified, header: []string{"If-None-Match", etag}},
	} {
		o.Logf("GET .../badge, %s, %d requests, each after GET /health from the same client ...", r.what, o.Badges)
		var healthLat, ourLat []time.Duration
		for i := range o.Badges {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			h, d, _, err := b.badge(ctx, r.path(i), r.want, r.header...)
			if err != nil {
				return nil, err
			}
			healthLat, ourLat = append(healthLat, h), append(ourLat, d)
		}
		o.Logf("  p50 %.2f p95 %.2f p99 %.2f ms; GET /health p50 %.2f p95 %.2f ms", quantile(ourLat, .5), quantile(ourLat, .95),
			quantile(ourLat, .99), quantile(healthLat, .5), quantile(healthLat, .95))
		name := "GET .../badge %s, " + r.figure + " (base: %s)"
		all := latencyFigures(name, "GET /health", ourLat, healthLat, badgeP95Ms)
		if r.want == http.StatusOK && r.path(1) != r.path(0) {
			figs = append(figs, all...) // p50, p95, p99 of the renders
		} else {
			figs = append(figs, all[1]) // p95
		}
	}
	o.Logf("the bench's clients sent from %d loopback source addresses", b.src.addresses())
	return figs, nil
}
