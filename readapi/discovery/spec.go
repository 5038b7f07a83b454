package discovery

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strconv"
	"strings"
)

// Who may call an operation (its security requirement).
type access int

const (
	public   access = iota // no credentials: security []
	user                   // bearer JWT or API key
	session                // a signed-in user's bearer JWT (an API key is refused 403)
	keyOnly                // an API key
	memRead                // bearer, API key or OAuth with memory:read
	memWrite               // bearer, API key or OAuth with memory:write
	agent                  // bearer, API key or OAuth with agent:write
	internal               // X-Internal-API-Key
	client                 // an OAuth client (Basic, post, or none with PKCE)
	openid                 // an OAuth access token with openid
	mcp                    // bearer, API key or OAuth with memory scopes
	optional               // anonymous, or bearer or API key for more
)

// param is a query (or header) parameter.
type param struct {
	name, desc string
	required   bool
	schema     js
	in         string // query by default
}

func q(name, desc string) param { return param{name: name, desc: desc, schema: js{"type": "string"}} }

func qi(name, desc string) param { return param{name: name, desc: desc, schema: js{"type": "integer"}} }

func qr(name, desc string) param {
	return param{name: name, desc: desc, required: true, schema: js{"type": "string"}}
}

// op is one operation of the description.
type op struct {
	method, path, id, tag, summary, desc string
	access                               access
	params                               []param
	body                                 string // a schema name (application/json), "form:Schema" or "multipart:Schema"
	status                               int    // success status (200)
	res                                  string // success body schema; "" none
	resType                              string // success content type (application/json)
	errs                                 []int  // error statuses beyond 401/403 that access implies
	errBody                              string // error schema: Problem (default), OAuthError, ChatError
	head                                 bool   // also answered for HEAD
}

// Tags group the operations; llms.txt links to their sections of /docs.
var tags = []struct{ name, desc string }{
	{"Discovery", "What agents read first: llms.txt, robots.txt, the sitemap, the RFC 9727 api-catalog, this description and its documentation page, and health."},
	{"Identity", "Accounts, sessions (RS256 JWTs), passwords, sign-in with the code host or the professional network, and a trial key for agents."},
	{"API keys", "The platform's API keys (sk_live_, sk_test_), their verification and temporary trial keys."},
	{"Organizations", "Workspaces, members and invitations."},
	{"OAuth", "The OAuth 2.1 / OpenID Connect provider: discovery (RFC 8414, RFC 9728), dynamic client registration (RFC 7591), authorization code with PKCE, tokens, userinfo, revocation and introspection."},
	{"Community", "Community events, RSVPs with capacity and waitlists, calendar export and feeds, comments and their moderation policy."},
	{"Memory", "Memory v2: memories, the temporal entity graph, reflection, profiles, context synthesis, and the MCP server."},
	{"Gateway", "The inference gateway: the model catalog, chat (OpenAI and messages formats), embeddings, credits and usage."},
	{"Payments", "Subscriptions through the provider's hosted checkout, the billing portal, history and the provider's webhook."},
	{"Audit", "The agent-readiness audit: quick scans, stored reports, unlock, leads, benchmarks and the badge. Public, rate limited per client address."},
	{"Data", "The data marketplace: imported datasets (an SMB directory, domain enrichment, Montana livestock markets and web3 entities, Santa Cruz County parcels) in stable file order with search, filters and version pins, seed data, industries, lead scores and DCAT-US metadata. Public, 60 requests a minute per client address."},
	{"Content", "The content workflow: twins wired to memory, a content calendar checked against each platform's limits when scheduled and dispatched without double posts, connected social accounts, publishing, tasks, social analytics and signed exports (X-API-Key)."},
	{"Briefing", "The agent briefing for Strata's own agents (internal: X-Internal-API-Key)."},
	{"Admin", "Platform administration."},
}

const ev = "/api/v1/community-events"

const mem = "/api/v1/public/memory/v2"
const ax = "/api/v1/public/ax-audit"

// tierNote is what an audit operation gated at tier says: public unless
// the operator enforces the tiers (STRATA_AUDIT_TIERS=enforced), then from
// that tier (401 without credentials, 403 plan_required below).
func tierNote(tier string) string {
	return " Public by default; with STRATA_AUDIT_TIERS=enforced it needs the audit's " + tier +
		" plan or higher (401 without credentials, 403 plan_required below it)."
}

const intel = "/api/v1/internal/intelligence"
const data = "/api/v1/public/data"
const pub = "/api/v1/public"

// dataPage are a dataset page's parameters; a page answers {data or
// records, total, total_relation, page, per_page, has_more, dataset,
// status, version} with ETag and Last-Modified.
var dataPage = []param{qi("page", "1-100000 (1)."), qi("per_page", "1-500 (50)."),
	q("search", "Words, all required; a word ending in * is a prefix (at most 200 characters, 16 words)."),
	qi("version", "Pin a published version (the Link rel=next of a page does); 410 once retracted or purged.")}

const dataPageDesc = " Rows in the imported file's order (_row is the row's number in it); total counted (a search's up to 1,000: total_relation gte beyond); ETag and Last-Modified (304 on If-None-Match). No data imported: an empty page with status no_data."

var paging = []param{qi("limit", "Page size."), qi("offset", "Items to skip.")}

