package main

import (
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/strata-platform/strata/eventstore/pgcluster"
)

// `go run ./cmd/strata serve` stopped with SIGTERM: go run dies without
// passing the signal on, and the server it started notices that its parent
// is gone and shuts down as on SIGTERM (listeners closed, the embedded
// cluster stopped).
func TestGoRunServeStopsWithItsParent(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles with go run and runs initdb")
	}
	t.Parallel()
	dir := reachableDir(t)
	data := filepath.Join(dir, "data")
	builder, admin := freeAddr(t), freeAddr(t)
	cmd := exec.Command("go", "run", ".", "serve", "--surfaces", "builder")
	cmd.Env = append(os.Environ(), "DATABASE_URL=", "STRATA_DATA_DIR="+data, "STRATA_BUILDER_ADDR="+builder,
		"STRATA_ADMIN_ADDR="+admin, "STRATA_LOG_LEVEL=warn")
	var logs syncBuffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	cmd.WaitDelay = time.Second // the server may hold the output pipe after go run died
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	up := func() bool {
		resp, err := http.Get("http://" + builder + "/api/health")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return true
	}
	for deadline := time.Now().Add(3 * time.Minute); !up(); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("serve did not answer:\n%s", logs.String())
		}
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	cmd.Wait() // go run itself dies of the signal
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		_, err := pgcluster.Running(data)
		if !up() && err != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("30 s after go run was terminated: builder answers %v, cluster %v\n%s", up(), err, logs.String())
		}
	}
	if !strings.Contains(logs.String(), "go run") {
		t.Errorf("the shutdown does not say why:\n%s", logs.String())
	}
}
