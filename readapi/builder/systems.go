package builder

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"

	cmd "github.com/strata-platform/strata/commands/builder"
	"github.com/strata-platform/strata/domain/builder"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/readapi/httpx"
)

// SourceEvents says where the systems' counts come from: the company's
// record events, nothing else.
const SourceEvents = "events"

type cardView struct {
	ID             string         `json:"id"`
	Label          string         `json:"label"`
	Kind           string         `json:"kind"`
	Origin         string         `json:"origin"`
	Record         string         `json:"record"`
	Outcomes       []string       `json:"outcomes"`
	Counts         map[string]int `json:"counts"`
	LastActivityAt *time.Time     `json:"last_activity_at"`
	Source         string         `json:"source"`
}

// systems serves GET /api/build/systems?companyId=&idea= (no auth, as the
// seed has it): the company's system cards, counts and card metadata
// only, never a record's contents. 400 field companyId or idea, 404 for an
// unknown company.
func systems(s *cmd.Systems) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		companyID := q.Get("companyId")
		cards, err := s.Cards(r.Context(), companyID, q.Get("idea"))
		if err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		out := make([]cardView, len(cards))
		for i, c := range cards {
			outcomes := c.Outcomes
			if outcomes == nil {
				outcomes = []string{}
			}
			out[i] = cardView{ID: c.ID, Label: c.Label, Kind: c.Kind, Origin: c.Origin, Record: c.Record, Outcomes: outcomes,
				Counts: c.Counts, LastActivityAt: c.LastActivity, Source: SourceEvents}
		}
		w.Header().Set("Cache-Control", "no-store")
		_ = httpx.WriteJSON(w, http.StatusOK, map[string]any{"companyId": companyID, "source": SourceEvents, "systems": out})
	})
}

type recordRequest struct {
	CompanyID string          `json:"companyId"`
	System    string          `json:"system"`
	Type      string          `json:"type"`
	RecordID  string          `json:"recordId"`
	Outcome   string          `json:"outcome"`
	Fields    json.RawMessage `json:"fields"`
}

// credential reads who posts: a company key (Authorization: Bearer
// bsk_...), else the founder session cookie; neither is 401.
func (f *Founders) credential(r *http.Request) (cmd.Credential, error) {
	if h := r.Header.Get("Authorization"); h != "" {
		scheme, token, _ := strings.Cut(h, " ")
		if !strings.EqualFold(scheme, "Bearer") || !strings.HasPrefix(strings.TrimSpace(token), cmd.SystemsKeyPrefix) {
			return cmd.Credential{}, kernel.Unauthenticated("Authorization must be Bearer and a company key (bsk_...); founders use their session instead")
		}
		return cmd.Credential{Key: strings.TrimSpace(token)}, nil
	}
	if c, err := r.Cookie(sessionCookie); err != nil || c.Value == "" {
		return cmd.Credential{}, kernel.Unauthenticated("neither a founder session nor a company key: sign in at /auth/login, " +
			"or send the company's key as Authorization: Bearer bsk_...")
	}
	s, err := f.session(r)
	if err != nil {
		return cmd.Credential{}, err
	}
	return cmd.Credential{FounderID: s.UserID}, nil
}

// record serves POST /api/build/systems/records {companyId, system, type,
// recordId, fields, outcome}: one change of one record, posted by the
// founder (session) or the deployed app (company key). 200 with the
// record's status after it and the stream version.
func record(f *Founders, s *cmd.Systems) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		cred, err := f.credential(r)
		if err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		var req recordRequest
		if err := httpx.DecodeJSON(r, &req); err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		res, err := s.Record(r.Context(), cred, req.CompanyID, builder.RecordInput{System: req.System, Type: req.Type,
			RecordID: req.RecordID, Outcome: req.Outcome, Fields: req.Fields})
		if err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		_ = httpx.WriteJSON(w, http.StatusOK, map[string]any{"companyId": res.CompanyID, "system": res.System, "recordId": res.RecordID,
			"type": res.Change, "status": res.Status, "outcome": optional(res.Outcome), "version": res.Version, "at": res.At.UTC()})
	})
}

// issueKey serves POST /api/build/systems/key {companyId} (session, the
// company's founder): a new company key, shown this once; the previous
// one stops working.
func issueKey(s *cmd.Systems) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			CompanyID string `json:"companyId"`
		}
		if err := httpx.DecodeJSON(r, &req); err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		fs, _ := Founder(r.Context())
		k, err := s.IssueKey(r.Context(), fs.UserID, req.CompanyID)
		if err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		w.Header().Set("Cache-Control", "no-store")
		_ = httpx.WriteJSON(w, http.StatusOK, map[string]any{"companyId": k.CompanyID, "key": k.Key, "key_id": k.KeyID, "hint": k.Hint,
			"replaces": optional(k.Replaces), "issued_at": k.IssuedAt.UTC(), "env": cmd.SystemsKeyEnv,
			"note": "Shown once. The previous key stopped working; the app's environment gets this one at its next deploy."})
	})
}
