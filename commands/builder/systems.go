package builder

import (
	"bytes"
	"context"
	stdsql "database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/strata-platform/strata/domain/builder"
	"github.com/strata-platform/strata/domain/builder/template"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/shred"
)

// SystemsConfig is what the business systems need.
type SystemsConfig struct {
	Store *eventstore.Store
	// Chats finds companies and decides who may manage them (Chats.Owned).
	Chats *Chats
	// Keys seals records' fields under each company's data key (the
	// platform's key ring: erasing a company's key erases its records'
	// contents, history included).
	Keys *shred.KeyRing
	// KeySecret (32 bytes, derived from the master key for this use only)
	// derives the company keys, so a deploy can put a company's key in its
	// app's environment while only the key's hash is stored.
	KeySecret []byte
	// BaseURL is the builder's public base URL (the app's
	// STRATA_SYSTEMS_URL is BaseURL + RecordsPath).
	BaseURL string
	Clock   kernel.Clock
	IDs     kernel.IDs
}

// RecordsPath is the route the founder and the app post records to.
const RecordsPath = "/api/build/systems/records"

// Systems keeps the founders' companies' business systems: records posted
// by the founder (session) or the deployed app (company key) are events on
// the company's builder.systems stream; the records table and the company
// key table are projected inline, in the append's transaction.
type Systems struct {
	cfg SystemsConfig
}

// NewSystems returns the systems commands.
func NewSystems(cfg SystemsConfig) (*Systems, error) {
	if cfg.Store == nil || cfg.Chats == nil || cfg.Keys == nil || cfg.Clock == nil || cfg.IDs == nil {
		return nil, errors.New("builder systems: Store, Chats, Keys, Clock and IDs are required")
	}
	if len(cfg.KeySecret) < 32 {
		return nil, errors.New("builder systems: KeySecret must hold at least 32 bytes")
	}
	return &Systems{cfg: cfg}, nil
}

// Credential is how a caller proves it may write a company's records: the
// signed-in founder's user id, or a company key.
type Credential struct {
	FounderID string
	Key       string
}

// RecordResult is a recorded change and the record's state after it.
type RecordResult struct {
	CompanyID string
	System    string
	RecordID  string
	Change    string
	Status    string
	Outcome   string
	Version   int64 // the systems stream's version after the change
	At        time.Time
}

// Record records a change of a record of one of companyID's systems. Who:
// a key must be the company's live key (401 unknown or replaced, 403
// another company's); a founder must own the company (Chats.Owned: 400,
// 404, 403). What: builder.CheckRecordInput, then the system must be one
// of the company's (400 field system, the list in the message), then
// builder.DecideRecord on the record's state. The event, the record's row
// and, for the company's first fields, its data key commit together.
func (s *Systems) Record(ctx context.Context, cred Credential, companyID string, in builder.RecordInput) (RecordResult, error) {
	actor, ch, err := s.authorize(ctx, cred, companyID)
	if err != nil {
		return RecordResult{}, err
	}
	if err := builder.CheckRecordInput(in); err != nil {
		return RecordResult{}, err
	}
	set, err := s.systemSet(ctx, ch, nil)
	if err != nil {
		return RecordResult{}, err
	}
	def, ok := builder.FindSystem(set, in.System)
	if !ok {
		return RecordResult{}, kernel.Invalid("system", "unknown", fmt.Sprintf("this company has no system %q; its systems are %s",
			in.System, strings.Join(builder.SystemIDs(set), ", ")))
	}
	var res RecordResult
	var fresh *shred.NewKey
	err = s.cfg.Store.InTx(ctx, func(tx *stdsql.Tx) error {
		fresh = nil
		if err := lockCompany(ctx, tx, "builder.systems", companyID); err != nil {
			return err
		}
		st, err := recordState(ctx, tx, companyID, def.ID, in.RecordID)
		if err != nil {
			return err
		}
		outcome, err := builder.DecideRecord(def, st, in)
		if err != nil {
			return err
		}
		ev := &builder.SystemRecordChanged{CompanyID: companyID, System: def.ID, Kind: def.Kind, RecordID: in.RecordID,
			Change: in.Type, Outcome: outcome, ActorKind: actor.Kind, ActorID: actor.ID, At: s.cfg.Clock.Now()}
		if builder.HasFields(in.Fields) {
			sealed, key, err := s.sealFields(ctx, tx, companyID, def.ID, in.RecordID, in.Fields)
			if err != nil {
				return err
			}
			ev.Fields, fresh = &sealed, key
		}
		a, err := s.cfg.Store.AppendTx(ctx, tx, systemsStream(companyID), eventstore.AnyVersion, ev)
		if err != nil {
			return err
		}
		if fresh != nil {
			if err := s.cfg.Keys.Store(ctx, tx, fresh); err != nil {
				return err
			}
		}
		next := builder.NextRecordState(st, in.Type, outcome)
		if err := putRecord(ctx, tx, ev, next, a.ToVersion); err != nil {
			return err
		}
		res = RecordResult{CompanyID: companyID, System: def.ID, RecordID: in.RecordID, Change: in.Type, Status: next.Status,
			Outcome: next.Outcome, Version: a.ToVersion, At: ev.At}
		return nil
	})
	if err != nil {
		if kernel.KindOf(err) != kernel.KindInternal {
			return RecordResult{}, err
		}
		return RecordResult{}, fmt.Errorf("record %s %s in %s: %w", in.System, in.RecordID, companyID, err)
	}
	if fresh != nil {
		s.cfg.Keys.Remember(fresh)
	}
	return res, nil
}

