package connections

import (
	"context"
	stdsql "database/sql"
	"errors"
	"fmt"
	"sort"
	"time"

	domain "github.com/strata-platform/strata/domain/connections"
	"github.com/strata-platform/strata/domain/kernel"
)

// Token returns owner's tokens and account at provider, refreshed first
// when they expire within Config.RefreshBefore. Not connected, or waiting
// to be reconnected: NotConnected (409, field provider).
func (s *Service) Token(ctx context.Context, owner, provider string) (Tokens, Identity, error) {
	p, err := s.Provider(provider)
	if err != nil {
		return Tokens{}, Identity{}, err
	}
	a, _, err := s.load(ctx, s.cfg.Store.DB(), owner, provider)
	if err != nil {
		return Tokens{}, Identity{}, err
	}
	if a.Status != domain.StatusConnected {
		return Tokens{}, Identity{}, NotConnected(p, a.Status == domain.StatusNeedsReconnect)
	}
	row, err := readRow(ctx, s.cfg.Store.DB(), owner, provider, false)
	if errors.Is(err, errNoRow) {
		return Tokens{}, Identity{}, NotConnected(p, false)
	}
	if err != nil {
		return Tokens{}, Identity{}, err
	}
	t, err := s.open(owner, provider, row)
	if err != nil {
		return Tokens{}, Identity{}, err
	}
	id := Identity{ID: a.Subject, Handle: a.Handle, Extra: a.Extra}
	if !s.due(t, s.cfg.RefreshBefore) {
		return t, id, nil
	}
	t, err = s.refresh(ctx, p, owner, s.cfg.RefreshBefore)
	if err != nil {
		return Tokens{}, Identity{}, err
	}
	return t, id, nil
}

// due reports whether t expires within d and can be refreshed.
func (s *Service) due(t Tokens, d time.Duration) bool {
	return !t.Expiry.IsZero() && t.RefreshToken != "" && s.cfg.Clock.Now().Add(d).After(t.Expiry)
}

// refresh refreshes owner's tokens at p under the token row's lock (two
// processes never spend one refresh token twice; the second finds fresh
// tokens). A refusal marks the account needs-reconnect; a transient
// failure keeps the old tokens while they are still valid. Tokens that do
// not expire within within are returned as they are (another process
// refreshed them first).
func (s *Service) refresh(ctx context.Context, p Provider, owner string, within time.Duration) (Tokens, error) {
	var out Tokens
	var refused error
	err := s.cfg.Store.InTx(ctx, func(tx *stdsql.Tx) error {
		row, err := readRow(ctx, tx, owner, p.Name(), true)
		if errors.Is(err, errNoRow) {
			return NotConnected(p, false)
		}
		if err != nil {
			return err
		}
		cur, err := s.open(owner, p.Name(), row)
		if err != nil {
			return err
		}
		if !s.due(cur, within) {
			out = cur
			return nil
		}
		a, version, err := s.load(ctx, tx, owner, p.Name())
		if err != nil {
			return err
		}
		if a.Status != domain.StatusConnected || a.ID != row.AccountID {
			return NotConnected(p, a.Status == domain.StatusNeedsReconnect)
		}
		nt, err := p.Refresh(ctx, cur)
		if err != nil {
			switch ClassOf(err) {
			case Unauthorized, Refused:
				refused = err
				_, err = s.cfg.Store.AppendTx(ctx, tx, stream(owner, p.Name()), version,
					&domain.NeedsReconnect{AccountID: a.ID, Reason: "refresh refused: " + reason(err), At: s.cfg.Clock.Now()})
				return err
			}
			if s.cfg.Clock.Now().Before(cur.Expiry) {
				s.cfg.Logger.Warn("connections: refresh failed; the current token is still valid", "provider", p.Name(), "err", err)
				out = cur
				return nil
			}
			return kernel.Unavailable(p.Label()+" could not refresh the account's token; try again later", err)
		}
		if nt.RefreshToken == "" {
			nt.RefreshToken = cur.RefreshToken // providers that keep the refresh token omit it
			nt.RefreshExpiry = cur.RefreshExpiry
		}
		tv := row.Version + 1
		sealedTokens, err := s.seal(owner, p.Name(), tv, nt)
		if err != nil {
			return err
		}
		if _, err := s.cfg.Store.AppendTx(ctx, tx, stream(owner, p.Name()), version,
			&domain.Refreshed{AccountID: a.ID, TokenVersion: tv, Expiry: nt.Expiry, At: s.cfg.Clock.Now()}); err != nil {
			return err
		}
		out = nt
		return writeRow(ctx, tx, owner, p.Name(), tokenRow{AccountID: a.ID, Version: tv, Sealed: sealedTokens}, nt)
	})
	if err == nil && refused != nil {
		return Tokens{}, NotConnected(p, true)
	}
	return out, err
}

func reason(err error) string {
	var ce *CallError
	if errors.As(err, &ce) {
		return ce.Reason
	}
	return "error"
}

// Report tells the store how a call with owner's tokens at provider ended:
// an Unauthorized failure marks the account needs-reconnect (once).
func (s *Service) Report(ctx context.Context, owner, provider string, callErr error) {
	if ClassOf(callErr) != Unauthorized {
		return
	}
	if _, err := s.MarkNeedsReconnect(ctx, owner, provider, reason(callErr)); err != nil {
		s.cfg.Logger.Warn("connections: needs-reconnect not recorded", "provider", provider, "err", err)
	}
}

