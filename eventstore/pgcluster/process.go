package pgcluster

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// prepareFiles creates the log file, owned by the account PostgreSQL runs as
// (pg_ctl opens it as that account).
func (c *Cluster) prepareFiles() error {
	f, err := os.OpenFile(c.logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o640)
	if err != nil {
		return fmt.Errorf("create log file: %w", err)
	}
	f.Close()
	return c.acct.chown(c.logPath)
}

// initdb creates the cluster in a scratch directory and renames it to
// DataDir/pg when complete, so an interrupted initdb never leaves a
// half-made cluster that a later Start would try to run. The superuser gets
// the pending password and every connection must give it (SCRAM-SHA-256).
func (c *Cluster) initdb(ctx context.Context, fast bool) (err error) {
	began := time.Now()
	tmp := c.pgDir + ".initdb"
	if err := os.RemoveAll(tmp); err != nil {
		return fmt.Errorf("remove leftover %s: %w", tmp, err)
	}
	if err := os.Mkdir(tmp, 0o700); err != nil {
		return fmt.Errorf("create %s: %w", tmp, err)
	}
	if err := c.acct.chown(tmp); err != nil {
		return err
	}
	if c.password, err = c.pendingPassword(); err != nil {
		return err
	}
	args := []string{"-D", tmp, "--auth=scram-sha-256", "--pwfile=" + c.passwordPath() + pendingSuffix,
		"--username=" + Superuser, "--encoding=UTF8", "--locale=C"}
	if fast {
		args = append(args, "--no-sync")
	}
	if out, err := c.run(ctx, "initdb", args...); err != nil {
		return fmt.Errorf("initdb %s: %w\n%s", tmp, err, out)
	}
	// An empty DataDir/pg may exist (made by hand); anything in it is kept.
	if err := os.Remove(c.pgDir); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("%s exists and holds no PostgreSQL cluster (no PG_VERSION): %w", c.pgDir, err)
	}
	if err := os.Rename(tmp, c.pgDir); err != nil {
		return fmt.Errorf("move new cluster into place: %w", err)
	}
	if err := c.commitPassword(); err != nil {
		return err
	}
	c.logger.Info("postgres cluster initialised", "dir", c.pgDir, "elapsed", time.Since(began))
	return nil
}

// start runs pg_ctl start -w on the kept port (a free one the first time),
// retrying on another free port when that one is taken, and records the port
// it got. The wait allows for a long crash recovery; cancel ctx to give up
// earlier (a half-started server is then stopped).
func (c *Cluster) start(ctx context.Context, opts Options) error {
	kept := c.storedPort()
	for attempt := 1; ; attempt++ {
		c.port = opts.Port
		if c.port == 0 && attempt == 1 {
			c.port = kept
		}
		if c.port == 0 {
			p, err := freePort()
			if err != nil {
				return err
			}
			c.port = p
			if kept != 0 {
				c.logger.Warn("postgres: the kept port is taken by another program; moving to a new one (processes given the old URL must be given the new one)",
					"old_port", kept, "port", p)
			}
		}
		began := time.Now()
		settings := []string{
			"-p", strconv.Itoa(c.port), "-k", shellQuote(c.sockDir),
			"-c", "listen_addresses=127.0.0.1",
			"-c", "max_connections=" + strconv.Itoa(MaxConnections),
		}
		if opts.SharedBuffers != "" {
			settings = append(settings, "-c", "shared_buffers="+opts.SharedBuffers)
		}
		if opts.Fast {
			settings = append(settings, "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off")
		}
		logStart := fileSize(c.logPath)
		// pg_ctl passes -o through a shell; the socket dir has no spaces.
		out, err := c.run(ctx, "pg_ctl", "start", "-w", "-t", "300", "-D", c.pgDir, "-l", c.logPath, "-o", strings.Join(settings, " "))
		if err == nil {
			if !opts.Detach {
				if c.dog, err = startWatchdog(c); err != nil {
					c.stop(context.Background(), "immediate")
					return err
				}
			}
			if err := c.storePort(); err != nil {
				c.dog.disarm()
				c.stop(context.Background(), "immediate")
				return err
			}
			c.logger.Info("postgres started", "dir", c.pgDir, "port", c.port, "socket_dir", c.sockDir, "detached", opts.Detach, "elapsed", time.Since(began))
			return nil
		}
		serverLog := readFrom(c.logPath, logStart)
		// pg_ctl may give up waiting while the server still runs: stop it.
		if _, running := runningPostmaster(c.pgDir); running {
			c.stop(context.Background(), "immediate")
		}
		if opts.Port == 0 && attempt < 4 && strings.Contains(serverLog, "could not create any TCP/IP sockets") {
			c.logger.Warn("postgres port taken, retrying", "port", c.port)
			continue
		}
		return fmt.Errorf("pg_ctl start %s: %w\n%s\nserver log:\n%s", c.pgDir, err, out, serverLog)
	}
}

func (c *Cluster) stop(ctx context.Context, mode string) error {
	out, err := c.run(ctx, "pg_ctl", "stop", "-w", "-t", "60", "-m", mode, "-D", c.pgDir)
	if err != nil {
		if _, running := runningPostmaster(c.pgDir); !running {
			return nil // already gone
		}
		return fmt.Errorf("pg_ctl stop %s: %w\n%s", c.pgDir, err, out)
	}
	return nil
}

// command prepares one of the PostgreSQL programs to run as the cluster's
// account, in DataDir, without PG* variables of the caller.
func (c *Cluster) command(ctx context.Context, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, filepath.Join(c.binDir, name), args...)
	cmd.Dir = filepath.Dir(c.pgDir) // DataDir: reachable by the account, checked
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PG") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	c.acct.apply(cmd)
	return cmd
}

func (c *Cluster) run(ctx context.Context, name string, args ...string) ([]byte, error) {
	var out bytes.Buffer
	cmd := c.command(ctx, name, args...)
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return bytes.TrimSpace(out.Bytes()), err
}

// runningPostmaster reports the pid recorded in dir/postmaster.pid and whether
// that process is alive. A leftover file of a dead server reports false.
func runningPostmaster(dir string) (int, bool) {
	b, err := os.ReadFile(filepath.Join(dir, "postmaster.pid"))
	if err != nil {
		return 0, false
	}
	line, _, _ := strings.Cut(string(b), "\n")
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil || pid <= 0 {
		return 0, false
	}
	return pid, processAlive(pid)
}

// shellQuote quotes s for the shell pg_ctl passes -o through.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("pick a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func fileSize(path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return st.Size()
}

// readFrom returns the end of a file from offset, at most its last 4 KiB.
func readFrom(path string, offset int64) string {
	b, err := os.ReadFile(path)
	if err != nil || offset > int64(len(b)) {
		return ""
	}
	b = b[offset:]
	if len(b) > 4096 {
		b = b[len(b)-4096:]
	}
	return strings.TrimSpace(string(b))
}
