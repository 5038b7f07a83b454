package main

import (
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The README's run command on a machine with PostgreSQL installed and nothing
// configured: the binary initialises and starts its own cluster under the data
// directory, migrates, answers the builder health check, and on SIGTERM
// drains, stops the cluster and exits 0. A second start reuses the cluster.
func TestZeroSetupServeWithEmbeddedPostgres(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs initdb")
	}
	t.Parallel()
	dir := t.TempDir()
	if os.Geteuid() == 0 { // the postgres user must reach the data directory
		for _, p := range []string{filepath.Dir(dir), dir} {
			if err := os.Chmod(p, 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	bin := filepath.Join(dir, "strata")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	data := filepath.Join(dir, "data")
	for round := 1; round <= 2; round++ {
		builder, admin := freeAddr(t), freeAddr(t)
		cmd := exec.Command(bin, "serve", "--surfaces", "builder")
		cmd.Env = append(os.Environ(), "DATABASE_URL=", "STRATA_DATA_DIR="+data, "STRATA_BUILDER_ADDR="+builder, "STRATA_ADMIN_ADDR="+admin)
		var logs strings.Builder
		cmd.Stdout, cmd.Stderr = &logs, &logs
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		var health struct{ Status string }
		deadline := time.Now().Add(60 * time.Second)
		for time.Now().Before(deadline) && health.Status == "" {
			time.Sleep(100 * time.Millisecond)
			resp, err := http.Get("http://" + builder + "/api/health")
			if err == nil {
				_ = json.NewDecoder(resp.Body).Decode(&health)
				resp.Body.Close()
			}
		}
		if health.Status != "healthy" {
			_ = cmd.Process.Kill()
			t.Fatalf("round %d: builder health %q\n%s", round, health.Status, logs.String())
		}
		if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		if err := cmd.Wait(); err != nil {
			t.Fatalf("round %d: serve did not exit cleanly: %v\n%s", round, err, logs.String())
		}
		if _, err := os.Stat(filepath.Join(data, "pg", "postmaster.pid")); !os.IsNotExist(err) {
			t.Fatalf("round %d: the embedded cluster is still running after shutdown", round)
		}
		if round == 1 && !strings.Contains(logs.String(), "migration applied") {
			t.Fatalf("round 1 applied no migration:\n%s", logs.String())
		}
		if round == 2 && strings.Contains(logs.String(), "migration applied") {
			t.Fatalf("round 2 re-applied migrations:\n%s", logs.String())
		}
	}
}