// operations are the platform API's routes, as the contexts register them
// on the api surface (TestSelfAudit in cmd/strata compares the two).
var operations = []op{
	// Discovery and health.
	{method: "GET", path: "/health", id: "getHealth", tag: "Discovery", summary: "Readiness", desc: "200 ready (or degraded while a projector has parked streams) when the database answers and every projector runs; 503 not_ready otherwise.", res: "Health", errs: []int{503}, head: true},
	{method: "GET", path: "/llms.txt", id: "getLLMsTxt", tag: "Discovery", summary: "llms.txt", desc: "The llmstxt.org summary of the platform API for language models: what it is and where each area is documented.", res: "-text", resType: "text/plain", head: true},
	{method: "GET", path: "/robots.txt", id: "getRobotsTxt", tag: "Discovery", summary: "robots.txt", desc: "Crawling rules (RFC 9309): every agent, AI search and user-initiated agents included, may fetch the public pages.", res: "-text", resType: "text/plain", head: true},
	{method: "GET", path: "/sitemap.xml", id: "getSitemap", tag: "Discovery", summary: "Sitemap", desc: "The public pages and documents of the platform API.", res: "-text", resType: "application/xml", head: true},
	{method: "GET", path: "/.well-known/api-catalog", id: "getAPICatalog", tag: "Discovery", summary: "API catalog (RFC 9727)", desc: "The RFC 9727 api-catalog: a linkset naming the platform API, this description (service-desc), its documentation (service-doc) and its health (status).", res: "APICatalog", resType: "application/linkset+json", head: true},
	{method: "GET", path: "/openapi.json", id: "getOpenAPI", tag: "Discovery", summary: "This OpenAPI description", desc: "The OpenAPI 3.1 description of the platform API.", res: "-object", head: true},
	{method: "GET", path: "/docs", id: "getDocs", tag: "Discovery", summary: "Interactive documentation", desc: "An HTML page rendering this description, with a Try it form per operation.", res: "-text", resType: "text/html", head: true},

	// Identity.
	{method: "GET", path: "/.well-known/jwks.json", id: "getJWKS", tag: "Identity", summary: "Token signing keys", desc: "The RS256 public keys that verify the platform's access tokens and ID tokens.", res: "JWKS"},
	{method: "POST", path: "/api/v1/auth/register", id: "register", tag: "Identity", summary: "Create an account", desc: "Creates an account with a workspace and a default project and answers a session token. With stripe_session_id it completes the account a paid checkout provisioned (400 unknown_session, 402 unpaid_session, 409 session_used).", body: "RegisterRequest", status: 201, res: "TokenResponse", errs: []int{400, 402, 409, 429}},
	{method: "POST", path: "/api/v1/auth/login", id: "login", tag: "Identity", summary: "Sign in", desc: "Email and password → a session token. The sign-in throttle answers 429 with Retry-After while it delays an address or an account.", body: "LoginRequest", res: "TokenResponse", errs: []int{400, 401, 429}},
	{method: "POST", path: "/api/v1/auth/login-json", id: "loginJSON", tag: "Identity", summary: "Sign in (username form)", desc: "As login, with {username, password}.", body: "LoginJSONRequest", res: "TokenResponse", errs: []int{400, 401, 429}},
	{method: "GET", path: "/api/v1/auth/me", id: "getMe", tag: "Identity", summary: "The signed-in account", desc: "The caller's profile: id, email, name, role, plan, credits, organization, project and every product line's plan. OAuth access tokens are refused (403 insufficient_scope).", access: user, res: "Profile"},
	{method: "POST", path: "/api/v1/auth/refresh", id: "refreshToken", tag: "Identity", summary: "Refresh the session token", desc: "A new session token for the presented (still valid) one.", access: session, res: "TokenResponse"},
	{method: "POST", path: "/api/v1/auth/logout", id: "logout", tag: "Identity", summary: "Sign out", desc: "Revokes the presented session token until it expires.", access: session, res: "Message"},
	{method: "POST", path: "/api/v1/auth/forgot-password", id: "forgotPassword", tag: "Identity", summary: "Ask for a password reset", desc: "202 for every address; mails a one-hour, single-use reset link to an account's address.", body: "-{email}", status: 202, res: "Message", errs: []int{400, 429}},
	{method: "POST", path: "/api/v1/auth/reset-password", id: "resetPassword", tag: "Identity", summary: "Reset the password", desc: "Sets a new password with a reset token; tokens issued before stop working.", body: "-{token, new_password}", res: "Message", errs: []int{400}},
	{method: "POST", path: "/api/v1/auth/change-password", id: "changePassword", tag: "Identity", summary: "Change the password", desc: "Sets a new password given the current one; tokens issued before stop working.", access: session, body: "-{current_password, new_password}", res: "Message", errs: []int{400}},
	{method: "POST", path: "/api/v1/auth/merge-identity", id: "mergeIdentity", tag: "Identity", summary: "Claim a trial identity", desc: "{temp_api_key}: the tmp_ identity's projects and keys move to the caller; an sdb_live_ key is issued.", access: session, body: "-{temp_api_key}", res: "-object", errs: []int{400, 404}},
	{method: "GET", path: "/api/v1/auth/codehost/start", id: "codehostStart", tag: "Identity", summary: "Sign in with the code host", desc: "302 to the code host's authorization page, with a random state sealed in a 10-minute cookie; 503 naming the missing settings when the provider is not configured.", params: []param{qr("redirect_uri", "https (or http on a loopback host) URI the provider returns to.")}, status: 302, errs: []int{400, 503}},
	{method: "POST", path: "/api/v1/auth/codehost/callback", id: "codehostCallback", tag: "Identity", summary: "Finish code-host sign-in", desc: "{code, redirect_uri, state} → a session token and the user; links or creates the account by the provider's verified email.", body: "-{code, redirect_uri, state}", res: "-object", errs: []int{400, 403, 503}},
	{method: "GET", path: "/api/v1/auth/network/start", id: "networkStart", tag: "Identity", summary: "Sign in with the professional network", desc: "302 to the network's OpenID Connect authorization page, with state and nonce sealed in a 10-minute cookie.", params: []param{qr("redirect_uri", "https (or http on a loopback host) URI the provider returns to.")}, status: 302, errs: []int{400, 503}},
	{method: "POST", path: "/api/v1/auth/network/callback", id: "networkCallback", tag: "Identity", summary: "Finish network sign-in", desc: "{code, redirect_uri, state} → a session token and the user, after verifying the ID token.", body: "-{code, redirect_uri, state}", res: "-object", errs: []int{400, 403, 503}},
	{method: "POST", path: "/api/v1/api-keys", id: "createAPIKey", tag: "API keys", summary: "Create an API key", desc: "Issues an sk_live_ or sk_test_ key; the key itself is in this answer only.", access: session, body: "APIKeyRequest", status: 201, res: "APIKey", errs: []int{400}},
	{method: "GET", path: "/api/v1/api-keys", id: "listAPIKeys", tag: "API keys", summary: "List API keys", desc: "The caller's key records (never the keys).", access: user, res: "[]APIKey"},
	{method: "DELETE", path: "/api/v1/api-keys/{key_id}", id: "revokeAPIKey", tag: "API keys", summary: "Revoke an API key", desc: "The key stops working at once.", access: session, res: "Message", errs: []int{404}},
	{method: "POST", path: "/api/v1/public/api-keys/verify", id: "verifyAPIKey", tag: "API keys", summary: "Verify an API key", desc: "What the presented key may do now: READY, insufficient_credits, trial_active, trial_expired or upgrade_required, with its subscription and capabilities.", access: keyOnly, res: "KeyVerification"},
	{method: "POST", path: "/api/v1/public/api-keys/temporary", id: "createTemporaryKey", tag: "API keys", summary: "Get a trial key", desc: "A tmp_ key valid 72 hours for a new trial identity; 10 an hour per client address.", status: 201, res: "APIKey", errs: []int{429}},
	{method: "GET", path: "/api/v1/organizations", id: "listOrganizations", tag: "Organizations", summary: "List organizations", desc: "The organizations the caller belongs to, with the caller's role.", access: user, res: "[]Organization"},
	{method: "POST", path: "/api/v1/organizations", id: "createOrganization", tag: "Organizations", summary: "Create an organization", desc: "A new workspace owned by the caller.", access: session, body: "-{name}", status: 201, res: "Organization", errs: []int{400}},
	{method: "GET", path: "/api/v1/organizations/{id}/members", id: "listMembers", tag: "Organizations", summary: "List members", desc: "The organization's members and roles (owner, admin, member).", access: user, res: "-array", errs: []int{404}},
	{method: "POST", path: "/api/v1/organizations/{id}/members", id: "inviteMember", tag: "Organizations", summary: "Invite a member", desc: "{email, role}: mails a single-use invitation valid 7 days (202, the same whether or not the address has an account). 404 for a non-member, 403 for a member who is not owner or admin.", access: session, body: "-{email, role}", status: 202, res: "Invitation", errs: []int{400, 404, 429}},
	{method: "GET", path: "/api/v1/organizations/{id}/invitations", id: "listInvitations", tag: "Organizations", summary: "List invitations", desc: "Invitations newest first with their status (owner, admin).", access: user, res: "[]Invitation", errs: []int{404}},
	{method: "DELETE", path: "/api/v1/organizations/{id}/invitations/{invitation_id}", id: "revokeInvitation", tag: "Organizations", summary: "Revoke an invitation", desc: "204; 409 once accepted.", access: session, status: 204, errs: []int{404, 409}},
	{method: "POST", path: "/api/v1/organizations/invitations/accept", id: "acceptInvitation", tag: "Organizations", summary: "Accept an invitation", desc: "{token}: joins the organization with the invited role; the account must have the invited email (403).", access: session, body: "-{token}", res: "Organization", errs: []int{400}},
	{method: "DELETE", path: "/api/v1/organizations/{id}/members/{user_id}", id: "removeMember", tag: "Organizations", summary: "Remove a member", desc: "Removes a member from the organization.", access: session, res: "Message", errs: []int{404, 409}},
	{method: "GET", path: "/api/v1/admin/events", id: "adminEvents", tag: "Admin", summary: "Read the event log", desc: "The event log, paged (ADMIN only; 403 for others).", access: session, params: []param{q("stream", "A stream."), q("type", "An event type."), qi("from_position", "From this position."), q("until", "Until this time (RFC 3339)."), qi("limit", "Page size.")}, res: "AdminEvents", errs: []int{400}},

	// OAuth.
	{method: "GET", path: "/.well-known/openid-configuration", id: "getOpenIDConfiguration", tag: "OAuth", summary: "OpenID Connect discovery", desc: "The provider's metadata (OpenID Connect Discovery).", res: "OAuthMetadata"},
	{method: "GET", path: "/.well-known/oauth-authorization-server", id: "getAuthorizationServerMetadata", tag: "OAuth", summary: "Authorization server metadata (RFC 8414)", desc: "Endpoints, response types (code), PKCE (S256), scopes, claims and client authentication methods.", res: "OAuthMetadata"},
	{method: "GET", path: "/.well-known/oauth-protected-resource", id: "getProtectedResourceMetadata", tag: "OAuth", summary: "Protected resource metadata (RFC 9728)", desc: "The platform API as an OAuth protected resource: its authorization server, scopes and bearer methods. 401 answers name it in WWW-Authenticate (resource_metadata).", res: "ResourceMetadata"},
	{method: "GET", path: "/.well-known/oauth-protected-resource/{resource_path}", id: "getProtectedResourceMetadataForPath", tag: "OAuth", summary: "Protected resource metadata of a path", desc: "As the API's, for the part of the API at resource_path (RFC 9728 section 3.1).", res: "ResourceMetadata"},
	{method: "POST", path: "/oauth/clients/register", id: "registerClient", tag: "OAuth", summary: "Register a client (RFC 7591)", desc: "Dynamic client registration: 201 with client_id and, unless the method is none, client_secret (shown once). 20 an hour per address.", body: "ClientRegistration", status: 201, res: "ClientRegistration", errs: []int{400, 429}, errBody: "OAuthError"},
	{method: "GET", path: "/oauth/authorize", id: "authorize", tag: "OAuth", summary: "Authorization endpoint", desc: "Browser flow: response_type=code, client_id, redirect_uri, scope, state, code_challenge (S256); the sign-in and consent pages, then 303 to the redirect URI with code, state and iss.", params: []param{qr("response_type", "code."), qr("client_id", "The client."), q("redirect_uri", "A registered redirect URI."), q("scope", "Scopes."), q("state", "Opaque state."), qr("code_challenge", "PKCE S256 challenge."), qr("code_challenge_method", "S256."), q("resource", "RFC 8707 resource."), q("nonce", "OpenID nonce."), q("prompt", "none, login, consent or select_account.")}, res: "-text", resType: "text/html", errs: []int{400}},
	{method: "POST", path: "/oauth/login", id: "oauthLogin", tag: "OAuth", summary: "Sign-in page form", desc: "The sign-in page's form (CSRF token); sets the provider's session cookie. The sign-in throttle answers 429 with Retry-After.", body: "form:-", res: "-text", resType: "text/html", errs: []int{400, 429}},
	{method: "POST", path: "/oauth/consent", id: "oauthConsent", tag: "OAuth", summary: "Consent page form", desc: "Allow issues a code valid 10 minutes (303 to the client); Deny answers access_denied.", body: "form:-", status: 303, errs: []int{400}},
	{method: "POST", path: "/api/v1/oauth/token", id: "token", tag: "OAuth", summary: "Token endpoint", desc: "authorization_code with code_verifier, or refresh_token (rotated on each use). Errors per RFC 6749; invalid_client is 401 with a Basic challenge.", access: client, body: "form:TokenRequest", res: "OAuthToken", errs: []int{400, 429}, errBody: "OAuthError"},
	{method: "POST", path: "/v1/oauth/token", id: "tokenV1", tag: "OAuth", summary: "Token endpoint (alias)", desc: "The same as POST /api/v1/oauth/token.", access: client, body: "form:TokenRequest", res: "OAuthToken", errs: []int{400, 429}, errBody: "OAuthError"},
	{method: "GET", path: "/oauth/userinfo", id: "getUserinfo", tag: "OAuth", summary: "UserInfo", desc: "Claims about the token's user: sub; email with email; name and plan with profile.", access: openid, res: "OAuthObject"},
	{method: "POST", path: "/oauth/userinfo", id: "postUserinfo", tag: "OAuth", summary: "UserInfo (POST)", desc: "As GET /oauth/userinfo.", access: openid, res: "OAuthObject"},
	{method: "POST", path: "/oauth/revoke", id: "revokeToken", tag: "OAuth", summary: "Revoke a token (RFC 7009)", desc: "A refresh token revokes its whole grant, an access token itself; always 200.", access: client, body: "form:-", errs: []int{400}, errBody: "OAuthError"},
	{method: "POST", path: "/oauth/introspect", id: "introspectToken", tag: "OAuth", summary: "Introspect a token (RFC 7662)", desc: "For tokens issued to the calling client; others are active: false.", access: client, body: "form:-", res: "OAuthObject", errs: []int{400}, errBody: "OAuthError"},

	// Community.
	{method: "POST", path: ev, id: "createEvent", tag: "Community", summary: "Create an event", desc: "A community event in the caller's organization; start_time is required and not in the past.", access: user, body: "CommunityEventInput", status: 201, res: "CommunityEvent", errs: []int{400}},
	{method: "GET", path: ev, id: "listEvents", tag: "Community", summary: "List events", desc: "The organization's events.", access: user, params: append([]param{q("filter_type", "upcoming, past or my_events."), q("group_id", "A group.")}, paging...), res: "CommunityEventPage", errs: []int{400}},
	{method: "POST", path: ev + "/", id: "createEventSlash", tag: "Community", summary: "Create an event (trailing slash)", desc: "The same as POST /api/v1/community-events.", access: user, body: "CommunityEventInput", status: 201, res: "CommunityEvent", errs: []int{400}},
	{method: "GET", path: ev + "/", id: "listEventsSlash", tag: "Community", summary: "List events (trailing slash)", desc: "The same as GET /api/v1/community-events.", access: user, params: append([]param{q("filter_type", "upcoming, past or my_events."), q("group_id", "A group.")}, paging...), res: "CommunityEventPage", errs: []int{400}},
	{method: "GET", path: ev + "/browse", id: "browseEvents", tag: "Community", summary: "Browse upcoming events", desc: "Scheduled events starting now or later.", access: user, params: append([]param{q("event_type", "virtual, in_person or hybrid."), q("group_id", "A group."), q("sort_by", "start_time or attendee_count."), q("sort_order", "asc or desc.")}, paging...), res: "CommunityEventPage", errs: []int{400}},
	{method: "GET", path: ev + "/my-events", id: "myEvents", tag: "Community", summary: "Events I RSVP'd to", desc: "Each with my_rsvp.", access: user, params: append([]param{q("upcoming_only", "true (default) or false."), q("status_filter", "An RSVP status.")}, paging...), res: "CommunityEventPage", errs: []int{400}},
	{method: "GET", path: ev + "/calendar.ics", id: "calendarFeed", tag: "Community", summary: "Calendar feed", desc: "text/calendar of the events the token's owner is going to, for calendar programs to subscribe to; 401 once revoked or replaced.", params: []param{qr("token", "The feed token (scf_...).")}, res: "-text", resType: "text/calendar", errs: []int{401}},
	{method: "POST", path: ev + "/calendar-feed", id: "issueCalendarFeed", tag: "Community", summary: "Issue a calendar feed", desc: "201 {token, url, feed_id, active}, replacing any earlier feed.", access: user, status: 201, res: "-object"},
	{method: "GET", path: ev + "/calendar-feed", id: "getCalendarFeed", tag: "Community", summary: "Describe the calendar feed", desc: "The caller's feed in this organization.", access: user, res: "-object", errs: []int{404}},
	{method: "DELETE", path: ev + "/calendar-feed", id: "revokeCalendarFeed", tag: "Community", summary: "Revoke the calendar feed", desc: "204.", access: user, status: 204, errs: []int{404}},
	{method: "PATCH", path: ev + "/rsvps/{rsvp_id}", id: "patchRSVP", tag: "Community", summary: "Change an RSVP", desc: "The RSVP's owner changes its status or message.", access: user, body: "RSVPInput", res: "RSVP", errs: []int{400, 404}},
	{method: "GET", path: ev + "/rsvps/{rsvp_id}/history", id: "rsvpHistory", tag: "Community", summary: "An RSVP's history", desc: "Every change with its event version, promotions included.", access: user, res: "-array", errs: []int{404}},
	{method: "GET", path: ev + "/{event_id}", id: "getEvent", tag: "Community", summary: "Get an event", desc: "Another organization's event is 404.", access: user, res: "CommunityEvent", errs: []int{404}},
	{method: "PATCH", path: ev + "/{event_id}", id: "patchEvent", tag: "Community", summary: "Change an event", desc: "Partial (the creator); null clears a member. Raising the capacity promotes waitlisted people.", access: user, body: "CommunityEventInput", res: "CommunityEvent", errs: []int{400, 404, 409}},
	{method: "DELETE", path: ev + "/{event_id}", id: "cancelEvent", tag: "Community", summary: "Cancel an event", desc: "204; the event stays, status cancelled, and takes no more RSVPs.", access: user, status: 204, errs: []int{404}},
	{method: "POST", path: ev + "/{event_id}/rsvp", id: "rsvp", tag: "Community", summary: "RSVP", desc: "Creates or updates the caller's RSVP; going at capacity is 400, or waitlisted on an event with a waitlist.", access: user, body: "RSVPInput", status: 201, res: "RSVP", errs: []int{400, 404}},
	{method: "GET", path: ev + "/{event_id}/attendees", id: "listAttendees", tag: "Community", summary: "Attendees", desc: "Counts per status and the attendees.", access: user, params: []param{q("status_filter", "An RSVP status.")}, res: "-object", errs: []int{404}},
	{method: "GET", path: ev + "/{event_id}/rsvps", id: "listRSVPs", tag: "Community", summary: "RSVPs, paged", desc: "As attendees, paged.", access: user, params: paging, res: "-object", errs: []int{404}},
	{method: "GET", path: ev + "/{event_id}/export/ical", id: "exportICal", tag: "Community", summary: "Export as iCalendar", desc: "{ical_content, filename}: RFC 5545.", access: user, res: "-object", errs: []int{404}},
	{method: "POST", path: "/api/v1/community/comments", id: "postComment", tag: "Community", summary: "Comment", desc: "Checked against the organization's moderation policy (400 with the reason).", access: user, body: "CommentInput", res: "Comment", errs: []int{400}},
	{method: "GET", path: "/api/v1/community/comments/{content_type}/{content_id}", id: "listComments", tag: "Community", summary: "List comments", desc: "Newest first.", params: paging, res: "-object", errs: []int{400}},
	{method: "PATCH", path: "/api/v1/community/comments/{comment_id}", id: "editComment", tag: "Community", summary: "Edit a comment", desc: "The author; moderated again.", access: user, body: "-{comment}", res: "Comment", errs: []int{400, 404}},
	{method: "DELETE", path: "/api/v1/community/comments/{comment_id}", id: "deleteComment", tag: "Community", summary: "Delete a comment", desc: "The author, an owner or admin of its organization, or a platform ADMIN.", access: user, res: "-object", errs: []int{404}},
	{method: "GET", path: "/api/v1/community/moderation-policy", id: "getModerationPolicy", tag: "Community", summary: "Moderation policy", desc: "The caller's organization's comment policy.", access: user, res: "ModerationPolicy"},
	{method: "PUT", path: "/api/v1/community/moderation-policy", id: "putModerationPolicy", tag: "Community", summary: "Set the moderation policy", desc: "Owner or admin.", access: user, body: "ModerationPolicy", res: "ModerationPolicy", errs: []int{400}},

	// Memory.
	{method: "POST", path: mem + "/remember", id: "remember", tag: "Memory", summary: "Remember", desc: "Keeps a memory about an entity; a near-duplicate in the same namespace is merged; facts it states settle the entity's timeline.", access: memWrite, body: "RememberRequest", res: "RememberResponse", errs: []int{400}},
	{method: "POST", path: mem + "/recall", id: "recall", tag: "Memory", summary: "Recall", desc: "Memories ranked by similarity, importance and recency; fact questions rank the memory stating the fact first; as_of reads the past.", access: memRead, body: "RecallRequest", res: "RecallResponse", errs: []int{400}},
	{method: "DELETE", path: mem + "/forget/{memory_id}", id: "forgetMemory", tag: "Memory", summary: "Forget a memory", desc: "The memory leaves every read model, its facts are retracted, its text is shredded.", access: memWrite, res: "MemoryObject", errs: []int{404}},
	{method: "POST", path: mem + "/forget", id: "forgetMemoryBody", tag: "Memory", summary: "Forget a memory (body)", desc: "{memory_id}: as DELETE /forget/{memory_id}.", access: memWrite, body: "-{memory_id}", res: "MemoryObject", errs: []int{400, 404}},
	{method: "POST", path: mem + "/relate", id: "relate", tag: "Memory", summary: "Relate two entities", desc: "{subject, predicate, object, confidence, valid_from, exclusive}: an edge of the temporal graph.", access: memWrite, body: "-{subject, predicate, object}", res: "MemoryObject", errs: []int{400}},
	{method: "GET", path: mem + "/graph/{entity_id}", id: "graph", tag: "Memory", summary: "An entity's graph", desc: "Its relationships, current facts first.", access: memRead, params: []param{qi("limit", "1-500 (100).")}, res: "MemoryObject", errs: []int{404}},
	{method: "GET", path: mem + "/entities", id: "listEntities", tag: "Memory", summary: "List entities", desc: "The caller's entities.", access: memRead, params: []param{q("user_id", "The caller only."), q("entity_type", "person, org, tech or concept."), qi("limit", "1-500 (100).")}, res: "MemoryObject", errs: []int{400}},
	{method: "GET", path: mem + "/entities/{entity_id}/timeline", id: "timeline", tag: "Memory", summary: "An entity's timeline", desc: "Its facts by valid_from, current or superseded.", access: memRead, res: "MemoryObject", errs: []int{404}},
	{method: "DELETE", path: mem + "/entities/{entity_id}", id: "deleteEntity", tag: "Memory", summary: "Delete an entity", desc: "Its edges (and with cascade its memories) in one append.", access: memWrite, params: []param{q("cascade", "true to forget its memories too (false).")}, res: "MemoryObject", errs: []int{404}},
	{method: "POST", path: mem + "/entities/{entity_id}/merge", id: "mergeEntity", tag: "Memory", summary: "Merge an entity into another", desc: "{into}: its names become the survivor's aliases, its memories and facts the survivor's.", access: memWrite, body: "-{into}", res: "MemoryObject", errs: []int{400, 404}},
	{method: "POST", path: mem + "/reflect/{entity_id}", id: "reflectEntity", tag: "Memory", summary: "Reflect on an entity", desc: "A reflection over its memories with key themes.", access: memRead, res: "MemoryObject", errs: []int{404}},
	{method: "POST", path: mem + "/reflect", id: "reflect", tag: "Memory", summary: "Reflect (body)", desc: "{entity_id}: as POST /reflect/{entity_id}.", access: memRead, body: "-{entity_id}", res: "MemoryObject", errs: []int{400, 404}},
	{method: "GET", path: mem + "/profile/{entity_id}", id: "profileEntity", tag: "Memory", summary: "An entity's profile", desc: "Current and past facts, related entities, themes, highlights.", access: memRead, res: "MemoryObject", errs: []int{404}},
	{method: "POST", path: mem + "/profile", id: "profile", tag: "Memory", summary: "Profile (body)", desc: "{entity_id}: as GET /profile/{entity_id}.", access: memRead, body: "-{entity_id}", res: "MemoryObject", errs: []int{400, 404}},
	{method: "POST", path: mem + "/process", id: "processConversation", tag: "Memory", summary: "Extract memories from a conversation", desc: "{messages[], entity_id, namespace}: the statements of user turns, in one append.", access: memWrite, body: "-{messages}", res: "MemoryObject", errs: []int{400}},
	{method: "POST", path: mem + "/context", id: "synthesizeContext", tag: "Memory", summary: "Synthesize context", desc: "A context for a query within max_tokens, with its sources.", access: memRead, body: "-{query}", res: "MemoryObject", errs: []int{400}},
	{method: "GET", path: "/mcp", id: "mcpGet", tag: "Memory", summary: "MCP server: event stream", desc: "The memory service as a Model Context Protocol server (streamable HTTP): the session's server-sent events.", access: mcp, res: "-text", resType: "text/event-stream", errs: []int{400, 404}},
	{method: "POST", path: "/mcp", id: "mcpPost", tag: "Memory", summary: "MCP server: JSON-RPC", desc: "The memory service as a Model Context Protocol server: tools remember, recall, forget, relate, merge_entities, reflect, profile, timeline, context. Each tool checks its scope.", access: mcp, body: "-jsonrpc", res: "-object", errs: []int{400, 404}},
	{method: "DELETE", path: "/mcp", id: "mcpDelete", tag: "Memory", summary: "MCP server: end a session", desc: "Ends the MCP session named by Mcp-Session-Id.", access: mcp, errs: []int{400, 404}},
	{method: "POST", path: mem + "/actions/chat/send", id: "actionChatSend", tag: "Memory", summary: "Write-back: send a chat message", desc: "{channel (name or id), message, thread_ts} → {ts, channel, message} through the connected chat account (Slack's chat.postMessage). 409 not_connected names the provider kind to connect; 422 the provider refused; 503 unavailable; 502/504 the outcome is unknown and was not retried.", access: memWrite, body: "-{channel, message, thread_ts}", res: "-object", errs: []int{400, 409, 422, 502, 503, 504}},
	{method: "POST", path: mem + "/actions/mail/reply", id: "actionMailReply", tag: "Memory", summary: "Write-back: reply to a mail thread", desc: "{thread_id, body (plain or HTML), cc[]} → {id, thread_id, message}: a reply in the thread (In-Reply-To, References, Re: subject) sent through the connected mail account (Gmail).", access: memWrite, body: "-{thread_id, body, cc}", res: "-object", errs: []int{400, 409, 422, 502, 503, 504}},
	{method: "POST", path: mem + "/actions/calendar/create", id: "actionCalendarCreate", tag: "Memory", summary: "Write-back: create a calendar event", desc: "{title, start, end (ISO 8601), description, attendees[], calendar_id (primary)} → {id, html_link, message} (Google Calendar).", access: memWrite, body: "-{title, start, end, description, attendees, calendar_id}", res: "-object", errs: []int{400, 409, 422, 502, 503, 504}},
	{method: "POST", path: mem + "/actions/issues/create", id: "actionIssuesCreate", tag: "Memory", summary: "Write-back: open an issue", desc: "{repo (owner/repo), title, body (markdown), labels[]} → {number, html_url, message} (GitHub's issues API).", access: memWrite, body: "-{repo, title, body, labels}", res: "-object", errs: []int{400, 409, 422, 502, 503, 504}},
	{method: "POST", path: mem + "/actions/notes/page", id: "actionNotesPage", tag: "Memory", summary: "Write-back: create a notes page", desc: "{parent_id (page or database id), title, content (plain or markdown)} → {id, url, message} (Notion's pages API).", access: memWrite, body: "-{parent_id, title, content}", res: "-object", errs: []int{400, 409, 422, 502, 503, 504}},
	{method: "GET", path: mem + "/connections", id: "listConnections", tag: "Memory", summary: "Write-back connections", desc: "{connections: [{provider, status (connected, needs_reconnect, not_connected), account_id, handle, connected_at, reason}]} for chat, mail, calendar, issues and notes.", access: memRead, res: "-object"},
	{method: "GET", path: mem + "/connections/{provider}/connect", id: "connectProvider", tag: "Memory", summary: "Connect a provider (OAuth)", desc: "302 to the provider's authorization page (state sealed and bound to the caller, PKCE where the provider takes it); 200 {authorization_url, state, expires_in} for a client that accepts only JSON; 503 naming the missing settings when the provider is not configured.", access: memWrite, params: []param{q("redirect_uri", "Where the provider returns the code (default: the callback below).")}, status: 302, res: "-object", errs: []int{400, 404, 503}},
	{method: "GET", path: mem + "/connections/{provider}/callback", id: "connectProviderCallback", tag: "Memory", summary: "Finish a provider connection", desc: "Exchanges the code; tokens are stored sealed. The state names the owner; a tampered, expired or reused state is 400.", params: []param{q("code", "The authorization code."), q("state", "The state from the connect step.")}, res: "-object", errs: []int{400, 404, 503}},
	{method: "POST", path: mem + "/connections/{provider}", id: "connectProviderToken", tag: "Memory", summary: "Connect a provider with a token", desc: "{access_token, refresh_token, expires_in}: a token the user holds (a personal access token, a bot token); the provider must accept it.", access: memWrite, body: "-{access_token, refresh_token, expires_in}", status: 201, res: "-object", errs: []int{400, 404, 503}},
	{method: "DELETE", path: mem + "/connections/{provider}", id: "disconnectProvider", tag: "Memory", summary: "Disconnect a provider", desc: "Revokes the tokens at the provider where it can and forgets them; 404 when nothing is connected.", access: memWrite, res: "-object", errs: []int{404}},

	// Gateway.
	{method: "GET", path: "/v1/public/models", id: "listModels", tag: "Gateway", summary: "The model catalog", desc: "Every live model and the smart routers; ETag and Last-Modified, 304 while nothing changed.", access: user, res: "ModelList", head: true},
	{method: "GET", path: "/v1/public/models/available", id: "listAvailableModels", tag: "Gateway", summary: "Models the caller may use", desc: "The catalog filtered by the caller's tier, with tier and default_model.", access: user, res: "ModelList", head: true},
	{method: "POST", path: "/v1/public/models/resolve", id: "resolveModel", tag: "Gateway", summary: "Resolve a model", desc: "The model a chat request would be served by, or the refusal it would get (model_deprecated, tier_required, tools_unsupported...).", access: user, body: "-{model, kind, text, tools, images, max_tokens}", res: "-object", errs: []int{400, 403, 404}},
	{method: "POST", path: "/v1/messages", id: "createMessage", tag: "Gateway", summary: "Chat (messages format)", desc: "A messages-format chat request (the anthropic-version header is required), served by the model's upstream; streams are relayed event by event.", access: agent, body: "ChatRequest", res: "ChatResponse", errs: []int{400, 402, 403, 404, 429, 503}, errBody: "ChatError"},
	{method: "POST", path: "/v1/chat/completions", id: "createChatCompletion", tag: "Gateway", summary: "Chat (OpenAI format)", desc: "An OpenAI chat-completions request, served by the model's upstream; streams are relayed chunk by chunk.", access: agent, body: "ChatRequest", res: "ChatResponse", errs: []int{400, 402, 403, 404, 429, 503}, errBody: "ChatError"},
	{method: "POST", path: "/api/v1/chat/completions", id: "createChatCompletionAPI", tag: "Gateway", summary: "Chat (OpenAI format, alias)", desc: "The same as POST /v1/chat/completions.", access: agent, body: "ChatRequest", res: "ChatResponse", errs: []int{400, 402, 403, 404, 429, 503}, errBody: "ChatError"},
	{method: "POST", path: "/v1/embeddings", id: "createEmbeddings", tag: "Gateway", summary: "Embeddings", desc: "OpenAI-format embeddings from an embeddings model of the catalog.", access: agent, body: "EmbeddingsRequest", res: "EmbeddingsResponse", errs: []int{400, 402, 403, 404, 429, 502, 503}, errBody: "ChatError"},
	{method: "GET", path: "/api/v1/public/credits/balance", id: "getCreditBalance", tag: "Gateway", summary: "Credit balance", desc: "The caller's exact balance from the credit ledger, its period, plan and rate limit.", access: user, res: "CreditBalance", head: true},
	{method: "GET", path: "/api/v1/public/usage", id: "listUsage", tag: "Gateway", summary: "Usage records", desc: "The caller's per-request usage, newest first.", access: user, params: []param{q("model", "A model."), q("from", "RFC 3339 or a date."), q("to", "Exclusive."), qi("limit", "1-200 (50)."), q("cursor", "The previous page's next_cursor.")}, res: "UsagePage", errs: []int{400}, head: true},

	// Payments.
	{method: "POST", path: "/api/v1/payments/checkout", id: "createCheckout", tag: "Payments", summary: "Start a checkout", desc: "A subscription checkout session for the caller; send the payer to url. 503 naming the setting when payments or the price are not configured.", access: user, body: "CheckoutRequest", status: 201, res: "CheckoutSession", errs: []int{400, 503}},
	{method: "GET", path: "/api/v1/payments/subscription", id: "getSubscription", tag: "Payments", summary: "The caller's subscription", desc: "In a product line (voice), a live subscription before an ended one.", access: user, params: []param{q("product_line", "The line (voice).")}, res: "Subscription", errs: []int{400}},
	{method: "GET", path: "/api/v1/payments/history", id: "getPaymentHistory", tag: "Payments", summary: "Payment history", desc: "Invoices, newest first.", access: user, params: append([]param{q("product_line", "The line (voice).")}, paging...), res: "PaymentHistory", errs: []int{400}},
	{method: "POST", path: "/api/v1/payments/portal-session", id: "createPortalSession", tag: "Payments", summary: "Open the billing portal", desc: "The provider's billing portal for the caller; 404 before a completed checkout.", access: user, body: "-{return_url}", res: "PortalSession", errs: []int{400, 404, 503}},
	{method: "POST", path: "/api/v1/payments/webhook", id: "paymentsWebhook", tag: "Payments", summary: "The provider's webhook", desc: "Signed events (Stripe-Signature), each recorded once and answered 200 at once.", params: []param{{name: "Stripe-Signature", in: "header", required: true, desc: "The provider's signature.", schema: js{"type": "string"}}}, body: "-event", res: "-object", errs: []int{400, 503}},
	{method: "POST", path: ax + "/checkout", id: "auditCheckout", tag: "Payments", summary: "Audit checkout", desc: "A checkout session for an audit tier; 30 an hour per client address.", body: "AuditCheckoutRequest", status: 201, res: "CheckoutSession", errs: []int{400, 429, 503}},

	// Audit.
	{method: "POST", path: ax, id: "quickScan", tag: "Audit", summary: "Quick scan", desc: "Scans a site's agent-readiness (rubric v1), nothing stored. A private or unresolvable target is 400 naming url.", body: "AuditScanRequest", res: "AuditScan", errs: []int{400, 429}},
	{method: "POST", path: ax + "/full", id: "fullAudit", tag: "Audit", summary: "Full audit", desc: "The scan, stored as a report." + tierNote("Pro"), access: optional, body: "AuditScanRequest", status: 201, res: "AuditScan", errs: []int{400, 401, 403, 429}},
	{method: "GET", path: ax + "/reports/{report_id}", id: "getReport", tag: "Audit", summary: "A stored report", desc: "Its findings once unlocked." + tierNote("Pro"), access: optional, res: "AuditScan", errs: []int{401, 403, 404, 429}},
	{method: "POST", path: ax + "/unlock", id: "unlockReport", tag: "Audit", summary: "Unlock a report", desc: "Unlocks the full report for an address (a lead)." + tierNote("Pro"), access: optional, body: "AuditUnlockRequest", res: "-object", errs: []int{400, 401, 403, 404, 429}},
	{method: "POST", path: ax + "/leads", id: "createLead", tag: "Audit", summary: "Leave a lead", desc: "201 with a booking URL when one is configured." + tierNote("Agency"), access: optional, body: "AuditLeadRequest", status: 201, res: "AuditLead", errs: []int{400, 401, 403, 429}},
	{method: "GET", path: ax + "/benchmark", id: "listBenchmarkIndustries", tag: "Audit", summary: "Benchmark industries", desc: "The industries with their stored scan counts." + tierNote("Business"), access: optional, res: "AuditBenchmark", errs: []int{401, 403, 429}},
	{method: "GET", path: ax + "/benchmark/{industry}", id: "getBenchmark", tag: "Audit", summary: "An industry's benchmark", desc: "Quantiles over the latest stored full scan of each site; insufficient_data below 10 scans." + tierNote("Business"), access: optional, res: "AuditBenchmark", errs: []int{400, 401, 403, 429}},
	{method: "GET", path: ax + "/benchmark/{industry}/percentile", id: "getPercentile", tag: "Audit", summary: "A score's percentile", desc: "The share of the industry's scans below the score." + tierNote("Business"), access: optional, params: []param{{name: "score", required: true, desc: "0-100.", schema: js{"type": "integer"}}}, res: "AuditBenchmark", errs: []int{400, 401, 403, 429}},
	{method: "GET", path: ax + "/badge", id: "getBadge", tag: "Audit", summary: "Badge", desc: "A 1200x630 PNG with the host, the score and the grade.", params: []param{qr("url", "The site."), {name: "score", required: true, desc: "0-100.", schema: js{"type": "integer"}}, qr("grade", "A+, A, B, C, D or F.")}, res: "-binary", resType: "image/png", errs: []int{400, 429}},

	{method: "POST", path: ax + "/crawl", id: "startCrawl", tag: "Audit", summary: "Crawl a site", desc: "202: a durable job that scans the site's resources once, then crawls its pages (breadth first on the host, obeying robots.txt, from the URL and the sitemaps), scoring each page. Credentials are optional: the caller's audit tier caps max_pages (Free 1, Pro 500, Business and Agency 10,000). At most 5 crawls at once (429 beyond).", access: optional, body: "AuditCrawlRequest", status: 202, res: "AuditCrawl", errs: []int{400, 429}},
	{method: "GET", path: ax + "/crawl/{crawl_id}", id: "getCrawl", tag: "Audit", summary: "A crawl's progress", desc: "Its status, the pages crawled with their scores, the overall score and the per-check averages.", res: "AuditCrawl", errs: []int{404, 429}},
	{method: "DELETE", path: ax + "/crawl/{crawl_id}", id: "cancelCrawl", tag: "Audit", summary: "Cancel a crawl", desc: "Stops it after the page in hand (202); 409 once finished.", status: 202, res: "AuditCrawl", errs: []int{404, 409, 429}},
	{method: "POST", path: ax + "/crawl/{crawl_id}/cancel", id: "cancelCrawlPost", tag: "Audit", summary: "Cancel a crawl (POST)", desc: "As DELETE /crawl/{crawl_id}.", status: 202, res: "AuditCrawl", errs: []int{404, 409, 429}},

	// Data marketplace.
	{method: "GET", path: data + "/stats", id: "getDataStats", tag: "Data", summary: "Dataset counts", desc: "Every public dataset's rows (counted at import), when it last changed, status and provenance; total_records.", res: "-object", errs: []int{429}, head: true},
	{method: "GET", path: data + "/smb-directory", id: "listSMBDirectory", tag: "Data", summary: "SMB directory", desc: "Businesses {business_name, category, city, state, is_tech, naics, phone, website, city_key, industry}." + dataPageDesc, params: append([]param{q("city", "nyc, sf, la, seattle or austin."), q("tech_only", "true or false (false).")}, dataPage...), res: "-object", errs: []int{400, 404, 410, 429}, head: true},
	{method: "GET", path: data + "/whois-enrichment", id: "listWhoisEnrichment", tag: "Data", summary: "Domain enrichment", desc: "Domains {domain, org_name, registrar, infrastructure, domain_age_days, country, evidence}." + dataPageDesc, params: append([]param{q("infrastructure", "AWS, Cloudflare, Google Cloud, Azure, GoDaddy, Vercel, other or unknown.")}, dataPage...), res: "-object", errs: []int{400, 404, 410, 429}, head: true},
	{method: "GET", path: data + "/montana/livestock", id: "listMontanaLivestock", tag: "Data", summary: "Montana livestock markets", desc: "Markets as records." + dataPageDesc, params: append([]param{q("acquisition_targets_only", "true or false (false).")}, dataPage...), res: "-object", errs: []int{400, 404, 410, 429}, head: true},
	{method: "GET", path: data + "/montana/web3", id: "listMontanaWeb3", tag: "Data", summary: "Montana web3 entities", desc: "Entities as records." + dataPageDesc, params: append([]param{q("entity_type", "bitcoin_mining, blockchain_startup, stablecoin, consulting, bitcoin_atm, regulation or legislator_champion.")}, dataPage...), res: "-object", errs: []int{400, 404, 410, 429}, head: true},
	{method: "GET", path: data + "/sc-county/parcels", id: "listSCParcels", tag: "Data", summary: "Santa Cruz County parcels", desc: "Parcels as records." + dataPageDesc, params: append([]param{q("city", "SANTA CRUZ, WATSONVILLE, APTOS, SCOTTS VALLEY or CAPITOLA."), q("use_type", "A land use, exactly as the data gives it.")}, dataPage...), res: "-object", errs: []int{400, 404, 410, 429}, head: true},
	{method: "GET", path: data + "/seed", id: "getSeedData", tag: "Data", summary: "Seed data", desc: "Directory businesses of an industry (and metro) as prospects, with the domain records of those organisations, and counts.", params: []param{q("industry", "saas, ecommerce, finance, healthcare, realestate or general (general)."), q("city", "nyc, sf, la, seattle or austin."), qi("limit", "10-5000 (500).")}, res: "-object", errs: []int{400, 429}, head: true},
	{method: "GET", path: data + "/industries", id: "listIndustries", tag: "Data", summary: "Industries", desc: "The /seed industries with the 2017 NAICS codes that define them and how many directory businesses each has.", res: "-object", errs: []int{429}, head: true},
	{method: "POST", path: data + "/lead-score", id: "scoreLead", tag: "Data", summary: "Score a lead", desc: "{business_name, is_tech, phone, city_key} → score 0-100, grade, factors, and every rule's points with the evidence behind it (rubric lead-score-v1).", body: "-{business_name, is_tech, phone, city_key}", res: "-object", errs: []int{400, 429}},
	{method: "GET", path: data + "/catalog.json", id: "getDataCatalog", tag: "Data", summary: "DCAT-US catalog", desc: "The datasets with data as a DCAT-US 1.1 catalog (data.json).", res: "-object", errs: []int{429}, head: true},
	{method: "GET", path: data + "/datasets", id: "listDatasets", tag: "Data", summary: "Datasets", desc: "Every public dataset with its current version's provenance.", res: "-object", errs: []int{429}, head: true},
	{method: "GET", path: data + "/datasets/{dataset}", id: "getDataset", tag: "Data", summary: "A dataset's metadata", desc: "Its schema, filters, refresh schedule and every version with its provenance and status.", res: "-object", errs: []int{404, 429}, head: true},
	{method: "GET", path: data + "/datasets/{dataset}/versions/{version}", id: "getDatasetVersion", tag: "Data", summary: "A dataset version", desc: "Its provenance, counts, facets and row errors (the first 100).", res: "-object", errs: []int{400, 404, 429}, head: true},

	// Content workflow.
	{method: "GET", path: pub + "/tasks/{task_id}", id: "getTask", tag: "Content", summary: "A task", desc: "{task_id, kind, status (queued, processing, done, error), progress 0-100 from the stages reached, stage, result (null until done), error}.", access: user, res: "-object", errs: []int{404}},
	{method: "GET", path: "/api/v1/tasks/{task_id}", id: "getTaskFrontend", tag: "Content", summary: "A task (frontend path)", desc: "As /api/v1/public/tasks/{task_id}.", access: user, res: "-object", errs: []int{404}},
	{method: "POST", path: pub + "/twins", id: "createTwin", tag: "Content", summary: "Create a twin", desc: "{name, voice_id, style_tags[], persona_prompt, platform_defaults} → 201 with memory_namespace twin_<id>, usable at once with the memory service. 422 schema (a missing name), 400 a rule.", access: user, body: "-{name, voice_id, style_tags, persona_prompt, platform_defaults}", status: 201, res: "-object", errs: []int{400, 422}},
	{method: "GET", path: pub + "/twins", id: "listTwins", tag: "Content", summary: "Twins", desc: "The caller's twins, oldest first, as a JSON array (X-Total-Count).", access: user, params: paging, res: "-array", errs: []int{400}},
	{method: "GET", path: pub + "/twins/{twin_id}", id: "getTwin", tag: "Content", summary: "A twin", desc: "404 once deleted.", access: user, res: "-object", errs: []int{404}},
	{method: "PATCH", path: pub + "/twins/{twin_id}", id: "updateTwin", tag: "Content", summary: "Update a twin", desc: "Only the fields given change.", access: user, body: "-{name, voice_id, style_tags, persona_prompt, platform_defaults}", res: "-object", errs: []int{400, 404, 422}},
	{method: "DELETE", path: pub + "/twins/{twin_id}", id: "deleteTwin", tag: "Content", summary: "Delete a twin", desc: "204; a soft delete: later reads answer 404.", access: user, status: 204, errs: []int{404}},
	{method: "POST", path: pub + "/content/calendar", id: "scheduleItem", tag: "Content", summary: "Schedule a calendar item", desc: "{twin_id, title, platform (photo_network, short_video, professional_network, video_site), scheduled_at, script, media[] {url, kind} or reel_url, allow_duplicate} → 201. Checked now against the platform's limits (GET /content/calendar/limits): 400 lists every failed rule; warnings say what the item still lacks to publish. 409 duplicate_of: same twin, platform and text, or the same hour.", access: user, body: "-{twin_id, title, platform, scheduled_at, script, media, reel_url, allow_duplicate}", status: 201, res: "-object", errs: []int{400, 404, 409, 422}},
	{method: "GET", path: pub + "/content/calendar", id: "listItems", tag: "Content", summary: "The content calendar", desc: "Items by scheduled_at as a JSON array, each with its publish targets (one per connected account: state, attempt, failure class and reason, the platform's post id and URL).", access: user, params: append([]param{q("platform", "A platform."), q("status", "scheduled, published or failed."), q("from_date", "RFC 3339 date-time or date."), q("to_date", "RFC 3339 date-time or date (a date includes its day).")}, paging...), res: "-array", errs: []int{400}},
	{method: "GET", path: pub + "/content/calendar/export.ics", id: "exportCalendarICS", tag: "Content", summary: "Calendar as iCalendar", desc: "The items the list's filters select as RFC 5545 VEVENTs (UID <id>@strata-content).", access: user, params: []param{q("platform", "A platform."), q("status", "scheduled, published or failed."), q("from_date", "From."), q("to_date", "To.")}, res: "-text", resType: "text/calendar", errs: []int{400}},
	{method: "GET", path: pub + "/content/calendar/export.csv", id: "exportCalendarCSV", tag: "Content", summary: "Calendar as CSV", desc: "The items the list's filters select, one row each; formula-looking cells defused.", access: user, params: []param{q("platform", "A platform."), q("status", "scheduled, published or failed."), q("from_date", "From."), q("to_date", "To.")}, res: "-text", resType: "text/csv", errs: []int{400}},
	{method: "POST", path: pub + "/content/calendar/retry-failed", id: "retryFailedItems", tag: "Content", summary: "Retry all failed items", desc: "{platform, reason, limit (1-500, 100)}: a new attempt for every failed item of the platform with that failure reason (unconfirmed ones too: this is the founder's decision).", access: user, body: "-{platform, reason, limit}", res: "-object", errs: []int{400, 422}},
	{method: "GET", path: pub + "/content/calendar/limits", id: "getPlatformLimits", tag: "Content", summary: "Per-platform limits", desc: "The versioned limits table items are checked against: text length and how it is counted, title, hashtags, mentions, media count and kinds, with sources.", access: user, res: "-object"},
	{method: "GET", path: pub + "/content/calendar/{item_id}", id: "getItem", tag: "Content", summary: "A calendar item", desc: "With its targets; 404 once deleted.", access: user, res: "-object", errs: []int{404}},
	{method: "DELETE", path: pub + "/content/calendar/{item_id}", id: "deleteItem", tag: "Content", summary: "Delete a calendar item", desc: "204; not dispatched afterwards; 409 while it is being sent.", access: user, status: 204, errs: []int{404, 409}},
	{method: "POST", path: pub + "/content/calendar/{item_id}/retry", id: "retryItem", tag: "Content", summary: "Retry a failed item", desc: "202: a new attempt for each failed platform; 409 when none failed.", access: user, status: 202, res: "-object", errs: []int{404, 409}},
	{method: "GET", path: pub + "/social/connect/{platform}", id: "connectSocial", tag: "Content", summary: "Connect a social account", desc: "302 to the platform's OAuth page (state bound to the caller, PKCE where the platform takes it); 200 JSON {authorization_url, state, expires_in} for a client that accepts only JSON; 503 naming the missing settings.", access: user, params: []param{q("redirect_uri", "Registered with the platform (default: this server's callback).")}, status: 302, res: "-object", errs: []int{400, 404, 503}},
	{method: "GET", path: pub + "/social/callback/{platform}", id: "socialCallback", tag: "Content", summary: "Finish a social connection", desc: "Exchanges the code and stores the tokens sealed (AES-256-GCM); the state names the owner; a tampered, expired or reused state is 400.", params: []param{q("code", "The code."), q("state", "The state.")}, res: "-object", errs: []int{400, 404, 503}},
	{method: "GET", path: pub + "/social/accounts", id: "listSocialAccounts", tag: "Content", summary: "Connected social accounts", desc: "{accounts: [{id, platform, handle, connected_at, status (connected, needs_reconnect), reason}]}.", access: user, res: "-object"},
	{method: "DELETE", path: pub + "/social/disconnect/{platform}", id: "disconnectSocial", tag: "Content", summary: "Disconnect a social account", desc: "Revokes at the platform where it can and forgets the tokens; 404 when nothing is connected.", access: user, res: "-object", errs: []int{404}},
	{method: "POST", path: pub + "/social/publish", id: "publishSocial", tag: "Content", summary: "Publish now", desc: "{platforms[], reel_url, caption, twin_id, title} → 202 {job_id, status, results[] {platform, task_id, status}}; a platform without a connected account is an error result (not_connected). reel_url is fetched through the SSRF-safe client.", access: user, body: "-{platforms, reel_url, caption, twin_id, title}", status: 202, res: "-object", errs: []int{400, 404, 422}},
	{method: "GET", path: pub + "/social/publish/{job_id}", id: "getPublishJob", tag: "Content", summary: "A publish job", desc: "Its status and each platform's result.", access: user, res: "-object", errs: []int{404}},
	{method: "POST", path: pub + "/captions/generate", id: "generateCaptions", tag: "Content", summary: "Generate captions", desc: "multipart/form-data: reel_url (fetched through the SSRF-safe client) or audio_file, one required; language (en); burn_in (true: the captions are burnt into the video once made, a second task) → 202 {caption_id, task_id, status, burn_in_task_id}. A language no configured engine serves is 422 naming the engines and what would serve it.", access: user, body: "multipart:-", status: 202, res: "-object", errs: []int{400, 413, 422, 503}},
	{method: "GET", path: pub + "/captions/{caption_id}", id: "getCaptions", tag: "Content", summary: "Captions", desc: "{id, status, srt, vtt, segments[] {start, end (seconds), text, lines, confidence}, engine, language, text}: cues of at most two 42-character lines, 5/6 s to 7 s on screen, about 17 characters a second, labelled with the engine that heard them.", access: user, res: "-object", errs: []int{404}},
	{method: "POST", path: pub + "/captions/{caption_id}/burn-in", id: "burnInCaptions", tag: "Content", summary: "Burn captions into the video", desc: "{font_size (12-200), font_color (#RRGGBB, #RGB or a basic name), position (bottom, middle, top)}, every member optional → 202 {task_id, caption_id, status}; the task's result.output_url is the captioned H.264/AAC video (ffmpeg with libass), a signed link good for an hour from each read. 409 a failed caption.", access: user, body: "-{font_size, font_color, position}", status: 202, res: "-object", errs: []int{400, 404, 409, 422, 503}},
	{method: "POST", path: pub + "/bulk/reels", id: "submitBulkReels", tag: "Content", summary: "Bulk reels from a CSV", desc: "multipart/form-data: csv_file (columns script, platform, voice_id), twin_id, platform → 202 {task_id, batch_id, status, progress, total_rows}. Every row is checked before anything is queued: 400 errors[] {row, line, column, rule, message}; more than 100 rows is 403. The same file for the same twin and platform is the same batch.", access: user, body: "multipart:-", status: 202, res: "-object", errs: []int{400, 403, 404, 413, 422, 503}},
	{method: "GET", path: pub + "/bulk/reels/{batch_id}", id: "getBulkReels", tag: "Content", summary: "A bulk-reel batch", desc: "{batch_id, task_id, status, progress, total_rows, completed, failed, jobs[] {row, status, progress, result_url (signed), duration_seconds, error}}.", access: user, res: "-object", errs: []int{404}},
	{method: "POST", path: pub + "/multimodal/avatar/generate", id: "generateAvatar", tag: "Content", summary: "Render an avatar video", desc: "{twin_id, script, voice_id, avatar_id, provider (local-slideshow, heygen, d-id), webhook_url} → 202 {task_id, job_id, celery_task_id, provider, status, progress, estimated_seconds, talking_head}. local-slideshow: spoken by a local voice over the twin's colours with captions (talking_head false); a provider without credentials is 503. Billed 10 credits a second of the measured video; 402 with no credits left.", access: user, body: "-{twin_id, script, voice_id, avatar_id, provider, webhook_url}", status: 202, res: "-object", errs: []int{400, 402, 404, 422, 503}},
	{method: "GET", path: pub + "/multimodal/avatar/options", id: "avatarOptions", tag: "Content", summary: "Avatar providers and voices", desc: "{providers[] {name, configured, default, talking_head}, voices[], credits_per_second}.", access: user, res: "-object"},
	{method: "GET", path: pub + "/multimodal/avatar/webhook-secret", id: "avatarWebhookSecret", tag: "Content", summary: "The completion webhooks' secret", desc: "{secret, header Strata-Signature, scheme}: completion webhooks to webhook_url are signed t=<unix>,v1=<HMAC-SHA256 of \"<t>.<body>\">.", access: user, res: "-object"},
	{method: "GET", path: pub + "/multimodal/avatar/{job_id}", id: "getAvatar", tag: "Content", summary: "An avatar video job", desc: "job_id: the task_id or the celery_task_id. The task with result {video_url (signed, an hour), duration_seconds (measured), credits_billed}.", access: user, res: "-object", errs: []int{404}},
	{method: "POST", path: pub + "/multimodal/avatar/{job_id}/provider-webhook/{provider}", id: "avatarProviderWebhook", tag: "Content", summary: "A provider's completion webhook", desc: "For HeyGen (Signature: hex HMAC-SHA256 of the body) and D-ID (Strata-Signature); no credentials: the signature is one (401 when it does not verify).", body: "-object", res: "-object", errs: []int{400, 401, 404, 413}},
	{method: "GET", path: pub + "/analytics/social", id: "getSocialAnalytics", tag: "Content", summary: "Social analytics", desc: "{rows [{platform, date, views, likes, comments, shares, followers_gained}], platforms [{platform, status, last_synced_at}]}: numbers as the platforms reported them (null where a platform gives none), synced every 6 hours; a platform with no connected account is not_connected, never numbers.", access: user, params: []param{q("platform", "all (default) or a platform."), qi("days", "1-365 (30)."), q("twin_id", "A twin of yours (analytics are per account).")}, res: "-object", errs: []int{400, 404}},
	{method: "GET", path: pub + "/analytics/social/summary", id: "getSocialAnalyticsSummary", tag: "Content", summary: "Analytics totals and deltas", desc: "Per connected platform and overall: totals over the window, the previous window and the deltas (null where a side has no number).", access: user, params: []param{qi("days", "1-365 (30).")}, res: "-object", errs: []int{400}},
	{method: "POST", path: pub + "/analytics/social/export", id: "exportSocialAnalytics", tag: "Content", summary: "Export analytics", desc: "{format (csv), days, platform} → 202 {task_id}; the task's result.download_url is a signed link valid for one hour (403 when altered, 410 once expired).", access: user, body: "-{format, days, platform}", status: 202, res: "-object", errs: []int{400, 422}},
	{method: "GET", path: pub + "/downloads/{token}", id: "download", tag: "Content", summary: "A signed download", desc: "The file a signed link grants (no credentials: the link is one); 403 altered, 410 expired.", res: "-text", resType: "application/octet-stream", errs: []int{403, 410}},
	{method: "HEAD", path: pub + "/downloads/{token}", id: "downloadHead", tag: "Content", summary: "A signed download's headers", desc: "As GET without the body: type, length, name (a client checks a link before it downloads).", res: "-text", resType: "application/octet-stream", errs: []int{403, 410}},

	// Briefing.
	{method: "GET", path: intel + "/agent-briefing", id: "getAgentBriefing", tag: "Briefing", summary: "An agent's briefing", desc: "The agent's unconsumed signals, correlations, market regime and trending companies.", access: internal, params: []param{qr("agent", "The agent (ir_agent, sales_agent, scout...)."), qi("since_hours", "1-8760 (24)."), qi("limit", "1-500 (50).")}, res: "Briefing", errs: []int{400}},
	{method: "POST", path: intel + "/consume-signal", id: "consumeSignal", tag: "Briefing", summary: "Consume a signal", desc: "One consumption per agent and signal, however many calls.", access: internal, params: []param{qr("signal_id", "The signal."), qr("agent", "The agent.")}, res: "BriefingObject", errs: []int{400, 404}},
	{method: "POST", path: intel + "/observations", id: "ingestObservations", tag: "Briefing", summary: "Ingest observations", desc: "At most 10,000 observations, all or nothing; duplicates count once.", access: internal, body: "ObservationBatch", res: "BriefingObject", errs: []int{400, 413}},
	{method: "POST", path: intel + "/runs", id: "runAlgorithms", tag: "Briefing", summary: "Run the algorithms", desc: "{algo, as_of}: run now.", access: internal, body: "-{algo, as_of}", res: "BriefingObject", errs: []int{400}},
}

