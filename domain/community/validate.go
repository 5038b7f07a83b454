package community

import (
	"fmt"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/strata-platform/strata/domain/kernel"
)

// Limits of the community's fields.
const (
	MaxTitle           = 200
	MaxDescription     = 10000
	MaxLocation        = 500
	MaxGroupID         = 100
	MaxURL             = 2000
	MaxCapacity        = 1_000_000
	MaxResponseMessage = 1000
	MaxComment         = 5000
	MaxContentType     = 50
)

// Event types.
var EventTypes = []string{"virtual", "in_person", "hybrid"}

// DefaultEventType is the event_type of an event created without one.
const DefaultEventType = "virtual"

// normalize trims the details' text and puts times in UTC at whole seconds.
func (d Details) normalize() Details {
	d.Title = strings.TrimSpace(d.Title)
	d.Description = strings.TrimSpace(d.Description)
	d.Location = strings.TrimSpace(d.Location)
	d.GroupID = strings.TrimSpace(d.GroupID)
	d.URL = strings.TrimSpace(d.URL)
	d.StartTime = d.StartTime.UTC().Truncate(time.Second)
	if d.EndTime != nil {
		t := d.EndTime.UTC().Truncate(time.Second)
		d.EndTime = &t
	}
	return d
}

// validate checks the rules every event's details obey.
func (d Details) validate() error {
	if d.Title == "" {
		return kernel.Invalid("title", "required", "title is required")
	}
	if err := maxChars("title", d.Title, MaxTitle); err != nil {
		return err
	}
	if err := maxChars("description", d.Description, MaxDescription); err != nil {
		return err
	}
	if err := maxChars("location", d.Location, MaxLocation); err != nil {
		return err
	}
	if err := maxChars("group_id", d.GroupID, MaxGroupID); err != nil {
		return err
	}
	if d.StartTime.IsZero() {
		return kernel.Invalid("start_time", "required", "start_time is required")
	}
	if d.EndTime != nil && !d.EndTime.After(d.StartTime) {
		return kernel.Invalid("end_time", "after_start", "end_time must be after start_time")
	}
	if !isEventType(d.EventType) {
		return kernel.Invalid("event_type", "enum", "event_type must be one of virtual, in_person, hybrid")
	}
	if d.Capacity != nil && (*d.Capacity < 1 || *d.Capacity > MaxCapacity) {
		return kernel.Invalid("capacity", "range", fmt.Sprintf("capacity must be a whole number from 1 to %d, or null for unlimited", MaxCapacity))
	}
	if d.URL != "" {
		if err := maxChars("url", d.URL, MaxURL); err != nil {
			return err
		}
		u, err := url.Parse(d.URL)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return kernel.Invalid("url", "url", "url must be an absolute http or https URL")
		}
	}
	return nil
}

func isEventType(t string) bool {
	for _, v := range EventTypes {
		if v == t {
			return true
		}
	}
	return false
}

// maxChars refuses text longer than n characters (Unicode code points).
func maxChars(field, s string, n int) error {
	if utf8.RuneCountInString(s) > n {
		return kernel.Invalid(field, fmt.Sprintf("max_length:%d", n), fmt.Sprintf("%s must be at most %d characters", field, n))
	}
	return nil
}
