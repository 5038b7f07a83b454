package gateway

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/strata-platform/strata/domain/gateway/chat"
	"github.com/strata-platform/strata/domain/gateway/wire/messages"
	"github.com/strata-platform/strata/domain/gateway/wire/openai"
	"github.com/strata-platform/strata/domain/kernel"
)

// MessagesVersion is the anthropic-version the gateway sends to
// messages-format upstreams.
const MessagesVersion = "2023-06-01"

// Codes of the gateway's own upstream refusals.
const (
	CodeUpstreamsNotConfigured = "upstreams_not_configured"
	CodeUpstreamNotConfigured  = "upstream_not_configured"
	CodeUpstreamUnavailable    = "upstream_unavailable"
	CodeDevelopmentUpstream    = "development_upstream"
)

// DevelopmentHeader marks every answer of Strata's development upstream
// (commands/gateway/devupstream), so that a production gateway
// (RefuseDevelopment) can refuse one that a configuration lists by mistake.
const DevelopmentHeader = "Strata-Development-Upstream"

// UpstreamError is an upstream call that failed: the error in the IR's
// terms, the HTTP status to answer with, and the upstream's Retry-After
// (seconds), if any.
type UpstreamError struct {
	Chat       chat.Error
	Status     int
	RetryAfter string
}

func (e *UpstreamError) Error() string { return e.Chat.Error() }

// Unwrap gives the chat.Error, so chat.ErrorFrom finds it.
func (e *UpstreamError) Unwrap() error { return e.Chat }

// Target is a resolved catalog model: its id, the upstream the catalog
// names and the model's name there.
type Target struct {
	Model         string // the catalog model id
	UpstreamID    string
	UpstreamModel string
}

// Served is who answered a call and after how many attempts.
type Served struct {
	Upstream string
	Attempts int
}

// Upstreams calls the configured upstreams: the catalog's upstream of a
// model first (or, when several upstreams serve it, one picked by weight),
// retrying 429, 502 and 503 answers and unreachable upstreams with backoff
// (honouring Retry-After), then falling back to the other upstreams that
// list the model.
type Upstreams struct {
	list   []Upstream
	byID   map[string]Upstream
	client *http.Client
	// Backoff is the first retry's wait when no Retry-After came (doubling
	// after each retry); MaxWait caps any wait, Retry-After included.
	Backoff, MaxWait time.Duration
	// Pick chooses among n weights (weighted random when nil).
	Pick func(weights []int) int
	// RefuseDevelopment refuses answers of the development upstream (they
	// carry DevelopmentHeader): a production gateway never serves its
	// invented text. Such an upstream is passed over like a broken one.
	RefuseDevelopment bool
}

// NewUpstreams returns the client of the configured upstreams (none: every
// call answers 503 naming UpstreamsEnv).
func NewUpstreams(list []Upstream, client *http.Client) *Upstreams {
	if client == nil {
		client = &http.Client{Transport: &http.Transport{Proxy: http.ProxyFromEnvironment, MaxIdleConnsPerHost: 256,
			IdleConnTimeout: 90 * time.Second, ForceAttemptHTTP2: true}}
	}
	u := &Upstreams{list: list, byID: map[string]Upstream{}, client: client, Backoff: 500 * time.Millisecond, MaxWait: 30 * time.Second}
	for _, up := range list {
		u.byID[up.ID] = up
	}
	return u
}

// Configured reports whether any upstream is configured.
func (u *Upstreams) Configured() bool { return len(u.list) > 0 }

type candidate struct {
	up    Upstream
	model string
}

// candidates are the upstreams serving t, in the order to try them.
func (u *Upstreams) candidates(t Target) ([]candidate, error) {
	if len(u.list) == 0 {
		return nil, &UpstreamError{Status: http.StatusServiceUnavailable, Chat: chat.Error{Kind: kernel.KindUnavailable,
			Code: CodeUpstreamsNotConfigured, Message: "the gateway has no upstream configured: set " + UpstreamsEnv +
				" to the path of an upstream configuration file (README, Configuration)"}}
	}
	var cs []candidate
	if up, ok := u.byID[t.UpstreamID]; ok {
		cs = append(cs, candidate{up, t.UpstreamModel})
	}
	for _, up := range u.list {
		if up.ID == t.UpstreamID {
			continue
		}
		for _, m := range up.Models {
			id, name, _ := strings.Cut(m, "=")
			if id == t.Model {
				if name == "" {
					name = t.UpstreamModel
				}
				cs = append(cs, candidate{up, name})
				break
			}
		}
	}
	if len(cs) == 0 {
		return nil, &UpstreamError{Status: http.StatusServiceUnavailable, Chat: chat.Error{Kind: kernel.KindUnavailable,
			Code: CodeUpstreamNotConfigured, Message: fmt.Sprintf("model %s is served by upstream %q, which %s does not configure",
				t.Model, t.UpstreamID, UpstreamsEnv)}}
	}
	if len(cs) > 1 {
		weights := make([]int, len(cs))
		for i, c := range cs {
			weights[i] = c.up.Weight
		}
		pick := u.Pick
		if pick == nil {
			pick = weightedPick
		}
		if i := pick(weights); i > 0 && i < len(cs) {
			first := cs[i]
			cs = append([]candidate{first}, append(cs[:i:i], cs[i+1:]...)...)
		}
	}
	return cs, nil
}

