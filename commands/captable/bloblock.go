package captable

import (
	"context"
	"database/sql"
	"fmt"
)

// maxBlobLocks bounds how many commands of one process hold a blob lock at
// once: each holds a database connection for its lock while its append
// takes another from the same pool, so unbounded, a burst of uploads could
// take every connection for locks and wait forever for one to append with.
const maxBlobLocks = 8

// withBlobLock runs fn while holding company's blob lock, a PostgreSQL
// advisory lock (transaction-scoped, so a lost connection releases it),
// taken by every process that shares the database. Committing an upload's
// bytes and recording it, or checking that nothing refers to some bytes
// and removing them, run under it: without it, a delete in one process
// could remove bytes that an upload of equal content in another process
// has just recorded (the in-process company lock does not reach across
// processes).
func (s *Service) withBlobLock(ctx context.Context, company string, fn func() error) error {
	select {
	case s.blobSlots <- struct{}{}:
		defer func() { <-s.blobSlots }()
	case <-ctx.Done():
		return ctx.Err()
	}
	tx, err := s.store.DB().BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return fmt.Errorf("blob lock of %s: %w", company, err)
	}
	defer tx.Rollback() //nolint:errcheck // releases the lock; nothing was written
	if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, "captable.blobs:"+company); err != nil {
		return fmt.Errorf("blob lock of %s: %w", company, err)
	}
	return fn()
}
