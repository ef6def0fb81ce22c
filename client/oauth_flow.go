package client

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// resourceMetadata is the part of an RFC 9728 document the flow uses.
type resourceMetadata struct {
	Resource             string   `json:"resource"`
	AuthorizationServers []string `json:"authorization_servers"`
	ScopesSupported      []string `json:"scopes_supported"`
}

// serverMetadata is the part of RFC 8414 / OpenID metadata the flow uses.
type serverMetadata struct {
	Issuer                       string   `json:"issuer"`
	AuthorizationEndpoint        string   `json:"authorization_endpoint"`
	TokenEndpoint                string   `json:"token_endpoint"`
	RegistrationEndpoint         string   `json:"registration_endpoint"`
	ScopesSupported              []string `json:"scopes_supported"`
	CodeChallengeMethods         []string `json:"code_challenge_methods_supported"`
	TokenEndpointAuthMethods     []string `json:"token_endpoint_auth_methods_supported"`
	ISSParameterSupported        bool     `json:"authorization_response_iss_parameter_supported"`
	ClientIDMetadataDocSupport   bool     `json:"client_id_metadata_document_supported"`
	TokenEndpointAuthSigningAlgs []string `json:"token_endpoint_auth_signing_alg_values_supported"`
	DPoPSigningAlgs              []string `json:"dpop_signing_alg_values_supported"`
}

// userless reports whether tokens come from a grant with no user (client
// credentials, JWT bearer) rather than the authorization code flow.
func (o *OAuth) userless() bool { return o.ClientCredentials || o.Assertion != nil }

// login runs discovery, registration and authorization and stores the
// new token. When refresh is set (a 401) it first tries what the store
// holds: a valid access token other than sent, the Authorization the
// refused request carried (one from an earlier run: oauth_stored.go),
// then a refresh token, and chooses the scopes itself (challenge,
// resource metadata, Scopes; scopes is ignored). Otherwise it is a
// step-up for scopes (empty too: a server may refuse without naming
// any), counted by stepUpAllowed. The authorization server is not used
// unless it and its endpoints are https, or plain http on loopback for
// a plain-http MCP server (oauth_https.go).
func (o *OAuth) login(ctx context.Context, serverURL string, ch challenge, scopes []string, refresh bool, sent string) error {
	su, err := url.Parse(serverURL)
	if err != nil {
		return fmt.Errorf("client: MCP server URL: %w", err)
	}
	hinted := ch.params["resource_metadata"]
	if hinted != "" {
		if err := checkSecureURL(su, "resource_metadata URL", hinted); err != nil {
			return err
		}
	}
	prm, err := o.resourceMetadata(ctx, serverURL, hinted)
	if err != nil {
		return err
	}
	if err := checkAuthorizationServerURL(su, "the MCP server "+originOf(su), "authorization server", prm.AuthorizationServers[0]); err != nil {
		return err
	}
	as, err := o.serverMetadata(ctx, prm.AuthorizationServers[0])
	if err != nil {
		return err
	}
	if err := checkServerEndpoints(su, as); err != nil {
		return err
	}
	issuer := as.Issuer
	if refresh && o.useStored(issuer, prm.Resource, sent) {
		return nil
	}
	if refresh {
		if tok := o.Store.Token(issuer, prm.Resource); tok != nil && tok.RefreshToken != "" {
			if reg := o.Store.Registration(issuer); reg != nil {
				if nt, err := o.refresh(ctx, as, reg, prm.Resource, tok); err == nil {
					if err := o.saveToken(issuer, prm.Resource, nt); err != nil {
						return err
					}
					o.setSession(issuer, prm.Resource)
					return nil
				}
			}
		}
	}
	if refresh {
		scopes = o.loginScopes(ch, prm, issuer)
	}
	scopes = o.withOfflineAccess(as, scopes)
	if !refresh && !o.stepUpAllowed(scopes) { // counted as asked for, offline_access and all
		return fmt.Errorf("%w (asked for %q %d times in a row)", ErrInsufficientScope, strings.Join(scopes, " "), maxStepUps)
	}
	tok, err := o.grant(ctx, as, prm.Resource, scopes)
	if err == nil {
		err = o.saveToken(issuer, prm.Resource, tok)
	}
	if err != nil {
		if !refresh {
			o.stepUpFailed(scopes) // nothing to send again: the caller gets err
		}
		return err
	}
	o.mu.Lock()
	o.issuer, o.resource, o.requested = issuer, prm.Resource, scopes
	if !refresh {
		o.stepUps.token = tok.authorization() // the step-up's token, until a retry with it is answered
	}
	o.mu.Unlock()
	return nil
}

