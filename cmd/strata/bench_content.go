package main

import (
	"bytes"
	"context"
	"crypto/rand"
	stdsql "database/sql"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/strata-platform/strata/commands/content/platforms"
	"github.com/strata-platform/strata/commands/content/platforms/platformtest"
	"github.com/strata-platform/strata/eventstore/storebench"
	readcontent "github.com/strata-platform/strata/readapi/content"
	"github.com/strata-platform/strata/readapi/identity/identitybench"
)

// contentBench are the content bench's sizes.
type contentBench struct {
	mode  string
	items int // due at the same instant, a quarter on each platform
	procs int // `strata serve` processes on the database, each running the jobs (the dispatcher)
	// lead is the least time from the start of the items' creation to
	// their due time.
	lead time.Duration
	// minute: the items (and the baseline's) are due at the start of a
	// minute, the "due in the same minute", which is also when the
	// every-minute sweep runs.
	minute bool
	// wait bounds how long past the due time the items may take to settle.
	wait time.Duration
	// bin is the strata binary the processes run.
	bin string
}

// benchContent runs `strata bench content [--quick]`: items due at the
// same instant, a quarter on each of the four platforms (loopback fakes,
// platformtest), published by two `strata serve` processes (production
// wiring, child processes of this binary) on the scratch database; the
// dispatch delay of each item is the time its post appeared on the fake
// less its scheduled_at. The baseline, measured first in the same run, is
// one item per platform due alone.
func (c *command) benchContent(ctx context.Context, scratch *storebench.Scratch, quick bool) error {
	bin, err := os.Executable()
	if err != nil {
		return fmt.Errorf("bench content: the strata binary the processes run: %w", err)
	}
	o := contentBench{mode: "full", items: 1000, procs: 2, lead: 20 * time.Second, minute: true, wait: 10 * time.Minute, bin: bin}
	if quick {
		o = contentBench{mode: "quick", items: 200, procs: 2, lead: 8 * time.Second, wait: 3 * time.Minute, bin: bin}
	}
	c.logger.Info("bench running in a scratch database", "database", scratch.Name, "mode", o.mode)
	rep, err := c.runContentBench(ctx, scratch.URL, scratch.DB, o)
	if err != nil {
		return err
	}
	return rep.Print(c.stdout)
}

// contentReport is the content bench's outcome: the delay figures and the
// counts the targets are about.
type contentReport struct {
	storebench.Report
	Items, PerPlatform, Procs int
	Due                       time.Time
	Created                   time.Duration // creating the items over HTTP
	Margin                    time.Duration // from the last item created to the due time
	Published, Failed         int
	Unsettled                 int            // still scheduled when the wait ended
	Reasons                   map[string]int // failed items by reason
	Posted                    int            // items with a post on their platform
	Repeated                  int            // items posted more than once
	Extra                     int            // posts beyond the first of those items
	FakeDuplicates            int            // posts the fakes saw repeat an earlier one (account, title, text)
	Unmatched                 int            // posts of no item
	ByPlatform                []string       // the delay p50 and p99 of each platform's items
	// Processes says, per process, the publish and dispatch jobs it
	// completed during the load (strata_job_runs_total) and what it
	// logged at warning level or above.
	Processes []string
}

// DoublePosts is the double posts seen, by the items or by the fakes.
func (r contentReport) DoublePosts() int { return max(r.Extra, r.FakeDuplicates) }

// delayTarget is the p99 (Buffer sends about 98% of posts within
// 60 s of their time).
const delayTarget = 60 * time.Second

