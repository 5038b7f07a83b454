//go:build unix

package pgcluster

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// ping opens u and runs SELECT 1 on it.
func ping(u string) error {
	db, err := sql.Open("pgx", u)
	if err != nil {
		return err
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return db.PingContext(ctx)
}

// withoutPassword returns u with its password removed.
func withoutPassword(t *testing.T, u string) string {
	t.Helper()
	p, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	p.User = url.User(p.User.Username())
	return p.String()
}

// A local user who does not know the password is refused, over TCP and over
// the socket; the password sits in the data directory, mode 0600, and the
// URLs carry it.
func TestPasswordRequired(t *testing.T) {
	t.Parallel()
	dir := dataDir(t)
	c := start(t, Options{DataDir: dir, Fast: true})
	st, err := os.Stat(filepath.Join(dir, PasswordFile))
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("%s has mode %v, want 0600", PasswordFile, st.Mode().Perm())
	}
	for _, u := range []string{c.URL("postgres"), c.TCPURL("postgres")} {
		if err := ping(u); err != nil {
			t.Fatalf("with the password, %s: %v", u, err)
		}
		err := ping(withoutPassword(t, u))
		if err == nil || !strings.Contains(err.Error(), "password") {
			t.Fatalf("without the password, %s: %v; want a password authentication failure", u, err)
		}
	}
	plain := fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", c.Port())
	if err := ping(plain); err == nil {
		t.Fatal("TCP on 127.0.0.1 without a password was accepted")
	}
}

// The port is chosen once and kept: a restart listens where the last run
// did, so a URL handed to another process stays right.
func TestPortStableAcrossRestarts(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := dataDir(t)
	c := start(t, Options{DataDir: dir, Fast: true})
	first, firstURL := c.Port(), c.TCPURL("postgres")
	if err := c.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	c2 := start(t, Options{DataDir: dir, Fast: true})
	if c2.Port() != first {
		t.Fatalf("port %d after a restart, was %d", c2.Port(), first)
	}
	if err := ping(firstURL); err != nil {
		t.Fatalf("the first run's URL after a restart: %v", err)
	}
}

// A cluster made before passwords (initdb --auth=trust, no password file) is
// migrated at its next start: the superuser gets a password, pg_hba.conf asks
// for it, and the data is kept.
func TestTrustClusterMigrated(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := dataDir(t)
	old := &Cluster{pgDir: filepath.Join(dir, "pg"), logger: slog.New(slog.DiscardHandler)}
	var err error
	if old.binDir, err = FindBinaries(); err != nil {
		t.Fatal(err)
	}
	if old.acct, err = lookupAccount(old.pgDir); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(old.pgDir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := old.acct.chown(old.pgDir); err != nil {
		t.Fatal(err)
	}
	if out, err := old.run(ctx, "initdb", "-D", old.pgDir, "--auth=trust", "--username=postgres", "--no-sync"); err != nil {
		t.Fatalf("initdb: %v\n%s", err, out)
	}
	c := start(t, Options{DataDir: dir, Fast: true})
	if err := ping(c.URL("postgres")); err != nil {
		t.Fatal(err)
	}
	if err := ping(withoutPassword(t, c.TCPURL("postgres"))); err == nil {
		t.Fatal("the migrated cluster still trusts TCP connections")
	}
	hba, err := os.ReadFile(filepath.Join(old.pgDir, "pg_hba.conf"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(hba), "\n") {
		if f := strings.Fields(line); len(f) > 0 && !strings.HasPrefix(f[0], "#") && f[len(f)-1] == "trust" {
			t.Fatalf("pg_hba.conf still trusts: %q", line)
		}
	}
}

// Running finds the server of a data directory (for `strata db stop|url`
// and for a second process), and says clearly when there is none.
func TestRunning(t *testing.T) {
	t.Parallel()
	dir := dataDir(t)
	if _, err := Running(dir); !errors.Is(err, ErrNotRunning) {
		t.Fatalf("Running on an empty directory: %v", err)
	}
	c := start(t, Options{DataDir: dir, Fast: true})
	r, err := Running(dir)
	if err != nil {
		t.Fatal(err)
	}
	if r.Port() != c.Port() {
		t.Fatalf("Running: port %d, started on %d", r.Port(), c.Port())
	}
	for _, u := range []string{r.URL("postgres"), r.TCPURL("postgres")} {
		if err := ping(u); err != nil {
			t.Fatalf("Running's URL %s: %v", u, err)
		}
	}
}

// A detached cluster (`strata db start`) outlives the process that started
// it; Running(...).Stop stops it.
func TestDetachedOutlivesStarter(t *testing.T) {
	if dir := os.Getenv("PGCLUSTER_DETACHED_CHILD"); dir != "" {
		c, err := Start(context.Background(), Options{DataDir: dir, Fast: true, Detach: true})
		if err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		fmt.Println("port", c.Port())
		select {} // until killed
	}
	t.Parallel()
	dir := dataDir(t)
	cmd := exec.Command(os.Args[0], "-test.run=^TestDetachedOutlivesStarter$")
	cmd.Env = append(os.Environ(), "PGCLUSTER_DETACHED_CHILD="+dir)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	cmd.Process.Kill()
	cmd.Wait()
	port, convErr := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(line, "port ")))
	if err != nil || convErr != nil {
		t.Fatalf("child: %q, %v", line, err)
	}
	r, err := Running(dir)
	if err != nil {
		t.Fatalf("the detached cluster died with its starter: %v", err)
	}
	t.Cleanup(func() { r.Stop(context.Background()) })
	time.Sleep(300 * time.Millisecond) // a watchdog would have fired by now
	if err := ping(r.URL("postgres")); err != nil || r.Port() != port {
		t.Fatalf("after the starter died: port %d (was %d), %v", r.Port(), port, err)
	}
	if err := r.Stop(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := Running(dir); !errors.Is(err, ErrNotRunning) {
		t.Fatalf("after Stop: %v", err)
	}
}
