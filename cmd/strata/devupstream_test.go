package main

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// `strata dev-upstream --addr` serves both formats until its context ends,
// then exits 0; a stray argument is a usage error.
func TestDevUpstreamCommand(t *testing.T) {
	t.Parallel()
	addr := freeAddr(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errb syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"dev-upstream", "--addr", addr}, map[string]string{"STRATA_LOG_LEVEL": "error"}, &out, &errb, testWiring())
	}()
	var resp *http.Response
	deadline := time.Now().Add(5 * time.Second)
	for {
		var err error
		resp, err = http.Post("http://"+addr+"/v1/chat/completions", "application/json",
			strings.NewReader(`{"model":"dev-7b","messages":[{"role":"user","content":"Hello [[tokens:3]]"}]}`))
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("dev-upstream not listening: %v (%s)", err, errb.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"completion_tokens":3`) {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	resp, err := http.Post("http://"+addr+"/v1/messages", "application/json",
		strings.NewReader(`{"model":"dev-7b","max_tokens":5,"messages":[{"role":"user","content":"[[fail:503]]"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 503 || !strings.Contains(string(body), `"overloaded_error"`) {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errb.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("dev-upstream did not stop")
	}
	if !strings.Contains(out.String(), "development upstream listens on http://"+addr) {
		t.Fatalf("stdout %q", out.String())
	}
	if _, _, code := (cli{t: t, env: map[string]string{}}).run("dev-upstream", "extra"); code != 2 {
		t.Fatalf("exit %d for a stray argument", code)
	}
}
