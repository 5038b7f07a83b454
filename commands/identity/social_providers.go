package identity

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"golang.org/x/oauth2"

	"github.com/strata-platform/strata/domain/kernel"
)

// socialProfile is what a provider says about the person signing in.
type socialProfile struct {
	Provider      string
	Subject       string // the provider's user id
	Email         string
	EmailVerified bool
	Name          string
	Picture       string
}

// exchange redeems code at a provider's token endpoint with
// golang.org/x/oauth2's Config.Exchange: a form POST of grant_type, code,
// redirect_uri, client_id and client_secret (AuthStyleInParams; both
// providers take the credentials in the body). x/oauth2 is enough for the
// code-hosting provider's quirk of answering errors with HTTP 200 and an
// {error, error_description} body: it reports any answer carrying an
// "error" member as *oauth2.RetrieveError with ErrorCode set, whatever the
// status (internal.doTokenRoundTrip); it also reads at most 1 MiB.
func (x *Social) exchange(ctx context.Context, provider, clientID, secret, tokenURL, code, redirectURI string,
	client *http.Client) (*oauth2.Token, error) {
	cfg := oauth2.Config{ClientID: clientID, ClientSecret: secret, RedirectURL: redirectURI,
		Endpoint: oauth2.Endpoint{TokenURL: tokenURL, AuthStyle: oauth2.AuthStyleInParams}}
	tok, err := cfg.Exchange(context.WithValue(ctx, oauth2.HTTPClient, client), code)
	if err == nil {
		return tok, nil
	}
	label := providerLabel(provider)
	var re *oauth2.RetrieveError
	if !errors.As(err, &re) || re.ErrorCode == "" {
		status := 0
		if re != nil && re.Response != nil {
			status = re.Response.StatusCode
		}
		x.svc.log.WarnContext(ctx, "social sign-in: code exchange failed", "provider", provider, "status", status,
			"error", safeProviderError(err))
		return nil, kernel.Unavailable(label+" could not be reached or gave an unusable answer to the code exchange; try again later", nil)
	}
	code = errorCode(re.ErrorCode)
	x.svc.log.InfoContext(ctx, "social sign-in: provider refused the code exchange", "provider", provider, "error_code", code)
	switch {
	case code == "bad_verification_code" || code == "invalid_grant" ||
		// the professional network answers invalid_request for a code that
		// is expired, already used or issued for another redirect_uri
		provider == ProviderNetwork && code == "invalid_request":
		return nil, &kernel.Error{Kind: kernel.KindInvalid, Field: "code", Rule: "accepted_by_provider",
			Message: label + " refused the code (" + code + "): it is wrong, expired, already used or was issued for another redirect_uri; start the sign-in again"}
	case code == "redirect_uri_mismatch":
		return nil, kernel.Invalid("redirect_uri", "registered_with_provider",
			label+" refused the redirect_uri (redirect_uri_mismatch): it is not registered for Strata's client there")
	case code == "incorrect_client_credentials" || code == "invalid_client" || code == "unauthorized_client":
		prefix := "STRATA_" + strings.ToUpper(provider) + "_"
		return nil, kernel.Unavailable(label+" refused Strata's client credentials ("+code+"); the operator must check "+
			prefix+"CLIENT_ID and "+prefix+"CLIENT_SECRET", nil)
	}
	return nil, kernel.Unavailable(label+" refused the code exchange ("+code+"); try again later", nil)
}

