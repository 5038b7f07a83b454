package eventstore

import (
	"context"
	stdsql "database/sql"
	"errors"
	"fmt"
)

// RowQuerier runs a query returning one row (a *sql.DB or a *sql.Tx).
type RowQuerier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *stdsql.Row
}

// ClaimOwner returns the stream that holds value in scope (see Claim), or
// "" when none does: the committed claims, and q's own when q is the
// claiming transaction.
func ClaimOwner(ctx context.Context, q RowQuerier, scope, value string) (string, error) {
	var owner string
	err := q.QueryRowContext(ctx, `SELECT owner_stream FROM es.unique_keys WHERE scope = $1 AND value = $2`, scope, value).Scan(&owner)
	if errors.Is(err, stdsql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("claim owner %s: %w", scope, err)
	}
	return owner, nil
}