// Print writes the figures, then the counts and the two targets.
func (r contentReport) Print(w io.Writer) error {
	if err := r.Report.Print(w); err != nil {
		return err
	}
	p99, _ := r.Figure(contentDelayName("p99", r.Items, r.Procs))
	verdict := func(ok bool) string {
		if ok {
			return "PASS"
		}
		return "MISS"
	}
	fmt.Fprintf(w, "\nitems: %d due at %s (%d per platform), created over HTTP through %d processes in %s, the last %s before due\n",
		r.Items, r.Due.Format(time.RFC3339), r.PerPlatform, r.Procs, r.Created.Round(time.Millisecond), r.Margin.Round(time.Millisecond))
	fmt.Fprintf(w, "published %d, failed %d, still scheduled %d; posted on their platform %d\n", r.Published, r.Failed, r.Unsettled, r.Posted)
	for _, k := range slices.Sorted(maps.Keys(r.Reasons)) {
		fmt.Fprintf(w, "  failed: %d  %s\n", r.Reasons[k], k)
	}
	fmt.Fprintf(w, "double posts: %d (items posted more than once %d, %d extra posts; repeats seen by the fakes %d; posts of no item %d)\n",
		r.DoublePosts(), r.Repeated, r.Extra, r.FakeDuplicates, r.Unmatched)
	if len(r.ByPlatform) > 0 {
		fmt.Fprintf(w, "delay by platform: %s\n", strings.Join(r.ByPlatform, "; "))
	}
	for _, p := range r.Processes {
		fmt.Fprintf(w, "  %s\n", p)
	}
	fmt.Fprintf(w, "\ntarget dispatch delay p99 < %.0f s: %s (%.2f s, over %d items posted of %d)\n", delayTarget.Seconds(),
		verdict(p99.Samples > 0 && p99.Ours < delayTarget.Seconds() && r.Posted == r.Items), p99.Ours, r.Posted, r.Items)
	_, err := fmt.Fprintf(w, "target 0 double posts: %s (%d)\n", verdict(r.DoublePosts() == 0 && r.Unmatched == 0), r.DoublePosts())
	return err
}

// contentDelayName names a delay figure.
func contentDelayName(q string, items, procs int) string {
	return fmt.Sprintf("dispatch delay %s, %d items due at once on 4 platforms, %d processes (base: 1 item per platform due alone, slowest)",
		q, items, procs)
}

// The fakes' posts carry the item's token (contentToken) in their text
// or title.
var contentTokenRE = regexp.MustCompile(`\b(?:item|base)-[0-9]{5}\b`)

func contentToken(prefix string, i int) string { return fmt.Sprintf("%s-%05d", prefix, i) }

// contentItem is one calendar item of the bench.
type contentItem struct {
	token, platform, id string
}

