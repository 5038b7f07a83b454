package voice

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"time"

	cmd "github.com/strata-platform/strata/commands/voice"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/voice"
	"github.com/strata-platform/strata/readapi/httpx"
)

type subjectBody struct {
	Phone     string `json:"phone"`
	ContactID string `json:"contact_id"`
}

// subject resolves a request body to the party it is about.
func (a *API) subject(r *http.Request, c caller) (cmd.Subject, string, error) {
	var b subjectBody
	if err := decode(r, &b); err != nil {
		return cmd.Subject{}, "", err
	}
	sub := cmd.Subject{Phone: strings.TrimSpace(b.Phone), ContactID: strings.TrimSpace(b.ContactID)}
	party, err := a.svc.PartyOf(r.Context(), c.actor, sub)
	return sub, party, err
}

// messageExport is a message in an export.
type messageExport struct {
	ID        string  `json:"id"`
	Direction string  `json:"direction"`
	From      *string `json:"from"`
	To        *string `json:"to"`
	Body      *string `json:"body"`
	Status    string  `json:"status"`
	Segments  int     `json:"segments"`
	CreatedAt string  `json:"created_at"`
}

// callExport is a call in an export, with its notes and recordings.
type callExport struct {
	callView
	Notes      []noteView      `json:"notes"`
	Recordings []recordingView `json:"recordings"`
}

// exportDoc is everything held about a party.
type exportDoc struct {
	ExportID    string          `json:"export_id"`
	GeneratedAt string          `json:"generated_at"`
	Subject     cmd.Subject     `json:"subject"`
	Contacts    []contactView   `json:"contacts"`
	Calls       []callExport    `json:"calls"`
	Messages    []messageExport `json:"messages"`
	DoNotCall   *dncView        `json:"do_not_call"`
	Counts      map[string]int  `json:"counts"`
}

// gdprExport answers everything the tenant holds about a phone number or
// contact as a JSON file (and records that it was exported).
func (a *API) gdprExport(w http.ResponseWriter, r *http.Request, c caller) {
	sub, party, err := a.subject(r, c)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	doc, err := a.gather(r.Context(), c.actor.Tenant, party)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	if doc.ExportID, err = a.svc.RecordExport(r.Context(), c.actor, party); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	doc.Subject, doc.GeneratedAt = sub, stamp(a.svc.Now())
	w.Header().Set("Content-Disposition", `attachment; filename="voice-export-`+doc.ExportID+`.json"`)
	w.Header().Set("Cache-Control", "private, no-store")
	writeJSON(w, r, http.StatusOK, doc, nil)
}

// gdprDelete erases everything the tenant holds about a phone number or
// contact (crypto-shredding: the party's keys are destroyed) and answers
// the erasure record.
func (a *API) gdprDelete(w http.ResponseWriter, r *http.Request, c caller) {
	_, party, err := a.subject(r, c)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	doc, err := a.gather(r.Context(), c.actor.Tenant, party)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	var blobs []string
	rows, err := a.db.QueryContext(r.Context(), `SELECT r.blob FROM rm_voice_v1.recordings r JOIN rm_voice_v1.calls c USING (call_id)
		WHERE c.tenant = $1 AND c.party = $2`, c.actor.Tenant, party)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	for rows.Next() {
		var b string
		if err := rows.Scan(&b); err != nil {
			rows.Close()
			httpx.WriteError(w, r, err)
			return
		}
		blobs = append(blobs, b)
	}
	rows.Close()
	e, err := a.svc.Erase(r.Context(), c.actor, party, doc.Counts, blobs)
	writeJSON(w, r, http.StatusOK, map[string]any{"erasure_id": e.ID, "status": "erased", "counts": e.Counts, "erased_at": e.At,
		"kept": "the do-not-call listing stays in force by a keyed hash of the number; no readable personal data remains"}, err)
}

// gather reads everything held about party from the read model, opened.
func (a *API) gather(ctx context.Context, tenant, party string) (exportDoc, error) {
	doc := exportDoc{Contacts: []contactView{}, Calls: []callExport{}, Messages: []messageExport{}, Counts: map[string]int{}}
	rows, err := a.db.QueryContext(ctx, `SELECT contact_id FROM rm_voice_v1.contacts WHERE tenant = $1 AND party = $2 ORDER BY created_at`, tenant, party)
	if err != nil {
		return doc, err
	}
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return doc, err
		}
		ids = append(ids, id)
	}
	rows.Close()
	for _, id := range ids {
		v, err := a.contact(ctx, tenant, id)
		if err != nil {
			return doc, err
		}
		doc.Contacts = append(doc.Contacts, v)
	}
	if err := a.gatherCalls(ctx, tenant, party, &doc); err != nil {
		return doc, err
	}
	if err := a.gatherMessages(ctx, tenant, party, &doc); err != nil {
		return doc, err
	}
	var d dncView
	var secret []byte
	var since time.Time
	var reason string
	err = a.db.QueryRowContext(ctx, `SELECT source, reason, secret, since FROM rm_voice_v1.dnc WHERE tenant = $1 AND party = $2`,
		tenant, party).Scan(&d.Source, &reason, &secret, &since)
	if err == nil {
		d.Listed, d.Reason, d.Since = true, optS(reason), stampPtr(&since)
		if d.Phone, err = a.openNumber(ctx, secret); err != nil {
			return doc, err
		}
		doc.DoNotCall = &d
	} else if !isNoRows(err) {
		return doc, err
	}
	doc.Counts = map[string]int{"contacts": len(doc.Contacts), "calls": len(doc.Calls), "messages": len(doc.Messages)}
	for _, c := range doc.Calls {
		doc.Counts["notes"] += len(c.Notes)
		doc.Counts["recordings"] += len(c.Recordings)
	}
	if doc.DoNotCall != nil {
		doc.Counts["do_not_call"] = 1
	}
	return doc, nil
}

