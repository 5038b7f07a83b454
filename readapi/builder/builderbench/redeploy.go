package builderbench

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/strata-platform/strata/eventstore/storebench"
)

// founderIdea is the idea of the founder's app that is redeployed.
const founderIdea = "a marketplace for handmade pottery"

// maxFailures is how many failed requests of a loop are described.
const maxFailures = 5

// redeploys signs a founder in, generates their app, starts it through
// its preview's API (the baseline of the redeploy durations), puts
// o.Records records in it, then runs the request loop during o.Redeploys
// redeploys and again for as long without one.
func (b *bench) redeploys(ctx context.Context) ([]storebench.Figure, error) {
	o := b.o
	o.Logf("redeploy: signing in a founder through the OAuth flow (/auth/login, sign-in, consent, /auth/callback) ...")
	founder, err := b.signIn(ctx)
	if err != nil {
		return nil, err
	}
	g, err := b.generate(ctx, founder, founderIdea)
	if err != nil {
		return nil, err
	}
	e := g.entities[0]
	api := b.bl.URL + "/api/preview/" + g.chatID + "/api/" + e.Plural
	start := time.Now()
	if _, err := get(ctx, b.http, api, http.StatusOK); err != nil {
		return nil, fmt.Errorf("the app's first start: %w", err)
	}
	firstStart := time.Since(start)
	o.Logf("  the founder's app %s (idea %q) started through its preview in %.0f ms; %d %s records ...", g.chatID, founderIdea,
		ms(firstStart), o.Records, e.Plural)
	for i := range o.Records {
		rec, err := record(e, i)
		if err != nil {
			return nil, err
		}
		if _, err := postJSON(ctx, b.http, api, rec, http.StatusCreated); err != nil {
			return nil, err
		}
	}
	o.Logf("  GET api/%s from %d clients during %d redeploys (POST /api/build/redeploy, %s apart) ...", e.Plural, o.Clients, o.Redeploys, o.Pause)
	var took []time.Duration
	during, err := b.loop(ctx, api, o.Records, func(ctx context.Context) error {
		for i := range o.Redeploys {
			start := time.Now()
			raw, err := postJSON(ctx, founder, b.bl.URL+"/api/build/redeploy", map[string]string{"companyId": g.chatID}, http.StatusOK)
			d := time.Since(start)
			if err != nil {
				return fmt.Errorf("redeploy %d: %w", i+1, err)
			}
			var res struct {
				Switched   bool              `json:"switched"`
				DurationMs int64             `json:"durationMs"`
				Probes     []json.RawMessage `json:"probes"`
			}
			if err := json.Unmarshal(raw, &res); err != nil || !res.Switched {
				return fmt.Errorf("redeploy %d: not switched to a healthy version: %.500s (%v)", i+1, raw, err)
			}
			took = append(took, d)
			o.Logf("    redeploy %d: %.0f ms (the server's durationMs %d, %d probes)", i+1, ms(d), res.DurationMs, len(res.Probes))
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(o.Pause):
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	during.log(o, "during the redeploys")
	base, err := b.loop(ctx, api, o.Records, func(ctx context.Context) error {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(during.elapsed):
			return nil
		}
	})
	if err != nil {
		return nil, err
	}
	base.log(o, "without a redeploy (baseline)")
	return []storebench.Figure{
		{Name: fmt.Sprintf("preview API answered during %d redeploys, %d clients (%d sent, %d failed)", o.Redeploys, o.Clients,
			during.sent, during.failed), Unit: "%", Ours: during.answered(), Baseline: base.answered(),
			Target: storebench.Target{Min: 100}, Samples: during.sent},
		{Name: fmt.Sprintf("preview API p99 during redeploys, %d clients (base: no redeploy)", o.Clients), Unit: storebench.UnitMs,
			Ours: quantile(during.lat, .99), Baseline: quantile(base.lat, .99), Samples: len(during.lat)},
		{Name: fmt.Sprintf("redeploy, median of %d (base: the app's first start)", len(took)), Unit: storebench.UnitMs,
			Ours: quantile(took, .5), Baseline: ms(firstStart), Samples: len(took)},
		{Name: fmt.Sprintf("redeploy, slowest of %d (base: the app's first start)", len(took)), Unit: storebench.UnitMs,
			Ours: quantile(took, 1), Baseline: ms(firstStart), Samples: len(took)},
	}, nil
}

// record is record i of entity e: every field with a valid value of its
// type.
func record(e entity, i int) (map[string]any, error) {
	r := map[string]any{}
	for _, f := range e.Fields {
		var v any
		switch f.Type {
		case "text":
			v = fmt.Sprintf("Bench %s %d", f.Name, i)
		case "longtext":
			v = fmt.Sprintf("Bench %s %d,\nwritten by strata bench builder.", f.Name, i)
		case "number":
			v = i + 1
		case "money":
			v = fmt.Sprintf("%d.50", 10+i)
		case "date":
			v = fmt.Sprintf("2026-03-%02d", 1+i%28)
		case "time":
			v = fmt.Sprintf("%02d:30", 8+i%12)
		case "email":
			v = fmt.Sprintf("bench%d@example.com", i)
		case "url":
			v = fmt.Sprintf("https://example.com/bench/%d", i)
		case "phone":
			v = fmt.Sprintf("+49 30 555 %04d", i)
		case "bool":
			v = i%2 == 0
		case "enum":
			if len(f.Options) == 0 {
				return nil, fmt.Errorf("field %s of %s: an enum without options", f.Name, e.Plural)
			}
			v = f.Options[i%len(f.Options)]
		default:
			return nil, fmt.Errorf("field %s of %s: unknown type %q", f.Name, e.Plural, f.Type)
		}
		r[f.Name] = v
	}
	return r, nil
}

// loopResult is what a request loop saw.
type loopResult struct {
	sent, failed int
	lat          []time.Duration // of the answered requests
	elapsed      time.Duration
	failures     []string // the first maxFailures
}

// answered is the share of requests answered, in percent.
func (r loopResult) answered() float64 {
	if r.sent == 0 {
		return 0
	}
	return 100 * float64(r.sent-r.failed) / float64(r.sent)
}

func (r loopResult) log(o Options, what string) {
	o.Logf("  %s: %d requests in %.1f s, %d failed; answered p50 %.2f p99 %.2f max %.2f ms", what, r.sent, r.elapsed.Seconds(),
		r.failed, quantile(r.lat, .5), quantile(r.lat, .99), quantile(r.lat, 1))
	for _, f := range r.failures {
		o.Logf("    failed: %s", f)
	}
}

// loop sends GET url from o.Clients clients, each request after the last
// one's answer, until work returns; a request fails unless it answers 200
// with a JSON array of records elements. A request is never cut by the
// loop's end: the clients stop starting new ones.
func (b *bench) loop(ctx context.Context, url string, records int, work func(ctx context.Context) error) (loopResult, error) {
	var (
		stop atomic.Bool
		wg   sync.WaitGroup
		mu   sync.Mutex
		res  loopResult
	)
	fail := func(what string) {
		mu.Lock()
		defer mu.Unlock()
		res.failed++
		if len(res.failures) < maxFailures {
			res.failures = append(res.failures, what)
		}
	}
	start := time.Now()
	for range b.o.Clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine []time.Duration
			sent := 0
			for !stop.Load() && ctx.Err() == nil {
				sent++
				at := time.Now()
				body, err := get(context.WithoutCancel(ctx), b.http, url, http.StatusOK)
				d := time.Since(at)
				if err != nil {
					fail(fmt.Sprintf("at %.3f s: %v", at.Sub(start).Seconds(), err))
					continue
				}
				var list []json.RawMessage
				if err := json.Unmarshal(body, &list); err != nil || len(list) != records {
					fail(fmt.Sprintf("at %.3f s: %d records, want %d (%v): %.200s", at.Sub(start).Seconds(), len(list), records, err, body))
					continue
				}
				mine = append(mine, d)
			}
			mu.Lock()
			res.sent += sent
			res.lat = append(res.lat, mine...)
			mu.Unlock()
		}()
	}
	err := work(ctx)
	stop.Store(true)
	wg.Wait()
	res.elapsed = time.Since(start)
	if err == nil {
		err = ctx.Err()
	}
	return res, err
}

