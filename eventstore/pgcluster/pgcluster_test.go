//go:build unix

package pgcluster

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"github.com/jackc/pgx/v5"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"
)

// dataDir returns a fresh directory the postgres user can reach when the
// test runs as root (t.TempDir's directories are mode 0700).
func dataDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if os.Geteuid() == 0 {
		for _, p := range []string{filepath.Dir(dir), dir} {
			if err := os.Chmod(p, 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	return dir
}

func start(t *testing.T, opts Options) *Cluster {
	t.Helper()
	began := time.Now()
	c, err := Start(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("Start (fast=%v) took %v", opts.Fast, time.Since(began))
	t.Cleanup(func() {
		if err := c.Stop(context.Background()); err != nil {
			t.Error(err)
		}
	})
	return c
}

func open(t *testing.T, c *Cluster) *sql.DB {
	t.Helper()
	db, err := sql.Open("pgx", c.URL("postgres"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func exec1(t *testing.T, db *sql.DB, query string) {
	t.Helper()
	if _, err := db.Exec(query); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}

func TestFindBinaries(t *testing.T) {
	dir, err := FindBinaries()
	if err != nil {
		t.Fatal(err)
	}
	if !hasBinaries(dir) {
		t.Fatalf("FindBinaries returned %s without the server binaries", dir)
	}
	t.Logf("binaries in %s", dir)

	// Without PATH, the Debian install directory is found.
	t.Setenv("PATH", "")
	dir, err = FindBinaries()
	if err != nil {
		t.Fatal(err)
	}
	if !hasBinaries(dir) {
		t.Fatalf("FindBinaries returned %s without the server binaries", dir)
	}
	t.Logf("without PATH: binaries in %s", dir)
}

func TestGlobByVersion(t *testing.T) {
	dir := t.TempDir()
	for _, v := range []string{"9.6", "15", "16", "10"} {
		if err := os.MkdirAll(filepath.Join(dir, v, "bin"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	got := globByVersion(filepath.Join(dir, "*", "bin"), dir+"/")
	want := []string{"16", "15", "10", "9.6"}
	for i, p := range got {
		if p != filepath.Join(dir, want[i], "bin") {
			t.Fatalf("order %v, want versions %v", got, want)
		}
	}
}

func TestRestartKeepsData(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := dataDir(t)
	c := start(t, Options{DataDir: dir, SharedBuffers: "160MB"})
	db := open(t, c)
	var one int
	if err := db.QueryRow("SELECT 1").Scan(&one); err != nil || one != 1 {
		t.Fatalf("SELECT 1 = %d, %v", one, err)
	}
	var buffers string
	if err := db.QueryRow("SHOW shared_buffers").Scan(&buffers); err != nil || buffers != "160MB" {
		t.Fatalf("shared_buffers = %q, %v; want the 160MB asked for", buffers, err)
	}
	var maxConns int
	if err := db.QueryRow("SELECT current_setting('max_connections')::int").Scan(&maxConns); err != nil || maxConns < 200 {
		t.Fatalf("max_connections = %d, %v", maxConns, err)
	}
	exec1(t, db, "CREATE TABLE survivor (v text); INSERT INTO survivor VALUES ('kept')")
	db.Close()
	if err := c.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	if err := c.Stop(ctx); err != nil {
		t.Fatalf("second Stop: %v", err)
	}
	if _, err := os.Stat(filepath.Join(c.sockDir, ".s.PGSQL."+strconv.Itoa(c.Port()))); !os.IsNotExist(err) {
		t.Fatalf("socket left behind: %v", err)
	}

	var log bytes.Buffer
	c2 := start(t, Options{DataDir: dir, Fast: true, Logger: slog.New(slog.NewTextHandler(&log, nil))})
	var v string
	if err := open(t, c2).QueryRow("SELECT v FROM survivor").Scan(&v); err != nil || v != "kept" {
		t.Fatalf("after restart: %q, %v", v, err)
	}
	if strings.Contains(log.String(), "initialised") || !strings.Contains(log.String(), "postgres started") {
		t.Fatalf("restart log:\n%s", log.String())
	}
}

func TestAlreadyRunning(t *testing.T) {
	t.Parallel()
	dir := dataDir(t)
	// Debris of an interrupted initdb does not get in the way.
	if err := os.MkdirAll(filepath.Join(dir, "pg.initdb", "global"), 0o700); err != nil {
		t.Fatal(err)
	}
	start(t, Options{DataDir: dir, Fast: true})
	if _, err := os.Stat(filepath.Join(dir, "pg.initdb")); !os.IsNotExist(err) {
		t.Fatalf("initdb scratch dir left behind: %v", err)
	}
	_, err := Start(context.Background(), Options{DataDir: dir, Fast: true})
	if err == nil || !strings.Contains(err.Error(), "already running") {
		t.Fatalf("second Start on a running cluster: %v", err)
	}
}

func TestStartAfterCrash(t *testing.T) {
	t.Parallel()
	dir := dataDir(t)
	// Not Fast: with synchronous_commit=off a crash may lose the last commit.
	c := start(t, Options{DataDir: dir})
	exec1(t, open(t, c), "CREATE TABLE survivor (v text); INSERT INTO survivor VALUES ('kept')")
	pid, running := runningPostmaster(c.pgDir)
	if !running {
		t.Fatal("no running postmaster")
	}
	children := childrenOf(pid)
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	// Orphaned backends keep the shared memory until they notice the
	// postmaster's death; the next start must wait for them.
	waitGone(t, append(children, pid))
	if _, err := os.Stat(filepath.Join(c.pgDir, "postmaster.pid")); err != nil {
		t.Fatalf("expected a stale postmaster.pid: %v", err)
	}
	if err := c.Stop(context.Background()); err != nil {
		t.Fatalf("Stop of a dead server: %v", err)
	}
	c2 := start(t, Options{DataDir: dir, Fast: true})
	var v string
	if err := open(t, c2).QueryRow("SELECT v FROM survivor").Scan(&v); err != nil || v != "kept" {
		t.Fatalf("after crash: %q, %v", v, err)
	}
}

func TestUnreachableDataDir(t *testing.T) {
	t.Parallel()
	if os.Geteuid() != 0 {
		t.Skip("only root runs PostgreSQL as another user")
	}
	parent := t.TempDir() // mode 0700, owned by root
	_, err := Start(context.Background(), Options{DataDir: filepath.Join(parent, "data"), Fast: true})
	if err == nil || !strings.Contains(err.Error(), "not searchable") {
		t.Fatalf("Start under a mode 0700 root directory: %v", err)
	}
}

// TestWatchdog kills a process that started a cluster and checks the server
// does not outlive it.
func TestWatchdog(t *testing.T) {
	if dir := os.Getenv("PGCLUSTER_WATCHDOG_CHILD"); dir != "" {
		c, err := Start(context.Background(), Options{DataDir: dir, Fast: true})
		if err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		pid, _ := runningPostmaster(c.pgDir)
		fmt.Println("pid", pid)
		select {} // until killed
	}
	t.Parallel()
	dir := dataDir(t)
	cmd := exec.Command(os.Args[0], "-test.run=^TestWatchdog$")
	cmd.Env = append(os.Environ(), "PGCLUSTER_WATCHDOG_CHILD="+dir)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "pid ") {
		cmd.Process.Kill()
		t.Fatalf("child: %q, %v", line, err)
	}
	var pid int
	if _, err := fmt.Sscan(strings.TrimPrefix(line, "pid "), &pid); err != nil {
		t.Fatalf("child: %q: %v", line, err)
	}
	cmd.Process.Kill()
	cmd.Wait()
	waitGone(t, []int{pid})
	if _, running := runningPostmaster(filepath.Join(dir, "pg")); running {
		t.Fatal("postmaster still running")
	}
}

// childrenOf lists the processes whose parent is pid (Linux /proc only).
func childrenOf(pid int) []int {
	var kids []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		n, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces, so cut at ')'.
		fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		if len(fields) > 1 && fields[1] == strconv.Itoa(pid) {
			kids = append(kids, n)
		}
	}
	return kids
}

func waitGone(t *testing.T, pids []int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for _, pid := range pids {
		for processAlive(pid) && !isZombie(pid) {
			if time.Now().After(deadline) {
				t.Fatalf("process %d still alive", pid)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

func isZombie(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	return len(fields) > 0 && fields[0] == "Z"
}

func TestWithDatabase(t *testing.T) {
	for in, want := range map[string]string{
		"postgres://u:p@db:5432/postgres?sslmode=disable": "postgres://u:p@db:5432/t_1?sslmode=disable",
		"postgresql:///x?host=%2Ftmp%2Fs&port=5":          "postgresql:///t_1?host=%2Ftmp%2Fs&port=5",
		"host=db user=u dbname=postgres":                  "host=db user=u dbname=postgres dbname=t_1",
	} {
		got, err := WithDatabase(in, "t_1")
		if err != nil || got != want {
			t.Errorf("WithDatabase(%q) = %q, %v; want %q", in, got, err, want)
		}
		if cfg, err := pgx.ParseConfig(got); err != nil || cfg.Database != "t_1" {
			t.Errorf("%q: database %v, %v", got, cfg, err)
		}
	}
}

func TestSharedBuffersSizes(t *testing.T) {
	for _, ok := range []string{"128MB", "1GB", "512kB"} {
		if err := CheckSize(ok); err != nil {
			t.Errorf("CheckSize(%q) = %v", ok, err)
		}
	}
	for _, bad := range []string{"", "1G", "0MB", "-1MB", "1GB; rm -rf /", "lots"} {
		if err := CheckSize(bad); err == nil {
			t.Errorf("CheckSize(%q) accepted", bad)
		}
	}
	if _, err := Start(context.Background(), Options{DataDir: t.TempDir(), SharedBuffers: "1GB -c fsync=off"}); err == nil {
		t.Fatal("Start accepted a shared_buffers that is not a size")
	}
	if v := AutoSharedBuffers(); v != "" && CheckSize(v) != nil {
		t.Fatalf("AutoSharedBuffers() = %q, not a size", v)
	}
}