// runContentBench is the bench at the sizes of o on the database at dbURL.
func (c *command) runContentBench(ctx context.Context, dbURL string, db *stdsql.DB, o contentBench) (contentReport, error) {
	started := time.Now()
	rep := contentReport{Report: storebench.Report{Bench: "content", Mode: o.mode, CPUs: runtime.NumCPU()}, Items: o.items,
		PerPlatform: o.items / len(platforms.Names), Procs: o.procs, Reasons: map[string]int{}}
	if o.items%len(platforms.Names) != 0 || o.procs < 1 {
		return rep, fmt.Errorf("bench content: %d items do not split over the %d platforms, or no process", o.items, len(platforms.Names))
	}
	rep.Server, _ = serverSettings(ctx, db)
	fakes, stopFakes := platformtest.Start()
	defer stopFakes()
	video := bytes.Repeat([]byte{0, 0, 0, 24, 'f', 't', 'y', 'p'}, 8192) // 64 KiB served as video/mp4
	media := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "video/mp4")
		w.Header().Set("Content-Length", strconv.Itoa(len(video)))
		_, _ = w.Write(video)
	}))
	defer media.Close()
	reel := media.URL + "/reel.mp4"

	nodes, err := c.startContentNodes(ctx, dbURL, o, fakes)
	defer func() {
		for _, n := range nodes {
			n.stop()
		}
	}()
	if err != nil {
		return rep, err
	}
	a := nodes[0]
	cl := &contentClient{http: &http.Client{Timeout: time.Minute,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		Transport:     &http.Transport{MaxIdleConnsPerHost: 64}}}
	if err := cl.signUp(ctx, nodes); err != nil {
		return rep, nodes.withLogs(err)
	}
	for _, p := range platforms.Names {
		if err := cl.connect(ctx, a.api, fakes, p); err != nil {
			return rep, nodes.withLogs(err)
		}
	}
	fmt.Fprintf(c.stderr, "bench content: %d processes up, a user with an API key, 4 platforms connected\n", len(nodes))

	// The baseline: one item per platform, due alone.
	var base []contentItem
	for i, p := range platforms.Names {
		base = append(base, contentItem{token: contentToken("base", i), platform: p})
	}
	baseDue := contentDueTime(time.Now(), o.lead/2, o.minute)
	fmt.Fprintf(c.stderr, "bench content: baseline: %d items due at %s\n", len(base), baseDue.Format(time.RFC3339))
	if _, err := cl.create(ctx, nodes, base, baseDue, reel); err != nil {
		return rep, nodes.withLogs(err)
	}
	if _, err := cl.settle(ctx, a.api, baseDue, o.wait); err != nil {
		return rep, nodes.withLogs(err)
	}
	baseDelays, _ := contentDelays(fakes, base, baseDue)
	if len(baseDelays) != len(base) {
		return rep, nodes.withLogs(fmt.Errorf("bench content: baseline: %d of %d items posted", len(baseDelays), len(base)))
	}
	baseline := slices.Max(baseDelays)
	fmt.Fprintf(c.stderr, "bench content: baseline delays %v\n", roundAll(baseDelays))

	// The load.
	before := nodes.runs(ctx)
	items := make([]contentItem, o.items)
	for i := range items {
		items[i] = contentItem{token: contentToken("item", i), platform: platforms.Names[i%len(platforms.Names)]}
	}
	rep.Due = contentDueTime(time.Now(), o.lead, o.minute)
	fmt.Fprintf(c.stderr, "bench content: load: %d items due at %s\n", o.items, rep.Due.Format(time.RFC3339))
	t0 := time.Now()
	last, err := cl.create(ctx, nodes, items, rep.Due, reel)
	if err != nil {
		return rep, nodes.withLogs(err)
	}
	rep.Created, rep.Margin = last.Sub(t0), rep.Due.Sub(last)
	fmt.Fprintf(c.stderr, "bench content: created in %s, %s before due\n", rep.Created.Round(time.Millisecond), rep.Margin.Round(time.Millisecond))
	listed, err := cl.settle(ctx, a.api, rep.Due, o.wait)
	if err != nil {
		return rep, nodes.withLogs(err)
	}
	// Anything sent twice would arrive by now: the publish jobs are done.
	select {
	case <-ctx.Done():
		return rep, ctx.Err()
	case <-time.After(3 * time.Second):
	}
	after := nodes.runs(ctx)
	byID := map[string]contentListed{}
	for _, it := range listed {
		byID[it.ID] = it
	}
	for _, it := range items {
		l, ok := byID[it.id]
		switch {
		case !ok || l.Status == "scheduled":
			rep.Unsettled++
		case l.Status == "published":
			rep.Published++
		default:
			rep.Failed++
			rep.Reasons[l.why()]++
		}
	}
	delays, counts := contentDelays(fakes, items, rep.Due)
	rep.Posted = len(delays)
	for _, p := range platforms.Names {
		var of []contentItem
		for _, it := range items {
			if it.platform == p {
				of = append(of, it)
			}
		}
		if d, _ := contentDelays(fakes, of, rep.Due); len(d) > 0 {
			rep.ByPlatform = append(rep.ByPlatform, fmt.Sprintf("%s p50 %.2f s, p99 %.2f s", p, identitybench.Quantile(d, .5)/1000,
				identitybench.Quantile(d, .99)/1000))
		}
	}
	for _, n := range counts {
		if n > 1 {
			rep.Repeated++
			rep.Extra += n - 1
		}
	}
	known := map[string]bool{}
	for _, it := range append(slices.Clone(items), base...) {
		known[it.token] = true
	}
	for _, p := range platforms.Names {
		s := fakes.Server(p)
		rep.FakeDuplicates += s.Duplicates()
		for _, post := range s.Posts() {
			if !known[contentTokenRE.FindString(post.Text+" "+post.Title)] {
				rep.Unmatched++
			}
		}
	}
	for i, n := range nodes {
		rep.Processes = append(rep.Processes, fmt.Sprintf("process %s: %s publish jobs and %s dispatch jobs completed during the load; %s",
			n.name, after[i].publish.minus(before[i].publish), after[i].dispatch.minus(before[i].dispatch), n.logs.warnings()))
	}
	if len(delays) > 0 {
		for _, q := range []struct {
			name   string
			q      float64
			target storebench.Target
		}{{"p50", .50, storebench.Target{}}, {"p90", .90, storebench.Target{}}, {"p99", .99, storebench.Target{Max: delayTarget.Seconds()}},
			{"max", 1, storebench.Target{}}} {
			rep.Figures = append(rep.Figures, storebench.Figure{Name: contentDelayName(q.name, o.items, o.procs), Unit: "s",
				Ours: identitybench.Quantile(delays, q.q) / 1000, Baseline: baseline.Seconds(), Target: q.target, Samples: len(delays)})
		}
	}
	rep.Elapsed = time.Since(started)
	return rep, nil
}

