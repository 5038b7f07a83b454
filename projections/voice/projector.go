// Package voice projects the voice context's events into the tables of
// schema rm_voice_v1, which the voice read API serves: call logs and live
// calls, notes, recordings, callback attempts, messages, contacts, the
// number inventory and the do-not-call lists. Personal data stays sealed
// (as the events hold it); the read API opens it with the party's key.
package voice

import (
	"context"
	stdsql "database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/voice"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/shred"
)

// Name is the projector's name; its tables live in schema rm_voice_v1.
const Name = "voice.v1"

// Schema is the schema of the projector's tables, for qualified queries.
const Schema = "rm_voice_v1"

// Projector maintains rm_voice_v1. Keys opens transcripts to index them
// for search (nil: transcripts are not searchable).
type Projector struct {
	Keys *shred.KeyRing
}

// Name implements projections.Projector.
func (Projector) Name() string { return Name }

// PartitionedByStream implements projections.Partitioned: a call's,
// message's, contact's, number's or tenant's rows are its stream's alone.
func (Projector) PartitionedByStream() {}

// Handles implements projections.Projector: every voice event.
func (Projector) Handles() []string {
	var out []string
	for _, c := range voice.Events() {
		out = append(out, c().EventType())
	}
	return out
}

func exec(ctx context.Context, tx *stdsql.Tx, q string, args ...any) error {
	_, err := tx.ExecContext(ctx, q, args...)
	return err
}