func weightedPick(weights []int) int {
	total := 0
	for _, w := range weights {
		total += w
	}
	n := rand.IntN(total)
	for i, w := range weights {
		if n < w {
			return i
		}
		n -= w
	}
	return 0
}

// Complete asks for a reply (req.Stream is ignored).
func (u *Upstreams) Complete(ctx context.Context, t Target, req chat.Request) (chat.Response, Served, error) {
	req.Stream, req.IncludeUsage = false, false
	var out chat.Response
	served, err := u.try(ctx, t, chatEncoder(req), func(_ context.CancelFunc, c candidate, resp *http.Response) error {
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			return &UpstreamError{Status: http.StatusBadGateway, Chat: chat.Error{Kind: kernel.KindUnavailable,
				Code: CodeUpstreamUnavailable, Message: "upstream " + c.up.ID + " broke off its reply"}}
		}
		decode := openai.DecodeResponse
		if c.up.Format == FormatMessages {
			decode = messages.DecodeResponse
		}
		if out, err = decode(body); err != nil {
			return &UpstreamError{Status: http.StatusBadGateway, Chat: chat.Error{Kind: kernel.KindInternal,
				Code: CodeUpstreamUnavailable, Message: "upstream " + c.up.ID + " answered a reply the gateway cannot read"}}
		}
		return nil
	}, false)
	return out, served, err
}

// UpstreamStream is an upstream's stream of IR events; Close releases it
// (and cancels the upstream request).
type UpstreamStream struct {
	next   func() (chat.Event, error)
	body   io.Closer
	cancel context.CancelFunc
}

// Next returns the next event, io.EOF after the last, or the break of a
// stream that ended before its end (the wire parsers' ErrTruncated, or
// the connection's error).
func (s *UpstreamStream) Next() (chat.Event, error) { return s.next() }

// Close ends the stream.
func (s *UpstreamStream) Close() error {
	s.cancel()
	return s.body.Close()
}

// Stream asks for a stream. Retries and fallbacks happen before the
// stream's first byte only; once an upstream answered 200, its stream is
// the answer.
func (u *Upstreams) Stream(ctx context.Context, t Target, req chat.Request) (*UpstreamStream, Served, error) {
	req.Stream, req.IncludeUsage = true, true
	var out *UpstreamStream
	served, err := u.try(ctx, t, chatEncoder(req), func(cancel context.CancelFunc, c candidate, resp *http.Response) error {
		if c.up.Format == FormatMessages {
			out = &UpstreamStream{next: messages.NewStreamParser(resp.Body).Next, body: resp.Body, cancel: cancel}
		} else {
			out = &UpstreamStream{next: openai.NewStreamParser(resp.Body).Next, body: resp.Body, cancel: cancel}
		}
		return nil
	}, true)
	return out, served, err
}

// encodeFunc writes a request for candidate c: the path under its base
// URL and the body; errSkip when c cannot serve such a request.
type encodeFunc func(c candidate) (path string, body []byte, err error)

var errSkip = errors.New("the upstream's format has no such endpoint")

// chatEncoder writes req in each candidate's format, with its model name.
func chatEncoder(req chat.Request) encodeFunc {
	return func(c candidate) (string, []byte, error) {
		r := req
		r.Model = c.model
		if c.up.Format == FormatMessages {
			b, err := messages.EncodeRequest(r)
			return "/messages", b, err
		}
		b, err := openai.EncodeRequest(r)
		return "/chat/completions", b, err
	}
}

