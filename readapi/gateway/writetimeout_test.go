package gateway_test

import (
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	cmdgateway "github.com/strata-platform/strata/commands/gateway"
)

// A server's WriteTimeout (readapi.NewServer has one) cuts neither a
// stream that lasts longer nor a reply whose upstream took longer: each
// write extends the deadline.
func TestAnswersOutlastTheServersWriteTimeout(t *testing.T) {
	c := startChat(t, cmdgateway.FormatOpenAI, true)
	srv := &http.Server{Handler: c.router, WriteTimeout: 300 * time.Millisecond}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	for _, stream := range []string{"true", "false"} {
		body := `{"model":"strata-dev-frontier","stream":` + stream + `,"messages":[{"role":"user","content":"[[tokens:12]] [[slow:100ms]]"}]}`
		req, _ := http.NewRequest(http.MethodPost, "http://"+ln.Addr().String()+"/v1/chat/completions", strings.NewReader(body))
		req.Header.Set("X-API-Key", c.u.Key)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("stream %s: %d %v %.200s", stream, resp.StatusCode, err, b)
		}
		if stream == "true" && !strings.HasSuffix(string(b), "data: [DONE]\n\n") || stream == "false" && !strings.Contains(string(b), `"completion_tokens":12`) {
			t.Fatalf("stream %s: cut short: %q", stream, b)
		}
	}
}
