package pgcluster

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ErrNotRunning is returned by Running when no server runs on the data
// directory.
var ErrNotRunning = errors.New("no PostgreSQL server is running on this data directory")

// Running returns the server that runs in dataDir, whichever process started
// it (`strata db start`, a `strata serve`, this process): its port and
// socket directory come from the server's postmaster.pid, the password from
// DataDir/pg.password. Its URLs reach the server; its Stop stops it for
// every process that uses it. ErrNotRunning (wrapped) when there is none.
func Running(dataDir string) (*Cluster, error) {
	dataDir, err := filepath.Abs(dataDir)
	if err != nil {
		return nil, fmt.Errorf("data dir: %w", err)
	}
	c := &Cluster{pgDir: filepath.Join(dataDir, "pg"), logPath: filepath.Join(dataDir, "pg.log"),
		logger: slog.New(slog.DiscardHandler)}
	raw, err := os.ReadFile(filepath.Join(c.pgDir, "postmaster.pid"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%s: %w", dataDir, ErrNotRunning)
	} else if err != nil {
		return nil, fmt.Errorf("read postmaster.pid: %w", err)
	}
	// pid, data directory, start time, port, socket directory, ...
	lines := strings.Split(string(raw), "\n")
	if len(lines) < 5 {
		return nil, fmt.Errorf("%s: %w (postmaster.pid is incomplete: the server is starting or stopping)", dataDir, ErrNotRunning)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(lines[0]))
	if err != nil || pid <= 0 || !processAlive(pid) {
		return nil, fmt.Errorf("%s: %w (postmaster.pid of a server that is gone)", dataDir, ErrNotRunning)
	}
	if c.port, err = strconv.Atoi(strings.TrimSpace(lines[3])); err != nil {
		return nil, fmt.Errorf("postmaster.pid: port %q: %w", lines[3], err)
	}
	c.sockDir = strings.TrimSpace(lines[4])
	c.password, err = readPassword(filepath.Join(dataDir, PasswordFile))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("read the cluster's password: %w", err)
	}
	// No password file: a server started before passwords, still trusting.
	if c.binDir, err = FindBinaries(); err != nil {
		return nil, err
	}
	if c.acct, err = lookupAccount(c.pgDir); err != nil {
		return nil, err
	}
	return c, nil
}