// setSession records the authorization server and resource of the
// token in use.
func (o *OAuth) setSession(issuer, resource string) {
	o.mu.Lock()
	o.issuer, o.resource = issuer, resource
	o.mu.Unlock()
}

// getJSON fetches a JSON document, read by exact member name and refused
// when it repeats one (decodeOAuthJSON); ok is false for a non-200 answer.
func (o *OAuth) getJSON(ctx context.Context, u string, v any) (ok bool, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return false, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := o.httpClient().Do(req)
	if err != nil {
		return false, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		return false, nil
	}
	body, err := readLimited(resp.Body, 1<<20)
	if err != nil {
		return false, err
	}
	if err := decodeOAuthJSON(body, v); err != nil {
		return false, fmt.Errorf("client: %s is not JSON metadata: %w", u, err)
	}
	return true, nil
}

// resourceMetadata fetches the Protected Resource Metadata: from the
// challenge's resource_metadata, else the path-inserted well-known URI,
// else the root one (authorization-server-discovery.mdx). Its resource
// must be the server's (metadataNamesServer).
func (o *OAuth) resourceMetadata(ctx context.Context, serverURL, hinted string) (*resourceMetadata, error) {
	su, err := url.Parse(serverURL)
	if err != nil {
		return nil, err
	}
	var urls []string
	root := ""
	if hinted != "" {
		urls = []string{hinted}
	} else {
		origin := su.Scheme + "://" + su.Host
		if p := strings.TrimSuffix(su.EscapedPath(), "/"); p != "" {
			urls = append(urls, origin+"/.well-known/oauth-protected-resource"+p)
		}
		root = origin + "/.well-known/oauth-protected-resource"
		urls = append(urls, root)
	}
	var errs []error
	for _, u := range urls {
		var doc resourceMetadata
		ok, err := o.getJSON(ctx, u, &doc)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if !ok {
			continue
		}
		if len(doc.AuthorizationServers) == 0 {
			return nil, fmt.Errorf("client: the protected resource metadata at %s names no authorization server", u)
		}
		if !metadataNamesServer(doc.Resource, su, u == root) {
			return nil, fmt.Errorf("client: the protected resource metadata at %s is for %q, not %s", u, doc.Resource, serverURL)
		}
		return &doc, nil
	}
	return nil, fmt.Errorf("client: no protected resource metadata for %s: %w", serverURL, errors.Join(append(errs, errors.New("tried "+strings.Join(urls, ", ")))...))
}

// saveToken saves tok, just issued, in the store and checks the store
// kept its type: the token in use is read back from the store, and one
// without a type is never presented (Token.understood), so a store that
// drops TokenType (one written for an earlier build) would have every
// call log in and then fail with a bare 401.
func (o *OAuth) saveToken(issuer, resource string, tok *Token) error {
	o.Store.SaveToken(issuer, resource, tok)
	if st := o.Store.Token(issuer, resource); st != nil && st.AccessToken == tok.AccessToken && st.TokenType == "" && tok.TokenType != "" {
		return fmt.Errorf("client: the TokenStore kept the token of %s without its token_type %q; a TokenStore must keep Token.TokenType (a token without one is not presented)",
			issuer, clipURL(tok.TokenType))
	}
	return nil
}

