package voice

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/voice"
	"github.com/strata-platform/strata/readapi/httpx"
)

// transcriptView is a transcript, labelled with the engine that made it
// and its confidence (null when the engine gave none); its text and
// segments are null once the party is erased.
type transcriptView struct {
	ID          string                    `json:"id"`
	CallID      string                    `json:"call_id"`
	RecordingID string                    `json:"recording_id"`
	Engine      string                    `json:"engine"`
	Language    string                    `json:"language"`
	Confidence  *float64                  `json:"confidence"`
	Text        *string                   `json:"text"`
	Segments    []voice.TranscriptSegment `json:"segments"`
	Duration    float64                   `json:"duration_seconds"`
	CreatedAt   string                    `json:"created_at"`
	Note        string                    `json:"note"`
}

const transcriptCols = `transcript_id, call_id, recording_id, engine, language, confidence, secret, duration_ms, created_at`

// engineNote says what a transcript is: machine transcription, with its
// limits stated.
const engineNote = "machine transcription by the named engine; words may be wrong, confidence is the engine's own estimate"

func (a *API) scanTranscript(ctx context.Context, row scanner) (transcriptView, error) {
	var v transcriptView
	var secret []byte
	var ms int
	var at time.Time
	if err := row.Scan(&v.ID, &v.CallID, &v.RecordingID, &v.Engine, &v.Language, &v.Confidence, &secret, &ms, &at); err != nil {
		return v, err
	}
	v.Duration, v.CreatedAt, v.Note = float64(ms)/1000, stamp(at), engineNote
	var s kernel.Sealed
	if err := json.Unmarshal(secret, &s); err != nil {
		return v, err
	}
	raw, err := a.svc.OpenSealed(ctx, s)
	if err != nil {
		return v, err
	}
	if raw != nil {
		var t voice.TranscriptText
		if err := json.Unmarshal(raw, &t); err != nil {
			return v, err
		}
		v.Text, v.Segments = &t.Text, t.Segments
	}
	return v, nil
}

func (a *API) transcriptList(w http.ResponseWriter, r *http.Request, where string, args []any, order string, pg, limit int) {
	var total int
	if err := a.db.QueryRowContext(r.Context(), `SELECT count(*) FROM rm_voice_v1.transcripts WHERE `+where, args...).Scan(&total); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	n := len(args)
	rows, err := a.db.QueryContext(r.Context(), `SELECT `+transcriptCols+` FROM rm_voice_v1.transcripts WHERE `+where+` ORDER BY `+order+
		` LIMIT $`+itoa(n+1)+` OFFSET $`+itoa(n+2), append(args, limit, (pg-1)*limit)...)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	defer rows.Close()
	var items []transcriptView
	for rows.Next() {
		v, err := a.scanTranscript(r.Context(), rows)
		if err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		items = append(items, v)
	}
	writeJSON(w, r, http.StatusOK, newList(items, pg, limit, total), rows.Err())
}

// transcripts lists the tenant's transcripts, newest first.
func (a *API) transcripts(w http.ResponseWriter, r *http.Request, c caller) {
	pg, limit, err := page(r, 25)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	a.transcriptList(w, r, "tenant = $1", []any{c.actor.Tenant}, "created_at DESC, transcript_id DESC", pg, limit)
}

// searchTranscripts finds the tenant's transcripts matching q (English
// full-text search, web-search syntax: words, "phrases", -not, or), best
// match first.
func (a *API) searchTranscripts(w http.ResponseWriter, r *http.Request, c caller) {
	pg, limit, err := page(r, 25)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	q := strings.TrimSpace(r.URL.Query().Get("q"))
	if err := voice.CheckText("q", q, 1, 200); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	a.transcriptList(w, r, "tenant = $1 AND search @@ websearch_to_tsquery('english', $2)", []any{c.actor.Tenant, q},
		"ts_rank(search, websearch_to_tsquery('english', $2)) DESC, created_at DESC, transcript_id", pg, limit)
}

