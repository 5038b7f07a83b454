package voicebench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
)

// do sends method path (on the voice surface) with the tenant's token and
// body as JSON, fails unless the answer is want, and decodes it into out
// (when not nil).
func (b *bench) do(ctx context.Context, method, path string, body, out any, want int) error {
	raw, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, method, b.srv.URL+path, bytes.NewReader(raw))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+b.srv.Token)
	resp, err := b.http.Do(req)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	if resp.StatusCode != want {
		return fmt.Errorf("%s %s: status %d, want %d: %.500s", method, path, resp.StatusCode, want, got)
	}
	if out != nil {
		if err := json.Unmarshal(got, out); err != nil {
			return fmt.Errorf("%s %s: decode the answer: %w: %.300s", method, path, err, got)
		}
	}
	return nil
}

// setup gives the tenant its two numbers (imported, then bought over
// HTTP), routes lineIVR to an IVR whose key 1 hangs up, and turns the
// calling-hours guard off (the bench runs at any hour).
func (b *bench) setup(ctx context.Context) error {
	b.o.Logf("setting the tenant up: numbers %s (outbound calls, SMS) and %s (an IVR, key 1 hangs up), calling hours off ...", lineOut, lineIVR)
	ids := map[string]string{}
	for _, phone := range []string{lineOut, lineIVR} {
		if err := b.srv.Import(ctx, phone); err != nil {
			return fmt.Errorf("voicebench: import %s: %w", phone, err)
		}
		var n struct {
			ID string `json:"id"`
		}
		if err := b.do(ctx, http.MethodPost, "/api/v1/numbers/purchase", map[string]any{"phone_number": phone}, &n, http.StatusCreated); err != nil {
			return err
		}
		ids[phone] = n.ID
	}
	routing := map[string]any{"routing": map[string]any{"type": "ivr", "menu": map[string]any{"1": map[string]any{"action": "hangup"}}}}
	if err := b.do(ctx, http.MethodPut, "/api/v1/numbers/"+ids[lineIVR]+"/config", routing, nil, http.StatusOK); err != nil {
		return err
	}
	return b.do(ctx, http.MethodPut, "/api/v1/compliance/calling-hours", map[string]any{"enforced": false}, nil, http.StatusOK)
}