// try runs the attempts: each candidate in turn, each up to 1+Retries
// times while it answers a retryable status or cannot be reached. ok reads
// a 200 answer; stream: the timeout covers the wait for the headers only,
// and ok takes over the attempt's context (its cancel) and body.
func (u *Upstreams) try(ctx context.Context, t Target, encode encodeFunc,
	ok func(context.CancelFunc, candidate, *http.Response) error, stream bool) (Served, error) {
	cs, err := u.candidates(t)
	if err != nil {
		return Served{}, err
	}
	var served Served
	var last error
	for _, c := range cs {
		path, body, err := encode(c)
		if errors.Is(err, errSkip) {
			if last == nil {
				last = &UpstreamError{Status: http.StatusServiceUnavailable, Chat: chat.Error{Kind: kernel.KindUnavailable,
					Code: CodeUpstreamNotConfigured, Message: fmt.Sprintf("model %s is served by upstream %q, which speaks the %s format: it has no %s endpoint",
						t.Model, c.up.ID, c.up.Format, strings.TrimPrefix(path, "/"))}}
			}
			continue
		}
		if err != nil {
			return served, err
		}
		for attempt := 0; attempt <= c.up.Retries; attempt++ {
			served = Served{Upstream: c.up.ID, Attempts: served.Attempts + 1}
			actx, cancel := context.WithCancel(ctx)
			timer := time.AfterFunc(c.up.Timeout, cancel)
			resp, err := u.send(actx, c.up, path, body)
			if err == nil && u.RefuseDevelopment && resp.Header.Get(DevelopmentHeader) != "" {
				resp.Body.Close()
				timer.Stop()
				cancel()
				last = &UpstreamError{Status: http.StatusBadGateway, Chat: chat.Error{Kind: kernel.KindUnavailable, Code: CodeDevelopmentUpstream,
					Message: "upstream " + c.up.ID + " is Strata's development upstream, which a production gateway (STRATA_ENV=production) never calls: remove it from " + UpstreamsEnv}}
				break
			}
			if err == nil && resp.StatusCode == http.StatusOK {
				if stream {
					timer.Stop()
					return served, ok(cancel, c, resp)
				}
				err = ok(cancel, c, resp)
				resp.Body.Close()
				timer.Stop()
				cancel()
				if err == nil || ctx.Err() != nil {
					return served, err
				}
				last = err
			} else {
				timer.Stop()
				var wait string
				if err != nil {
					cancel()
					if ctx.Err() != nil {
						return served, ctx.Err()
					}
					last = &UpstreamError{Status: http.StatusBadGateway, Chat: chat.Error{Kind: kernel.KindUnavailable,
						Code: CodeUpstreamUnavailable, Message: "upstream " + c.up.ID + " could not be reached"}}
				} else {
					last, wait = upstreamError(c.up, resp)
					resp.Body.Close()
					cancel()
					if !Retryable(resp.StatusCode) {
						return served, last
					}
				}
				if attempt < c.up.Retries {
					if err := u.sleep(ctx, attempt, wait); err != nil {
						return served, err
					}
				}
				continue
			}
			break // a 200 whose body broke: the next candidate
		}
	}
	return served, loading(last)
}

// LoadingRetryAfter is the Retry-After (seconds) of a 502 or 503 whose
// upstream gave none once retries are spent: the seed's advice for a
// model that is loading is to retry in 5-10 seconds.
const LoadingRetryAfter = "5"

// loading gives a spent 502 or 503 of an upstream (not the gateway's own
// configuration refusals) the seed's model-loading advice: Retry-After 5
// when the upstream gave none, and the advice in the message.
func loading(err error) error {
	ue, ok := err.(*UpstreamError)
	if !ok || (ue.Status != http.StatusBadGateway && ue.Status != http.StatusServiceUnavailable) ||
		ue.Chat.Code == CodeUpstreamNotConfigured || ue.Chat.Code == CodeDevelopmentUpstream {
		return err
	}
	out := *ue
	if out.RetryAfter == "" {
		out.RetryAfter = LoadingRetryAfter
	}
	out.Chat.Message = strings.TrimRight(out.Chat.Message, ". ") + " (the model may be loading: retry in 5-10 seconds)"
	return &out
}

// Retryable reports whether an upstream's status is worth another attempt:
// 429, 502 and 503.
func Retryable(status int) bool {
	return status == http.StatusTooManyRequests || status == http.StatusBadGateway || status == http.StatusServiceUnavailable
}

func (u *Upstreams) send(ctx context.Context, up Upstream, path string, body []byte) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, up.BaseURL+path, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	if up.Format == FormatMessages {
		req.Header.Set("anthropic-version", MessagesVersion)
		if up.APIKey != "" {
			req.Header.Set("x-api-key", up.APIKey)
		}
	} else if up.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+up.APIKey)
	}
	return u.client.Do(req)
}

// upstreamError reads a failed answer in the upstream's format, with its
// Retry-After.
func upstreamError(up Upstream, resp *http.Response) (*UpstreamError, string) {
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	decode := openai.DecodeError
	if up.Format == FormatMessages {
		decode = messages.DecodeError
	}
	e := decode(resp.StatusCode, body)
	if e.Message == "" {
		e.Message = fmt.Sprintf("upstream %s answered %d", up.ID, resp.StatusCode)
	}
	ra := resp.Header.Get("Retry-After")
	if _, err := strconv.Atoi(ra); err != nil {
		ra = ""
	}
	return &UpstreamError{Chat: e, Status: resp.StatusCode, RetryAfter: ra}, ra
}

// sleep waits before retry number attempt+1: Retry-After when the upstream
// gave one, else Backoff doubled per retry; never longer than MaxWait.
func (u *Upstreams) sleep(ctx context.Context, attempt int, retryAfter string) error {
	d := u.Backoff << attempt
	if s, err := strconv.Atoi(retryAfter); err == nil && s >= 0 {
		d = time.Duration(s) * time.Second
	}
	if d > u.MaxWait {
		d = u.MaxWait
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
