package discovery

// Small constructors for the JSON Schemas of the OpenAPI description.

type js = map[string]any

func str(desc string) js { return js{"type": "string", "description": desc} }

func strf(format, desc string) js { return js{"type": "string", "format": format, "description": desc} }

func enum(desc string, values ...string) js {
	return js{"type": "string", "enum": values, "description": desc}
}

func integer(desc string) js { return js{"type": "integer", "description": desc} }

func number(desc string) js { return js{"type": "number", "description": desc} }

func boolean(desc string) js { return js{"type": "boolean", "description": desc} }

func nullable(s js) js {
	out := js{}
	for k, v := range s {
		out[k] = v
	}
	out["type"] = []string{s["type"].(string), "null"}
	return out
}

func arr(items any, desc string) js { return js{"type": "array", "items": items, "description": desc} }

func ref(name string) js { return js{"$ref": "#/components/schemas/" + name} }

// object is an open object (members beyond props may appear: the API
// adds fields over time) with the required members listed.
func object(desc string, props js, required ...string) js {
	o := js{"type": "object", "description": desc, "properties": props}
	if len(required) > 0 {
		o["required"] = required
	}
	return o
}

// anyObject is an object whose members the description does not list.
func anyObject(desc string) js { return js{"type": "object", "description": desc} }

