// Package crm sends the platform's customers to a CRM. It is a platform
// service: every context that has a customer to report (today identity,
// for accounts provisioned from a paid checkout) calls it, none keeps its
// own copy.
//
// Two Adapters exist. HTTP posts each contact as JSON to a configured URL
// (STRATA_CRM_URL), with an optional bearer token; it is meant to sit
// behind a job (commands/jobs), which retries what failed. None, used when
// no URL is configured, sends nothing at all: it is not a CRM, and nothing
// is synced while it is in place.
package crm

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Contact is one customer as the CRM receives it (the JSON body).
type Contact struct {
	Email       string `json:"email"`
	Name        string `json:"name"`
	Source      string `json:"source"` // where the customer came from: "checkout"
	ProductLine string `json:"product_line"`
	Plan        string `json:"plan"`
	UTM         UTM    `json:"utm"`
	AccountID   string `json:"account_id"`
}

// UTM is the marketing attribution the customer arrived with.
type UTM struct {
	Source   string `json:"source,omitempty"`
	Medium   string `json:"medium,omitempty"`
	Campaign string `json:"campaign,omitempty"`
	Term     string `json:"term,omitempty"`
	Content  string `json:"content,omitempty"`
}

// SourceCheckout is the source of customers who arrived through a paid
// checkout.
const SourceCheckout = "checkout"

// Adapter creates or updates contacts in a CRM.
type Adapter interface {
	// Sync sends c. An error is worth retrying unless Permanent(err) says
	// otherwise.
	Sync(ctx context.Context, c Contact) error
	// Name says which adapter this is ("http", "none"), for logs.
	Name() string
}

// DefaultTimeout bounds one HTTP call when Config.Timeout is zero.
const DefaultTimeout = 10 * time.Second

// Config chooses and configures the adapter.
type Config struct {
	// URL receives the contacts (POST, JSON); empty: None.
	URL string
	// Token, if set, is sent as "Authorization: Bearer <token>".
	Token string
	// Timeout bounds one call; 0: DefaultTimeout.
	Timeout time.Duration
	// Client sends the requests; nil: a client of its own with Timeout.
	Client *http.Client
}

// New returns HTTP for a configured URL, else None.
func New(cfg Config) (Adapter, error) {
	if strings.TrimSpace(cfg.URL) == "" {
		return None{}, nil
	}
	h, err := NewHTTP(cfg)
	if err != nil {
		return nil, err
	}
	return h, nil
}

// None is the adapter without a CRM: Sync does nothing and succeeds.
type None struct{}

// Sync implements Adapter: nothing is sent.
func (None) Sync(context.Context, Contact) error { return nil }

// Name implements Adapter.
func (None) Name() string { return "none" }

// StatusError is a CRM's answer other than 2xx.
type StatusError struct {
	Status int
	Body   string // the start of the answer, for the job's error
}

func (e *StatusError) Error() string {
	if e.Body == "" {
		return fmt.Sprintf("crm: the CRM answered %d", e.Status)
	}
	return fmt.Sprintf("crm: the CRM answered %d: %s", e.Status, e.Body)
}

// Permanent reports whether retrying err cannot help: the CRM refused the
// request itself (a 4xx other than 408 Request Timeout and 429 Too Many
// Requests). Network errors, timeouts, 5xx, 408 and 429 are worth a retry.
func Permanent(err error) bool {
	var se *StatusError
	if !errors.As(err, &se) {
		return false
	}
	return se.Status >= 400 && se.Status < 500 && se.Status != http.StatusRequestTimeout && se.Status != http.StatusTooManyRequests
}

// checkURL accepts an absolute http(s) URL with a host.
func checkURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("want an absolute http(s) URL, got %q", raw)
	}
	return nil
}
