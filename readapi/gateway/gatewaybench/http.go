package gatewaybench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/strata-platform/strata/commands/gateway/devupstream"
)

type bench struct {
	o        Options
	gw       *Gateway
	upstream string // the development upstream's base URL (…/v1)
	proxy    string // the pass-through proxy's base URL (http://host:port)
	http     *http.Client
	next     atomic.Int64 // the next request's number (which key it sends)

	mu                  sync.Mutex
	peakRSS, peakDirect int64 // bytes, sampled under the throughput rounds
	rssSamples          int
}

// anthropicVersion is the anthropic-version header of messages requests.
const anthropicVersion = "2023-06-01"

// route is one way to a model: a client format, straight to the
// upstream (direct), through the pass-through proxy to it (proxy), or
// through the gateway to an upstream of a format.
type route struct {
	client   string // the client's wire format
	upstream string // the format of the upstream the gateway calls
	direct   bool
	proxy    bool // the direct request, sent through the pass-through proxy
}

// name is how figures name a path through the gateway: "openai→messages".
func (r route) name() string { return r.client + "→" + r.upstream }

func (r route) String() string {
	switch {
	case r.direct:
		return r.client + " direct"
	case r.proxy:
		return r.client + " through the pass-through proxy"
	}
	return r.name() + " through the gateway"
}

// Prompts: the text of the latency and throughput requests, and the paced
// stream's.
func (b *bench) prompt(paced bool) string {
	if paced {
		return fmt.Sprintf("Tell me a story, one word at a time. [[tokens:%d]] [[slow:%s]]", b.o.Deltas, b.o.Pace)
	}
	return fmt.Sprintf("Summarize the quarterly report in three sentences for the board. [[tokens:%d]]", b.o.Tokens)
}

// body is a request in the client's format.
func (b *bench) body(r route, stream, paced bool) []byte {
	model := b.gw.UpstreamModel
	if !r.direct && !r.proxy {
		model = b.gw.Models[r.upstream]
	}
	req := map[string]any{"model": model, "max_tokens": 1024, "stream": stream,
		"messages": []any{map[string]any{"role": "user", "content": b.prompt(paced)}}}
	if stream && r.client == formatOpenAI {
		req["stream_options"] = map[string]any{"include_usage": true}
	}
	raw, err := json.Marshal(req)
	if err != nil {
		panic(err) // a static shape
	}
	return raw
}

func (b *bench) url(r route) string {
	if r.proxy { // the direct request's path, on the proxy
		return b.proxy + strings.TrimPrefix(b.url(route{client: r.client, upstream: r.upstream, direct: true}),
			strings.TrimSuffix(b.upstream, "/v1"))
	}
	switch {
	case r.direct && r.client == formatMessages:
		return strings.TrimSuffix(b.upstream, "/v1") + devupstream.MessagesPath
	case r.direct:
		return strings.TrimSuffix(b.upstream, "/v1") + devupstream.OpenAIPath
	case r.client == formatMessages:
		return b.gw.URL + "/v1/messages"
	}
	return b.gw.URL + "/v1/chat/completions"
}

// call is one prepared request: its URL and body.
type call struct {
	route  route
	url    string
	body   []byte
	stream bool
	deltas int // the deltas a stream must deliver, the tokens a reply must count
}

func (b *bench) call(r route, stream, paced bool) call {
	n := b.o.Tokens
	if paced {
		n = b.o.Deltas
	}
	return call{route: r, url: b.url(r), body: b.body(r, stream, paced), stream: stream, deltas: n}
}

// outcome is what a request took: its latency (the whole reply, or a
// stream's end), its time to the first delta, and when each delta came
// (times: streams only, when asked for).
type outcome struct {
	total, first time.Duration
	times        []time.Time
}

// do sends c once and reads the answer to its end; anything but a 200
// with the expected tokens is an error.
func (b *bench) do(ctx context.Context, c call, times bool) (outcome, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(c.body))
	if err != nil {
		return outcome{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	if c.route.client == formatMessages {
		req.Header.Set("anthropic-version", anthropicVersion)
	}
	if !c.route.direct && !c.route.proxy {
		req.Header.Set("X-API-Key", b.gw.Keys[int(b.next.Add(1))%len(b.gw.Keys)])
	}
	var out outcome
	start := time.Now()
	resp, err := b.http.Do(req)
	if err != nil {
		return out, fmt.Errorf("%s: %w", c.route, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		raw, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		return out, fmt.Errorf("%s: status %d: %s", c.route, resp.StatusCode, raw)
	}
	if !c.stream {
		raw, err := io.ReadAll(resp.Body)
		if err != nil {
			return out, fmt.Errorf("%s: %w", c.route, err)
		}
		out.total = time.Since(start)
		out.first = out.total
		want := `"completion_tokens":` + strconv.Itoa(c.deltas)
		if c.route.client == formatMessages {
			want = `"output_tokens":` + strconv.Itoa(c.deltas)
		}
		if !bytes.Contains(raw, []byte(want)) {
			return out, fmt.Errorf("%s: a reply without %s: %.300s", c.route, want, raw)
		}
		return out, nil
	}
	marker := []byte(`"delta":{"content":`)
	if c.route.client == formatMessages {
		marker = []byte(`"type":"content_block_delta"`)
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	n := 0
	for sc.Scan() {
		line := sc.Bytes()
		if !bytes.HasPrefix(line, []byte("data:")) || !bytes.Contains(line, marker) {
			continue
		}
		now := time.Now()
		if n == 0 {
			out.first = now.Sub(start)
		}
		if times {
			out.times = append(out.times, now)
		}
		n++
	}
	if err := sc.Err(); err != nil {
		return out, fmt.Errorf("%s: the stream broke after %d deltas: %w", c.route, n, err)
	}
	out.total = time.Since(start)
	if n != c.deltas {
		return out, fmt.Errorf("%s: a stream of %d deltas, want %d", c.route, n, c.deltas)
	}
	return out, nil
}

// rss is the resident set size of process pid (0: this process), from
// /proc (Linux); ok is false where it cannot be read.
func rss(pid int) (int64, bool) {
	proc := "self"
	if pid > 0 {
		proc = strconv.Itoa(pid)
	}
	raw, err := os.ReadFile("/proc/" + proc + "/status")
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err != nil {
				return 0, false
			}
			return kb << 10, true
		}
	}
	return 0, false
}

// sampleRSS records the gateway process's RSS every 50 ms until stop is
// closed, into the gateway's peak or the direct load's.
func (b *bench) sampleRSS(direct bool, stop <-chan struct{}) {
	t := time.NewTicker(50 * time.Millisecond)
	defer t.Stop()
	for {
		if v, ok := rss(b.gw.PID); ok {
			b.mu.Lock()
			if direct {
				b.peakDirect = max(b.peakDirect, v)
			} else {
				b.peakRSS = max(b.peakRSS, v)
				b.rssSamples++
			}
			b.mu.Unlock()
		}
		select {
		case <-stop:
			return
		case <-t.C:
		}
	}
}