var errorCodeRE = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,64}$`)

// errorCode returns a provider's error code if it looks like one (it is
// quoted in messages), else "error".
func errorCode(c string) string {
	if errorCodeRE.MatchString(c) {
		return c
	}
	return "error"
}

// safeProviderError describes a failed provider call for the log without
// any response body (which could echo what was sent).
func safeProviderError(err error) string {
	var re *oauth2.RetrieveError
	if errors.As(err, &re) {
		if re.Response != nil {
			return "token endpoint answered " + re.Response.Status
		}
		return "token endpoint refused"
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Op + " " + redactURL(ue.URL) + ": " + errString(ue.Err)
	}
	return err.Error()
}

func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(url)"
	}
	u.User, u.RawQuery, u.Fragment = nil, "", ""
	return u.String()
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// getJSON GETs a provider API with the bearer token and decodes its JSON
// answer into v; any failure is unavailable (the provider's fault).
func (x *Social) getJSON(ctx context.Context, provider, endpoint, what, token, accept string, v any) error {
	label := providerLabel(provider)
	fail := func(why string) error {
		x.svc.log.WarnContext(ctx, "social sign-in: provider API call failed", "provider", provider, "call", what,
			"error", why)
		if strings.HasPrefix(why, "unreachable") {
			why = "unreachable"
		}
		return kernel.Unavailable(label+" gave no usable answer to "+what+" ("+why+"); try again later", nil)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, endpoint, nil)
	if err != nil {
		return fail("bad endpoint URL")
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Accept", accept)
	if provider == ProviderCodehost {
		req.Header.Set("X-GitHub-Api-Version", "2022-11-28")
	}
	resp, err := x.client.Do(req)
	if err != nil {
		return fail("unreachable: " + safeProviderError(err))
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return fail("unreachable: reading the answer: " + err.Error())
	}
	if resp.StatusCode != http.StatusOK {
		return fail("HTTP " + strconv.Itoa(resp.StatusCode))
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fail("not the expected JSON")
	}
	return nil
}

// codehost exchanges the code with the code-hosting provider and reads the
// user (GET /user) and their addresses (GET /user/emails).
func (x *Social) codehost(ctx context.Context, code, redirectURI string) (socialProfile, error) {
	c := x.cfg.Codehost
	tok, err := x.exchange(ctx, ProviderCodehost, c.ClientID, c.ClientSecret, c.TokenURL, code, redirectURI, x.token)
	if err != nil {
		return socialProfile{}, err
	}
	const accept = "application/vnd.github+json"
	var user struct {
		ID        json.Number `json:"id"`
		Login     string      `json:"login"`
		Name      string      `json:"name"`
		AvatarURL string      `json:"avatar_url"`
	}
	if err := x.getJSON(ctx, ProviderCodehost, c.APIURL+"/user", "GET /user", tok.AccessToken, accept, &user); err != nil {
		return socialProfile{}, err
	}
	if id, err := strconv.ParseInt(user.ID.String(), 10, 64); err != nil || id <= 0 {
		x.svc.log.WarnContext(ctx, "social sign-in: provider API call failed", "provider", ProviderCodehost,
			"call", "GET /user", "error", "no numeric id")
		return socialProfile{}, kernel.Unavailable(providerLabel(ProviderCodehost)+" answered GET /user without a user id; try again later", nil)
	}
	var emails []struct {
		Email    string `json:"email"`
		Primary  bool   `json:"primary"`
		Verified bool   `json:"verified"`
	}
	if err := x.getJSON(ctx, ProviderCodehost, c.APIURL+"/user/emails", "GET /user/emails", tok.AccessToken, accept, &emails); err != nil {
		return socialProfile{}, err
	}
	p := socialProfile{Provider: ProviderCodehost, Subject: user.ID.String(), Name: strings.TrimSpace(user.Name),
		Picture: user.AvatarURL}
	if p.Name == "" {
		p.Name = user.Login
	}
	// The primary address if it is verified, else the first verified one.
	for _, e := range emails {
		if e.Verified && e.Email != "" && (e.Primary || p.Email == "") {
			p.Email, p.EmailVerified = e.Email, true
			if e.Primary {
				break
			}
		}
	}
	return p, nil
}

// network exchanges the code with the professional network, verifies the
// ID token (signature by a key of its JWKS, issuer, audience, expiry, and
// the nonce sealed in the state cookie) and reads the userinfo, whose sub
// must be the ID token's.
func (x *Social) network(ctx context.Context, code, redirectURI, nonce string) (socialProfile, error) {
	n := x.cfg.Network
	label := providerLabel(ProviderNetwork)
	tok, err := x.exchange(ctx, ProviderNetwork, n.ClientID, n.ClientSecret, n.TokenURL, code, redirectURI, x.client)
	if err != nil {
		return socialProfile{}, err
	}
	raw, _ := tok.Extra("id_token").(string)
	if raw == "" {
		x.svc.log.WarnContext(ctx, "social sign-in: no id_token", "provider", ProviderNetwork)
		return socialProfile{}, kernel.Unavailable(label+" answered the code exchange without an id_token (is the openid scope enabled for Strata's client?)", nil)
	}
	idt, err := x.verifier.Verify(ctx, raw)
	if err != nil {
		x.svc.log.WarnContext(ctx, "social sign-in: id_token did not verify", "provider", ProviderNetwork, "error", err.Error())
		return socialProfile{}, kernel.Unavailable(label+"'s id_token did not verify (signature, issuer, audience or expiry)", err)
	}
	if nonce == "" || idt.Nonce != nonce {
		// A genuine token of another sign-in: the code was not obtained by
		// the authorization request this browser started (code injection).
		return socialProfile{}, kernel.Invalid("code", "nonce",
			"the code was issued for another sign-in (the id_token's nonce does not match this browser's); start the sign-in again")
	}
	var info struct {
		Sub           string          `json:"sub"`
		Name          string          `json:"name"`
		GivenName     string          `json:"given_name"`
		FamilyName    string          `json:"family_name"`
		Picture       string          `json:"picture"`
		Email         string          `json:"email"`
		EmailVerified json.RawMessage `json:"email_verified"`
	}
	if err := x.getJSON(ctx, ProviderNetwork, n.UserinfoURL, "GET userinfo", tok.AccessToken, "application/json", &info); err != nil {
		return socialProfile{}, err
	}
	if info.Sub == "" || info.Sub != idt.Subject {
		x.svc.log.WarnContext(ctx, "social sign-in: userinfo sub differs from the id_token's", "provider", ProviderNetwork)
		return socialProfile{}, kernel.Unavailable(label+"'s userinfo is about another subject than its id_token", nil)
	}
	name := strings.TrimSpace(info.Name)
	if name == "" {
		name = strings.TrimSpace(info.GivenName + " " + info.FamilyName)
	}
	// email_verified is a boolean; some answers carry the string "true".
	verified := string(info.EmailVerified) == "true" || string(info.EmailVerified) == `"true"`
	return socialProfile{Provider: ProviderNetwork, Subject: info.Sub, Email: info.Email, EmailVerified: verified,
		Name: name, Picture: info.Picture}, nil
}