// securityOf is the security requirement of a.
func securityOf(a access) []any {
	bearer, key := js{"bearerAuth": []string{}}, js{"apiKey": []string{}}
	oauth := func(scopes ...string) js { return js{"oauth2": scopes} }
	switch a {
	case user:
		return []any{bearer, key}
	case session:
		return []any{bearer}
	case keyOnly:
		return []any{key}
	case memRead:
		return []any{bearer, key, oauth("memory:read")}
	case memWrite:
		return []any{bearer, key, oauth("memory:write")}
	case agent:
		return []any{bearer, key, oauth("agent:write")}
	case mcp:
		return []any{bearer, key, oauth("memory:read"), oauth("memory:write")}
	case internal:
		return []any{js{"internalKey": []string{}}}
	case client:
		return []any{js{"clientBasic": []string{}}, js{}}
	case openid:
		return []any{oauth("openid")}
	case optional:
		return []any{js{}, bearer, key}
	}
	return []any{}
}

var pathParam = regexp.MustCompile(`\{([^}]+)\}`)

// bodySchema is a body's schema: a component name, "[]Name" for an array
// of one, or "-..." for an object the description does not detail.
func bodySchema(name string) js {
	switch {
	case strings.HasPrefix(name, "[]"):
		return js{"type": "array", "items": ref(name[2:])}
	case name == "-text":
		return js{"type": "string"}
	case name == "-binary":
		return js{"type": "string", "contentMediaType": "image/png"}
	case name == "-array":
		return js{"type": "array", "items": js{"type": "object"}}
	case strings.HasPrefix(name, "-"):
		d := strings.TrimPrefix(name, "-")
		if strings.HasPrefix(d, "{") {
			return js{"type": "object", "description": "Members: " + strings.Trim(d, "{}") + "."}
		}
		return js{"type": "object"}
	}
	return ref(name)
}