// serverMetadata fetches the authorization server's metadata from the
// well-known URLs in the spec's order and keeps the first whose issuer is
// identical to issuer; PKCE S256 must be supported.
func (o *OAuth) serverMetadata(ctx context.Context, issuer string) (*serverMetadata, error) {
	u, err := url.Parse(issuer)
	if err != nil || !u.IsAbs() {
		return nil, fmt.Errorf("client: authorization server %q is not an absolute URL", issuer)
	}
	origin := u.Scheme + "://" + u.Host
	var urls []string
	if p := strings.TrimSuffix(u.EscapedPath(), "/"); p != "" {
		urls = []string{origin + "/.well-known/oauth-authorization-server" + p, origin + "/.well-known/openid-configuration" + p, origin + p + "/.well-known/openid-configuration"}
	} else {
		urls = []string{origin + "/.well-known/oauth-authorization-server", origin + "/.well-known/openid-configuration"}
	}
	var errs []error
	for _, mu := range urls {
		var doc serverMetadata
		ok, err := o.getJSON(ctx, mu, &doc)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if !ok {
			continue
		}
		if doc.Issuer != issuer {
			errs = append(errs, fmt.Errorf("client: the metadata at %s is for issuer %q, not %q (not used)", mu, doc.Issuer, issuer))
			continue
		}
		if doc.TokenEndpoint == "" {
			return nil, fmt.Errorf("client: the metadata of %s lacks token_endpoint", issuer)
		}
		if o.userless() {
			return &doc, nil // no authorization endpoint, no PKCE
		}
		if !slices.Contains(doc.CodeChallengeMethods, "S256") {
			return nil, fmt.Errorf("client: the authorization server %s does not support PKCE S256 (code_challenge_methods_supported %v); refusing to authorize", issuer, doc.CodeChallengeMethods)
		}
		if doc.AuthorizationEndpoint == "" {
			return nil, fmt.Errorf("client: the metadata of %s lacks authorization_endpoint", issuer)
		}
		return &doc, nil
	}
	return nil, fmt.Errorf("client: no usable metadata for authorization server %s: %w", issuer, errors.Join(append(errs, errors.New("tried "+strings.Join(urls, ", ")))...))
}

// register returns this client's registration at the authorization
// server: stored, pre-registered, a Client ID Metadata Document, or a new
// dynamic registration (client-registration.mdx's priority order).
func (o *OAuth) register(ctx context.Context, as *serverMetadata) (*Registration, error) {
	if reg := o.Store.Registration(as.Issuer); reg != nil {
		return reg, nil
	}
	var reg *Registration
	switch {
	case o.ClientID != "" && o.preRegisteredAt(as.Issuer):
		reg = &Registration{ClientID: o.ClientID, ClientSecret: o.ClientSecret, AuthMethod: authMethod(as, o.ClientSecret != "")}
		if o.ClientKey != nil {
			reg.AuthMethod = "private_key_jwt"
		}
	case o.Assertion != nil && o.ClientID == "":
		// The JWT bearer grant needs no client authentication (RFC 7523
		// §3.1): the assertion is the credential.
		return &Registration{AuthMethod: "none"}, nil
	case o.ClientMetadataURL != "" && as.ClientIDMetadataDocSupport:
		reg = &Registration{ClientID: o.ClientMetadataURL, AuthMethod: "none"}
	case as.RegistrationEndpoint != "":
		var err error
		if reg, err = o.dynamicRegistration(ctx, as); err != nil {
			return nil, err
		}
	case o.ClientID != "":
		return nil, fmt.Errorf("client: the pre-registered client credentials are for %s, not %s (the server's authorization server changed?), and %s offers no other registration", o.credentialsIssuer(), as.Issuer, as.Issuer)
	default:
		return nil, fmt.Errorf("client: %s supports neither client ID metadata documents nor dynamic registration; configure OAuth.ClientID", as.Issuer)
	}
	o.Store.SaveRegistration(as.Issuer, reg)
	return reg, nil
}