// callTranscripts answers the call's transcripts, and the recordings that
// could not be transcribed with the reason.
func (a *API) callTranscripts(w http.ResponseWriter, r *http.Request, c caller) {
	callID, err := a.ownCall(r, c)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	rows, err := a.db.QueryContext(r.Context(), `SELECT `+transcriptCols+` FROM rm_voice_v1.transcripts WHERE call_id = $1 ORDER BY created_at`, callID)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	items := []transcriptView{}
	for rows.Next() {
		v, err := a.scanTranscript(r.Context(), rows)
		if err != nil {
			rows.Close()
			httpx.WriteError(w, r, err)
			return
		}
		items = append(items, v)
	}
	rows.Close()
	type failure struct {
		RecordingID string  `json:"recording_id"`
		Engine      *string `json:"engine"`
		Reason      string  `json:"reason"`
		At          string  `json:"at"`
	}
	failed := []failure{}
	frows, err := a.db.QueryContext(r.Context(), `SELECT recording_id, engine, reason, at FROM rm_voice_v1.transcript_failures WHERE call_id = $1 ORDER BY at`, callID)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	defer frows.Close()
	for frows.Next() {
		var f failure
		var engine string
		var at time.Time
		if err := frows.Scan(&f.RecordingID, &engine, &f.Reason, &at); err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		f.Engine, f.At = optS(engine), stamp(at)
		failed = append(failed, f)
	}
	writeJSON(w, r, http.StatusOK, map[string]any{"call_id": callID, "items": items, "total": len(items), "failed": failed}, frows.Err())
}

// sentiment answers the call's sentiment: the lexicon method's score of
// each transcript, with the method and version that produced it and the
// words that counted.
func (a *API) sentiment(w http.ResponseWriter, r *http.Request, c caller) {
	callID, err := a.ownCall(r, c)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	rows, err := a.db.QueryContext(r.Context(), `SELECT transcript_id, sentiment_score, sentiment_label, sentiment_method, sentiment_version,
		sentiment_sum, sentiment_words, sentiment_matched, secret, created_at
		FROM rm_voice_v1.transcripts WHERE call_id = $1 AND sentiment_method IS NOT NULL ORDER BY created_at`, callID)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	defer rows.Close()
	type scored struct {
		TranscriptID string               `json:"transcript_id"`
		Score        float64              `json:"score"`
		Label        string               `json:"label"`
		Method       string               `json:"method"`
		Version      string               `json:"version"`
		Sum          float64              `json:"sum"`
		Words        int                  `json:"words"`
		MatchedCount int                  `json:"matched_count"`
		Matched      []voice.SentimentHit `json:"matched"`
		ComputedAt   string               `json:"computed_at"`
	}
	var out []scored
	for rows.Next() {
		var v scored
		var secret []byte
		var at time.Time
		if err := rows.Scan(&v.TranscriptID, &v.Score, &v.Label, &v.Method, &v.Version, &v.Sum, &v.Words, &v.MatchedCount, &secret, &at); err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		v.ComputedAt, v.Matched = stamp(at), []voice.SentimentHit{}
		var s kernel.Sealed
		if json.Unmarshal(secret, &s) == nil {
			if raw, err := a.svc.OpenSealed(r.Context(), s); err == nil && raw != nil {
				var t voice.TranscriptText
				if json.Unmarshal(raw, &t) == nil && t.Matched != nil {
					v.Matched = t.Matched
				}
			}
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	if len(out) == 0 {
		httpx.WriteError(w, r, kernel.NotFound("the call has no transcript to score (it was not recorded, or not transcribed: GET /api/v1/transcripts/call/"+callID+" says why)"))
		return
	}
	last := out[len(out)-1]
	writeJSON(w, r, http.StatusOK, map[string]any{"call_id": callID, "score": last.Score, "label": last.Label, "method": last.Method,
		"version": last.Version, "transcripts": out,
		"method_description": "word-list (lexicon) scoring of the transcript: negation and intensifiers applied, the sum normalised to -1..1 as s/sqrt(s^2+15); positive above 0.05, negative below -0.05"}, nil)
}