var errorResponses = map[int]string{
	400: "BadRequest", 401: "Unauthorized", 402: "PaymentRequired", 403: "Forbidden", 404: "NotFound", 409: "Conflict",
	410: "Gone", 413: "PayloadTooLarge", 422: "UnprocessableContent", 429: "TooManyRequests", 502: "BadGateway",
	503: "ServiceUnavailable", 504: "GatewayTimeout",
}

func (o op) operation(method string) js {
	id := o.id
	if method == "HEAD" {
		id = "head" + strings.ToUpper(id[:1]) + id[1:]
	}
	out := js{"operationId": id, "tags": []string{o.tag}, "summary": o.summary, "description": o.desc, "security": securityOf(o.access)}
	if method == "HEAD" {
		out["summary"] = o.summary + " (headers only)"
		out["description"] = "As GET " + o.path + ", without the body."
	}
	var params []any
	for _, m := range pathParam.FindAllStringSubmatch(o.path, -1) {
		params = append(params, js{"name": m[1], "in": "path", "required": true, "schema": js{"type": "string"}, "description": "The " + strings.ReplaceAll(m[1], "_", " ") + "."})
	}
	for _, p := range o.params {
		in := p.in
		if in == "" {
			in = "query"
		}
		params = append(params, js{"name": p.name, "in": in, "required": p.required, "schema": p.schema, "description": p.desc})
	}
	if len(params) > 0 {
		out["parameters"] = params
	}
	if o.body != "" {
		ct, name := "application/json", o.body
		if strings.HasPrefix(name, "form:") {
			ct, name = "application/x-www-form-urlencoded", strings.TrimPrefix(name, "form:")
		} else if strings.HasPrefix(name, "multipart:") {
			ct, name = "multipart/form-data", strings.TrimPrefix(name, "multipart:")
		}
		if name == "-" {
			name = "-object"
		}
		out["requestBody"] = js{"required": true, "content": js{ct: js{"schema": bodySchema(name)}}}
	}
	status := o.status
	if status == 0 {
		status = http.StatusOK
	}
	ok := js{"description": http.StatusText(status)}
	if o.res != "" && status != http.StatusNoContent && method != "HEAD" {
		ct := o.resType
		if ct == "" {
			ct = "application/json"
		}
		ok["content"] = js{ct: js{"schema": bodySchema(o.res)}}
	}
	responses := js{strconv.Itoa(status): ok}
	errs := append([]int(nil), o.errs...)
	switch o.access {
	case public, optional:
	case session, memRead, memWrite, agent, mcp, openid:
		errs = append(errs, 401, 403)
	default:
		errs = append(errs, 401)
	}
	for _, code := range errs {
		name := errorResponses[code]
		switch o.errBody {
		case "OAuthError":
			if code == 400 || code == 401 {
				name = "OAuth" + name
			}
		case "ChatError":
			if code != 401 && code != 403 {
				name = "Chat" + name
			}
		}
		responses[strconv.Itoa(code)] = js{"$ref": "#/components/responses/" + name}
	}
	out["responses"] = responses
	return out
}