// preRegisteredAt reports whether the pre-registered credentials
// (ClientID and its secret or key) are for issuer: ClientIssuer, or when
// that is empty the first authorization server they are used with, as
// the Store remembers it (across restarts, with a persistent store).
func (o *OAuth) preRegisteredAt(issuer string) bool {
	if o.ClientIssuer != "" {
		return o.ClientIssuer == issuer
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.boundTo == "" {
		o.boundTo = o.Store.BindClient(o.ClientID, issuer)
	}
	return o.boundTo == issuer
}

// credentialsIssuer is the authorization server the pre-registered
// credentials are for.
func (o *OAuth) credentialsIssuer() string {
	if o.ClientIssuer != "" {
		return o.ClientIssuer
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.boundTo
}

// authMethod picks the token endpoint authentication method: "none" for
// a client without a secret; otherwise the first of basic and post the
// server supports (basic when it says nothing, RFC 8414's default).
func authMethod(as *serverMetadata, secret bool) string {
	if !secret {
		return "none"
	}
	if len(as.TokenEndpointAuthMethods) == 0 || slices.Contains(as.TokenEndpointAuthMethods, "client_secret_basic") {
		return "client_secret_basic"
	}
	if slices.Contains(as.TokenEndpointAuthMethods, "client_secret_post") {
		return "client_secret_post"
	}
	return "client_secret_basic"
}

// dynamicRegistration registers with RFC 7591.
func (o *OAuth) dynamicRegistration(ctx context.Context, as *serverMetadata) (*Registration, error) {
	method := "none"
	if ms := as.TokenEndpointAuthMethods; len(ms) > 0 && !slices.Contains(ms, "none") {
		method = ms[0]
		if slices.Contains(ms, "client_secret_basic") {
			method = "client_secret_basic"
		}
	}
	appType := "web"
	if u, err := url.Parse(o.RedirectURL); err == nil && isLoopback(u.Hostname()) {
		appType = "native"
	}
	name := o.ClientName
	if name == "" {
		name = "mcpgen client"
	}
	body, _ := json.Marshal(map[string]any{
		"client_name": name, "redirect_uris": []string{o.RedirectURL},
		"grant_types": []string{"authorization_code", "refresh_token"}, "response_types": []string{"code"},
		"token_endpoint_auth_method": method, "application_type": appType,
	})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, as.RegistrationEndpoint, strings.NewReader(string(body)))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := o.httpClient().Do(req)
	if err != nil {
		return nil, fmt.Errorf("client: dynamic registration: %w", err)
	}
	defer resp.Body.Close()
	raw, err := readLimited(resp.Body, 1<<20)
	if err != nil {
		return nil, fmt.Errorf("client: dynamic registration at %s: HTTP %d: %w", as.RegistrationEndpoint, resp.StatusCode, err)
	}
	if resp.StatusCode/100 != 2 {
		return nil, fmt.Errorf("client: dynamic registration at %s: HTTP %d: %s", as.RegistrationEndpoint, resp.StatusCode, clipBytes(raw, 300))
	}
	var out struct {
		ClientID     string `json:"client_id"`
		ClientSecret string `json:"client_secret"`
		AuthMethod   string `json:"token_endpoint_auth_method"`
	}
	if err := decodeOAuthJSON(raw, &out); err != nil || out.ClientID == "" {
		return nil, fmt.Errorf("client: dynamic registration at %s: no client_id in %s", as.RegistrationEndpoint, clipBytes(raw, 300))
	}
	if out.AuthMethod == "" {
		out.AuthMethod = method
	}
	if out.ClientSecret == "" {
		out.AuthMethod = "none"
	}
	return &Registration{ClientID: out.ClientID, ClientSecret: out.ClientSecret, AuthMethod: out.AuthMethod}, nil
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func randomString() string {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("client: no randomness: " + err.Error())
	}
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// authorizeCode runs the authorization code flow with PKCE.
func (o *OAuth) authorizeCode(ctx context.Context, as *serverMetadata, reg *Registration, resource string, scopes []string) (*Token, error) {
	if o.Authorize == nil || o.RedirectURL == "" {
		return nil, errors.New("client: the server needs OAuth authorization; set OAuth.Authorize and OAuth.RedirectURL")
	}
	verifier, state := randomString(), randomString()
	sum := sha256.Sum256([]byte(verifier))
	q := url.Values{
		"response_type": {"code"}, "client_id": {reg.ClientID}, "redirect_uri": {o.RedirectURL},
		"code_challenge": {base64.RawURLEncoding.EncodeToString(sum[:])}, "code_challenge_method": {"S256"},
		"state": {state}, "resource": {resource},
	}
	if len(scopes) > 0 {
		q.Set("scope", strings.Join(scopes, " "))
	}
	sep := "?"
	if strings.Contains(as.AuthorizationEndpoint, "?") {
		sep = "&"
	}
	cb, err := o.Authorize(ctx, as.AuthorizationEndpoint+sep+q.Encode())
	if err != nil {
		return nil, err
	}
	if cb == nil {
		return nil, errors.New("client: OAuth.Authorize returned neither the callback URL nor an error")
	}
	params := cb.Query()
	// RFC 9207 §2.4, before anything in the response is acted on.
	if iss, present := params["iss"]; present {
		if len(iss) != 1 || iss[0] != as.Issuer {
			return nil, fmt.Errorf("client: the authorization response comes from issuer %q, not %q (mix-up?); discarded", params.Get("iss"), as.Issuer)
		}
	} else if as.ISSParameterSupported {
		return nil, fmt.Errorf("client: %s promises the iss parameter but its authorization response has none; discarded", as.Issuer)
	}
	if params.Get("state") != state {
		return nil, errors.New("client: the authorization response's state does not match; discarded")
	}
	if e := params.Get("error"); e != "" {
		return nil, fmt.Errorf("client: authorization refused: %s: %s", e, params.Get("error_description"))
	}
	code := params.Get("code")
	if code == "" {
		return nil, errors.New("client: the authorization response has no code")
	}
	form := url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {o.RedirectURL},
		"code_verifier": {verifier}, "resource": {resource}}
	return o.token(ctx, as, reg, form, nil)
}

// clientCredentials gets a token for the client itself (RFC 6749 §4.4).
func (o *OAuth) clientCredentials(ctx context.Context, as *serverMetadata, reg *Registration, resource string, scopes []string) (*Token, error) {
	if reg.ClientSecret == "" && reg.AuthMethod != "private_key_jwt" {
		return nil, errors.New("client: the client_credentials grant needs OAuth.ClientID and OAuth.ClientSecret or OAuth.ClientKey")
	}
	form := url.Values{"grant_type": {"client_credentials"}, "resource": {resource}}
	if len(scopes) > 0 {
		form.Set("scope", strings.Join(scopes, " "))
	}
	return o.token(ctx, as, reg, form, nil)
}

// refresh exchanges a refresh token (the old one is kept unless rotated).
func (o *OAuth) refresh(ctx context.Context, as *serverMetadata, reg *Registration, resource string, old *Token) (*Token, error) {
	form := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {old.RefreshToken}, "resource": {resource}}
	return o.token(ctx, as, reg, form, old)
}

