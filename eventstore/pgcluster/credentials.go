package pgcluster

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// Files the cluster keeps in DataDir, next to pg/ and pg.log.
const (
	// PasswordFile holds the superuser's password (one line, mode 0600,
	// owned by the account PostgreSQL runs as; root reads it anyway).
	PasswordFile = "pg.password"
	// PortFile holds the TCP port, chosen at the first start and kept.
	PortFile = "pg.port"
)

// pendingSuffix marks a password that is not in force yet: it is written
// before initdb or the migration of a trust cluster and renamed to
// PasswordFile once the server requires it, so an interrupted start retries
// with the same password.
const pendingSuffix = ".new"

// Superuser is the role every URL of the cluster connects as.
const Superuser = "postgres"

// readPassword returns the password in path.
func readPassword(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	pw := strings.TrimSpace(string(b))
	if pw == "" {
		return "", fmt.Errorf("%s is empty", path)
	}
	return pw, nil
}

// pendingPassword returns the pending password, generating it (32 random
// bytes, hex) into DataDir/pg.password.new first when there is none.
func (c *Cluster) pendingPassword() (string, error) {
	path := c.passwordPath() + pendingSuffix
	if pw, err := readPassword(path); err == nil {
		return pw, nil
	}
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("generate password: %w", err)
	}
	pw := hex.EncodeToString(b[:])
	if err := os.WriteFile(path, []byte(pw+"\n"), 0o600); err != nil {
		return "", fmt.Errorf("write %s: %w", path, err)
	}
	// initdb --pwfile reads it as the account PostgreSQL runs as.
	if err := c.acct.chown(path); err != nil {
		return "", err
	}
	return pw, nil
}

// commitPassword puts the pending password in force.
func (c *Cluster) commitPassword() error {
	if err := os.Rename(c.passwordPath()+pendingSuffix, c.passwordPath()); err != nil {
		return fmt.Errorf("keep the password: %w", err)
	}
	return nil
}

func (c *Cluster) passwordPath() string { return filepath.Join(filepath.Dir(c.pgDir), PasswordFile) }
func (c *Cluster) portPath() string     { return filepath.Join(filepath.Dir(c.pgDir), PortFile) }

// loadPassword sets c.password for an existing cluster. A cluster without a
// password file was made before passwords (trust authentication): it gets a
// pending one, which migrateTrust puts in force once the server runs.
func (c *Cluster) loadPassword() (migrate bool, err error) {
	if c.password, err = readPassword(c.passwordPath()); err == nil {
		return false, nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return false, err
	}
	if c.password, err = c.pendingPassword(); err != nil {
		return false, err
	}
	return true, nil
}

// migrateTrust gives the superuser c.password, makes every trust line of
// pg_hba.conf ask for a SCRAM-SHA-256 password instead, reloads the server
// and keeps the password. It connects with the password, which trust
// ignores, so running it again after an interruption is harmless.
func (c *Cluster) migrateTrust(ctx context.Context) error {
	db, err := sql.Open("pgx", c.URL("postgres"))
	if err != nil {
		return err
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("connect to migrate a trust cluster: %w", err)
	}
	defer conn.Close()
	// The password is hex: quoting it needs no escaping.
	for _, stmt := range []string{"SET password_encryption = 'scram-sha-256'", "ALTER ROLE " + Superuser + " PASSWORD '" + c.password + "'"} {
		if _, err := conn.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("set the superuser's password: %w", err)
		}
	}
	hbaPath := filepath.Join(c.pgDir, "pg_hba.conf")
	hba, err := os.ReadFile(hbaPath)
	if err != nil {
		return fmt.Errorf("read pg_hba.conf: %w", err)
	}
	lines := strings.Split(string(hba), "\n")
	for i, line := range lines {
		f := strings.Fields(line)
		if len(f) > 0 && !strings.HasPrefix(f[0], "#") && f[len(f)-1] == "trust" {
			lines[i] = strings.TrimSuffix(strings.TrimRight(line, " \t"), "trust") + "scram-sha-256"
		}
	}
	// WriteFile on the existing file keeps its owner and mode.
	if err := os.WriteFile(hbaPath, []byte(strings.Join(lines, "\n")), 0o600); err != nil {
		return fmt.Errorf("write pg_hba.conf: %w", err)
	}
	if _, err := conn.ExecContext(ctx, "SELECT pg_reload_conf()"); err != nil {
		return fmt.Errorf("reload pg_hba.conf: %w", err)
	}
	// The postmaster reloads after the signal: wait until it asks for the
	// password, so the start returns with the new rules in force.
	if err := c.awaitPasswordRequired(ctx); err != nil {
		return err
	}
	if err := c.commitPassword(); err != nil {
		return err
	}
	c.logger.Info("postgres cluster now requires a password (it trusted local connections)", "password_file", c.passwordPath())
	return nil
}

// awaitPasswordRequired waits (10 s at most) until a connection without the
// password is refused.
func (c *Cluster) awaitPasswordRequired(ctx context.Context) error {
	u := c.TCPURL("postgres")
	parsed, err := url.Parse(u)
	if err != nil {
		return err
	}
	parsed.User = url.User(Superuser)
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	for {
		conn, err := pgx.Connect(ctx, parsed.String())
		if err != nil {
			if ctx.Err() != nil {
				return fmt.Errorf("pg_hba.conf reload: the server still accepts connections without a password: %w", ctx.Err())
			}
			return nil // refused: the password is required
		}
		conn.Close(ctx)
		time.Sleep(20 * time.Millisecond)
	}
}

// storedPort returns the port recorded in DataDir/pg.port, 0 when none is.
func (c *Cluster) storedPort() int {
	b, err := os.ReadFile(c.portPath())
	if err != nil {
		return 0
	}
	p, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || p <= 0 || p > 65535 {
		return 0
	}
	return p
}

// storePort records the port the server listens on.
func (c *Cluster) storePort() error {
	if c.storedPort() == c.port {
		return nil
	}
	if err := os.WriteFile(c.portPath(), []byte(strconv.Itoa(c.port)+"\n"), 0o644); err != nil {
		return fmt.Errorf("record the port: %w", err)
	}
	return nil
}
