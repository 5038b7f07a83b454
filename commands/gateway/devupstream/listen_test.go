package devupstream_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/strata-platform/strata/commands/gateway/devupstream"
)

// Listen serves the development upstream on a loopback port until Close;
// a Forget handler answers as usual and keeps no record of the requests.
func TestListenServesUntilClose(t *testing.T) {
	t.Parallel()
	h := &devupstream.Handler{Forget: true}
	srv, err := devupstream.Listen("127.0.0.1:0", h)
	if err != nil {
		t.Fatal(err)
	}
	post := func() (*http.Response, error) {
		return http.Post(srv.URL+devupstream.OpenAIPath, "application/json",
			strings.NewReader(`{"model":"dev-7b","messages":[{"role":"user","content":"Hello [[tokens:3]]"}]}`))
	}
	resp, err := post()
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `"completion_tokens":3`) {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	if n := len(h.Requests()); n != 0 {
		t.Errorf("a Forget handler recorded %d requests", n)
	}
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	if resp, err := post(); err == nil {
		resp.Body.Close()
		t.Fatal("the upstream still answers after Close")
	}
}
