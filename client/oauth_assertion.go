package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Grants and client authentication by JWT (RFC 7523): private_key_jwt
// client assertions, the JWT bearer authorization grant (workload
// identity federation), and the enterprise identity provider's token
// exchange (RFC 8693) for an identity assertion authorization grant that
// the JWT bearer grant then presents (Enterprise-Managed Authorization).

const (
	grantJWTBearer     = "urn:ietf:params:oauth:grant-type:jwt-bearer"
	grantTokenExchange = "urn:ietf:params:oauth:grant-type:token-exchange"
	assertionTypeJWT   = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
	tokenTypeIDToken   = "urn:ietf:params:oauth:token-type:id_token"
	tokenTypeIDJAG     = "urn:ietf:params:oauth:token-type:id-jag"
)

// AssertionTarget says what an OAuth.Assertion is for.
type AssertionTarget struct {
	// Issuer and TokenEndpoint are the authorization server's, where the
	// assertion is presented.
	Issuer, TokenEndpoint string
	// Resource is the MCP server's resource identifier (RFC 8707), as its
	// Protected Resource Metadata names it.
	Resource string
	// Scopes are the scopes the token is asked for.
	Scopes []string
}

// EnterpriseIdP is the enterprise identity provider of Enterprise-Managed
// Authorization: its Assertion exchanges the user's ID token for an
// identity assertion JWT authorization grant (ID-JAG) for the MCP server's
// authorization server (RFC 8693 token exchange). Use it as
// OAuth.Assertion, with the client's ClientID (and ClientSecret) at that
// authorization server.
type EnterpriseIdP struct {
	// TokenEndpoint is the identity provider's token endpoint: https, or
	// plain http on a loopback host (a development IdP), whatever the
	// authorization server's scheme.
	TokenEndpoint string
	// ClientID and ClientSecret are the client's credentials at the
	// identity provider (client_secret_basic; ClientID alone is sent in
	// the form).
	ClientID, ClientSecret string
	// IDToken returns the user's ID token from the identity provider
	// (from the single sign-on the host did).
	IDToken func(ctx context.Context) (string, error)
	// HTTPClient calls the token endpoint (default: a 30 second timeout);
	// a redirect is followed only to an https URL, or plain http on
	// loopback, whatever its CheckRedirect allows.
	HTTPClient *http.Client
}

// Assertion exchanges the ID token for an ID-JAG whose audience is
// target's authorization server and resource the MCP server.
func (p *EnterpriseIdP) Assertion(ctx context.Context, target AssertionTarget) (string, error) {
	if p.TokenEndpoint == "" || p.IDToken == nil {
		return "", errors.New("client: EnterpriseIdP needs TokenEndpoint and IDToken")
	}
	if err := checkIdPEndpoint(p.TokenEndpoint); err != nil {
		return "", err
	}
	idToken, err := p.IDToken(ctx)
	if err != nil {
		return "", fmt.Errorf("client: enterprise IdP: ID token: %w", err)
	}
	form := url.Values{
		"grant_type": {grantTokenExchange}, "requested_token_type": {tokenTypeIDJAG},
		"audience": {target.Issuer}, "resource": {target.Resource},
		"subject_token": {idToken}, "subject_token_type": {tokenTypeIDToken},
	}
	if len(target.Scopes) > 0 {
		form.Set("scope", strings.Join(target.Scopes, " "))
	}
	if p.ClientSecret == "" && p.ClientID != "" {
		form.Set("client_id", p.ClientID)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.TokenEndpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	if p.ClientSecret != "" {
		req.SetBasicAuth(url.QueryEscape(p.ClientID), url.QueryEscape(p.ClientSecret))
	}
	resp, err := p.httpClient().Do(req)
	if err != nil {
		return "", fmt.Errorf("client: enterprise IdP token exchange: %w", err)
	}
	defer resp.Body.Close()
	raw, err := readLimited(resp.Body, 1<<20)
	if err != nil {
		return "", fmt.Errorf("client: enterprise IdP token exchange at %s: HTTP %d: %w", p.TokenEndpoint, resp.StatusCode, err)
	}
	var out struct {
		AccessToken     string `json:"access_token"`
		IssuedTokenType string `json:"issued_token_type"`
		Error           string `json:"error"`
		Description     string `json:"error_description"`
	}
	members, objErr := oauthObject(raw)
	_ = decodeMembers(members, &out) // a member of another type is ignored
	if resp.StatusCode == http.StatusOK && objErr != nil {
		return "", fmt.Errorf("client: enterprise IdP token exchange at %s: the response is not a JSON object read by exact member names: %w", p.TokenEndpoint, objErr)
	}
	if resp.StatusCode != http.StatusOK || out.AccessToken == "" {
		return "", fmt.Errorf("client: enterprise IdP token exchange at %s: HTTP %d %s: %s", p.TokenEndpoint, resp.StatusCode, out.Error, out.Description)
	}
	if out.IssuedTokenType != tokenTypeIDJAG {
		return "", fmt.Errorf("client: enterprise IdP token exchange at %s issued a %q, not an ID-JAG", p.TokenEndpoint, out.IssuedTokenType)
	}
	return out.AccessToken, nil
}

// httpClient is HTTPClient (default: a 30 second timeout) with every
// redirect held to the token endpoint's scheme (holdRedirects): a 307 or
// 308 would post the ID token again.
func (p *EnterpriseIdP) httpClient() *http.Client {
	if p.HTTPClient != nil {
		return holdRedirects(*p.HTTPClient)
	}
	return holdRedirects(http.Client{Timeout: 30 * time.Second})
}

// jwtBearer gets a token with the JWT bearer grant (RFC 7523 §2.1), the
// assertion from OAuth.Assertion.
func (o *OAuth) jwtBearer(ctx context.Context, as *serverMetadata, reg *Registration, resource string, scopes []string) (*Token, error) {
	assertion, err := o.Assertion(ctx, AssertionTarget{Issuer: as.Issuer, TokenEndpoint: as.TokenEndpoint, Resource: resource, Scopes: scopes})
	if err != nil {
		return nil, err
	}
	if assertion == "" {
		return nil, errors.New("client: OAuth.Assertion returned no JWT")
	}
	form := url.Values{"grant_type": {grantJWTBearer}, "assertion": {assertion}, "resource": {resource}}
	if len(scopes) > 0 {
		form.Set("scope", strings.Join(scopes, " "))
	}
	return o.token(ctx, as, reg, form, nil)
}

// clientAssertion is the private_key_jwt assertion for one token request
// (RFC 7523 §2.2, §3): the client is issuer and subject, the audience is
// the authorization server's issuer identifier, short-lived and unique.
func (o *OAuth) clientAssertion(as *serverMetadata, clientID string) (string, error) {
	if o.ClientKey == nil {
		return "", errors.New("client: private_key_jwt needs OAuth.ClientKey")
	}
	alg, err := jwsAlg(o.ClientKey, as.TokenEndpointAuthSigningAlgs)
	if err != nil {
		return "", err
	}
	header := map[string]any{"typ": "JWT"}
	if o.ClientKeyID != "" {
		header["kid"] = o.ClientKeyID
	}
	now := time.Now()
	return signJWT(o.ClientKey, alg, header, map[string]any{
		"iss": clientID, "sub": clientID, "aud": as.Issuer, "jti": randomString(),
		"iat": now.Unix(), "exp": now.Add(time.Minute).Unix(),
	})
}
