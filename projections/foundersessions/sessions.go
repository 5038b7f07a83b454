// Package foundersessions projects the builder's founder sessions into the
// table the session middleware reads: one row per live session, keyed by
// the SHA-256 of its cookie, removed at sign-out.
package foundersessions

import (
	"context"
	stdsql "database/sql"
	"errors"
	"time"

	"github.com/strata-platform/strata/domain/builder"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/projections"
)

// Name is the projector's name; its table lives in schema rm_builder_sessions_v1.
const Name = "builder.sessions.v1"

// Projector maintains rm_builder_sessions_v1.sessions.
type Projector struct{}

// Name implements projections.Projector.
func (Projector) Name() string { return Name }

// Handles implements projections.Projector.
func (Projector) Handles() []string {
	return []string{builder.FounderSignedIn{}.EventType(), builder.FounderSignedOut{}.EventType()}
}

// Apply inserts a session at sign-in and deletes it at sign-out.
func (Projector) Apply(ctx context.Context, tx *stdsql.Tx, e eventstore.Envelope) error {
	switch ev := e.Event.(type) {
	case *builder.FounderSignedIn:
		_, err := tx.ExecContext(ctx, `INSERT INTO sessions (session_hash, session_id, user_id, email, name, scope,
			sealed_tokens, signed_in_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
			ON CONFLICT (session_hash) DO NOTHING`,
			ev.SessionHash, ev.SessionID, ev.UserID, ev.Email, ev.Name, ev.Scope, ev.SealedTokens, ev.At, ev.ExpiresAt)
		return err
	case *builder.FounderSignedOut:
		_, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE session_id = $1`, ev.SessionID)
		return err
	}
	return nil
}

// Session is a live founder session.
type Session struct {
	ID           string
	UserID       string
	Email        string
	Name         string
	Scope        string
	SealedTokens []byte
	SignedInAt   time.Time
	ExpiresAt    time.Time
}

// Lookup returns the unexpired session whose cookie hashes to hash.
func Lookup(ctx context.Context, db *stdsql.DB, hash string, now time.Time) (Session, bool, error) {
	var s Session
	err := db.QueryRowContext(ctx, `SELECT session_id, user_id, email, name, scope, sealed_tokens, signed_in_at, expires_at
		FROM `+projections.SchemaName(Name)+`.sessions WHERE session_hash = $1 AND expires_at > $2`, hash, now).
		Scan(&s.ID, &s.UserID, &s.Email, &s.Name, &s.Scope, &s.SealedTokens, &s.SignedInAt, &s.ExpiresAt)
	if errors.Is(err, stdsql.ErrNoRows) {
		return Session{}, false, nil
	}
	if err != nil {
		return Session{}, false, err
	}
	return s, true, nil
}
