package pgtest

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"

	"github.com/jackc/pgx/v5"

	"github.com/strata-platform/strata/migrations"
)

// templatePrefix starts the name of every template database pgtest creates;
// a template in the making is named buildPrefix+hash until it is complete.
const (
	templatePrefix = "strata_tpl_"
	buildPrefix    = "strata_tplbuild_"
)

// templateLockKey is the PostgreSQL advisory lock (taken in the maintenance
// database) that serialises template creation across test binaries.
var templateLockKey = func() int64 {
	sum := sha256.Sum256([]byte("github.com/strata-platform/strata/eventstore/pgtest template"))
	return int64(binary.BigEndian.Uint64(sum[:8]))
}()

// MigrationsHash returns the hex SHA-256 of the embedded migration files'
// names and contents, in name order. Any change to a migration, or a new one,
// changes it, and with it the template database name.
func MigrationsHash() (string, error) {
	h := sha256.New()
	err := fs.WalkDir(migrations.Files(), ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(migrations.Files(), path)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", path, len(b))
		h.Write(b)
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("hash migrations: %w", err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// ensureTemplate returns the name of the migrated template database for the
// current migrations, creating it when missing. Creation holds an advisory
// lock, so parallel test binaries sharing a server create it once; it is
// built under a temporary name and renamed when complete, so a crash never
// leaves a half-migrated template behind.
func ensureTemplate(ctx context.Context, admin *sql.DB, urlFor func(string) (string, error)) (string, error) {
	hash, err := MigrationsHash()
	if err != nil {
		return "", err
	}
	tpl, build := templatePrefix+hash[:16], buildPrefix+hash[:16]
	conn, err := admin.Conn(ctx)
	if err != nil {
		return "", fmt.Errorf("connect to maintenance database: %w", err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1)", templateLockKey); err != nil {
		return "", fmt.Errorf("lock template creation: %w", err)
	}
	defer conn.ExecContext(context.Background(), "SELECT pg_advisory_unlock($1)", templateLockKey)

	var exists bool
	if err := conn.QueryRowContext(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", tpl).Scan(&exists); err != nil {
		return "", fmt.Errorf("look for template %s: %w", tpl, err)
	}
	if exists {
		return tpl, nil
	}
	// Whoever builds a template holds the lock, so any build database seen
	// now was left by a crashed run.
	rows, err := conn.QueryContext(ctx, "SELECT datname FROM pg_database WHERE starts_with(datname, $1)", buildPrefix)
	if err != nil {
		return "", fmt.Errorf("list unfinished templates: %w", err)
	}
	var stale []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			rows.Close()
			return "", fmt.Errorf("list unfinished templates: %w", err)
		}
		stale = append(stale, name)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return "", fmt.Errorf("list unfinished templates: %w", err)
	}
	for _, name := range stale {
		if _, err := conn.ExecContext(ctx, "DROP DATABASE "+ident(name)+" WITH (FORCE)"); err != nil {
			return "", fmt.Errorf("drop unfinished template %s: %w", name, err)
		}
	}

	if _, err := conn.ExecContext(ctx, "CREATE DATABASE "+ident(build)+" TEMPLATE template0"); err != nil {
		return "", fmt.Errorf("create template %s: %w", build, err)
	}
	if err := migrate(ctx, build, urlFor); err != nil {
		return "", err
	}
	for _, stmt := range []string{
		"ALTER DATABASE " + ident(build) + " RENAME TO " + ident(tpl),
		// No connections: a session on a template makes CREATE DATABASE fail.
		"ALTER DATABASE " + ident(tpl) + " WITH IS_TEMPLATE true ALLOW_CONNECTIONS false",
	} {
		if _, err := conn.ExecContext(ctx, stmt); err != nil {
			return "", fmt.Errorf("finish template %s: %w", tpl, err)
		}
	}
	return tpl, nil
}

func migrate(ctx context.Context, dbname string, urlFor func(string) (string, error)) error {
	u, err := urlFor(dbname)
	if err != nil {
		return err
	}
	db, err := sql.Open("pgx", u)
	if err != nil {
		return fmt.Errorf("open %s: %w", dbname, err)
	}
	defer db.Close()
	if _, err := migrations.Up(ctx, db); err != nil {
		return fmt.Errorf("migrate template %s: %w", dbname, err)
	}
	return db.Close()
}

// ident quotes a database name pgtest made up (letters, digits, '_').
func ident(name string) string {
	return pgx.Identifier{name}.Sanitize()
}

// errNoServer is returned when neither STRATA_TEST_DATABASE_URL nor local
// PostgreSQL server binaries are available.
var errNoServer = errors.New("no PostgreSQL for tests: set STRATA_TEST_DATABASE_URL, or install the PostgreSQL server binaries")
