package audit

import (
	"context"
	stdsql "database/sql"

	"fmt"
	"net/mail"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/strata-platform/strata/commands/jobs"
	"github.com/strata-platform/strata/domain/audit"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/shred"
)

// Config wires the service.
type Config struct {
	Scanner *Scanner
	Keys    *shred.KeyRing // seals leads' addresses (crypto-shredding)
	// BookingURL is the booking page a lead is sent to, pre-filled with the
	// lead's context (STRATA_AUDIT_BOOKING_URL); empty: no booking_url.
	BookingURL string
	// Wait blocks until the read model has applied the event at key.
	Wait func(ctx context.Context, key eventstore.Key) error
	// CrawlDelay is the pause between two requests of one crawl fetcher
	// (DefaultCrawlDelay when 0; negative: none, for loopback tests).
	CrawlDelay time.Duration
}

// Service runs the audit's commands.
type Service struct {
	store *eventstore.Store
	clock kernel.Clock
	cfg   Config
	jobs  *jobs.Service
}

// New returns the service.
func New(store *eventstore.Store, clock kernel.Clock, cfg Config) *Service {
	if cfg.CrawlDelay == 0 {
		cfg.CrawlDelay = DefaultCrawlDelay
	}
	return &Service{store: store, clock: clock, cfg: cfg}
}

// Scanner is the service's scanner.
func (s *Service) Scanner() *Scanner { return s.cfg.Scanner }

// Quick scans url and stores nothing.
func (s *Service) Quick(ctx context.Context, rawURL string) (audit.Scan, error) {
	target, err := s.cfg.Scanner.Target(ctx, rawURL)
	if err != nil {
		return audit.Scan{}, err
	}
	scan, _, _, err := s.cfg.Scanner.Scan(ctx, target)
	return scan, err
}

// Full scans url and stores the result (audit.report_stored, findings and
// fixes included) under a new report id.
func (s *Service) Full(ctx context.Context, rawURL, industry string) (*audit.ReportStored, error) {
	industry = strings.TrimSpace(industry)
	if industry == "" {
		industry = "other"
	}
	if !audit.ValidIndustry(industry) {
		return nil, kernel.Invalid("industry", "enum", "industry must be one of "+strings.Join(audit.Industries(), ", "))
	}
	target, err := s.cfg.Scanner.Target(ctx, rawURL)
	if err != nil {
		return nil, err
	}
	scan, _, n, err := s.cfg.Scanner.Scan(ctx, target)
	if err != nil {
		return nil, err
	}
	ev := &audit.ReportStored{ReportID: uuid.Must(uuid.NewV7()).String(), Industry: industry, Host: target.Host,
		Scan: scan, Requests: n, At: s.now()}
	app, err := s.store.Append(ctx, eventstore.Stream{Type: audit.StreamReport, ID: audit.ReportStream(ev.ReportID)}, eventstore.NoStream, ev)
	if err != nil {
		return nil, err
	}
	return ev, s.settle(ctx, app.Last)
}

// Report reads a stored report's event (the read model answers reads;
// this is for unlock, which returns the findings).
func (s *Service) report(ctx context.Context, id string) (*audit.ReportStored, error) {
	if _, err := uuid.Parse(id); err != nil || len(id) != 36 {
		return nil, kernel.Invalid("report_id", "uuid", "report_id must be a report's id (a UUID)")
	}
	envs, err := s.store.Load(ctx, audit.ReportStream(id), eventstore.LoadOptions{})
	if err != nil {
		return nil, err
	}
	if len(envs) == 0 {
		return nil, &kernel.Error{Kind: kernel.KindNotFound, Field: "report_id", Rule: "exists", Message: "no report " + id}
	}
	r, ok := envs[0].Event.(*audit.ReportStored)
	if !ok {
		return nil, fmt.Errorf("audit: %s starts with %s", audit.ReportStream(id), envs[0].Type)
	}
	return r, nil
}

// Unlocked is an unlocked report: the report with its findings, and the
// lead the unlock recorded.
type Unlocked struct {
	Report *audit.ReportStored
	LeadID string
}

// Unlock records that email unlocked the report (audit.report_unlocked: a
// lead, the address sealed under a key of its own) and returns the full
// report.
func (s *Service) Unlock(ctx context.Context, reportID, email string) (*Unlocked, error) {
	addr, err := checkEmail(email)
	if err != nil {
		return nil, err
	}
	rep, err := s.report(ctx, reportID)
	if err != nil {
		return nil, err
	}
	leadID := uuid.Must(uuid.NewV7()).String()
	var app eventstore.Appended
	err = s.store.InTx(ctx, func(tx *stdsql.Tx) error {
		key, err := s.cfg.Keys.Fresh(audit.LeadStream(leadID), "audit")
		if err != nil {
			return err
		}
		ev := &audit.ReportUnlocked{ReportID: reportID, LeadID: leadID, Email: key.Seal([]byte(addr)), At: s.now()}
		if app, err = s.store.AppendTx(ctx, tx, eventstore.Stream{Type: audit.StreamReport, ID: audit.ReportStream(reportID)},
			eventstore.AnyVersion, ev); err != nil {
			return err
		}
		return s.cfg.Keys.Store(ctx, tx, key)
	})
	if err != nil {
		return nil, err
	}
	return &Unlocked{Report: rep, LeadID: leadID}, s.settle(ctx, app.Last)
}

// Lead is the lead form's input.
type Lead struct {
	URL              string   `json:"url"`
	Email            string   `json:"email"`
	Score            *int     `json:"score"`
	FindingsCount    *int     `json:"findings_count"`
	DimensionsFailed []string `json:"dimensions_failed"`
	PackageInterest  string   `json:"package_interest"`
	UTMSource        string   `json:"utm_source"`
	UTMMedium        string   `json:"utm_medium"`
	UTMCampaign      string   `json:"utm_campaign"`
	ReportID         string   `json:"report_id"`
}

