package voice

import (
	"net/url"
	"strings"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// CheckCallbackURL refuses a status callback URL that is not an absolute
// http or https URL without credentials, at most 2048 characters. Where
// it may point (no private addresses) is the outbound client's to enforce
// at delivery, on every connection.
func CheckCallbackURL(field, v string) error {
	if v == "" {
		return nil
	}
	u, err := url.Parse(v)
	if err != nil || len(v) > 2048 || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return kernel.Invalid(field, "url", field+" must be an absolute http or https URL (at most 2048 characters, no user info)")
	}
	return nil
}

// CallRequest is what an outbound call needs, checked.
type CallRequest struct {
	CallID, Tenant, Line, NumberID, Party, To string
	Record                                    bool
	QueueID, AgentID, CallbackURL, Provider   string
	By                                        string
	At                                        time.Time
}

// RequestCall decides an outbound call (its stream's first event).
func RequestCall(r CallRequest) ([]kernel.Event, error) {
	if err := CheckE164("to_number", r.To); err != nil {
		return nil, err
	}
	if err := CheckCallbackURL("status_callback_url", r.CallbackURL); err != nil {
		return nil, err
	}
	return []kernel.Event{&CallRequested{CallID: r.CallID, Tenant: r.Tenant, Direction: Outbound, Line: r.Line,
		NumberID: r.NumberID, Party: r.Party, Record: r.Record, QueueID: r.QueueID, AgentID: r.AgentID,
		CallbackURL: r.CallbackURL, Provider: r.Provider, RequestedBy: r.By, At: r.At, Remote: &Remote{Number: r.To}}}, nil
}

// ContactInput is a contact to create.
type ContactInput struct {
	Name, Phone, Email, Company string
	Tags                        []string
}

// NewContact decides a contact's creation.
func NewContact(id, tenant, party, by string, in ContactInput, at time.Time) ([]kernel.Event, error) {
	in.Name, in.Email, in.Company = strings.TrimSpace(in.Name), strings.TrimSpace(in.Email), strings.TrimSpace(in.Company)
	if err := CheckText("name", in.Name, 1, 200); err != nil {
		return nil, err
	}
	if err := CheckE164("phone", in.Phone); err != nil {
		return nil, err
	}
	if in.Email != "" {
		if err := CheckEmail("email", in.Email); err != nil {
			return nil, err
		}
	}
	if err := CheckText("company", in.Company, 0, 200); err != nil {
		return nil, err
	}
	tags, err := CleanTags(in.Tags)
	if err != nil {
		return nil, err
	}
	return []kernel.Event{&ContactCreated{ContactID: id, Tenant: tenant, Party: party, Tags: tags, CreatedBy: by, At: at,
		Text: &ContactText{Name: in.Name, Phone: in.Phone, Email: in.Email, Company: in.Company}}}, nil
}
