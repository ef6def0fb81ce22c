package rediscluster

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// errURLSplitsCredentials refuses a URL whose user name or password holds
// a character that ends the host part ('/', '?', '#'): url.Parse would
// read the rest of the password as the port, the path or the query, and
// any error about them would quote it.
var errURLSplitsCredentials = errors.New("invalid URL: it has an '@' after its host; " +
	"escape '/', '?', '#' and '@' in a user name, password or path (%2F, %3F, %23, %40)")

// redactURL is rawURL fit for an error message: its password, the values
// of query parameters that look like secrets (password, token, …) and its
// fragment are replaced by "xxxxx" or left out. A URL that does not parse
// is refused with an error that quotes none of it; the second result
// lists the secrets to scrub from errors that quote parts of the URL.
func redactURL(rawURL string) (shown string, secrets []string, err error) {
	if credentialsSplit(rawURL) {
		return "", nil, errURLSplitsCredentials
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return "", nil, parseError(err)
	}
	if u.User != nil {
		if p, ok := u.User.Password(); ok {
			secrets = append(secrets, p)
		}
	}
	query := u.Query()
	for key, values := range query {
		if !secretKey(key) {
			continue
		}
		for i, v := range values {
			secrets = append(secrets, v)
			values[i] = "xxxxx"
		}
	}
	if len(query) > 0 {
		u.RawQuery = query.Encode()
	}
	u.Fragment, u.RawFragment = "", ""
	return u.Redacted(), secrets, nil
}

// credentialsSplit reports whether rawURL has an '@' after the end of its
// authority (the first '/', '?' or '#' after "://"): a password holding
// one of those characters unescaped.
func credentialsSplit(rawURL string) bool {
	start := strings.Index(rawURL, "://")
	if start < 0 {
		return false
	}
	start += len("://")
	end := strings.IndexAny(rawURL[start:], "/?#")
	if end < 0 {
		return false
	}
	return strings.Contains(rawURL[start+end:], "@")
}

// parseError is url.Parse's err without the parts that quote the URL: the
// URL itself, and the text of an invalid escape (which may lie in a
// password).
func parseError(err error) error {
	if ue, ok := errors.AsType[*url.Error](err); ok {
		err = ue.Err
	}
	if _, ok := errors.AsType[url.EscapeError](err); ok {
		return errors.New("invalid URL: invalid escape")
	}
	return fmt.Errorf("invalid URL: %w", err)
}

// secretKey reports whether a query parameter named key looks like it
// carries a secret.
func secretKey(key string) bool {
	key = strings.ToLower(key)
	for _, word := range []string{"pass", "pwd", "token", "secret", "auth", "key", "cred"} {
		if strings.Contains(key, word) {
			return true
		}
	}
	return false
}

// scrubbed is err's text with each secret replaced by "xxxxx".
func scrubbed(err error, secrets []string) error {
	text := err.Error()
	changed := false
	for _, s := range secrets {
		if s != "" && strings.Contains(text, s) {
			text = strings.ReplaceAll(text, s, "xxxxx")
			changed = true
		}
	}
	if !changed {
		return err
	}
	return errors.New(text)
}