func problemResponse(desc string, extra js) js {
	r := js{"description": desc, "content": js{"application/problem+json": js{"schema": ref("Problem")}}}
	for k, v := range extra {
		r[k] = v
	}
	return r
}

func components() js {
	retry := js{"Retry-After": js{"description": "Seconds to wait.", "schema": js{"type": "integer"}}}
	responses := js{
		"BadRequest":           problemResponse("Invalid input: field and rule name the member at fault.", nil),
		"Unauthorized":         problemResponse("Missing or invalid credentials.", js{"headers": js{"WWW-Authenticate": js{"description": "Bearer realm=\"strata\", resource_metadata=\"<base>/.well-known/oauth-protected-resource\" (RFC 6750, RFC 9728).", "schema": js{"type": "string"}}}}),
		"PaymentRequired":      problemResponse("Not enough credits (insufficient_credits) or the checkout is not paid.", nil),
		"Forbidden":            problemResponse("Valid credentials without the right: an API key on a session route, an OAuth token without the scope (insufficient_scope), a role too low.", nil),
		"NotFound":             problemResponse("Not found (or another organization's).", nil),
		"Conflict":             problemResponse("The state refuses the change.", nil),
		"Gone":                 problemResponse("Existed once and was withdrawn for good (a retracted or purged dataset version, an expired download link).", nil),
		"UnprocessableContent": problemResponse("The body does not match the schema (not JSON, a member of the wrong type, unknown or missing), or a provider refused the request.", nil),
		"GatewayTimeout":       problemResponse("A provider was sent the request and did not answer: the outcome is unknown and it was not retried.", nil),
		"PayloadTooLarge":      problemResponse("The body is over the limit.", nil),
		"TooManyRequests":      problemResponse("Rate limited; retry after Retry-After seconds.", js{"headers": retry}),
		"BadGateway":           problemResponse("The upstream answered something unusable (or failed after the request was sent: outcome unknown).", nil),
		"ServiceUnavailable":   problemResponse("A dependency is not configured or not available; detail names it.", js{"headers": retry}),
		"OAuthBadRequest":      js{"description": "RFC 6749 error.", "content": js{"application/json": js{"schema": ref("OAuthError")}}},
		"OAuthUnauthorized":    js{"description": "invalid_client, with a Basic challenge.", "content": js{"application/json": js{"schema": ref("OAuthError")}}},
	}
	for _, code := range []int{400, 402, 403, 404, 429, 502, 503} {
		name := errorResponses[code]
		responses["Chat"+name] = js{"description": http.StatusText(code) + ", in the request format's error shape.", "content": js{"application/json": js{"schema": ref("ChatError")}}}
	}
	return js{
		"schemas":   schemas(),
		"responses": responses,
		"securitySchemes": js{
			"bearerAuth":  js{"type": "http", "scheme": "bearer", "bearerFormat": "JWT", "description": "A platform session token (RS256 JWT) from sign-in; Authorization: Bearer also takes an API key and, on the routes a scope grants, an OAuth access token."},
			"apiKey":      js{"type": "apiKey", "in": "header", "name": "X-API-Key", "description": "A platform API key (sk_live_..., sk_test_..., tmp_...)."},
			"internalKey": js{"type": "apiKey", "in": "header", "name": "X-Internal-API-Key", "description": "One of the internal keys (STRATA_INTERNAL_API_KEYS), for Strata's own agents."},
			"clientBasic": js{"type": "http", "scheme": "basic", "description": "OAuth client authentication (client_secret_basic); client_secret_post and public clients with PKCE are accepted too."},
			"oauth2": js{"type": "oauth2", "description": "OAuth 2.1 authorization code with PKCE (S256); access tokens are bound to the API (RFC 8707).", "flows": js{
				"authorizationCode": js{"authorizationUrl": "/oauth/authorize", "tokenUrl": "/api/v1/oauth/token", "refreshUrl": "/api/v1/oauth/token", "scopes": js{
					"openid": "OpenID Connect sign-in", "profile": "Name and plan", "email": "Email address",
					"memory:read": "Recall and read memories", "memory:write": "Remember, relate and forget",
					"vector:search": "Vector search", "vector:write": "Vector writes", "agent:read": "Agent reads", "agent:write": "Chat and embeddings through the gateway",
				}},
			}},
		},
	}
}

