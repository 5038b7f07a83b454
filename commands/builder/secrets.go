package builder

import (
	"context"
	stdsql "database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/strata-platform/strata/domain/builder"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/shred"
)

// SecretsConfig is what the app runtime secrets need.
type SecretsConfig struct {
	Store *eventstore.Store
	// Chats decides who may manage a company (Chats.Owned).
	Chats *Chats
	// WrappingKey (32 bytes, derived from the master key for this use
	// only) wraps each company's data key.
	WrappingKey []byte
	Clock       kernel.Clock
	// DeployedRevision reports the secrets revision (Snapshot.Revision)
	// that the company's last successful deploy ran with; ok false when it
	// was never deployed. A secret set at a later revision (and the
	// company, after any later change, deletions included) is pending a
	// redeploy. Exact; used before DeployedAt.
	DeployedRevision func(ctx context.Context, companyID string) (revision int64, ok bool, err error)
	// DeployedAt reports when the company's last successful deploy read
	// its secrets (ok false: never deployed), for a deploy side that keeps
	// times rather than revisions: a change at or after that time is
	// pending. Give the time the deploy read the secrets, not the time it
	// switched: a change made while a deploy runs would otherwise show as
	// applied.
	DeployedAt func(ctx context.Context, companyID string) (at time.Time, ok bool, err error)
	// With neither hook, no company was ever deployed: every secret is
	// pending.
}

// Secrets keeps the app runtime secrets of the founders' companies. A
// write appends an event (names, versions, who, when: never the value) to
// the company's secrets stream and, in the same transaction, the value
// sealed with AES-256-GCM under the company's data key into
// platform.builder_secrets, bound to (company, name, version) as
// additional data. Nothing here logs, returns or wraps a value, except
// Values, for the runtime. Changes apply on the next redeploy.
type Secrets struct {
	cfg  SecretsConfig
	keys *shred.KeyRing
}

// writeAttempts bounds the retries of a write that lost a race with
// another write to the same company (writes to different names commute).
// An attempt fails only when another write committed after its load, so
// up to writeAttempts writes at once to one company all land.
const writeAttempts = 20

// NewSecrets returns the secrets commands.
func NewSecrets(cfg SecretsConfig) (*Secrets, error) {
	if cfg.Store == nil || cfg.Chats == nil || cfg.Clock == nil {
		return nil, errors.New("builder secrets: Store, Chats and Clock are required")
	}
	keys, err := shred.New(cfg.WrappingKey, 10_000)
	if err != nil {
		return nil, fmt.Errorf("builder secrets: %w", err)
	}
	return &Secrets{cfg: cfg, keys: keys}, nil
}

// secretsKeyID is the key id of companyID's data key in es.subject_keys.
func secretsKeyID(companyID string) string { return "builder-secrets:" + companyID }

// SecretAD is the additional data a value of secret name at version of
// companyID is sealed with: a sealed value opens only for that company,
// name and version. Company ids and names hold no NUL, which separates
// the parts.
func SecretAD(companyID, name string, version int) []byte {
	return []byte("builder.secret\x00" + companyID + "\x00" + name + "\x00" + strconv.Itoa(version))
}

func secretsStream(companyID string) eventstore.Stream {
	return eventstore.Stream{Type: builder.StreamSecrets, ID: builder.SecretsStreamID(companyID)}
}

// Load folds companyID's secrets (names, versions, revisions; no values).
// It does not check who asks: the routes call List, Set and Delete.
func (s *Secrets) Load(ctx context.Context, companyID string) (*builder.Secrets, error) {
	evs, err := s.cfg.Store.Load(ctx, builder.SecretsStreamID(companyID), eventstore.LoadOptions{})
	if err != nil {
		return nil, fmt.Errorf("load secrets of %s: %w", companyID, err)
	}
	st := &builder.Secrets{CompanyID: companyID}
	for _, e := range evs {
		st.Apply(e.Event, e.StreamVersion)
	}
	return st, nil
}

// SecretInfo is one secret as founders see it: never its value, length or
// a hash of it.
type SecretInfo struct {
	Name            string
	Version         int
	UpdatedAt       time.Time
	UpdatedBy       string // the founder's user id
	PendingRedeploy bool   // set after the last successful deploy's secrets
}

