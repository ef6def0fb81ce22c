package oauth

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// Metadata is the part of an authorization server's metadata the
// verifiers use.
type Metadata struct {
	Issuer                string
	JWKSURI               string
	IntrospectionEndpoint string
	TokenEndpoint         string
}

// Discover fetches the metadata of issuer from the well-known URLs the MCP
// specification lists, in its order (RFC 8414 first, then OpenID Connect
// Discovery; path insertion before path appending), and keeps the first
// document, a JSON object answered 200, whose "issuer" is identical to
// issuer. Member names are exact ("Issuer" is not "issuer"), and a
// document that repeats a member name is not used.
func Discover(ctx context.Context, issuer string, hc *http.Client) (*Metadata, error) {
	urls, err := wellKnownURLs(issuer)
	if err != nil {
		return nil, err
	}
	if hc == nil {
		hc = http.DefaultClient
	}
	var errs []error
	for _, u := range urls {
		md, err := fetchMetadata(ctx, hc, u)
		if err == nil && md.Issuer != issuer {
			err = fmt.Errorf("the document's issuer is %q", md.Issuer)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", u, err))
			continue
		}
		return md, nil
	}
	return nil, fmt.Errorf("oauth: no authorization server metadata for %s: %w", issuer, errors.Join(errs...))
}

// maxMetadataSize bounds a metadata document.
const maxMetadataSize = 1 << 20

// fetchMetadata GETs one metadata URL: a JSON object (RFC 8414 §3.2),
// read by exact member name; one with a repeated member name is refused
// (decodeObject).
func fetchMetadata(ctx context.Context, hc *http.Client, u string) (*Metadata, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("status %s", resp.Status)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxMetadataSize+1))
	if err != nil {
		return nil, err
	}
	if len(body) > maxMetadataSize {
		return nil, fmt.Errorf("the document is larger than %d bytes", maxMetadataSize)
	}
	doc, err := decodeObject(body)
	if err != nil {
		return nil, fmt.Errorf("the document is not a metadata JSON object: %w", err)
	}
	var md Metadata
	for _, m := range []struct {
		name string
		dst  *string
	}{
		{"issuer", &md.Issuer},
		{"jwks_uri", &md.JWKSURI},
		{"introspection_endpoint", &md.IntrospectionEndpoint},
		{"token_endpoint", &md.TokenEndpoint},
	} {
		if *m.dst, err = stringMember(doc, m.name); err != nil {
			return nil, fmt.Errorf("the document is not a metadata JSON object: %w", err)
		}
	}
	return &md, nil
}

// wellKnownURLs are the metadata URLs of issuer in the order of
// authorization-server-discovery.mdx.
func wellKnownURLs(issuer string) ([]string, error) {
	u, err := url.Parse(issuer)
	if err != nil || !u.IsAbs() || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("oauth: issuer %q is not an absolute URL without query or fragment", issuer)
	}
	origin := u.Scheme + "://" + u.Host
	path := strings.TrimSuffix(u.EscapedPath(), "/")
	if path == "" {
		return []string{
			origin + "/.well-known/oauth-authorization-server",
			origin + "/.well-known/openid-configuration",
		}, nil
	}
	return []string{
		origin + "/.well-known/oauth-authorization-server" + path,
		origin + "/.well-known/openid-configuration" + path,
		origin + path + "/.well-known/openid-configuration",
	}, nil
}