const apiDescription = "Strata's platform API: identity (accounts, sessions, API keys, organizations), an OAuth 2.1 / OpenID Connect provider, community events, memory v2 (with an MCP server), the inference gateway (model catalog, chat, embeddings, credits), payments, the agent-readiness audit, the data marketplace and the internal agent briefing.\n\n" +
	"Authenticate with `Authorization: Bearer <JWT>` (a session token from /api/v1/auth/login), `X-API-Key: <key>` (or `Authorization: Bearer <key>`), or an OAuth access token on the routes a scope grants; `X-Organization-ID` picks another organization the caller belongs to. A request without credentials to a protected route is 401 with `WWW-Authenticate: Bearer realm=\"strata\", resource_metadata=...` (RFC 9728); valid credentials without the right are 403.\n\n" +
	"Errors are RFC 9457 problem details (`application/problem+json`: type, title, status, detail, instance, code, and field and rule for invalid input), except the OAuth endpoints (RFC 6749 `{error, error_description}`) and the chat routes (their format's error shape). Unknown paths are 404 and a method a path does not take is 405 with `Allow`. JSON bodies are decoded strictly: unknown members, repeated members and trailing data are 400."

// build returns the description as JSON.
func build() []byte {
	paths := js{}
	for _, o := range operations {
		item, _ := paths[o.path].(js)
		if item == nil {
			item = js{}
			paths[o.path] = item
		}
		item[strings.ToLower(o.method)] = o.operation(o.method)
		if o.head {
			item["head"] = o.operation("HEAD")
		}
	}
	var tagList []any
	for _, t := range tags {
		tagList = append(tagList, js{"name": t.name, "description": t.desc})
	}
	doc := js{
		"openapi":           "3.1.0",
		"jsonSchemaDialect": "https://spec.openapis.org/oas/3.1/dialect/base",
		"info": js{
			"title": "Strata platform API", "version": "1.0.0",
			"summary":     "Identity, OAuth, community events, memory, the inference gateway, payments, the agent-readiness audit, the data marketplace and the agent briefing.",
			"description": apiDescription,
			"license":     js{"name": "Proprietary", "identifier": "LicenseRef-Proprietary"},
		},
		"servers":      []any{js{"url": "/", "description": "This host (the description is served by the API it describes)."}},
		"tags":         tagList,
		"paths":        paths,
		"security":     []any{js{"bearerAuth": []string{}}, js{"apiKey": []string{}}},
		"externalDocs": js{"description": "Interactive documentation", "url": "/docs"},
		"components":   components(),
	}
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		panic(err) // maps of strings, numbers and slices always marshal
	}
	return append(out, '\n')
}

// spec is the OpenAPI 3.1 description of the platform API, built once.
var spec = build()

// Spec returns the OpenAPI 3.1 description of the platform API (a copy).
func Spec() []byte { return append([]byte(nil), spec...) }
