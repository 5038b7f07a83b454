package identity

import (
	"context"
	"errors"

	ident "github.com/strata-platform/strata/domain/identity"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

var signingStream = eventstore.Stream{Type: ident.StreamSigningKeys, ID: ident.SigningKeysStreamID}

// EnsureSigningKey generates the first JWT signing key when the store has
// none. Two processes starting together both try; the stream's version
// check lets one win and the other adopts its key.
func (s *Service) EnsureSigningKey(ctx context.Context) error {
	if len(s.dir.SigningKeys()) > 0 {
		return s.tokens.refresh()
	}
	ev, err := NewSigningKey(s.master, "k-"+newTokenID()[:12], s.clock.Now())
	if err != nil {
		return err
	}
	err = s.write(ctx, func(t *txn) error { return t.append(ctx, signingStream, eventstore.NoStream, ev) })
	if errors.Is(err, kernel.ErrConflict) {
		if err := s.dir.CatchUp(ctx); err != nil {
			return err
		}
	} else if err != nil {
		return err
	}
	return s.tokens.refresh()
}

// RotateSigningKey adds a new signing key, which signs from now on; the
// previous keys keep verifying until the tokens they signed have expired.
// It returns the new key id.
func (s *Service) RotateSigningKey(ctx context.Context) (string, error) {
	ev, err := NewSigningKey(s.master, "k-"+newTokenID()[:12], s.clock.Now())
	if err != nil {
		return "", err
	}
	if err := s.write(ctx, func(t *txn) error { return t.append(ctx, signingStream, eventstore.AnyVersion, ev) }); err != nil {
		return "", err
	}
	return ev.KeyID, s.tokens.refresh()
}
