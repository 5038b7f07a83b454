package gateway

import (
	"context"
	stdsql "database/sql"
	"fmt"
)

// accountLockKey names an account's ledger lock (an advisory lock keyed by
// hashtextextended, as the other advisory locks of the project are).
func accountLockKey(accountID string) string { return "gateway.credits:" + accountID }

// lockAccount takes the account's ledger lock for the rest of tx: every
// append to an account's credits stream takes it first, so a decision
// made under the lock (SetBalance) sees a stream nobody moves. An advisory
// lock writes nothing, so the append's version check stays the
// transaction's first write (see eventstore.AppendTx).
func lockAccount(ctx context.Context, tx *stdsql.Tx, accountID string) error {
	if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, accountLockKey(accountID)); err != nil {
		return fmt.Errorf("lock the credits of %s: %w", accountID, err)
	}
	return nil
}

// underAccountLock runs fn in a REPEATABLE READ transaction whose snapshot
// is taken after the account's ledger lock is held: the lock is taken on
// the connection first (a session lock, released after the transaction
// ends), so the snapshot already shows every append that held it before.
// The transaction commits when fn returns nil.
func (l *Ledger) underAccountLock(ctx context.Context, accountID string, fn func(tx *stdsql.Tx) error) error {
	conn, err := l.store.DB().Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	key := accountLockKey(accountID)
	if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock(hashtextextended($1, 0))`, key); err != nil {
		return fmt.Errorf("lock the credits of %s: %w", accountID, err)
	}
	defer func() {
		// A connection that cannot unlock is broken; closing it ends the
		// session and so the lock.
		_, _ = conn.ExecContext(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock(hashtextextended($1, 0))`, key)
	}()
	return l.store.InConnTx(ctx, conn, &stdsql.TxOptions{Isolation: stdsql.LevelRepeatableRead}, fn)
}