// SecretList is a company's secrets, sorted by name.
type SecretList struct {
	CompanyID string
	Secrets   []SecretInfo
	// PendingRedeploy: something changed (a deletion too) since the last
	// successful deploy's secrets.
	PendingRedeploy bool
}

// deployMark is the company's last successful deploy, as far as its
// secrets go.
type deployMark struct {
	deployed, byRevision bool
	revision             int64
	at                   time.Time
}

// pending reports whether a change at revision rev, made at at, came
// after the deploy (at the same instant counts as after: a redeploy too
// many is better than a change shown as applied that is not).
func (m deployMark) pending(rev int64, at time.Time) bool {
	switch {
	case !m.deployed:
		return true
	case m.byRevision:
		return rev > m.revision
	default:
		return !at.Before(m.at)
	}
}

// deployed reads the company's last deploy through the configured hook.
func (s *Secrets) deployed(ctx context.Context, companyID string) (deployMark, error) {
	var m deployMark
	var err error
	switch {
	case s.cfg.DeployedRevision != nil:
		m.byRevision = true
		m.revision, m.deployed, err = s.cfg.DeployedRevision(ctx, companyID)
	case s.cfg.DeployedAt != nil:
		m.at, m.deployed, err = s.cfg.DeployedAt(ctx, companyID)
	}
	if err != nil {
		return deployMark{}, fmt.Errorf("last deploy of %s: %w", companyID, err)
	}
	return m, nil
}

func info(sec builder.Secret, m deployMark) SecretInfo {
	return SecretInfo{Name: sec.Name, Version: sec.Version, UpdatedAt: sec.UpdatedAt, UpdatedBy: sec.UpdatedBy,
		PendingRedeploy: m.pending(sec.Revision, sec.UpdatedAt)}
}

// List returns companyID's secrets, masked, for its founder (400, 404, 403
// as Chats.Owned decides).
func (s *Secrets) List(ctx context.Context, founderID, companyID string) (SecretList, error) {
	if _, err := s.cfg.Chats.Owned(ctx, founderID, companyID); err != nil {
		return SecretList{}, err
	}
	st, err := s.Load(ctx, companyID)
	if err != nil {
		return SecretList{}, err
	}
	m, err := s.deployed(ctx, companyID)
	if err != nil {
		return SecretList{}, err
	}
	out := SecretList{CompanyID: companyID, Secrets: []SecretInfo{}}
	for _, sec := range st.List() {
		out.Secrets = append(out.Secrets, info(sec, m))
	}
	out.PendingRedeploy = st.Version > 0 && m.pending(st.Version, st.ChangedAt)
	return out, nil
}

// Set adds secret name to companyID with value, or changes its value as
// the next version, for the company's founder. The event and the sealed
// value commit together; a write that loses a race with another write to
// the company is decided again (a few times, then 409).
func (s *Secrets) Set(ctx context.Context, founderID, companyID, name, value string) (SecretInfo, error) {
	if _, err := s.cfg.Chats.Owned(ctx, founderID, companyID); err != nil {
		return SecretInfo{}, err
	}
	var ev *builder.SecretSet
	var rev int64
	err := s.write(ctx, companyID, func(st *builder.Secrets) (kernel.Event, error) {
		var err error
		ev, err = builder.SetSecret(st, companyID, name, value, founderID, s.cfg.Clock.Now())
		return ev, err
	}, func(ctx context.Context, tx *stdsql.Tx, st *builder.Secrets, to int64) (*shred.NewKey, error) {
		rev = to
		return s.store(ctx, tx, st, ev, value)
	})
	if err != nil {
		return SecretInfo{}, err
	}
	m, err := s.deployed(ctx, companyID)
	if err != nil {
		return SecretInfo{}, err
	}
	return info(builder.Secret{Name: ev.Name, Version: ev.Version, UpdatedAt: ev.At, UpdatedBy: ev.UpdatedBy, Revision: rev}, m), nil
}