// schemas are components.schemas.
func schemas() js {
	return js{
		"Problem": object("RFC 9457 problem details: every error of the platform API (but the OAuth endpoints' RFC 6749 bodies and the chat routes' own formats). Extension members (for example required_scope, replaced_by, required_tier) may appear.", js{
			"type":       strf("uri", "https://strata.dev/problems/<code>: the kind of error."),
			"title":      str("The HTTP status phrase (Bad Request, Unauthorized...)."),
			"status":     integer("The HTTP status code."),
			"detail":     str("What went wrong, in one line; for invalid input it starts with the field and the rule (\"email: required (email is required)\")."),
			"instance":   str("The request path."),
			"code":       str("The kind of error in snake_case: invalid, unauthenticated, forbidden, not_found, conflict, method_not_allowed, rate_limited, payment_required, unavailable, internal..."),
			"field":      str("The input at fault (a JSON member, a query parameter or a header), when one is."),
			"rule":       str("The rule the field broke (required, format, max:100, duplicate_key...)."),
			"request_id": str("The request's X-Request-ID, for support."),
		}, "type", "title", "status", "detail", "instance", "code"),
		"OAuthError": object("An OAuth error (RFC 6749 section 5.2, RFC 7591 section 3.2.2).", js{
			"error":             str("invalid_request, invalid_client, invalid_grant, unauthorized_client, unsupported_grant_type, invalid_scope, invalid_redirect_uri, invalid_client_metadata..."),
			"error_description": str("What went wrong."),
		}, "error"),
		"ChatError": object("The chat routes' errors, in the client format's shape: OpenAI `{error: {message, type, param, code}}`, messages `{type: \"error\", error: {type, message}}`.", js{
			"type":  str("\"error\" (messages format)."),
			"error": object("The error.", js{"message": str("What went wrong."), "type": str("The error type."), "param": nullable(str("The request member at fault.")), "code": nullable(str("A stable code (insufficient_quota, model_not_found...)."))}),
		}, "error"),
		"Message": object("A one-line answer.", js{"message": str("What happened.")}, "message"),
		"RegisterRequest": object("A new account.", js{
			"email":             strf("email", "The account's email address."),
			"password":          str("At least 8 characters."),
			"full_name":         str("The person's name."),
			"stripe_session_id": str("Completes the account a paid checkout provisioned (the checkout's session id)."),
		}, "email", "password"),
		"LoginRequest":     object("Email and password.", js{"email": strf("email", "The account's email."), "password": str("The password.")}, "email", "password"),
		"LoginJSONRequest": object("Username (the email) and password.", js{"username": str("The account's email."), "password": str("The password.")}, "username", "password"),
		"TokenResponse": object("A session access token (RS256 JWT).", js{
			"id":           str("The account id (register)."),
			"email":        str("The account's email (register)."),
			"access_token": str("The JWT to send as Authorization: Bearer."),
			"token_type":   enum("Always bearer.", "bearer"),
			"expires_in":   integer("Seconds until the token expires."),
		}, "access_token", "token_type", "expires_in"),
		"Profile": object("The signed-in account.", js{
			"id": str("Account id."), "email": strf("email", "Email."), "full_name": str("Name."), "role": str("USER or ADMIN."),
			"plan": str("The platform plan."), "credits": integer("The gateway credit balance, in whole credits rounded up."),
			"is_active": boolean("Whether the account is active."), "email_verified": boolean("Whether the email is verified."),
			"organization": anyObject("The organization the request acts in {id, name}."), "project_id": str("The default project."),
			"created_at": strf("date-time", "When the account was created."),
			"plans":      anyObject("Every product line's plan: {line: {plan, status, source, subscription_id, period_end, since}}."),
		}, "id", "email"),
		"APIKeyRequest": object("A new API key.", js{
			"name":            str("A name to recognise the key by."),
			"expires_in_days": integer("Days until it expires (90)."),
			"environment":     enum("live (sk_live_) or test (sk_test_).", "live", "test"),
		}, "name"),
		"APIKey": object("An API key record; api_key (the secret) only in the answer that created it.", js{
			"id": str("Key id."), "api_key": str("The key itself, shown once."), "name": str("Name."), "prefix": str("sk_live, sk_test, tmp..."),
			"is_active": boolean("Not revoked nor expired."), "last_used_at": nullable(strf("date-time", "Last use.")),
			"usage_count": integer("Requests made with it."), "expires_at": strf("date-time", "Expiry."),
		}, "id", "name", "prefix"),
		"KeyVerification": object("What an API key may do now.", js{
			"status":       enum("The key's state.", "READY", "insufficient_credits", "trial_active", "trial_expired", "upgrade_required"),
			"message":      nullable(str("Why, when not READY.")),
			"user_id":      str("The key's account."),
			"tier":         str("The model catalog tier."),
			"subscription": anyObject("{tier, status, credits_total, credits_remaining}."),
			"capabilities": anyObject("What the plan allows."),
		}, "status"),
		"Organization": object("A workspace.", js{"id": str("Organization id."), "name": str("Name."), "role": str("The caller's role: owner, admin or member.")}, "id", "name"),
		"Invitation": object("An invitation to an organization.", js{
			"id": str("Invitation id."), "organization_id": str("Organization."), "role": enum("Invited role.", "member", "admin"),
			"status": enum("State.", "pending", "accepted", "revoked", "expired"), "expires_at": strf("date-time", "Expiry (7 days)."),
		}, "id", "status"),
		"CommunityEvent": object("A community event of the caller's organization.", js{
			"id": str("Event id."), "title": str("Title."), "description": nullable(str("Description.")),
			"start_time": strf("date-time", "Start (UTC)."), "end_time": nullable(strf("date-time", "End (UTC).")),
			"location": nullable(str("Where.")), "event_type": enum("Kind.", "virtual", "in_person", "hybrid"),
			"capacity": nullable(integer("Places; null: unlimited.")), "status": enum("State.", "scheduled", "cancelled"),
			"waitlist": boolean("Whether going at capacity joins a waitlist."), "going_count": integer("People going."),
			"spots_left": nullable(integer("Places left.")), "created_at": strf("date-time", "Created."), "updated_at": strf("date-time", "Updated."),
		}, "id", "title", "start_time", "status"),
		"CommunityEventInput": object("An event to create, or (PATCH) the members to change; null clears a member.", js{
			"title": str("1-200 characters."), "start_time": strf("date-time", "Start, with its offset; not in the past."),
			"end_time": strf("date-time", "After start."), "description": str("Description."), "location": str("Where."),
			"event_type": enum("Kind (virtual).", "virtual", "in_person", "hybrid"), "capacity": nullable(integer("1-1,000,000; null: unlimited.")),
			"group_id": str("A group."), "url": strf("uri", "A link."), "waitlist": boolean("Join a waitlist at capacity (false)."),
		}),
		"CommunityEventPage": object("A page of events.", js{"total": integer("Matching events."), "offset": integer("Offset."), "limit": integer("Limit."),
			"has_more": boolean("More after this page."), "events": arr(ref("CommunityEvent"), "The events.")}, "events"),
		"RSVPInput": object("An RSVP.", js{"status": enum("The answer.", "going", "interested", "not_going"), "response_message": str("A note.")}, "status"),
		"RSVP": object("An RSVP.", js{"id": str("RSVP id."), "event_id": str("Event."), "user_id": str("Who."),
			"status": enum("The answer.", "going", "interested", "not_going", "waitlisted"), "waitlist_position": nullable(integer("Place on the waitlist.")),
			"response_message": nullable(str("A note.")), "created_at": strf("date-time", "Created."), "updated_at": strf("date-time", "Updated.")}, "id", "status"),
		"CommentInput": object("A comment.", js{"content_type": str("What is commented on."), "content_id": integer("Its id."), "comment": str("1-5000 characters.")}, "comment"),
		"Comment": object("A comment.", js{"id": str("Comment id."), "user_id": str("Author."), "user_name": str("Author's name."),
			"content_type": str("What it is about."), "content_id": integer("Its id."), "comment": str("Text."),
			"created_at": strf("date-time", "Created."), "updated_at": nullable(strf("date-time", "Last edit."))}, "id", "comment"),
		"ModerationPolicy": object("An organization's comment policy.", js{"blocked_terms": arr(str("A word or phrase."), "Refused words or phrases (any case)."),
			"max_links": nullable(integer("Links allowed in a comment; null: no limit."))}),
		"RememberRequest": object("A memory to keep.", js{
			"content": str("1-16000 characters."), "entity_id": str("An entity id or name (created when new)."),
			"memory_type": enum("Layer (episodic).", "working", "episodic", "semantic"), "importance": number("0-1 (0.5)."),
			"namespace": str("global, session:<id> or project:<id> (global)."), "tags": arr(str("A tag."), "At most 50."),
			"metadata": anyObject("At most 16 KiB."), "occurred_at": strf("date-time", "When it was stated (now)."),
		}, "content"),
		"RememberResponse": object("The memory kept (or merged into a near-duplicate).", js{
			"memory_id": str("Memory id."), "content": str("Text."), "merged": boolean("Merged into an existing memory."),
			"entities_extracted": arr(str("An entity."), "Entities found."), "facts_superseded": integer("Facts it ended."),
			"next_steps": anyObject("{action, suggestion, endpoint}."),
		}, "memory_id"),
		"RecallRequest": object("A recall query.", js{
			"query": str("What to find."), "entity_id": str("Only about this entity."), "namespace": str("Namespace (global)."),
			"allow_cross_namespace": boolean("Search other namespaces too (true)."), "limit": integer("1-100 (10)."),
			"as_of": strf("date-time", "As things stood then."), "query_expansion": boolean("Expand the query (false)."), "rerank": boolean("Rerank (false)."),
		}),
		"RecallResponse": object("Ranked memories.", js{"results": arr(object("A memory.", js{"memory_id": str("Id."), "content": str("Text."),
			"score": number("0-1."), "importance": number("0-1."), "memory_type": str("Layer."), "namespace": str("Namespace."),
			"created_at": strf("date-time", "Stated.")}), "The memories, best first."), "count": integer("How many.")}, "results", "count"),
		"MemoryObject": anyObject("The memory service's answer (see the operation's description for its members)."),
		"ModelList": object("The model catalog.", js{"ok": boolean("true."), "models": arr(anyObject("{id, provider, label, capabilities, context_window, tags, tier, pricing, kind, max_tokens, supports_tools, supports_images, free}"), "Live models."),
			"routers": arr(anyObject("{id, label, tier, routes}"), "Smart routers."), "tier": str("The caller's tier (/available)."), "default_model": str("The tier's default (/available).")}, "models"),
		"ChatRequest":       anyObject("An OpenAI chat-completions request ({model, messages[], stream, tools, max_tokens...}) or, on /v1/messages, a messages-format request ({model, messages[], system, max_tokens, stream...})."),
		"ChatResponse":      anyObject("The completion in the client's format; with stream: true, Server-Sent Events."),
		"EmbeddingsRequest": object("Embeddings (OpenAI format).", js{"model": str("An embeddings model of the catalog."), "input": js{"description": "A string or 1-2,048 non-empty strings.", "oneOf": []any{js{"type": "string"}, js{"type": "array", "items": js{"type": "string"}}}}, "encoding_format": enum("float or base64.", "float", "base64"), "dimensions": integer("Dimensions."), "user": str("End user.")}, "model", "input"),
		"EmbeddingsResponse": object("Embeddings.", js{"object": str("list."), "data": arr(anyObject("{object: embedding, index, embedding}"), "One per input."),
			"model": str("The model used."), "usage": anyObject("{prompt_tokens, total_tokens}.")}, "data"),
		"CreditBalance": object("The caller's credits (one credit is US$0.001).", js{"ok": boolean("true."), "balance": str("Credits, an exact decimal."),
			"balance_micro": integer("Micro-credits."), "period": nullable(js{"type": "object", "description": "{start, end, granted, used}"}), "plan": anyObject("{line, id, name, monthly_credits, requests_per_hour}."),
			"rate_limit": anyObject("{requests_per_hour, used, resets_at}."), "as_of": strf("date-time", "When it was read.")}, "balance"),
		"UsagePage": object("Per-request usage, newest first.", js{"ok": boolean("true."), "records": arr(anyObject("{request_id, model, upstream, key_id, input_tokens, output_tokens, cache_read_tokens, cost, cost_micro, refunded, status, latency_ms, at}"), "Records."),
			"next_cursor": nullable(str("The next page's cursor."))}, "records"),
		"CheckoutRequest": object("A subscription checkout.", js{"plan": str("The plan."), "product_line": str("platform, gateway, voice, audit or captable (voice)."),
			"billing": enum("monthly (default) or yearly.", "monthly", "yearly"), "success_url": strf("uri", "Where the payer lands after paying."), "cancel_url": strf("uri", "Where the payer lands on cancel.")}, "plan"),
		"AuditCheckoutRequest": object("An audit subscription checkout.", js{"tier": enum("The tier.", "pro", "business", "agency"), "billing": enum("monthly (default) or yearly.", "monthly", "yearly"),
			"email": strf("email", "The payer."), "success_url": strf("uri", "After paying."), "cancel_url": strf("uri", "On cancel.")}, "tier"),
		"CheckoutSession": object("A hosted checkout session: send the payer to url.", js{"session_id": str("Session id."), "url": strf("uri", "The checkout page."),
			"expires_at": strf("date-time", "Expiry."), "product_line": str("Line."), "plan": str("Plan."), "billing": str("Billing."), "amount": integer("Minor units."), "currency": str("Currency.")}, "session_id", "url"),
		"Subscription": object("The caller's subscription in a product line.", js{"product_line": str("Line."), "subscription": nullable(js{"type": "object", "description": "{id, plan, billing, status, current_period_start, current_period_end, cancel_at_period_end...}"})}, "product_line"),
		"PaymentHistory": object("Invoices, newest first.", js{"product_line": str("Line."), "payments": arr(anyObject("{invoice_id, number, subscription_id, plan, status, amount_due, amount_paid, currency, period_start, period_end, at}"), "Payments."),
			"limit": integer("Limit."), "offset": integer("Offset."), "has_more": boolean("More.")}, "payments"),
		"PortalSession":    object("The billing portal.", js{"session_id": str("Session id."), "url": strf("uri", "The portal page.")}, "url"),
		"AuditScanRequest": object("A site to scan.", js{"url": strf("uri", "The site (http or https, a public address)."), "industry": str("For full audits: one of GET .../benchmark's industries (other).")}, "url"),
		"AuditScan": object("An agent-readiness scan (rubric v1).", js{"url": str("The site."), "score": integer("0-100."), "max_score": integer("100."),
			"grade": enum("The grade.", "A+", "A", "B", "C", "D", "F"), "scanned_at": strf("date-time", "When."), "rubric_version": str("1."),
			"checks":    arr(object("A check.", js{"name": str("Check."), "passed": boolean("At least 70%."), "score": integer("Points."), "max_score": integer("Maximum."), "details": str("One sentence.")}), "The seven checks."),
			"report_id": str("Stored reports."), "findings": arr(anyObject("{id, title, points, earned, passed, evidence, fix}"), "Every sub-point (unlocked reports).")}, "score", "grade", "checks"),
		"AuditCrawlRequest": object("A site to crawl.", js{"url": strf("uri", "Where to start (http or https, a public address)."), "max_pages": integer("Pages at most, capped by the caller's tier.")}, "url"),
		"AuditCrawl": object("A crawl (the start answers crawl_id, status, url, max_pages and tier; cancel answers crawl_id and status).", js{
			"crawl_id": str("Crawl id."), "url": str("The start URL."), "status": str("queued, running, completed, cancelled, failed (cancel: cancel_requested)."),
			"tier": str("The tier that capped it."), "max_pages": integer("Pages at most."), "pages_crawled": integer("Pages so far."),
			"overall_score": nullable(number("The pages' average score.")), "dimension_averages": anyObject("{check: average}."),
			"pages": arr(anyObject("{url, status, score, checks}"), "The pages crawled."),
		}, "crawl_id", "status"),
		"AuditUnlockRequest": object("Unlock a stored report.", js{"report_id": str("The report."), "email": strf("email", "Who unlocks it.")}, "report_id", "email"),
		"AuditLeadRequest": object("A lead from the audit page.", js{"url": str("The site."), "email": strf("email", "Contact."), "score": integer("Score."), "report_id": str("Report."),
			"package_interest": str("Package."), "utm_source": str("UTM source.")}, "email"),
		"AuditLead":      object("A lead.", js{"lead_id": str("Lead id."), "booking_url": nullable(strf("uri", "Where to book a call.")), "status": str("new.")}, "lead_id"),
		"AuditBenchmark": anyObject("Industries with their scan counts; an industry's {industry, status ok|insufficient_data, scans, avg_score, p25, p50, p75, p90}; or a score's {score, industry, percentile, message}."),
		"Briefing": object("An agent's briefing.", js{"agent": str("The agent."), "timestamp": strf("date-time", "When."),
			"signals": arr(anyObject("{id, type, algo, payload, created_at, subject, score, rule, day}"), "Unconsumed signals."), "correlations": arr(anyObject("A correlation."), "Correlations."),
			"market_regime": nullable(js{"type": "object", "description": "The latest regime."}), "trending_companies": arr(anyObject("{name, mention_score, mentions}"), "Trending."),
			"recommendations": arr(str("A recommendation."), "Recommendations.")}, "agent", "signals"),
		"ObservationBatch": anyObject("A JSON array of observations, {\"observations\": [...]}, or NDJSON: each {kind indicator|mention|filing|document|developer_activity, source, source_id, at, ...}."),
		"BriefingObject":   anyObject("The briefing service's answer (see the operation's description)."),
		"Health":           object("Readiness.", js{"status": enum("ready, degraded (parked streams) or not_ready.", "ready", "degraded", "not_ready"), "checks": anyObject("Per dependency.")}, "status"),
		"APICatalog": object("RFC 9727 api-catalog (RFC 9264 linkset).", js{"linkset": arr(object("One API.", js{"anchor": strf("uri", "The API's base URL."),
			"service-desc": arr(anyObject("{href, type}"), "Descriptions."), "service-doc": arr(anyObject("{href, type}"), "Documentation."), "status": arr(anyObject("{href}"), "Health.")}, "anchor"), "The APIs.")}, "linkset"),
		"OAuthMetadata":      anyObject("Authorization server metadata (RFC 8414, OpenID Connect Discovery): issuer, endpoints, supported scopes, grant types, PKCE methods..."),
		"ResourceMetadata":   object("Protected resource metadata (RFC 9728).", js{"resource": strf("uri", "The API."), "authorization_servers": arr(js{"type": "string", "format": "uri"}, "Issuers."), "scopes_supported": arr(js{"type": "string"}, "Scopes."), "bearer_methods_supported": arr(js{"type": "string"}, "header.")}, "resource"),
		"JWKS":               object("JSON Web Key Set.", js{"keys": arr(anyObject("An RS256 public key."), "The keys.")}, "keys"),
		"ClientRegistration": anyObject("RFC 7591 client metadata: {client_name, redirect_uris[], grant_types[], scope, token_endpoint_auth_method}; the answer adds client_id (and client_secret, once)."),
		"TokenRequest":       anyObject("Form: grant_type authorization_code (code, redirect_uri, code_verifier, client_id) or refresh_token (refresh_token, scope)."),
		"OAuthToken": object("OAuth tokens.", js{"access_token": str("RS256 JWT, typ at+jwt."), "token_type": str("Bearer."), "expires_in": integer("Seconds."),
			"refresh_token": str("Rotated on each use."), "scope": str("Granted scopes."), "id_token": str("With openid.")}, "access_token", "token_type"),
		"OAuthObject": anyObject("The endpoint's JSON answer (userinfo claims, introspection {active, ...})."),
		"AdminEvents": anyObject("A page of the event log: events with stream, type, position, time and payload."),
	}
}
