package devupstream_test

import (
	"io"
	"math"
	"net/http"
	"strings"
	"testing"

	"github.com/strata-platform/strata/commands/gateway/devupstream"
)

func TestEmbed(t *testing.T) {
	cos := func(a, b []float32) float64 {
		s := 0.0
		for i := range a {
			s += float64(a[i]) * float64(b[i])
		}
		return s
	}
	a := devupstream.Embed("The checkout bug was fixed", 256)
	if n := cos(a, a); math.Abs(n-1) > 1e-5 {
		t.Fatalf("not unit length: %v", n)
	}
	if b := devupstream.Embed("the CHECKOUT bug was fixed", 256); cos(a, b) < 0.999 {
		t.Fatal("case changes the vector")
	}
	near := cos(a, devupstream.Embed("the checkout bug is still open", 256))
	far := cos(a, devupstream.Embed("our dog Pepper likes the beach", 256))
	if near <= far || near < 0.3 {
		t.Fatalf("near %.3f far %.3f", near, far)
	}
	if v := devupstream.Embed("...", 8); len(v) != 8 {
		t.Fatal(len(v))
	}
}

func TestEmbeddingsEndpoint(t *testing.T) {
	h, base := devupstream.Start(t)
	post := func(body string) (*http.Response, string) {
		resp, err := http.Post(base+devupstream.EmbeddingsPath, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	resp, body := post(`{"model":"x","input":["Hello, world!"],"dimensions":4}`)
	if resp.StatusCode != 200 || !strings.Contains(body, `"usage":{"prompt_tokens":4,"total_tokens":4}`) || len(h.Embedded()) != 1 {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	resp, body = post(`{"model":"x","input":"[[fail:429 retry-after=3 times=1]] hi"}`)
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "3" || !strings.Contains(body, `"type":"rate_limit_error"`) {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	if resp, _ = post(`{"model":"x","input":"[[fail:429 retry-after=3 times=1]] hi"}`); resp.StatusCode != 200 {
		t.Fatal("times=1 failed twice")
	}
	if resp, body = post(`{"model":"x","input":[1,2]}`); resp.StatusCode != 400 || !strings.Contains(body, `"param":"input[0]"`) {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
}
