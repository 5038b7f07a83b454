package builder

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	stdsql "database/sql"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/strata-platform/strata/domain/builder"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// The company key: "bsk_" and 43 characters of unpadded base64url (256
// bits), given to the app as SystemsKeyEnv.
const (
	SystemsKeyPrefix = "bsk_"
	SystemsKeyEnv    = "STRATA_SYSTEMS_KEY"
	// SystemsURLEnv is the URL the app posts its records to.
	SystemsURLEnv = "STRATA_SYSTEMS_URL"
	// CompanyIDEnv is the company id the app posts with.
	CompanyIDEnv = "STRATA_COMPANY_ID"
	// IssuedByDeploy is the IssuedBy of a key a deploy issued.
	IssuedByDeploy = "deploy"
)

const systemsKeyLen = len(SystemsKeyPrefix) + 43

// IssuedSystemsKey is a company key just issued: the whole key, shown
// once.
type IssuedSystemsKey struct {
	CompanyID string
	KeyID     string
	Key       string
	Hint      string
	Replaces  string // the key id it replaced ("" for the first)
	IssuedAt  time.Time
}

// key derives the key of generation gen of companyID:
// HMAC-SHA256(KeySecret, label, company, generation). Nothing secret is
// stored; a new generation replaces the key.
func (s *Systems) key(companyID string, gen int) string {
	mac := hmac.New(sha256.New, s.cfg.KeySecret)
	mac.Write([]byte("strata builder systems key\x00" + companyID + "\x00" + strconv.Itoa(gen)))
	return SystemsKeyPrefix + base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}

func keyHash(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:])
}

// IssueKey issues a new company key for the company's founder (Chats.Owned:
// 400, 404, 403) and returns it, this once; the previous key stops
// working at once (the app's environment gets the new one at its next
// deploy).
func (s *Systems) IssueKey(ctx context.Context, founderID, companyID string) (IssuedSystemsKey, error) {
	if _, err := s.cfg.Chats.Owned(ctx, founderID, companyID); err != nil {
		return IssuedSystemsKey{}, err
	}
	return s.issue(ctx, companyID, founderID, true)
}

// issue appends a key issue (rotate: always; else only when the company
// has no key) and returns the company's live key.
func (s *Systems) issue(ctx context.Context, companyID, by string, rotate bool) (IssuedSystemsKey, error) {
	var out IssuedSystemsKey
	err := s.cfg.Store.InTx(ctx, func(tx *stdsql.Tx) error {
		if err := lockCompany(ctx, tx, "builder.systems", companyID); err != nil {
			return err
		}
		var cur IssuedSystemsKey
		gen := 0
		err := tx.QueryRowContext(ctx, `SELECT key_id, generation, issued_at FROM platform.builder_systems_keys WHERE company_id = $1`,
			companyID).Scan(&cur.KeyID, &gen, &cur.IssuedAt)
		if err != nil && !errors.Is(err, stdsql.ErrNoRows) {
			return err
		}
		if gen > 0 && !rotate {
			key := s.key(companyID, gen)
			out = IssuedSystemsKey{CompanyID: companyID, KeyID: cur.KeyID, Key: key, Hint: hint(key), IssuedAt: cur.IssuedAt}
			return nil
		}
		key := s.key(companyID, gen+1)
		ev := &builder.SystemsKeyIssued{CompanyID: companyID, KeyID: "skey_" + s.cfg.IDs.NewID(), Generation: gen + 1,
			SecretHash: keyHash(key), Hint: hint(key), Replaces: cur.KeyID, IssuedBy: by, At: s.cfg.Clock.Now()}
		if _, err := s.cfg.Store.AppendTx(ctx, tx, systemsStream(companyID), eventstore.AnyVersion, ev); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO platform.builder_systems_keys (company_id, key_id, generation, secret_hash, issued_at)
			VALUES ($1, $2, $3, $4, $5) ON CONFLICT (company_id) DO UPDATE SET key_id = $2, generation = $3, secret_hash = $4, issued_at = $5`,
			companyID, ev.KeyID, ev.Generation, ev.SecretHash, ev.At); err != nil {
			return err
		}
		out = IssuedSystemsKey{CompanyID: companyID, KeyID: ev.KeyID, Key: key, Hint: ev.Hint, Replaces: ev.Replaces, IssuedAt: ev.At}
		return nil
	})
	if err != nil {
		return IssuedSystemsKey{}, fmt.Errorf("issue a systems key for %s: %w", companyID, err)
	}
	return out, nil
}

func hint(key string) string { return key[:len(SystemsKeyPrefix)+6] + "…" }

// Authenticate checks a company key for companyID and returns its key id:
// 401 when it is not a live key (malformed, unknown, or replaced), 403
// when it is another company's.
func (s *Systems) Authenticate(ctx context.Context, key, companyID string) (string, error) {
	if !strings.HasPrefix(key, SystemsKeyPrefix) || len(key) != systemsKeyLen {
		return "", kernel.Unauthenticated("not a company key: send the key from POST /api/build/systems/key (bsk_...) as Authorization: Bearer")
	}
	var owner, keyID string
	err := s.cfg.Store.DB().QueryRowContext(ctx, `SELECT company_id, key_id FROM platform.builder_systems_keys WHERE secret_hash = $1`,
		keyHash(key)).Scan(&owner, &keyID)
	if errors.Is(err, stdsql.ErrNoRows) {
		return "", kernel.Unauthenticated("this company key is unknown or was replaced by a newer one")
	}
	if err != nil {
		return "", fmt.Errorf("check a systems key: %w", err)
	}
	if owner != companyID {
		return "", kernel.Forbidden("this company key belongs to another company")
	}
	return keyID, nil
}

// AddAppEnv puts the company's systems settings into a deploy's
// environment: STRATA_SYSTEMS_KEY (the live company key; a company's first
// deploy issues one, recorded as issued by "deploy"), STRATA_SYSTEMS_URL
// and STRATA_COMPANY_ID. Founders cannot set STRATA_ names as secrets,
// so nothing of theirs is overwritten.
func (s *Systems) AddAppEnv(ctx context.Context, companyID string, env map[string]string) error {
	k, err := s.issue(ctx, companyID, IssuedByDeploy, false)
	if err != nil {
		return err
	}
	env[SystemsKeyEnv] = k.Key
	env[SystemsURLEnv] = strings.TrimRight(s.cfg.BaseURL, "/") + RecordsPath
	env[CompanyIDEnv] = companyID
	return nil
}