// LeadReply is what a captured lead answers.
type LeadReply struct {
	LeadID     string  `json:"lead_id"`
	BookingURL *string `json:"booking_url"`
	Status     string  `json:"status"`
}

// CaptureLead records a lead (audit.lead_captured, the address sealed)
// and returns its booking link, pre-filled with the lead's context.
func (s *Service) CaptureLead(ctx context.Context, in Lead) (LeadReply, error) {
	addr, err := checkEmail(in.Email)
	if err != nil {
		return LeadReply{}, err
	}
	in.URL = strings.TrimSpace(in.URL)
	if in.URL == "" {
		return LeadReply{}, kernel.Invalid("url", "required", "url (the audited site) is required")
	}
	if u, err := url.Parse(in.URL); err != nil || len(in.URL) > maxURL || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return LeadReply{}, kernel.Invalid("url", "url", "url must be an http or https URL of at most 2048 characters")
	}
	if in.Score != nil && (*in.Score < 0 || *in.Score > 100) {
		return LeadReply{}, kernel.Invalid("score", "range:0-100", "score must be from 0 to 100")
	}
	if in.FindingsCount != nil && (*in.FindingsCount < 0 || *in.FindingsCount > 1000) {
		return LeadReply{}, kernel.Invalid("findings_count", "range:0-1000", "findings_count must be from 0 to 1000")
	}
	checks := []string{audit.CheckLLMsTxt, audit.CheckOpenAPI, audit.CheckRobots, audit.CheckStructured, audit.CheckAuth, audit.CheckFormat, audit.CheckErrors}
	for i, d := range in.DimensionsFailed {
		if !slices.Contains(checks, d) {
			return LeadReply{}, kernel.Invalid(fmt.Sprintf("dimensions_failed[%d]", i), "enum", "a dimension is one of "+strings.Join(checks, ", "))
		}
	}
	for _, f := range []struct{ name, v string }{{"package_interest", in.PackageInterest}, {"utm_source", in.UTMSource},
		{"utm_medium", in.UTMMedium}, {"utm_campaign", in.UTMCampaign}} {
		if utf8.RuneCountInString(f.v) > 200 || strings.ContainsAny(f.v, "\x00\r\n") {
			return LeadReply{}, kernel.Invalid(f.name, "max_length", f.name+" is at most 200 characters on one line")
		}
	}
	if in.ReportID != "" {
		if _, err := s.report(ctx, in.ReportID); err != nil {
			return LeadReply{}, err
		}
	}
	leadID := uuid.Must(uuid.NewV7()).String()
	var app eventstore.Appended
	err = s.store.InTx(ctx, func(tx *stdsql.Tx) error {
		key, err := s.cfg.Keys.Fresh(audit.LeadStream(leadID), "audit")
		if err != nil {
			return err
		}
		ev := &audit.LeadCaptured{LeadID: leadID, URL: in.URL, Email: key.Seal([]byte(addr)), Score: in.Score,
			FindingsCount: in.FindingsCount, DimensionsFailed: orEmpty(in.DimensionsFailed), PackageInterest: in.PackageInterest,
			UTMSource: in.UTMSource, UTMMedium: in.UTMMedium, UTMCampaign: in.UTMCampaign, ReportID: in.ReportID, At: s.now()}
		if app, err = s.store.AppendTx(ctx, tx, eventstore.Stream{Type: audit.StreamLead, ID: audit.LeadStream(leadID)},
			eventstore.NoStream, ev); err != nil {
			return err
		}
		return s.cfg.Keys.Store(ctx, tx, key)
	})
	if err != nil {
		return LeadReply{}, err
	}
	out := LeadReply{LeadID: leadID, Status: "new"}
	if s.cfg.BookingURL != "" {
		b := s.booking(addr, in)
		out.BookingURL = &b
	}
	return out, s.settle(ctx, app.Last)
}

// booking pre-fills the booking page with the lead's context (the query
// parameters Calendly and Cal.com read: email, and the rest as notes).
func (s *Service) booking(addr string, in Lead) string {
	u, err := url.Parse(s.cfg.BookingURL)
	if err != nil {
		return s.cfg.BookingURL
	}
	q := u.Query()
	q.Set("email", addr)
	q.Set("url", in.URL)
	if in.Score != nil {
		q.Set("score", fmt.Sprint(*in.Score))
	}
	if in.PackageInterest != "" {
		q.Set("package", in.PackageInterest)
	}
	for k, v := range map[string]string{"utm_source": in.UTMSource, "utm_medium": in.UTMMedium, "utm_campaign": in.UTMCampaign} {
		if v != "" {
			q.Set(k, v)
		}
	}
	u.RawQuery = q.Encode()
	return u.String()
}

func checkEmail(email string) (string, error) {
	email = strings.TrimSpace(email)
	a, err := mail.ParseAddress(email)
	if email == "" {
		return "", kernel.Invalid("email", "required", "email is required")
	}
	if err != nil || a.Address != email || len(email) > 254 || !strings.Contains(email[strings.LastIndex(email, "@")+1:], ".") {
		return "", kernel.Invalid("email", "email", "email must be an address such as ada@example.com")
	}
	return strings.ToLower(email), nil
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func (s *Service) now() time.Time { return s.clock.Now().UTC().Truncate(time.Microsecond) }

func (s *Service) settle(ctx context.Context, key eventstore.Key) error {
	if s.cfg.Wait == nil || key == (eventstore.Key{}) {
		return nil
	}
	return s.cfg.Wait(ctx, key)
}