func sealed(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

func apply(ctx context.Context, tx *stdsql.Tx, e eventstore.Envelope) error {
	switch ev := e.Event.(type) {
	case *voice.CallRequested:
		return exec(ctx, tx, `INSERT INTO calls (call_id, tenant, direction, line, number_id, party, remote, status, seq, record,
			queue_id, agent_id, provider, callback_url, requested_by, requested_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, 'queued', 1, $8, $9, $10, $11, $12, $13, $14, $14) ON CONFLICT (call_id) DO NOTHING`,
			ev.CallID, ev.Tenant, ev.Direction, ev.Line, ev.NumberID, ev.Party, sealed(ev.Secret), ev.Record,
			ev.QueueID, ev.AgentID, ev.Provider, ev.CallbackURL, ev.RequestedBy, ev.At)
	case *voice.CallDialing:
		return exec(ctx, tx, `UPDATE calls SET status = 'initiated', seq = $2, sip_code = CASE WHEN $3 = 0 THEN sip_code ELSE $3 END,
			provider_call_id = CASE WHEN $4 = '' THEN provider_call_id ELSE $4 END, updated_at = $5 WHERE call_id = $1`,
			ev.CallID, ev.Seq, ev.SIPCode, ev.ProviderCallID, ev.At)
	case *voice.CallRinging:
		if err := step(ctx, tx, ev.Step, "ringing"); err != nil {
			return err
		}
		return exec(ctx, tx, `UPDATE calls SET provider_call_id = $2 WHERE call_id = $1 AND $2 <> ''`, ev.CallID, ev.ProviderCallID)
	case *voice.CallAnswered:
		if err := step(ctx, tx, ev.Step, "in-progress"); err != nil {
			return err
		}
		return exec(ctx, tx, `UPDATE calls SET answered_at = $2 WHERE call_id = $1`, ev.CallID, ev.At)
	case *voice.CallHeld:
		return exec(ctx, tx, `UPDATE calls SET on_hold = true, seq = $2, updated_at = $3 WHERE call_id = $1`, ev.CallID, ev.Seq, ev.At)
	case *voice.CallResumed:
		return exec(ctx, tx, `UPDATE calls SET on_hold = false, seq = $2, updated_at = $3 WHERE call_id = $1`, ev.CallID, ev.Seq, ev.At)
	case *voice.CallTransferred:
		return exec(ctx, tx, `UPDATE calls SET on_hold = false, transferred = true, seq = $2, updated_at = $3 WHERE call_id = $1`,
			ev.CallID, ev.Seq, ev.At)
	case *voice.CallEnded:
		if err := step(ctx, tx, ev.Step, ev.Status); err != nil {
			return err
		}
		return exec(ctx, tx, `UPDATE calls SET ended_at = $2, duration = $3, reason = $4, on_hold = false WHERE call_id = $1`,
			ev.CallID, ev.At, ev.Duration, ev.Reason)
	case *voice.CallRecordingStored:
		return exec(ctx, tx, `INSERT INTO recordings (recording_id, call_id, tenant, blob, bytes, samples, sample_rate, codec, at)
			SELECT $1, $2, tenant, $3, $4, $5, $6, $7, $8 FROM calls WHERE call_id = $2 ON CONFLICT (recording_id) DO NOTHING`,
			ev.RecordingID, ev.CallID, ev.Blob, ev.Bytes, ev.Samples, ev.SampleRate, ev.Codec, ev.At)
	case *voice.CallNoteAdded:
		return exec(ctx, tx, `INSERT INTO call_notes (note_id, call_id, author, secret, at) VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (note_id) DO NOTHING`, ev.NoteID, ev.CallID, ev.Author, sealed(ev.Secret), ev.At)
	case *voice.CallDispositionSet:
		return exec(ctx, tx, `UPDATE calls SET disposition = $2 WHERE call_id = $1`, ev.CallID, ev.Disposition)
	case *voice.CallbackAttempted:
		return exec(ctx, tx, `INSERT INTO callbacks (subject, seq, attempt, url, status_code, error, delivered, final, millis, at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (subject, seq, attempt) DO NOTHING`,
			ev.Subject, ev.Seq, ev.Attempt, ev.URL, ev.StatusCode, ev.Error, ev.Delivered, ev.Final, ev.Millis, ev.At)
	default:
		return applyRest(ctx, tx, e)
	}
}

func step(ctx context.Context, tx *stdsql.Tx, s voice.Step, status string) error {
	return exec(ctx, tx, `UPDATE calls SET status = $2, seq = $3, sip_code = CASE WHEN $4 = 0 THEN sip_code ELSE $4 END,
		reason = CASE WHEN $5 = '' THEN reason ELSE $5 END, updated_at = $6 WHERE call_id = $1`,
		s.CallID, status, s.Seq, s.SIPCode, s.Reason, s.At)
}

func applyRest(ctx context.Context, tx *stdsql.Tx, e eventstore.Envelope) error {
	switch ev := e.Event.(type) {
	case *voice.MessageRequested:
		status := voice.MsgQueued
		if ev.Direction == voice.Inbound {
			status = voice.MsgReceived
		}
		return exec(ctx, tx, `INSERT INTO messages (message_id, tenant, direction, line, party, secret, status, seq, segments,
			encoding, characters, media_count, requested_by, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, 1, $8, $9, $10, $11, $12, $13, $13) ON CONFLICT (message_id) DO NOTHING`,
			ev.MessageID, ev.Tenant, ev.Direction, ev.Line, ev.Party, sealed(ev.Secret), status, ev.Segments, ev.Encoding,
			ev.Characters, ev.MediaCount, ev.RequestedBy, ev.At)
	case *voice.MessageStatusChanged:
		return exec(ctx, tx, `UPDATE messages SET status = $2, seq = $3, provider_id = CASE WHEN $4 = '' THEN provider_id ELSE $4 END,
			error_code = $5, updated_at = $6 WHERE message_id = $1 AND seq < $3`, ev.MessageID, ev.Status, ev.Seq, ev.ProviderID, ev.ErrorCode, ev.At)
	case *voice.ContactCreated:
		tags := ev.Tags
		if tags == nil {
			tags = []string{}
		}
		return exec(ctx, tx, `INSERT INTO contacts (contact_id, tenant, party, tags, secret, created_by, created_at)
			VALUES ($1, $2, $3, $4::text[], $5, $6, $7) ON CONFLICT (contact_id) DO NOTHING`,
			ev.ContactID, ev.Tenant, ev.Party, tags, sealed(ev.Secret), ev.CreatedBy, ev.At)
	case *voice.NumberImported:
		return exec(ctx, tx, `INSERT INTO numbers (number_id, phone, national, country, number_type, region, capabilities, provider, imported_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7::text[], $8, $9) ON CONFLICT (number_id) DO NOTHING`,
			ev.NumberID, ev.Phone, ev.National, ev.Country, ev.NumberType, ev.Region, ev.Capabilities, ev.Provider, ev.At)
	case *voice.NumberPurchased:
		return exec(ctx, tx, `UPDATE numbers SET tenant = $2, friendly_name = $3, routing_type = '', routing_target = '',
			routing_menu = NULL, purchased_at = $4 WHERE number_id = $1`, ev.NumberID, ev.Tenant, ev.FriendlyName, ev.At)
	case *voice.NumberConfigured:
		rt, rid := "", ""
		var menu []byte
		if ev.Routing != nil {
			rt, rid = ev.Routing.Type, ev.Routing.TargetID
			if len(ev.Routing.Menu) > 0 {
				menu, _ = json.Marshal(ev.Routing.Menu)
			}
		}
		return exec(ctx, tx, `UPDATE numbers SET friendly_name = CASE WHEN $2 = '' THEN friendly_name ELSE $2 END,
			routing_type = CASE WHEN $3 = '' THEN routing_type ELSE $3 END,
			routing_target = CASE WHEN $3 = '' THEN routing_target ELSE $4 END,
			routing_menu = CASE WHEN $3 = '' THEN routing_menu ELSE $5::jsonb END WHERE number_id = $1`,
			ev.NumberID, ev.FriendlyName, rt, rid, menu)
	case *voice.NumberReleased:
		return exec(ctx, tx, `UPDATE numbers SET tenant = '', friendly_name = '', routing_type = '', routing_target = '',
			routing_menu = NULL, purchased_at = NULL WHERE number_id = $1`, ev.NumberID)
	case *voice.DNCAdded:
		return exec(ctx, tx, `INSERT INTO dnc (tenant, party, source, reason, secret, since) VALUES ($1, $2, $3, $4, $5, $6)
			ON CONFLICT (tenant, party) DO NOTHING`, ev.Tenant, ev.Party, ev.Source, ev.Reason, sealed(ev.Secret), ev.At)
	case *voice.DNCRemoved:
		return exec(ctx, tx, `DELETE FROM dnc WHERE tenant = $1 AND party = $2`, ev.Tenant, ev.Party)
	}
	return applyInbound(ctx, tx, e)
}

// Apply implements projections.Projector.
func (p Projector) Apply(ctx context.Context, tx *stdsql.Tx, e eventstore.Envelope) error {
	switch ev := e.Event.(type) {
	case *voice.TranscriptStored:
		return p.transcript(ctx, tx, ev)
	case *voice.TranscriptFailed:
		return exec(ctx, tx, `INSERT INTO transcript_failures (call_id, recording_id, engine, reason, at) VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (call_id, recording_id) DO NOTHING`, ev.CallID, ev.RecordingID, ev.Engine, ev.Reason, ev.At)
	case *voice.PartyErased:
		return exec(ctx, tx, `UPDATE transcripts SET search = NULL WHERE tenant = $1 AND party = $2`, ev.Tenant, ev.Party)
	}
	return apply(ctx, tx, e)
}

// transcript records a transcript, its search vector computed from the
// opened text (none when the key is gone: erased before the projector got
// here, or in a rebuild after the erasure).
func (p Projector) transcript(ctx context.Context, tx *stdsql.Tx, ev *voice.TranscriptStored) error {
	var text *string
	if p.Keys != nil && ev.Secret.Key != "" {
		raw, err := p.Keys.Open(ctx, tx, ev.Secret)
		switch {
		case errors.Is(err, shred.ErrShredded):
		case err != nil:
			return err
		default:
			var t voice.TranscriptText
			if err := json.Unmarshal(raw, &t); err != nil {
				return err
			}
			text = &t.Text
		}
	}
	s := ev.Sentiment
	if s == nil {
		s = &voice.Sentiment{}
	}
	return exec(ctx, tx, `INSERT INTO transcripts (transcript_id, call_id, recording_id, tenant, party, engine, language, confidence,
		segments, duration_ms, sentiment_score, sentiment_label, sentiment_method, sentiment_version, sentiment_sum, sentiment_words,
		sentiment_matched, secret, search, created_at)
		SELECT $1, $2, $3, tenant, party, $4, $5, $6, $7, $8, $9, nullif($10, ''), nullif($11, ''), nullif($12, ''), $13, $14, $15, $16,
			CASE WHEN $17::text IS NULL THEN NULL ELSE to_tsvector('english', $17::text) END, $18
		FROM calls WHERE call_id = $2 ON CONFLICT (transcript_id) DO NOTHING`,
		ev.TranscriptID, ev.CallID, ev.RecordingID, ev.Engine, ev.Language, ev.Confidence, ev.Segments, ev.DurationMS,
		s.Score, s.Label, s.Method, s.Version, s.Sum, s.Words, s.Matched, sealed(ev.Secret), text, ev.At)
}

func applyInbound(ctx context.Context, tx *stdsql.Tx, e eventstore.Envelope) error {
	switch ev := e.Event.(type) {
	case *voice.CallDigitReceived:
		return exec(ctx, tx, `UPDATE calls SET digits = digits || $2 WHERE call_id = $1`, ev.CallID, ev.Digit)
	case *voice.CallRouted:
		return exec(ctx, tx, `UPDATE calls SET route = $2 WHERE call_id = $1`, ev.CallID, ev.Route)
	case *voice.VoicemailLeft:
		return exec(ctx, tx, `INSERT INTO voicemails (voicemail_id, call_id, tenant, number_id, line, party, remote, status, duration_ms,
			recording_id, created_at, updated_at)
			SELECT $1, call_id, tenant, number_id, line, party, remote, 'new', $3, $4, $5, $5 FROM calls WHERE call_id = $2
			ON CONFLICT (voicemail_id) DO NOTHING`, ev.VoicemailID, ev.CallID, ev.DurationMS, ev.RecordingID, ev.At)
	case *voice.VoicemailStatusChanged:
		return exec(ctx, tx, `UPDATE voicemails SET status = $2, updated_at = $3 WHERE voicemail_id = $1`, ev.VoicemailID, ev.To, ev.At)
	}
	return nil
}

// Inline applies the message events among evs inside tx, the transaction
// that appends them, so a message's row is in the read model the moment
// its events commit (read your writes without waiting for the projector:
// ARCHITECTURE section 4 allows projecting inline for what the next request
// depends on). The live projector applies the same events again later,
// which changes nothing: the insert is ignored and a status update never
// moves a message back (it only applies a later sequence number). tx's
// search_path is pointed at Schema for the writes and restored after.
func Inline(ctx context.Context, tx *stdsql.Tx, evs []kernel.Event) error {
	var msgs []kernel.Event
	for _, ev := range evs {
		switch ev.(type) {
		case *voice.MessageRequested, *voice.MessageStatusChanged:
			msgs = append(msgs, ev)
		}
	}
	if len(msgs) == 0 {
		return nil
	}
	var prev string
	if err := tx.QueryRowContext(ctx, `SELECT current_setting('search_path'), set_config('search_path', $1, true)`,
		Schema+", public").Scan(&prev, new(string)); err != nil {
		return fmt.Errorf("inline projection: %w", err)
	}
	for _, ev := range msgs {
		if err := applyRest(ctx, tx, eventstore.Envelope{Event: ev}); err != nil {
			return fmt.Errorf("inline projection of %s: %w", ev.EventType(), err)
		}
	}
	_, err := tx.ExecContext(ctx, `SELECT set_config('search_path', $1, true)`, prev)
	return err
}