// store seals value under the company's data key (a fresh one with the
// company's first secret) and upserts its row, in tx.
func (s *Secrets) store(ctx context.Context, tx *stdsql.Tx, st *builder.Secrets, ev *builder.SecretSet, value string) (*shred.NewKey, error) {
	id, ad := secretsKeyID(ev.CompanyID), SecretAD(ev.CompanyID, ev.Name, ev.Version)
	var fresh *shred.NewKey
	var sealed kernel.Sealed
	if st.Version == eventstore.NoStream {
		var err error
		if fresh, err = s.keys.Fresh(id, ev.CompanyID); err != nil {
			return nil, fmt.Errorf("data key of %s: %w", ev.CompanyID, err)
		}
		if err := s.keys.Store(ctx, tx, fresh); err != nil {
			return nil, err
		}
		sealed = fresh.SealWith([]byte(value), ad)
	} else {
		var err error
		if sealed, err = s.keys.SealWith(ctx, tx, id, []byte(value), ad); err != nil {
			return nil, fmt.Errorf("seal secret %s of %s: %w", ev.Name, ev.CompanyID, err)
		}
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO platform.builder_secrets (company_id, name, version, key_id, sealed)
		VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (company_id, name) DO UPDATE SET version = EXCLUDED.version, key_id = EXCLUDED.key_id, sealed = EXCLUDED.sealed`,
		ev.CompanyID, ev.Name, ev.Version, sealed.Key, sealed.Data)
	if err != nil {
		return nil, fmt.Errorf("store secret %s of %s: %w", ev.Name, ev.CompanyID, err)
	}
	return fresh, nil
}

// SecretRemoval is a deletion as founders see it.
type SecretRemoval struct {
	builder.SecretDeleted
	// PendingRedeploy: the last successful deploy's app still has the
	// secret (or the company was never deployed).
	PendingRedeploy bool
}

// Delete removes secret name from companyID for its founder: 404 (field
// name) when the company has no such secret.
func (s *Secrets) Delete(ctx context.Context, founderID, companyID, name string) (SecretRemoval, error) {
	if _, err := s.cfg.Chats.Owned(ctx, founderID, companyID); err != nil {
		return SecretRemoval{}, err
	}
	var ev *builder.SecretDeleted
	var rev int64
	err := s.write(ctx, companyID, func(st *builder.Secrets) (kernel.Event, error) {
		var err error
		ev, err = builder.DeleteSecret(st, companyID, name, founderID, s.cfg.Clock.Now())
		return ev, err
	}, func(ctx context.Context, tx *stdsql.Tx, _ *builder.Secrets, to int64) (*shred.NewKey, error) {
		rev = to
		_, err := tx.ExecContext(ctx, `DELETE FROM platform.builder_secrets WHERE company_id = $1 AND name = $2`, companyID, name)
		if err != nil {
			return nil, fmt.Errorf("delete secret %s of %s: %w", name, companyID, err)
		}
		return nil, nil
	})
	if err != nil {
		return SecretRemoval{}, err
	}
	m, err := s.deployed(ctx, companyID)
	if err != nil {
		return SecretRemoval{}, err
	}
	return SecretRemoval{SecretDeleted: *ev, PendingRedeploy: m.pending(rev, ev.At)}, nil
}

// write loads the company's secrets, decides, and appends the decision
// with also's table writes in one transaction, deciding again when another
// write got there first.
func (s *Secrets) write(ctx context.Context, companyID string, decide func(*builder.Secrets) (kernel.Event, error),
	also func(ctx context.Context, tx *stdsql.Tx, st *builder.Secrets, to int64) (*shred.NewKey, error)) error {
	for attempt := 1; ; attempt++ {
		st, err := s.Load(ctx, companyID)
		if err != nil {
			return err
		}
		ev, err := decide(st)
		if err != nil {
			return err
		}
		var fresh *shred.NewKey
		err = s.cfg.Store.InTx(ctx, func(tx *stdsql.Tx) error {
			a, err := s.cfg.Store.AppendTx(ctx, tx, secretsStream(companyID), st.Version, ev)
			if err != nil {
				return err
			}
			fresh, err = also(ctx, tx, st, a.ToVersion)
			return err
		})
		if kernel.KindOf(err) == kernel.KindConflict {
			if attempt < writeAttempts {
				continue
			}
			return kernel.Conflict("the company's secrets kept changing while saving; try again", err)
		}
		if err != nil {
			return fmt.Errorf("write secrets of %s: %w", companyID, err)
		}
		if fresh != nil {
			s.keys.Remember(fresh)
		}
		return nil
	}
}