// MarkNeedsReconnect records that the provider refused owner's tokens. It
// reports whether this call made the change (false: already marked, or
// nothing connected).
func (s *Service) MarkNeedsReconnect(ctx context.Context, owner, provider, why string) (bool, error) {
	changed := false
	err := s.cfg.Store.InTx(ctx, func(tx *stdsql.Tx) error {
		a, version, err := s.load(ctx, tx, owner, provider)
		if err != nil || a.Status != domain.StatusConnected {
			return err
		}
		changed = true
		_, err = s.cfg.Store.AppendTx(ctx, tx, stream(owner, provider), version,
			&domain.NeedsReconnect{AccountID: a.ID, Reason: why, At: s.cfg.Clock.Now()})
		return err
	})
	if kernel.KindOf(err) == kernel.KindConflict {
		return false, nil // another call marked it first
	}
	return changed, err
}

// Disconnect revokes owner's tokens at provider where it can, forgets them
// and records the disconnection. Nothing connected: 404.
func (s *Service) Disconnect(ctx context.Context, owner, by, provider string) (revoked bool, err error) {
	p, err := s.Provider(provider)
	if err != nil {
		return false, err
	}
	a, _, err := s.load(ctx, s.cfg.Store.DB(), owner, provider)
	if err != nil {
		return false, err
	}
	if !a.Live() {
		return false, kernel.NotFound("no " + provider + " account is connected")
	}
	note := ""
	if row, err := readRow(ctx, s.cfg.Store.DB(), owner, provider, false); err == nil {
		if t, err := s.open(owner, provider, row); err == nil {
			switch rerr := p.Revoke(ctx, t); {
			case rerr == nil:
				revoked = true
			case errors.Is(rerr, ErrNoRevoke):
				note = p.Label() + " offers no token revocation; the tokens were forgotten"
			default:
				note = "revocation failed (" + reason(rerr) + "); the tokens were forgotten"
				s.cfg.Logger.Warn("connections: revoke failed", "provider", provider, "err", rerr)
			}
		}
	}
	err = s.cfg.Store.InTx(ctx, func(tx *stdsql.Tx) error {
		cur, version, err := s.load(ctx, tx, owner, provider)
		if err != nil {
			return err
		}
		if !cur.Live() || cur.ID != a.ID {
			return kernel.Conflict("the connection changed meanwhile; try again", nil)
		}
		if _, err := s.cfg.Store.AppendTx(ctx, tx, stream(owner, provider), version,
			&domain.Disconnected{AccountID: a.ID, Revoked: revoked, Note: note, By: by, At: s.cfg.Clock.Now()}); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM platform.connection_tokens WHERE owner = $1 AND provider = $2`, owner, provider)
		return err
	})
	return revoked, err
}

// List returns owner's live accounts (connected or needing reconnection)
// among providers (nil: all), sorted by provider.
func (s *Service) List(ctx context.Context, owner string, providers []string) ([]domain.Account, error) {
	rows, err := s.cfg.Store.DB().QueryContext(ctx, `SELECT provider FROM platform.connection_tokens WHERE owner = $1 ORDER BY provider`, owner)
	if err != nil {
		return nil, err
	}
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			rows.Close()
			return nil, err
		}
		names = append(names, n)
	}
	if err := rows.Close(); err != nil {
		return nil, err
	}
	var out []domain.Account
	for _, n := range names {
		if providers != nil && !contains(providers, n) {
			continue
		}
		a, _, err := s.load(ctx, s.cfg.Store.DB(), owner, n)
		if err != nil {
			return nil, err
		}
		if a.Live() {
			out = append(out, a)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Provider < out[j].Provider })
	return out, nil
}

// RefreshDue refreshes every stored token that expires within
// Config.RefreshBefore plus ahead (the periodic refresh job), and returns
// how many were refreshed and how many were refused.
func (s *Service) RefreshDue(ctx context.Context, ahead time.Duration) (refreshed, refused int, err error) {
	rows, err := s.cfg.Store.DB().QueryContext(ctx, `SELECT owner, provider FROM platform.connection_tokens
		WHERE refreshable AND expiry IS NOT NULL AND expiry < $1::timestamptz + make_interval(secs => $2)`,
		s.cfg.Clock.Now(), ahead.Seconds()+s.cfg.RefreshBefore.Seconds())
	if err != nil {
		return 0, 0, err
	}
	type key struct{ owner, provider string }
	var due []key
	for rows.Next() {
		var k key
		if err := rows.Scan(&k.owner, &k.provider); err != nil {
			rows.Close()
			return 0, 0, err
		}
		due = append(due, k)
	}
	if err := rows.Close(); err != nil {
		return 0, 0, err
	}
	for _, k := range due {
		p, perr := s.Provider(k.provider)
		if perr != nil {
			continue // a provider no longer registered
		}
		if _, rerr := s.refresh(ctx, p, k.owner, ahead+s.cfg.RefreshBefore); rerr != nil {
			switch kernel.KindOf(rerr) {
			case kernel.KindConflict:
				refused++
				continue
			case kernel.KindUnavailable:
				s.cfg.Logger.Warn("connections: refresh failed; retried on the next run", "provider", k.provider, "err", rerr)
				continue
			}
			return refreshed, refused, fmt.Errorf("connections: refresh %s: %w", k.provider, rerr)
		}
		refreshed++
	}
	return refreshed, refused, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
