// Package community is the community-events domain: events with their RSVPs
// (one stream per event, so capacity is decided on one fold under one
// optimistic version check), comments on content items with per-tenant
// moderation, and per-user calendar feeds.
//
// Every RSVP change is an event on the event's stream, so the whole history
// of every RSVP is kept and replaying a stream gives back the counts the
// decisions were made on.
package community

import (
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// Stream types of the community context.
const (
	StreamEvent      = "community.event"         // an event and its RSVPs; stream id = the event's id
	StreamComment    = "community.comment"       // one comment; stream id = the comment's id
	StreamModeration = "community.moderation"    // a tenant's moderation policy
	StreamFeed       = "community.calendar_feed" // a user's calendar feed in one tenant
	feedStreamPrefix = "community-calendar-feed:"
	modStreamPrefix  = "community-moderation:"
)

// ModerationStream is the stream id of tenant's moderation policy.
func ModerationStream(tenant string) string { return modStreamPrefix + tenant }

// FeedStream is the stream id of user's calendar feed in tenant.
func FeedStream(tenant, user string) string { return feedStreamPrefix + tenant + ":" + user }

// Details are an event's editable fields. Empty strings mean "not set"
// (the API shows null); Capacity nil means unlimited; EndTime nil means the
// end is not known.
type Details struct {
	Title       string     `json:"title"`
	Description string     `json:"description,omitempty"`
	StartTime   time.Time  `json:"start_time"`
	EndTime     *time.Time `json:"end_time,omitempty"`
	Location    string     `json:"location,omitempty"`
	EventType   string     `json:"event_type"`
	Capacity    *int       `json:"capacity,omitempty"`
	GroupID     string     `json:"group_id,omitempty"`
	URL         string     `json:"url,omitempty"`
	Waitlist    bool       `json:"waitlist,omitempty"`
}

// EventCreated opens an event's stream; the creator is the caller.
type EventCreated struct {
	EventID   string    `json:"event_id"`
	TenantID  string    `json:"tenant_id"`
	CreatorID string    `json:"creator_id"`
	Details   Details   `json:"details"`
	At        time.Time `json:"at"`
}

// EventUpdated records the event's details after a partial update; Changed
// names the fields that changed and Sequence is the new iCalendar SEQUENCE.
type EventUpdated struct {
	EventID  string    `json:"event_id"`
	Details  Details   `json:"details"`
	Changed  []string  `json:"changed"`
	Sequence int       `json:"sequence"`
	By       string    `json:"by"`
	At       time.Time `json:"at"`
}

// EventCancelled marks the event cancelled (it is never removed).
type EventCancelled struct {
	EventID  string    `json:"event_id"`
	Sequence int       `json:"sequence"`
	By       string    `json:"by"`
	At       time.Time `json:"at"`
}

// RSVPChanged records a user's RSVP as created (Previous "") or changed.
// Status is what the RSVP became: going, interested, not_going, or
// waitlisted when going was asked for at capacity on an event with a
// waitlist.
type RSVPChanged struct {
	EventID         string    `json:"event_id"`
	RSVPID          string    `json:"rsvp_id"`
	UserID          string    `json:"user_id"`
	Status          string    `json:"status"`
	Previous        string    `json:"previous,omitempty"`
	ResponseMessage string    `json:"response_message,omitempty"`
	At              time.Time `json:"at"`
}

// RSVPPromoted moves the first waitlisted RSVP to going because a place
// freed (someone stopped going, or the capacity was raised).
type RSVPPromoted struct {
	EventID string    `json:"event_id"`
	RSVPID  string    `json:"rsvp_id"`
	UserID  string    `json:"user_id"`
	Reason  string    `json:"reason"` // PromotedPlaceFreed or PromotedCapacityRaised
	At      time.Time `json:"at"`
}

// Reasons of RSVPPromoted.
const (
	PromotedPlaceFreed     = "place_freed"
	PromotedCapacityRaised = "capacity_raised"
)

// CommentPosted records a comment on a content item.
type CommentPosted struct {
	CommentID   string    `json:"comment_id"`
	TenantID    string    `json:"tenant_id"`
	UserID      string    `json:"user_id"`
	ContentType string    `json:"content_type"`
	ContentID   int64     `json:"content_id"`
	Comment     string    `json:"comment"`
	At          time.Time `json:"at"`
}

// CommentEdited replaces a comment's text (by its owner).
type CommentEdited struct {
	CommentID string    `json:"comment_id"`
	Comment   string    `json:"comment"`
	At        time.Time `json:"at"`
}

// CommentDeleted removes a comment from every listing; the stream keeps it.
type CommentDeleted struct {
	CommentID string    `json:"comment_id"`
	By        string    `json:"by"`
	At        time.Time `json:"at"`
}

// ModerationPolicySet replaces a tenant's comment moderation policy.
type ModerationPolicySet struct {
	TenantID string    `json:"tenant_id"`
	Policy   Policy    `json:"policy"`
	By       string    `json:"by"`
	At       time.Time `json:"at"`
}

// CalendarFeedIssued gives a user a new calendar feed token in a tenant;
// it replaces any earlier one. Only the token's SHA-256 is recorded.
type CalendarFeedIssued struct {
	FeedID    string    `json:"feed_id"`
	TenantID  string    `json:"tenant_id"`
	UserID    string    `json:"user_id"`
	TokenHash string    `json:"token_hash"`
	Replaces  string    `json:"replaces,omitempty"` // the previous feed's id
	At        time.Time `json:"at"`
}

// CalendarFeedRevoked ends a calendar feed: its token stops working.
type CalendarFeedRevoked struct {
	FeedID   string    `json:"feed_id"`
	TenantID string    `json:"tenant_id"`
	UserID   string    `json:"user_id"`
	At       time.Time `json:"at"`
}

// EventType implementations: stable names, never derived from Go names.
func (EventCreated) EventType() string        { return "community.event_created" }
func (EventUpdated) EventType() string        { return "community.event_updated" }
func (EventCancelled) EventType() string      { return "community.event_cancelled" }
func (RSVPChanged) EventType() string         { return "community.rsvp_changed" }
func (RSVPPromoted) EventType() string        { return "community.rsvp_promoted" }
func (CommentPosted) EventType() string       { return "community.comment_posted" }
func (CommentEdited) EventType() string       { return "community.comment_edited" }
func (CommentDeleted) EventType() string      { return "community.comment_deleted" }
func (ModerationPolicySet) EventType() string { return "community.moderation_policy_set" }
func (CalendarFeedIssued) EventType() string  { return "community.calendar_feed_issued" }
func (CalendarFeedRevoked) EventType() string { return "community.calendar_feed_revoked" }

// Events lists the constructors of every community event, for registration.
func Events() []func() kernel.Event {
	return []func() kernel.Event{
		func() kernel.Event { return &EventCreated{} },
		func() kernel.Event { return &EventUpdated{} },
		func() kernel.Event { return &EventCancelled{} },
		func() kernel.Event { return &RSVPChanged{} },
		func() kernel.Event { return &RSVPPromoted{} },
		func() kernel.Event { return &CommentPosted{} },
		func() kernel.Event { return &CommentEdited{} },
		func() kernel.Event { return &CommentDeleted{} },
		func() kernel.Event { return &ModerationPolicySet{} },
		func() kernel.Event { return &CalendarFeedIssued{} },
		func() kernel.Event { return &CalendarFeedRevoked{} },
	}
}
