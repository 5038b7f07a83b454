package storebench

import (
	"context"
	"crypto/rand"
	stdsql "database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"github.com/strata-platform/strata/eventstore/pgcluster"
	"time"

	"github.com/jackc/pgx/v5"
	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" database/sql driver

	"github.com/strata-platform/strata/migrations"
)

// ScratchPrefix starts the name of every scratch database the bench creates.
const ScratchPrefix = "strata_bench_"

// Scratch is a throw-away database on the server the bench measures, created
// and migrated by NewScratch and dropped by Close, so that the bench never
// touches the user's data.
type Scratch struct {
	Name  string
	URL   string
	DB    *stdsql.DB
	admin *stdsql.DB
}

// NewScratch creates a database named ScratchPrefix+random hex on the server
// that serverURL (any database's URL on it) points at, applies the
// migrations to it and opens a pool on it. It connects to the server's
// "postgres" database to create it; the role needs CREATEDB.
func NewScratch(ctx context.Context, serverURL string) (*Scratch, error) {
	adminURL, err := pgcluster.WithDatabase(serverURL, "postgres")
	if err != nil {
		return nil, err
	}
	admin, err := stdsql.Open("pgx", adminURL)
	if err != nil {
		return nil, fmt.Errorf("scratch database: %w", err)
	}
	var b [6]byte
	_, _ = rand.Read(b[:])
	s := &Scratch{Name: ScratchPrefix + hex.EncodeToString(b[:]), admin: admin}
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+pgx.Identifier{s.Name}.Sanitize()); err != nil {
		admin.Close()
		return nil, fmt.Errorf("create scratch database %s: %w", s.Name, err)
	}
	if err := s.open(ctx, serverURL); err != nil {
		return nil, errors.Join(err, s.Close())
	}
	return s, nil
}

func (s *Scratch) open(ctx context.Context, serverURL string) error {
	var err error
	if s.URL, err = pgcluster.WithDatabase(serverURL, s.Name); err != nil {
		return err
	}
	if s.DB, err = stdsql.Open("pgx", s.URL); err != nil {
		return fmt.Errorf("open scratch database: %w", err)
	}
	s.DB.SetMaxOpenConns(64)
	s.DB.SetMaxIdleConns(64)
	if _, err := migrations.Up(ctx, s.DB); err != nil {
		return fmt.Errorf("migrate scratch database: %w", err)
	}
	return nil
}

// Close closes the pool and drops the database (WITH (FORCE), so sessions
// left open by an interrupted run do not keep it). It ignores the caller's
// cancellation: call it also after an interrupt.
func (s *Scratch) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var errs []error
	if s.DB != nil {
		errs = append(errs, s.DB.Close())
	}
	if _, err := s.admin.ExecContext(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{s.Name}.Sanitize()+" WITH (FORCE)"); err != nil {
		errs = append(errs, fmt.Errorf("drop scratch database %s: %w", s.Name, err))
	}
	errs = append(errs, s.admin.Close())
	return errors.Join(errs...)
}
