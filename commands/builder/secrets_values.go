package builder

import (
	"context"
	"fmt"

	"github.com/strata-platform/strata/domain/builder"
	"github.com/strata-platform/strata/domain/kernel"
)

// Snapshot is a company's secrets at one revision, decrypted, for the
// runtime (a redeploy passes Values as the app's environment). Never log
// or return Values.
type Snapshot struct {
	CompanyID string
	// Revision is the secrets stream's version these values are at (0: the
	// company never had a secret). A deploy that succeeds with this
	// snapshot records it; SecretsConfig.DeployedRevision returns it, and
	// every change after it is pending a redeploy.
	Revision int64
	Values   map[string]string // name -> value
	Versions map[string]int    // name -> version
}

// Env is Values' map alone: the app's environment, in the shape
// DeploysConfig.Secrets takes.
func (s *Secrets) Env(ctx context.Context, companyID string) (map[string]string, error) {
	snap, err := s.Values(ctx, companyID)
	if err != nil {
		return nil, err
	}
	return snap.Values, nil
}

// snapshotAttempts bounds the rereads of a snapshot that raced a write.
const snapshotAttempts = 5

// Values decrypts companyID's live secrets, consistent with one revision
// of its stream (it rereads when a write lands between the stream and the
// table). A secret whose name has since become reserved is left out. It
// does not check who asks: it is for the runtime, never a route.
func (s *Secrets) Values(ctx context.Context, companyID string) (Snapshot, error) {
	for attempt := 1; ; attempt++ {
		snap, consistent, err := s.snapshot(ctx, companyID)
		if err != nil || consistent {
			return snap, err
		}
		if attempt == snapshotAttempts {
			return Snapshot{}, kernel.Conflict("the company's secrets kept changing while reading them; try again", nil)
		}
	}
}

type sealedRow struct {
	version int
	key     string
	data    string
}

// snapshot reads the stream, then the rows; consistent is false when a row
// does not hold the version the stream says.
func (s *Secrets) snapshot(ctx context.Context, companyID string) (Snapshot, bool, error) {
	st, err := s.Load(ctx, companyID)
	if err != nil {
		return Snapshot{}, false, err
	}
	snap := Snapshot{CompanyID: companyID, Revision: st.Version, Values: map[string]string{}, Versions: map[string]int{}}
	if st.Len() == 0 {
		return snap, true, nil
	}
	db := s.cfg.Store.DB()
	rows, err := db.QueryContext(ctx, `SELECT name, version, key_id, sealed FROM platform.builder_secrets WHERE company_id = $1`, companyID)
	if err != nil {
		return Snapshot{}, false, fmt.Errorf("read secrets of %s: %w", companyID, err)
	}
	byName := map[string]sealedRow{}
	for rows.Next() {
		var name string
		var r sealedRow
		if err := rows.Scan(&name, &r.version, &r.key, &r.data); err != nil {
			rows.Close()
			return Snapshot{}, false, fmt.Errorf("read secrets of %s: %w", companyID, err)
		}
		byName[name] = r
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return Snapshot{}, false, fmt.Errorf("read secrets of %s: %w", companyID, err)
	}
	for _, sec := range st.List() {
		r, ok := byName[sec.Name]
		if !ok || r.version != sec.Version {
			return Snapshot{}, false, nil
		}
		if builder.ReservedSecretName(sec.Name) {
			continue
		}
		plain, err := s.keys.OpenWith(ctx, db, kernel.Sealed{Key: r.key, Data: r.data}, SecretAD(companyID, sec.Name, sec.Version))
		if err != nil {
			return Snapshot{}, false, fmt.Errorf("open secret %s (version %d) of %s: %w", sec.Name, sec.Version, companyID, err)
		}
		snap.Values[sec.Name], snap.Versions[sec.Name] = string(plain), sec.Version
	}
	return snap, true, nil
}
