package content

import (
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// PostStream names a post's stream.
func PostStream(id string) string { return "content-post:" + id }

// Post origins.
const (
	OriginCalendar = "calendar" // a calendar item, dispatched at scheduled_at
	OriginPublish  = "publish"  // POST /social/publish, dispatched at once
)

// Calendar item statuses (a projection of the targets).
const (
	StatusScheduled = "scheduled"
	StatusPublished = "published"
	StatusFailed    = "failed"
)

// Target states.
const (
	StatePending   = "pending"  // planned, waiting for its job
	StateSending   = "sending"  // an attempt started: the platform may have it
	StateRetrying  = "retrying" // a transient failure; the next attempt is scheduled
	StatePublished = "published"
	StateFailed    = "failed"
)

// Failure reasons that are ours (the platform's own reasons are kept as
// the platform gave them).
const (
	ReasonUnconfirmed   = "unconfirmed"     // sent; the platform did not confirm: never retried automatically
	ReasonNotConnected  = "not_connected"   // no account for the platform at dispatch
	ReasonReconnect     = "reconnect"       // the account's tokens were refused: reconnect it
	ReasonMediaMissing  = "media_missing"   // the platform needs media the item lacks
	ReasonMediaFetch    = "media_unfetched" // the media URL could not be fetched
	MaxTransientRetries = 3
	ClassRefused        = "refused"
	ClassUnconfirmed    = "unconfirmed"
	ClassTransient      = "transient"
	ClassUnauthorized   = "unauthorized"
	ClassPrecondition   = "precondition"
)

// PostScheduled records a post: a calendar item or a direct publish.
type PostScheduled struct {
	PostID        string    `json:"post_id"`
	Owner         string    `json:"owner"`
	Origin        string    `json:"origin"`
	TwinID        string    `json:"twin_id,omitempty"`
	Title         string    `json:"title"`
	Platforms     []string  `json:"platforms"`
	Script        string    `json:"script"`
	Media         []Media   `json:"media"`
	ScheduledAt   time.Time `json:"scheduled_at"`
	Warnings      []string  `json:"warnings,omitempty"`
	LimitsVersion string    `json:"limits_version"`
	By            string    `json:"by"`
	At            time.Time `json:"at"`
}

// PostDeleted records a calendar item deleted: it is not dispatched and
// later reads answer 404.
type PostDeleted struct {
	PostID string    `json:"post_id"`
	By     string    `json:"by"`
	At     time.Time `json:"at"`
}

// TargetPlanned records one publish target: the post to one account.
type TargetPlanned struct {
	PostID    string    `json:"post_id"`
	TargetID  string    `json:"target_id"`
	Platform  string    `json:"platform"`
	AccountID string    `json:"account_id"`
	Handle    string    `json:"handle"`
	Due       time.Time `json:"due"`
	// Retry is set when the founder asked for it (a retry of a failed target).
	Retry bool      `json:"retry,omitempty"`
	By    string    `json:"by,omitempty"`
	At    time.Time `json:"at"`
}

// TargetStarted records an attempt begun, before anything is sent: after a
// crash, a started attempt without an outcome is unconfirmed.
type TargetStarted struct {
	PostID   string    `json:"post_id"`
	TargetID string    `json:"target_id"`
	Attempt  int       `json:"attempt"`
	At       time.Time `json:"at"`
}

// TargetPublished records the platform's confirmation.
type TargetPublished struct {
	PostID         string    `json:"post_id"`
	TargetID       string    `json:"target_id"`
	Attempt        int       `json:"attempt"`
	PlatformPostID string    `json:"platform_post_id"`
	URL            string    `json:"url,omitempty"`
	At             time.Time `json:"at"`
}

// TargetRetryScheduled records a transient failure and the next attempt's time.
type TargetRetryScheduled struct {
	PostID   string    `json:"post_id"`
	TargetID string    `json:"target_id"`
	Attempt  int       `json:"attempt"`
	Reason   string    `json:"reason"`
	Next     time.Time `json:"next"`
	At       time.Time `json:"at"`
}

// TargetFailed records a target's final failure: Class says what kind
// (refused, unconfirmed, transient with retries spent, unauthorized,
// precondition), Reason the platform's or ours.
type TargetFailed struct {
	PostID   string    `json:"post_id"`
	TargetID string    `json:"target_id"`
	Attempt  int       `json:"attempt"`
	Class    string    `json:"class"`
	Reason   string    `json:"reason"`
	At       time.Time `json:"at"`
}

// EventType implements kernel.Event.
func (*PostScheduled) EventType() string { return "content.post_scheduled" }

// EventType implements kernel.Event.
func (*PostDeleted) EventType() string { return "content.post_deleted" }

// EventType implements kernel.Event.
func (*TargetPlanned) EventType() string { return "content.target_planned" }

// EventType implements kernel.Event.
func (*TargetStarted) EventType() string { return "content.target_started" }

// EventType implements kernel.Event.
func (*TargetPublished) EventType() string { return "content.target_published" }

// EventType implements kernel.Event.
func (*TargetRetryScheduled) EventType() string { return "content.target_retry_scheduled" }

// EventType implements kernel.Event.
func (*TargetFailed) EventType() string { return "content.target_failed" }

// Target is one publish target's state.
type Target struct {
	ID, Platform, AccountID, Handle string
	State                           string
	Attempt                         int
	Class, Reason                   string
	PlatformPostID, URL             string
	Due                             time.Time
}

// Post is a post's state folded from its stream.
type Post struct {
	PostScheduled
	Deleted bool
	Targets []*Target // in planning order
}

// Apply folds one event.
func (p *Post) Apply(e kernel.Event) {
	switch ev := e.(type) {
	case *PostScheduled:
		p.PostScheduled = *ev
	case *PostDeleted:
		p.Deleted = true
	case *TargetPlanned:
		p.Targets = append(p.Targets, &Target{ID: ev.TargetID, Platform: ev.Platform, AccountID: ev.AccountID,
			Handle: ev.Handle, State: StatePending, Due: ev.Due})
	case *TargetStarted:
		if t := p.Target(ev.TargetID); t != nil {
			t.State, t.Attempt = StateSending, ev.Attempt
		}
	case *TargetPublished:
		if t := p.Target(ev.TargetID); t != nil {
			t.State, t.PlatformPostID, t.URL = StatePublished, ev.PlatformPostID, ev.URL
		}
	case *TargetRetryScheduled:
		if t := p.Target(ev.TargetID); t != nil {
			t.State, t.Reason, t.Due = StateRetrying, ev.Reason, ev.Next
		}
	case *TargetFailed:
		if t := p.Target(ev.TargetID); t != nil {
			t.State, t.Class, t.Reason = StateFailed, ev.Class, ev.Reason
		}
	}
}

// Target returns the target with id, or nil.
func (p *Post) Target(id string) *Target {
	for _, t := range p.Targets {
		if t.ID == id {
			return t
		}
	}
	return nil
}

// Latest returns the platform's latest target, or nil.
func (p *Post) Latest(platform string) *Target {
	for i := len(p.Targets) - 1; i >= 0; i-- {
		if p.Targets[i].Platform == platform {
			return p.Targets[i]
		}
	}
	return nil
}

// Status is the post's status from its platforms' latest targets:
// published when every platform's is published, failed when none is in
// flight and one failed, scheduled otherwise (not yet dispatched, or an
// attempt pending, sending or retrying). Reason is the first failure's.
func (p *Post) Status() (status, reason string) {
	published, failed := 0, ""
	for _, pl := range p.Platforms {
		t := p.Latest(pl)
		switch {
		case t == nil || t.State == StatePending || t.State == StateSending || t.State == StateRetrying:
			return StatusScheduled, ""
		case t.State == StatePublished:
			published++
		case failed == "":
			failed = t.Reason
		}
	}
	if published == len(p.Platforms) {
		return StatusPublished, ""
	}
	return StatusFailed, failed
}

// Open reports whether the platform's latest target is still in flight.
func (t *Target) Open() bool {
	return t.State == StatePending || t.State == StateSending || t.State == StateRetrying
}

// RetryDelay is the wait before transient retry n (1-based): 15 s, 1 min, 4 min.
func RetryDelay(n int) time.Duration {
	d := 15 * time.Second
	for i := 1; i < n; i++ {
		d *= 4
	}
	return d
}
