package builderbench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/strata-platform/strata/readapi/identity/identitybench"
)

// quantile is the q-quantile of d in milliseconds (nearest rank).
func quantile(d []time.Duration, q float64) float64 { return identitybench.Quantile(d, q) }

// ms is d in milliseconds.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// entity is what the bench needs of an entity of a generated app's spec
// (the plan event's spec).
type entity struct {
	Plural string  `json:"plural"`
	Fields []field `json:"fields"`
}

type field struct {
	Name     string   `json:"name"`
	Type     string   `json:"type"`
	Required bool     `json:"required"`
	Options  []string `json:"options"`
}

// generation is what a client saw of one generation's stream: when the
// response's headers came, when each event name first came (from the
// request's start), and what the events said.
type generation struct {
	headers, first, complete time.Duration
	firstName                string
	at                       map[string]time.Duration
	files                    int
	idea, chatID, previewURL string
	entities                 []entity
}

// generate sends POST /api/chat-ws {message: idea} with c and reads the
// stream to its end; anything but a 200 stream whose first event is start
// and whose last is a completed complete, with a plan, files and a preview
// on the way, is an error.
func (b *bench) generate(ctx context.Context, c *http.Client, idea string) (generation, error) {
	g := generation{idea: idea, at: map[string]time.Duration{}}
	body, err := json.Marshal(map[string]string{"message": idea})
	if err != nil {
		return g, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, b.bl.URL+"/api/chat-ws", bytes.NewReader(body))
	if err != nil {
		return g, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	start := time.Now()
	resp, err := c.Do(req)
	if err != nil {
		return g, fmt.Errorf("POST /api/chat-ws %q: %w", idea, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		raw, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		return g, fmt.Errorf("POST /api/chat-ws %q: status %d: %s", idea, resp.StatusCode, raw)
	}
	g.headers = time.Since(start)
	r := bufio.NewReaderSize(resp.Body, 64<<10)
	var name string
	var data []byte
	var failure string
	for {
		line, err := r.ReadBytes('\n')
		if err != nil {
			if errors.Is(err, io.EOF) && g.complete > 0 {
				break
			}
			return g, fmt.Errorf("POST /api/chat-ws %q: the stream ended before its complete event (after %v): %w", idea, g.at, err)
		}
		line = bytes.TrimRight(line, "\r\n")
		switch {
		case len(line) == 0:
			if name == "" {
				continue
			}
			now := time.Since(start)
			if len(g.at) == 0 {
				g.first, g.firstName = now, name
			}
			if _, ok := g.at[name]; !ok {
				g.at[name] = now
			}
			if err := g.event(name, data); err != nil {
				return g, fmt.Errorf("POST /api/chat-ws %q: event %s: %w", idea, name, err)
			}
			if name == "error" {
				failure = string(data)
			}
			if name == "complete" {
				g.complete = now
			}
			name, data = "", nil
		case bytes.HasPrefix(line, []byte("event:")):
			name = strings.TrimSpace(string(line[len("event:"):]))
		case bytes.HasPrefix(line, []byte("data:")):
			data = append(data, bytes.TrimPrefix(line[len("data:"):], []byte(" "))...)
		}
	}
	switch {
	case failure != "":
		return g, fmt.Errorf("POST /api/chat-ws %q: the generation failed: %s", idea, failure)
	case g.firstName != "start":
		return g, fmt.Errorf("POST /api/chat-ws %q: the first event is %s, want start", idea, g.firstName)
	case g.chatID == "" || g.previewURL == "" || g.files == 0 || len(g.entities) == 0 || g.at["preview"] == 0:
		return g, fmt.Errorf("POST /api/chat-ws %q: a stream without a chat id, files, a plan or a preview: %+v", idea, g)
	}
	return g, nil
}

// event reads one event's data into g.
func (g *generation) event(name string, data []byte) error {
	switch name {
	case "start":
		var s struct {
			ChatID string `json:"chatId"`
		}
		if err := json.Unmarshal(data, &s); err != nil {
			return err
		}
		g.chatID = s.ChatID
	case "plan":
		var p struct {
			Spec struct {
				Entities []entity `json:"entities"`
			} `json:"spec"`
		}
		if err := json.Unmarshal(data, &p); err != nil {
			return err
		}
		g.entities = p.Spec.Entities
	case "file":
		g.files++
	case "complete":
		var c struct {
			ChatID     string `json:"chatId"`
			PreviewURL string `json:"previewUrl"`
			Status     string `json:"status"`
		}
		if err := json.Unmarshal(data, &c); err != nil {
			return err
		}
		if c.Status != "completed" || c.ChatID != g.chatID {
			return fmt.Errorf("status %q for chat %q (started %q)", c.Status, c.ChatID, g.chatID)
		}
		g.previewURL = c.PreviewURL
	}
	return nil
}

// get sends GET url with c, reads the body and fails unless the status is
// want; it returns the body.
func get(ctx context.Context, c *http.Client, url string, want int) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("GET %s: %w", url, err)
	}
	if resp.StatusCode != want {
		return raw, fmt.Errorf("GET %s: status %d, want %d: %.300s", url, resp.StatusCode, want, raw)
	}
	return raw, nil
}

// postJSON sends body as JSON to url with c and fails unless the status is
// want; it returns the body.
func postJSON(ctx context.Context, c *http.Client, url string, body any, want int) ([]byte, error) {
	raw, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("POST %s: %w", url, err)
	}
	if resp.StatusCode != want {
		return out, fmt.Errorf("POST %s: status %d, want %d: %.500s", url, resp.StatusCode, want, out)
	}
	return out, nil
}

// readAll reads resp's body to its end and closes it.
func readAll(resp *http.Response) ([]byte, error) {
	defer resp.Body.Close()
	return io.ReadAll(resp.Body)
}
