package audit

import (
	"net/http"
	"time"
)

// Response is one fetched resource as the scanner saw it. Err is set when
// the request failed (refused address, timeout, too large, TLS): then
// Status is 0. Body holds at most the scanner's size limit (Truncated
// says it was cut).
type Response struct {
	URL         string        `json:"url"`    // the URL asked for
	Final       string        `json:"final"`  // after redirects
	Method      string        `json:"method"` // GET unless a probe says otherwise
	Status      int           `json:"status"`
	Header      http.Header   `json:"header"`
	Body        []byte        `json:"-"`
	Truncated   bool          `json:"truncated"`
	Err         string        `json:"error,omitempty"`
	Duration    time.Duration `json:"duration"`
	RequestAuth bool          `json:"-"` // the request carried no credentials: always false today
}

// OK reports whether the response is a 2xx.
func (r *Response) OK() bool { return r != nil && r.Err == "" && r.Status >= 200 && r.Status < 300 }

// Snapshot is everything a scan fetched from one site, by purpose. A nil
// response was not fetched (the plan did not need it); a response with Err
// was tried and failed. Each resource is fetched once: a purpose that
// needs a resource another one fetched points at the same Response.
type Snapshot struct {
	Target string    `json:"target"` // the URL the scan was asked for (normalised: scheme, host, path)
	Origin string    `json:"origin"` // scheme://host[:port]
	At     time.Time `json:"at"`

	Home       *Response `json:"home"`        // GET the target
	LLMsTxt    *Response `json:"llms_txt"`    // GET /llms.txt
	Robots     *Response `json:"robots"`      // GET /robots.txt
	APICatalog *Response `json:"api_catalog"` // GET /.well-known/api-catalog (RFC 9727)
	// OpenAPI is the description found, if any, and OpenAPISource how it
	// was found: "link-header" (RFC 8631 service-desc), "api-catalog",
	// "llms.txt", "common-path"; OpenAPITried lists the URLs tried.
	OpenAPI       *Response `json:"openapi"`
	OpenAPISource string    `json:"openapi_source"`
	OpenAPITried  []string  `json:"openapi_tried"`
	// OAuth metadata (RFC 8414, RFC 9728).
	AuthServerMeta *Response `json:"oauth_authorization_server"`
	ProtectedMeta  *Response `json:"oauth_protected_resource"`
	// Unauthenticated is a request without credentials to an operation the
	// description says needs them (or an API path), expected 401.
	Unauthenticated *Response `json:"unauthenticated"`
	// AcceptJSON is a GET of an API path with Accept: application/json.
	AcceptJSON *Response `json:"accept_json"`
	// NotFound is a GET of a path that cannot exist (random), expected 404.
	NotFound *Response `json:"not_found"`
	// WrongMethod is a request with a method the resource does not allow
	// (DELETE on the home page, or an operation's path with a method the
	// description does not list), expected 405 with Allow.
	WrongMethod *Response `json:"wrong_method"`

	// parsed is the description parsed from parsedFrom (Prepare).
	parsed     *parsedSpec
	parsedFrom *Response
}
