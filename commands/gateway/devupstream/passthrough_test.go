package devupstream_test

import (
	"bufio"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/gateway/devupstream"
)

// The pass-through proxy forwards a request as it is (path, headers,
// body) and copies the answer back, and a paced stream reaches the client
// delta by delta, not at its end.
func TestPassThroughForwardsAndNeverHoldsAStream(t *testing.T) {
	t.Parallel()
	h := &devupstream.Handler{}
	up, err := devupstream.Listen("127.0.0.1:0", h)
	if err != nil {
		t.Fatal(err)
	}
	defer up.Close()
	proxy, err := devupstream.PassThrough(up.URL)
	if err != nil {
		t.Fatal(err)
	}
	px, err := devupstream.Listen("127.0.0.1:0", proxy)
	if err != nil {
		t.Fatal(err)
	}
	defer px.Close()

	req, _ := http.NewRequest(http.MethodPost, px.URL+devupstream.MessagesPath,
		strings.NewReader(`{"model":"dev-7b","max_tokens":50,"messages":[{"role":"user","content":"Hi [[tokens:4]]"}]}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("anthropic-version", "2023-06-01")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var body strings.Builder
	_, _ = bufio.NewReader(resp.Body).WriteTo(&body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(body.String(), `"output_tokens":4`) {
		t.Fatalf("through the proxy: %d %s", resp.StatusCode, body.String())
	}
	got := h.Requests()
	if len(got) != 1 || got[0].Format != devupstream.FormatMessages || got[0].Header.Get("anthropic-version") != "2023-06-01" {
		t.Fatalf("the upstream saw %+v", got)
	}

	// 5 deltas 150 ms apart: the first must arrive long before the last.
	start := time.Now()
	resp, err = http.Post(px.URL+devupstream.OpenAIPath, "application/json",
		strings.NewReader(`{"model":"dev-7b","stream":true,"messages":[{"role":"user","content":"Hi [[tokens:5]] [[slow:150ms]]"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	var first, last time.Duration
	deltas := 0
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "data:") && strings.Contains(sc.Text(), `"content":`) {
			if deltas == 0 {
				first = time.Since(start)
			}
			last = time.Since(start)
			deltas++
		}
	}
	if deltas < 5 || last-first < 450*time.Millisecond {
		t.Fatalf("%d deltas, the first after %s, the last after %s: the stream was held", deltas, first, last)
	}
}

// Only an http(s) base URL is a target.
func TestPassThroughRefusesABadTarget(t *testing.T) {
	t.Parallel()
	for _, target := range []string{"", "127.0.0.1:8099", "ftp://example.com", "http://", "::"} {
		if _, err := devupstream.PassThrough(target); err == nil {
			t.Errorf("PassThrough(%q) accepted", target)
		}
	}
}