// contentDueTime is a due time at least lead after now: the next whole
// second, or the next start of a minute when minute is set.
func contentDueTime(now time.Time, lead time.Duration, minute bool) time.Time {
	if minute {
		return now.Add(lead).Truncate(time.Minute).Add(time.Minute).UTC()
	}
	return now.Add(lead).Truncate(time.Second).Add(time.Second).UTC()
}

// contentDelays are the items' dispatch delays (the first post's time on
// the fake less due) for the items posted, and each item's post count by
// token.
func contentDelays(fakes *platformtest.Fakes, items []contentItem, due time.Time) ([]time.Duration, map[string]int) {
	first := map[string]time.Time{}
	counts := map[string]int{}
	for _, p := range platforms.Names {
		for _, post := range fakes.Server(p).Posts() {
			tok := contentTokenRE.FindString(post.Text + " " + post.Title)
			if tok == "" {
				continue
			}
			counts[tok]++
			if t, ok := first[tok]; !ok || post.Time.Before(t) {
				first[tok] = post.Time
			}
		}
	}
	var out []time.Duration
	for _, it := range items {
		if t, ok := first[it.token]; ok {
			out = append(out, t.Sub(due))
		}
	}
	return out, counts
}

func roundAll(ds []time.Duration) []time.Duration {
	out := make([]time.Duration, len(ds))
	for i, d := range ds {
		out[i] = d.Round(time.Millisecond)
	}
	return out
}

// contentNode is one `strata serve --surfaces api` child process.
type contentNode struct {
	name       string
	api, admin string // base URLs
	cmd        *exec.Cmd
	logs       *contentLog
	exited     chan struct{}
	err        error // the process's end, once exited is closed
	stopOnce   sync.Once
}

type contentNodes []*contentNode

// startContentNodes starts o.procs processes of o.bin on the database at
// dbURL, with data directories and listeners of their own, one master key
// (tokens sealed by one are opened by the other), one public URL (the
// first process's: the OAuth redirect), the four platforms pointed at the
// fakes and loopback opened to the outbound client (the fakes, the media
// server). Both start at once and are up when it returns.
func (c *command) startContentNodes(ctx context.Context, dbURL string, o contentBench, fakes *platformtest.Fakes) (contentNodes, error) {
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	env := map[string]string{"DATABASE_URL": dbURL, "STRATA_MASTER_KEY": base64.StdEncoding.EncodeToString(key),
		"STRATA_OUTBOUND_ALLOW": "private", "STRATA_LOG_LEVEL": "warn", "STRATA_WORDNET_DIR": "off"}
	for _, p := range platforms.Names {
		s := fakes.Settings(p)
		prefix := "STRATA_SOCIAL_" + strings.ToUpper(p) + "_"
		env[prefix+"CLIENT_ID"], env[prefix+"CLIENT_SECRET"] = s.ClientID, s.ClientSecret
		env[prefix+"AUTH_URL"], env[prefix+"TOKEN_URL"], env[prefix+"REVOKE_URL"], env[prefix+"API_BASE"] = s.AuthURL, s.TokenURL, s.RevokeURL, s.APIBase
	}
	var nodes contentNodes
	public := ""
	for i := 0; i < o.procs; i++ {
		api, err := freeLoopbackAddr()
		if err != nil {
			return nodes, err
		}
		admin, err := freeLoopbackAddr()
		if err != nil {
			return nodes, err
		}
		if public == "" {
			public = "http://" + api
		}
		dir, err := os.MkdirTemp("", "strata-bench-content-")
		if err != nil {
			return nodes, err
		}
		n := &contentNode{name: string(rune('a' + i)), api: "http://" + api, admin: "http://" + admin, logs: &contentLog{},
			exited: make(chan struct{})}
		n.cmd = exec.Command(o.bin, "serve", "--surfaces", "api")
		n.cmd.Env = os.Environ()
		for k, v := range env {
			n.cmd.Env = append(n.cmd.Env, k+"="+v)
		}
		n.cmd.Env = append(n.cmd.Env, "STRATA_DATA_DIR="+filepath.Join(dir, "data"), "STRATA_API_ADDR="+api, "STRATA_ADMIN_ADDR="+admin,
			"STRATA_PUBLIC_URL="+public)
		n.cmd.Stdout, n.cmd.Stderr = n.logs, n.logs
		if err := n.cmd.Start(); err != nil {
			os.RemoveAll(dir)
			return nodes, fmt.Errorf("bench content: start %s serve: %w", o.bin, err)
		}
		go func() {
			n.err = n.cmd.Wait()
			os.RemoveAll(dir)
			close(n.exited)
		}()
		nodes = append(nodes, n)
	}
	for _, n := range nodes {
		if err := n.waitUp(ctx); err != nil {
			return nodes, nodes.withLogs(err)
		}
	}
	return nodes, nil
}