func (a *API) gatherCalls(ctx context.Context, tenant, party string, doc *exportDoc) error {
	rows, err := a.db.QueryContext(ctx, `SELECT `+callCols+` FROM rm_voice_v1.calls WHERE tenant = $1 AND party = $2 ORDER BY requested_at`, tenant, party)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		v, err := a.scanCall(ctx, rows)
		if err != nil {
			return err
		}
		doc.Calls = append(doc.Calls, callExport{callView: v, Notes: []noteView{}, Recordings: []recordingView{}})
	}
	if err := rows.Err(); err != nil {
		return err
	}
	for i := range doc.Calls {
		ce := &doc.Calls[i]
		nrows, err := a.db.QueryContext(ctx, `SELECT note_id, author, secret, at FROM rm_voice_v1.call_notes WHERE call_id = $1 ORDER BY at`, ce.ID)
		if err != nil {
			return err
		}
		for nrows.Next() {
			n := noteView{CallID: ce.ID}
			var secret []byte
			var at time.Time
			if err := nrows.Scan(&n.ID, &n.Author, &secret, &at); err != nil {
				nrows.Close()
				return err
			}
			n.CreatedAt, n.Text = stamp(at), a.openNote(ctx, secret)
			ce.Notes = append(ce.Notes, n)
		}
		nrows.Close()
		rrows, err := a.db.QueryContext(ctx, `SELECT recording_id, bytes, samples, sample_rate, codec, at FROM rm_voice_v1.recordings WHERE call_id = $1 ORDER BY at`, ce.ID)
		if err != nil {
			return err
		}
		for rrows.Next() {
			v := recordingView{CallID: ce.ID, Format: "audio/wav"}
			var at time.Time
			if err := rrows.Scan(&v.ID, &v.Bytes, &v.Samples, &v.SampleRate, &v.Codec, &at); err != nil {
				rrows.Close()
				return err
			}
			if v.SampleRate > 0 {
				v.DurationSeconds = float64(v.Samples) / float64(v.SampleRate)
			}
			v.CreatedAt, v.URL = stamp(at), "/api/v1/calls/"+ce.ID+"/recordings/"+v.ID
			ce.Recordings = append(ce.Recordings, v)
		}
		rrows.Close()
	}
	return nil
}

func (a *API) openNote(ctx context.Context, secret []byte) *string {
	var s kernel.Sealed
	if json.Unmarshal(secret, &s) != nil {
		return nil
	}
	raw, err := a.svc.OpenSealed(ctx, s)
	if err != nil || raw == nil {
		return nil
	}
	var t voice.NoteText
	if json.Unmarshal(raw, &t) != nil {
		return nil
	}
	return &t.Text
}

func (a *API) gatherMessages(ctx context.Context, tenant, party string, doc *exportDoc) error {
	rows, err := a.db.QueryContext(ctx, `SELECT message_id, direction, line, secret, status, segments, created_at
		FROM rm_voice_v1.messages WHERE tenant = $1 AND party = $2 ORDER BY created_at`, tenant, party)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var m messageExport
		var line string
		var secret []byte
		var at time.Time
		if err := rows.Scan(&m.ID, &m.Direction, &line, &secret, &m.Status, &m.Segments, &at); err != nil {
			return err
		}
		m.CreatedAt = stamp(at)
		var remote *string
		var s kernel.Sealed
		if json.Unmarshal(secret, &s) == nil {
			if raw, err := a.svc.OpenSealed(ctx, s); err == nil && raw != nil {
				var t voice.MessageText
				if json.Unmarshal(raw, &t) == nil {
					remote, m.Body = &t.Number, &t.Body
				}
			}
		}
		m.From, m.To = &line, remote
		if m.Direction == voice.Inbound {
			m.From, m.To = remote, &line
		}
		doc.Messages = append(doc.Messages, m)
	}
	return rows.Err()
}
