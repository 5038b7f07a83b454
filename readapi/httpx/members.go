package httpx

import "errors"

// Members is an error that adds extension members to the error body (RFC
// 9457 allows a problem to carry more members than the standard ones; the
// seed's 403 for a claimed temporary key carries workspace_name and
// suggested_api_key). Every style adds them at the top level of its body,
// next to (never over) its own members.
type Members struct {
	Values map[string]any
	Err    error
}

// Error implements error.
func (m *Members) Error() string { return m.Err.Error() }

// Unwrap returns Err, so the status still comes from its kind.
func (m *Members) Unwrap() error { return m.Err }

// WithMembers returns err carrying extension members for its error body.
func WithMembers(err error, values map[string]any) error { return &Members{Values: values, Err: err} }

// membersOf returns the extension members in err's chain, if any.
func membersOf(err error) map[string]any {
	var m *Members
	if errors.As(err, &m) {
		return m.Values
	}
	return nil
}