// Actor is who wrote a record: builder.ActorFounder with the user id, or
// builder.ActorApp with the key's id.
type Actor struct {
	Kind, ID string
}

func (s *Systems) authorize(ctx context.Context, cred Credential, companyID string) (Actor, *builder.Chat, error) {
	if cred.Key == "" {
		if cred.FounderID == "" {
			return Actor{}, nil, kernel.Unauthenticated("sign in as the company's founder, or send the company key as Authorization: Bearer bsk_...")
		}
		ch, err := s.cfg.Chats.Owned(ctx, cred.FounderID, companyID)
		return Actor{Kind: builder.ActorFounder, ID: cred.FounderID}, ch, err
	}
	if err := checkCompanyID(companyID); err != nil {
		return Actor{}, nil, err
	}
	keyID, err := s.Authenticate(ctx, cred.Key, companyID)
	if err != nil {
		return Actor{}, nil, err
	}
	ch, err := s.cfg.Chats.Load(ctx, companyID)
	return Actor{Kind: builder.ActorApp, ID: keyID}, ch, err
}

func checkCompanyID(companyID string) error {
	if companyID == "" {
		return kernel.Invalid("companyId", "required", "companyId is required (the chatId of the generation that built the company)")
	}
	return CheckChatID("companyId", companyID)
}

func systemsStream(companyID string) eventstore.Stream {
	return eventstore.Stream{Type: builder.StreamSystems, ID: builder.SystemsStream(companyID)}
}

// lockCompany serialises the writers of one company's stream of a kind
// (a transaction-scoped advisory lock: it assigns no transaction id, so
// the append's version check stays the transaction's first write).
func lockCompany(ctx context.Context, tx *stdsql.Tx, kind, companyID string) error {
	_, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, kind+":"+companyID)
	return err
}

// fieldsKeyID is the id of a company's data key for its records' fields.
func fieldsKeyID(companyID string) string { return "builder-systems:" + companyID }

// FieldsAD is the additional data a record's fields are sealed with: they
// open only as that company's, system's and record's.
func FieldsAD(companyID, system, recordID string) []byte {
	return []byte("builder.system_record\x00" + companyID + "\x00" + system + "\x00" + recordID)
}

// sealFields seals the fields (compacted) under the company's data key,
// creating it (returned, to be stored in tx) on the company's first use.
func (s *Systems) sealFields(ctx context.Context, tx *stdsql.Tx, companyID, system, recordID string, raw json.RawMessage) (kernel.Sealed, *shred.NewKey, error) {
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return kernel.Sealed{}, nil, kernel.Invalid("fields", "type:object", "fields must be a JSON object")
	}
	ad := FieldsAD(companyID, system, recordID)
	sealed, err := s.cfg.Keys.SealWith(ctx, tx, fieldsKeyID(companyID), buf.Bytes(), ad)
	if err == nil {
		return sealed, nil, nil
	}
	if !errors.Is(err, shred.ErrShredded) {
		return kernel.Sealed{}, nil, err
	}
	key, err := s.cfg.Keys.Fresh(fieldsKeyID(companyID), companyID)
	if err != nil {
		return kernel.Sealed{}, nil, err
	}
	return key.SealWith(buf.Bytes(), ad), key, nil
}

// OpenFields opens a record event's sealed fields (shred.ErrShredded once
// the company's key was destroyed).
func (s *Systems) OpenFields(ctx context.Context, ev *builder.SystemRecordChanged) (json.RawMessage, error) {
	if ev.Fields == nil {
		return nil, nil
	}
	return s.cfg.Keys.OpenWith(ctx, s.cfg.Store.DB(), *ev.Fields, FieldsAD(ev.CompanyID, ev.System, ev.RecordID))
}

// specEntities are the entities of the company's app spec: the current
// version's (a restored version's is the spec of the generation it was
// restored from), else the latest planned generation's (one still
// running).
func specEntities(ch *builder.Chat) ([]builder.EntityRef, error) {
	var raw json.RawMessage
	v, ok := ch.CurrentVersion()
	for range builder.MaxVersions {
		if !ok || v.GenerationID != "" || v.RestoredFrom == "" {
			break
		}
		v, ok = ch.VersionByID(v.RestoredFrom)
	}
	if g, found := ch.Generation(v.GenerationID); ok && found && g.Planned {
		raw = g.Spec
	}
	for i := len(ch.Generations) - 1; i >= 0 && raw == nil; i-- {
		if ch.Generations[i].Planned {
			raw = ch.Generations[i].Spec
		}
	}
	if len(raw) == 0 {
		return nil, nil
	}
	var spec template.Spec
	if err := json.Unmarshal(raw, &spec); err != nil {
		return nil, fmt.Errorf("the app spec of %s: %w", ch.ID, err)
	}
	return entityRefs(spec), nil
}

func entityRefs(spec template.Spec) []builder.EntityRef {
	out := make([]builder.EntityRef, 0, len(spec.Entities))
	for _, e := range spec.Entities {
		out = append(out, builder.EntityRef{Name: e.Name, Plural: e.Plural})
	}
	return out
}