// token calls the token endpoint with the registration's client
// authentication, and a DPoP proof where the server offers DPoP (once
// more, with the server's nonce, on use_dpop_nonce: RFC 9449 §8).
func (o *OAuth) token(ctx context.Context, as *serverMetadata, reg *Registration, form url.Values, old *Token) (*Token, error) {
	var basic bool
	switch reg.AuthMethod {
	case "client_secret_basic":
		basic = true
	case "client_secret_post":
		form.Set("client_id", reg.ClientID)
		form.Set("client_secret", reg.ClientSecret)
	case "private_key_jwt":
		form.Set("client_id", reg.ClientID)
		form.Set("client_assertion_type", assertionTypeJWT)
	default:
		if reg.ClientID != "" {
			form.Set("client_id", reg.ClientID)
		}
	}
	dpop := o.dpopOffered(as)
	endpoint, err := url.Parse(as.TokenEndpoint)
	if err != nil {
		return nil, fmt.Errorf("client: token endpoint: %w", err)
	}
	for attempt := 0; ; attempt++ {
		if reg.AuthMethod == "private_key_jwt" {
			assertion, err := o.clientAssertion(as, reg.ClientID)
			if err != nil {
				return nil, err
			}
			form.Set("client_assertion", assertion)
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, as.TokenEndpoint, strings.NewReader(form.Encode()))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Accept", "application/json")
		if basic {
			req.SetBasicAuth(url.QueryEscape(reg.ClientID), url.QueryEscape(reg.ClientSecret))
		}
		var nonce string
		if dpop {
			var proof string
			if proof, nonce, err = o.dpopProof(http.MethodPost, endpoint, "", as.DPoPSigningAlgs); err != nil {
				return nil, err
			}
			req.Header.Set("DPoP", proof)
		}
		tok, retry, err := o.tokenResponse(req, as, dpop, nonce, old)
		if retry && attempt == 0 {
			continue
		}
		return tok, err
	}
}

