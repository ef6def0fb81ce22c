package oauth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/zitadel/oidc/v3/pkg/client"
	"github.com/zitadel/oidc/v3/pkg/oidc"
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
// document whose "issuer" is identical to issuer.
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
		doc, err := client.Discover(ctx, issuer, hc, u)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", u, err))
			continue
		}
		return metadataOf(doc), nil
	}
	return nil, fmt.Errorf("oauth: no authorization server metadata for %s: %w", issuer, errors.Join(errs...))
}

func metadataOf(doc *oidc.DiscoveryConfiguration) *Metadata {
	return &Metadata{Issuer: doc.Issuer, JWKSURI: doc.JwksURI, IntrospectionEndpoint: doc.IntrospectionEndpoint, TokenEndpoint: doc.TokenEndpoint}
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