// waitUp waits up to two minutes for the process's platform API to answer
// its health check.
func (n *contentNode) waitUp(ctx context.Context) error {
	deadline := time.Now().Add(2 * time.Minute)
	for {
		if resp, err := http.Get(n.api + "/health"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("bench content: process %s not healthy after two minutes", n.name)
		}
		select {
		case <-n.exited:
			return fmt.Errorf("bench content: process %s ended: %v", n.name, n.err)
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// stop ends the process as an operator would (SIGTERM: requests drained,
// jobs stopped), killing it after 40 s.
func (n *contentNode) stop() {
	n.stopOnce.Do(func() {
		_ = n.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-n.exited:
		case <-time.After(40 * time.Second):
			_ = n.cmd.Process.Kill()
			<-n.exited
		}
	})
}

// withLogs adds the tail of each process's log to err.
func (ns contentNodes) withLogs(err error) error {
	var b strings.Builder
	b.WriteString(err.Error())
	for _, n := range ns {
		s := n.logs.String()
		if len(s) > 4000 {
			s = "..." + s[len(s)-4000:]
		}
		fmt.Fprintf(&b, "\n--- log of process %s:\n%s", n.name, s)
	}
	return errors.New(b.String())
}

// contentRuns are a process's completed content jobs (strata_job_runs_total).
type contentRuns struct{ publish, dispatch contentCount }

// contentCount is a counter read from /metrics (-1: not read).
type contentCount float64

func (c contentCount) minus(before contentCount) string {
	if c < 0 || before < 0 {
		return "?"
	}
	return strconv.FormatFloat(float64(c-before), 'f', 0, 64)
}

// runs reads each process's completed publish and dispatch jobs.
func (ns contentNodes) runs(ctx context.Context) []contentRuns {
	out := make([]contentRuns, len(ns))
	for i, n := range ns {
		out[i] = contentRuns{publish: -1, dispatch: -1}
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, n.admin+"/metrics", nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			continue
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		out[i] = contentRuns{publish: 0, dispatch: 0}
		for _, line := range strings.Split(string(body), "\n") {
			if !strings.HasPrefix(line, "strata_job_runs_total{") || !strings.Contains(line, `outcome="completed"`) {
				continue
			}
			f := strings.Fields(line)
			v, err := strconv.ParseFloat(f[len(f)-1], 64)
			if err != nil {
				continue
			}
			switch {
			case strings.Contains(line, `kind="content.publish_target"`):
				out[i].publish = contentCount(v)
			case strings.Contains(line, `kind="content.dispatch_post"`):
				out[i].dispatch = contentCount(v)
			}
		}
	}
	return out
}

// contentLog keeps a process's output.
type contentLog struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *contentLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *contentLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// warnings summarizes the warnings and errors logged: how many, and the
// most frequent messages (with the first one's err).
func (l *contentLog) warnings() string {
	byMsg := map[string]int{}
	firstErr := map[string]string{}
	total := 0
	for _, line := range strings.Split(l.String(), "\n") {
		var rec struct {
			Level string `json:"level"`
			Msg   string `json:"msg"`
			Err   any    `json:"err"`
		}
		if json.Unmarshal([]byte(line), &rec) != nil || (rec.Level != "WARN" && rec.Level != "ERROR") {
			continue
		}
		total++
		k := rec.Level + " " + rec.Msg
		if byMsg[k]++; byMsg[k] == 1 && rec.Err != nil {
			firstErr[k] = fmt.Sprint(rec.Err)
		}
	}
	if total == 0 {
		return "no warning logged"
	}
	msgs := slices.SortedFunc(maps.Keys(byMsg), func(a, b string) int { return byMsg[b] - byMsg[a] })
	if len(msgs) > 3 {
		msgs = msgs[:3]
	}
	for i, m := range msgs {
		msgs[i] = fmt.Sprintf("%dx %q", byMsg[m], m)
		if e := firstErr[m]; e != "" {
			msgs[i] += fmt.Sprintf(" (err: %.200s)", e)
		}
	}
	return fmt.Sprintf("%d warnings or errors logged (%s)", total, strings.Join(msgs, ", "))
}

// contentClient is the bench's user of the platform API.
type contentClient struct {
	http *http.Client
	key  string // the user's API key
}

// call sends a request with a JSON body (nil: none) and the API key, and
// decodes a JSON answer into out (nil: not decoded). It returns the status
// and the Location header.
func (cl *contentClient) call(ctx context.Context, method, u string, bearer string, body, out any) (int, string, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return 0, "", err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return 0, "", err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if bearer != "" {
		req.Header.Set("Authorization", "Bearer "+bearer)
	} else if cl.key != "" {
		req.Header.Set("X-API-Key", cl.key)
	}
	resp, err := cl.http.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return resp.StatusCode, "", err
	}
	if out != nil && resp.StatusCode < 300 {
		if err := json.Unmarshal(raw, out); err != nil {
			return resp.StatusCode, "", fmt.Errorf("%s %s: %w: %.300s", method, u, err, raw)
		}
	} else if resp.StatusCode >= 300 && resp.StatusCode != http.StatusFound {
		return resp.StatusCode, "", fmt.Errorf("%s %s: %d: %.500s", method, u, resp.StatusCode, raw)
	}
	return resp.StatusCode, resp.Header.Get("Location"), nil
}

// signUp registers the bench's user through the first process, issues its
// API key and waits until every process accepts the key.
func (cl *contentClient) signUp(ctx context.Context, nodes contentNodes) error {
	var reg struct {
		AccessToken string `json:"access_token"`
	}
	if _, _, err := cl.call(ctx, http.MethodPost, nodes[0].api+"/api/v1/auth/register", "",
		map[string]string{"email": "content-bench@bench.invalid", "password": "Content-bench-pass-1", "full_name": "Content Bench"}, &reg); err != nil {
		return fmt.Errorf("bench content: register: %w", err)
	}
	var key struct {
		APIKey string `json:"api_key"`
	}
	if _, _, err := cl.call(ctx, http.MethodPost, nodes[0].api+"/api/v1/api-keys", reg.AccessToken, map[string]string{"name": "content bench"}, &key); err != nil {
		return fmt.Errorf("bench content: API key: %w", err)
	}
	cl.key = key.APIKey
	for _, n := range nodes {
		deadline := time.Now().Add(10 * time.Second)
		for {
			st, _, _ := cl.call(ctx, http.MethodGet, n.api+"/api/v1/auth/me", "", nil, nil)
			if st == http.StatusOK {
				break
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("bench content: process %s refuses the API key after 10 s (%d)", n.name, st)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	return nil
}

// connect connects the user's account at platform through the API at api
// and the platform's fake: the connect route's authorization URL, the
// fake's consent, the callback.
func (cl *contentClient) connect(ctx context.Context, api string, fakes *platformtest.Fakes, platform string) error {
	st, loc, err := cl.call(ctx, http.MethodGet, api+readcontent.Base+"/social/connect/"+platform, "", nil, nil)
	if err != nil || st != http.StatusFound {
		return fmt.Errorf("bench content: connect %s: %d %v", platform, st, err)
	}
	u, err := url.Parse(loc)
	if err != nil {
		return fmt.Errorf("bench content: connect %s: %w", platform, err)
	}
	q := u.Query()
	client := q.Get("client_id")
	if client == "" {
		client = q.Get("client_key")
	}
	code := fakes.Server(platform).Authorize(client, q.Get("redirect_uri"), q.Get("code_challenge"), q.Get("state"))
	cb := api + readcontent.Base + "/social/callback/" + platform + "?code=" + url.QueryEscape(code) + "&state=" + url.QueryEscape(q.Get("state"))
	if st, _, err := cl.call(ctx, http.MethodGet, cb, "", nil, nil); err != nil || st != http.StatusOK {
		return fmt.Errorf("bench content: connect %s: callback: %d %v", platform, st, err)
	}
	return nil
}

// create schedules the items at due, each through one of the processes in
// turn, 16 at a time per process, filling in their ids; it returns when
// the last one was created.
func (cl *contentClient) create(ctx context.Context, nodes contentNodes, items []contentItem, due time.Time, reel string) (time.Time, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < 16*len(nodes); w++ {
		api := nodes[w%len(nodes)].api
		wg.Go(func() {
			for i := range next {
				it := &items[i]
				body := map[string]any{"title": "Bench " + it.token, "platform": it.platform, "scheduled_at": due.Format(time.RFC3339),
					"script": "Strata content bench " + it.token + " on " + it.platform + ".", "allow_duplicate": true}
				if it.platform != platforms.ProfessionalNetwork {
					body["reel_url"] = reel
				}
				var out struct {
					ID string `json:"id"`
				}
				if _, _, err := cl.call(ctx, http.MethodPost, api+readcontent.Base+"/content/calendar", "", body, &out); err != nil {
					cancel(fmt.Errorf("bench content: schedule %s: %w", it.token, err))
					return
				}
				it.id = out.ID
			}
		})
	}
	for i := range items {
		select {
		case next <- i:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
	}
	close(next)
	wg.Wait()
	if err := context.Cause(ctx); err != nil {
		return time.Time{}, err
	}
	return time.Now(), nil
}

// contentListed is a calendar item as listed.
type contentListed struct {
	ID      string  `json:"id"`
	Status  string  `json:"status"`
	Reason  *string `json:"reason"`
	Targets []struct {
		State  string  `json:"state"`
		Class  *string `json:"failure_class"`
		Reason *string `json:"reason"`
	} `json:"targets"`
}

// why is a failed item's reason with its last target's failure class.
func (l contentListed) why() string {
	out := ""
	if l.Reason != nil {
		out = *l.Reason
	}
	if n := len(l.Targets); n > 0 {
		t := l.Targets[n-1]
		if t.Class != nil {
			out = *t.Class + ": " + out
		}
		if t.Reason != nil && (l.Reason == nil || *t.Reason != *l.Reason) {
			out += " (" + *t.Reason + ")"
		}
	}
	return out
}

// settle waits until no item is left scheduled (not before due), or wait
// past due, then lists every item.
func (cl *contentClient) settle(ctx context.Context, api string, due time.Time, wait time.Duration) ([]contentListed, error) {
	for {
		var left []contentListed
		if _, _, err := cl.call(ctx, http.MethodGet, api+readcontent.Base+"/content/calendar?status=scheduled&limit=1", "", nil, &left); err != nil {
			return nil, err
		}
		if len(left) == 0 && time.Now().After(due) {
			break
		}
		if time.Now().After(due.Add(wait)) {
			break // reported as still scheduled
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(250 * time.Millisecond):
		}
	}
	var all []contentListed
	for off := 0; ; off += 500 {
		var page []contentListed
		if _, _, err := cl.call(ctx, http.MethodGet, fmt.Sprintf("%s%s/content/calendar?limit=500&offset=%d", api, readcontent.Base, off),
			"", nil, &page); err != nil {
			return nil, err
		}
		all = append(all, page...)
		if len(page) < 500 {
			return all, nil
		}
	}
}