// tokenResponse sends a token request and reads the answer; retry is
// set for a use_dpop_nonce error that brought a new nonce.
func (o *OAuth) tokenResponse(req *http.Request, as *serverMetadata, dpop bool, sentNonce string, old *Token) (tok *Token, retry bool, err error) {
	resp, err := o.httpClient().Do(req)
	if err != nil {
		return nil, false, fmt.Errorf("client: token request: %w", err)
	}
	defer resp.Body.Close()
	raw, err := readLimited(resp.Body, 1<<20)
	if err != nil {
		return nil, false, fmt.Errorf("client: token request at %s: HTTP %d: %w", as.TokenEndpoint, resp.StatusCode, err)
	}
	fresh := dpop && o.noteNonce(req.URL, resp, sentNonce)
	var out struct {
		AccessToken  string  `json:"access_token"`
		TokenType    string  `json:"token_type"`
		ExpiresIn    float64 `json:"expires_in"`
		RefreshToken string  `json:"refresh_token"`
		Scope        string  `json:"scope"`
		Error        string  `json:"error"`
		Description  string  `json:"error_description"`
	}
	members, objErr := oauthObject(raw)
	_ = decodeMembers(members, &out) // a member of another type is ignored, as encoding/json's other members are kept
	if fresh && resp.StatusCode == http.StatusBadRequest && out.Error == "use_dpop_nonce" {
		return nil, true, fmt.Errorf("client: token request at %s: the server wants a DPoP nonce again", as.TokenEndpoint)
	}
	if resp.StatusCode == http.StatusOK && objErr != nil {
		return nil, false, fmt.Errorf("client: token request at %s: the response is not a JSON object read by exact member names: %w", as.TokenEndpoint, objErr)
	}
	if resp.StatusCode != http.StatusOK || out.AccessToken == "" {
		return nil, false, fmt.Errorf("client: token request at %s: HTTP %d %s: %s", as.TokenEndpoint, resp.StatusCode, out.Error, out.Description)
	}
	if err := checkTokenType(as.TokenEndpoint, out.TokenType, dpop); err != nil {
		return nil, false, err
	}
	tok = &Token{AccessToken: out.AccessToken, TokenType: out.TokenType, RefreshToken: out.RefreshToken, Scope: out.Scope}
	tok.Expiry = expiryIn(out.ExpiresIn)
	if tok.RefreshToken == "" && old != nil {
		tok.RefreshToken = old.RefreshToken
	}
	return tok, false, nil
}

// maxExpiresIn caps a token's expires_in: 100 years, far beyond any
// token's life and within time.Duration (about 292 years).
const maxExpiresIn = 100 * 365 * 24 * time.Hour

// expiryIn is the expiry of a token issued now with expires_in seconds
// (zero, unknown, when it is not positive; capped at maxExpiresIn, so
// that a huge value is a distant expiry, not an overflow into the past).
func expiryIn(seconds float64) time.Time {
	if !(seconds > 0) {
		return time.Time{}
	}
	d := maxExpiresIn
	if seconds < maxExpiresIn.Seconds() {
		d = time.Duration(seconds * float64(time.Second))
	}
	return time.Now().Add(d)
}

// grant registers the client at as (if needed) and obtains a token for
// resource and scopes with the grant OAuth is configured for.
func (o *OAuth) grant(ctx context.Context, as *serverMetadata, resource string, scopes []string) (*Token, error) {
	reg, err := o.register(ctx, as)
	if err != nil {
		return nil, err
	}
	switch {
	case o.ClientCredentials && o.Assertion != nil:
		return nil, errors.New("client: OAuth.ClientCredentials and OAuth.Assertion are two grants; set one")
	case o.ClientCredentials:
		return o.clientCredentials(ctx, as, reg, resource, scopes)
	case o.Assertion != nil:
		return o.jwtBearer(ctx, as, reg, resource, scopes)
	default:
		return o.authorizeCode(ctx, as, reg, resource, scopes)
	}
}
