package client

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// The tests here read the authorization server's metadata, the protected
// resource metadata and the token response by exact member name, and
// refuse a document that names a member twice (README: exact member
// names, a repeated member rejected). encoding/json into a struct would
// match "Issuer" for issuer and keep the last of two "issuer" members,
// so the identifier RFC 8414 §3.3 and RFC 9728 §3.3 require to be
// identical would be read from a member the other readers of the
// document ignore.

// rawJSONServer answers every request with body, "SELF" replaced by the
// server's own URL.
func rawJSONServer(t *testing.T, body *string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(strings.ReplaceAll(*body, "SELF", "http://"+r.Host)))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestAuthorizationServerMetadataReadsExactMemberNames: a document whose
// "issuer" names another server is not used because an "Issuer" or a
// second "issuer" member names the expected one; "TOKEN_ENDPOINT" is not
// token_endpoint.
func TestAuthorizationServerMetadataReadsExactMemberNames(t *testing.T) {
	var body string
	srv := rawJSONServer(t, &body)
	o := &OAuth{ClientID: "svc", ClientSecret: "s", ClientCredentials: true}
	for _, b := range []string{
		`{"issuer":"https://evil.example","Issuer":"SELF","token_endpoint":"SELF/token"}`,
		`{"issuer":"https://evil.example","issuer":"SELF","token_endpoint":"SELF/token"}`,
		`{"issuer":"SELF","token_endpoint":"SELF/token","token_endpoint":"https://evil.example/token"}`,
		`{"issuer":"SELF","TOKEN_ENDPOINT":"SELF/token"}`,
	} {
		body = b
		if md, err := o.serverMetadata(context.Background(), srv.URL); err == nil {
			t.Errorf("metadata %s used: issuer %q, token_endpoint %q; want it refused", b, md.Issuer, md.TokenEndpoint)
		}
	}
	body = `{"issuer":"SELF","token_endpoint":"SELF/token","Token_Endpoint":"https://evil.example/token"}`
	md, err := o.serverMetadata(context.Background(), srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	if md.TokenEndpoint != srv.URL+"/token" {
		t.Errorf("token_endpoint read as %q from %s", md.TokenEndpoint, body)
	}
}

// TestResourceMetadataReadsExactMemberNames: protected resource metadata
// whose "resource" is another server's is not used because a "Resource"
// or a second "resource" member names the MCP server, nor one whose
// authorization servers are given twice.
func TestResourceMetadataReadsExactMemberNames(t *testing.T) {
	var body string
	srv := rawJSONServer(t, &body)
	o := &OAuth{}
	for _, b := range []string{
		`{"resource":"https://evil.example/mcp","Resource":"SELF/mcp","authorization_servers":["SELF"]}`,
		`{"resource":"https://evil.example/mcp","resource":"SELF/mcp","authorization_servers":["SELF"]}`,
		`{"resource":"SELF/mcp","authorization_servers":["SELF"],"authorization_servers":["https://evil.example"]}`,
		`{"resource":"SELF/mcp","Authorization_Servers":["SELF"]}`,
	} {
		body = b
		if md, err := o.resourceMetadata(context.Background(), srv.URL+"/mcp", srv.URL+"/prm"); err == nil {
			t.Errorf("resource metadata %s used: resource %q, authorization servers %q; want it refused", b, md.Resource, md.AuthorizationServers)
		}
	}
}

// TestTokenResponseReadsExactMemberNames: a token response that repeats
// a member (two token types, two access tokens) is refused, and
// "Access_Token" is no access token.
func TestTokenResponseReadsExactMemberNames(t *testing.T) {
	var body string
	srv := rawJSONServer(t, &body)
	o := &OAuth{}
	as := &serverMetadata{Issuer: srv.URL, TokenEndpoint: srv.URL + "/token"}
	for _, b := range []string{
		`{"access_token":"a","token_type":"DPoP","token_type":"Bearer"}`,
		`{"access_token":"a","access_token":"b","token_type":"Bearer"}`,
		`{"Access_Token":"a","token_type":"Bearer"}`,
	} {
		body = b
		req, _ := http.NewRequest(http.MethodPost, as.TokenEndpoint, nil)
		if tok, _, err := o.tokenResponse(req, as, false, "", nil); err == nil {
			t.Errorf("token response %s used: access token %q, type %q; want it refused", b, tok.AccessToken, tok.TokenType)
		}
	}
	body = `{"access_token":"a","token_type":"Bearer","expires_in":"3600"}` // a string expires_in is ignored, as before
	req, _ := http.NewRequest(http.MethodPost, as.TokenEndpoint, nil)
	if _, _, err := o.tokenResponse(req, as, false, "", nil); err != nil {
		t.Errorf("token response %s: %v", body, err)
	}
}

// TestRegistrationResponseReadsExactMemberNames: an RFC 7591 response
// that names client_id twice, or only as "Client_ID", gives no
// registration.
func TestRegistrationResponseReadsExactMemberNames(t *testing.T) {
	var body string
	srv := rawJSONServer(t, &body)
	o := &OAuth{RedirectURL: "http://127.0.0.1:1/cb"}
	as := &serverMetadata{Issuer: srv.URL, RegistrationEndpoint: srv.URL + "/register"}
	for _, b := range []string{
		`{"client_id":"a","client_id":"b"}`,
		`{"Client_ID":"a"}`,
	} {
		body = b
		if reg, err := o.dynamicRegistration(context.Background(), as); err == nil {
			t.Errorf("registration response %s used: client_id %q; want it refused", b, reg.ClientID)
		}
	}
}

// TestTokenExchangeResponseReadsExactMemberNames: the enterprise IdP's
// answer that names issued_token_type twice, or the ID-JAG only as
// "Access_Token", gives no assertion.
func TestTokenExchangeResponseReadsExactMemberNames(t *testing.T) {
	var body string
	srv := rawJSONServer(t, &body)
	p := &EnterpriseIdP{TokenEndpoint: srv.URL + "/token", ClientID: "c",
		IDToken: func(context.Context) (string, error) { return "id-token", nil }}
	for _, b := range []string{
		`{"access_token":"jag","issued_token_type":"x","issued_token_type":"` + tokenTypeIDJAG + `","token_type":"N_A"}`,
		`{"Access_Token":"jag","issued_token_type":"` + tokenTypeIDJAG + `","token_type":"N_A"}`,
	} {
		body = b
		if jag, err := p.Assertion(context.Background(), AssertionTarget{Issuer: "https://as.example", Resource: "https://mcp.example/mcp"}); err == nil {
			t.Errorf("token exchange response %s used: %q; want it refused", b, jag)
		}
	}
}