var (
	hiddenRE = regexp.MustCompile(`<input type="hidden" name="([a-z_]+)" value="([^"]*)">`)
	actionRE = regexp.MustCompile(`<form method="post" action="([^"]+)">`)
)

// page is an HTML page a browser ended on.
type page struct {
	url    *url.URL
	status int
	body   string
}

// signIn walks the founder sign-in as a browser does, with a cookie jar:
// GET /auth/login (redirected to the provider's sign-in page), the
// sign-in form, the consent form (when the provider asks), and the
// redirects back through /auth/callback to /api/session. It returns the
// browser, which now carries the founder's session cookie.
func (b *bench) signIn(ctx context.Context) (*http.Client, error) {
	jar, err := cookiejar.New(nil)
	if err != nil {
		return nil, err
	}
	c := &http.Client{Jar: jar, Transport: b.http.Transport, Timeout: time.Minute}
	p, err := browse(ctx, c, http.MethodGet, b.bl.URL+"/auth/login?return_to="+url.QueryEscape("/api/session"), nil)
	for range 4 {
		if err != nil {
			return nil, fmt.Errorf("founder sign-in: %w", err)
		}
		f := url.Values{}
		for _, m := range hiddenRE.FindAllStringSubmatch(p.body, -1) {
			f.Set(m[1], html.UnescapeString(m[2]))
		}
		action := actionRE.FindStringSubmatch(p.body)
		switch {
		case p.status == http.StatusOK && p.url.Path == "/api/session" && strings.HasPrefix(p.url.String(), b.bl.URL):
			if !strings.Contains(p.body, b.bl.Email) {
				return nil, fmt.Errorf("founder sign-in: /api/session names someone else: %.300s", p.body)
			}
			return c, nil
		case action == nil:
			return nil, fmt.Errorf("founder sign-in: ended on %s (status %d), not a form: %.500s", p.url, p.status, p.body)
		case strings.Contains(p.body, `name="password"`):
			f.Set("email", b.bl.Email)
			f.Set("password", b.bl.Password)
		case strings.Contains(p.body, `name="decision"`):
			f.Set("decision", "allow")
		default:
			return nil, fmt.Errorf("founder sign-in: a form that is neither sign-in nor consent on %s: %.500s", p.url, p.body)
		}
		to, perr := p.url.Parse(html.UnescapeString(action[1]))
		if perr != nil {
			return nil, fmt.Errorf("founder sign-in: form action %q: %w", action[1], perr)
		}
		p, err = browse(ctx, c, http.MethodPost, to.String(), f)
	}
	return nil, fmt.Errorf("founder sign-in: no session after four pages (last %s, status %d): %.500s", p.url, p.status, p.body)
}

// browse sends a request as a browser does (form: a form post) and
// follows the redirects; it returns the page it ends on.
func browse(ctx context.Context, c *http.Client, method, u string, form url.Values) (page, error) {
	var req *http.Request
	var err error
	if form != nil {
		req, err = http.NewRequestWithContext(ctx, method, u, strings.NewReader(form.Encode()))
		if err == nil {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
	} else {
		req, err = http.NewRequestWithContext(ctx, method, u, nil)
	}
	if err != nil {
		return page{}, err
	}
	resp, err := c.Do(req)
	if err != nil {
		return page{}, err
	}
	body, err := readAll(resp)
	if err != nil {
		return page{}, err
	}
	return page{url: resp.Request.URL, status: resp.StatusCode, body: string(body)}, nil
}
