package rediscluster

import (
	"errors"
	"net/url"
	"slices"
	"strings"
)

// errBadURL refuses a URL that does not parse or looks odd; it quotes
// none of the URL, which may hold a password anywhere.
var errBadURL = errors.New("invalid URL: it does not parse, or it has no \"://\" after its " +
	"scheme, an '@' after its user name and password, a user name or password without a host, " +
	"or a query that does not parse; write it as redis://user:password@host:port/db and escape " +
	"'/', '?', '#', '@', ':', ';' and '%' in the user name, password or query values " +
	"(%2F, %3F, %23, %40, %3A, %3B, %25)")

// shownQueryKeys are the go-redis options (ParseURL) whose values are
// never secret, and so are shown in errors; any other value is not.
var shownQueryKeys = []string{
	"db", "protocol", "client_name", "max_retries", "min_retry_backoff", "max_retry_backoff",
	"dial_timeout", "read_timeout", "write_timeout", "pool_fifo", "pool_size", "pool_timeout",
	"min_idle_conns", "max_idle_conns", "max_active_conns", "max_concurrent_dials",
	"pipeline_pool_size", "pipeline_read_buffer_size", "pipeline_write_buffer_size",
	"conn_max_idle_time", "idle_timeout", "conn_max_lifetime", "max_conn_age",
	"conn_max_lifetime_jitter", "skip_verify",
}

// redactURL is rawURL fit for an error message, rebuilt from its parts:
// scheme, user name, host, port, path, and the query with the value of
// any parameter not in shownQueryKeys replaced by "xxxxx"; no password
// (shown as "xxxxx") and no fragment. A URL that does not parse or looks
// odd is refused with errBadURL. The second result lists the texts to
// scrub from errors of libraries that may quote the URL or parts of it.
func redactURL(rawURL string) (shown string, secrets []string, err error) {
	u, err := url.Parse(rawURL)
	if err != nil || looksOdd(rawURL, u) {
		return "", nil, errBadURL
	}
	query, err := url.ParseQuery(u.RawQuery)
	if err != nil {
		return "", nil, errBadURL
	}
	secrets = []string{u.RawQuery, u.RawFragment, u.Fragment}
	rebuilt := &url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path, RawPath: u.RawPath}
	if u.User != nil {
		secrets = append(secrets, u.User.String())
		rebuilt.User = url.User(u.User.Username())
		if p, ok := u.User.Password(); ok {
			secrets = append(secrets, p, url.UserPassword("", p).String()[1:])
			rebuilt.User = url.UserPassword(u.User.Username(), "xxxxx")
		}
	}
	for key, values := range query {
		if slices.Contains(shownQueryKeys, key) {
			continue
		}
		for i, v := range values {
			secrets = append(secrets, v, url.QueryEscape(v))
			values[i] = "xxxxx"
		}
	}
	rebuilt.RawQuery = query.Encode()
	shown = rebuilt.String()
	if rawURL != shown {
		secrets = append(secrets, rawURL)
	}
	return shown, secrets, nil
}

// looksOdd reports whether rawURL, parsed as u, is not of the form
// scheme://[userinfo@]host[:port][/path][?query] with an '@' only at the
// end of the userinfo: a scheme with one slash or none, an '@' after the
// host (a password holding '/', '?' or '#' unescaped, which url.Parse
// reads as the path, the query or the fragment), or a user name or
// password without a host (unless the URL names a unix socket).
func looksOdd(rawURL string, u *url.URL) bool {
	if u.Scheme == "" || u.Opaque != "" || !strings.HasPrefix(rawURL[len(u.Scheme):], "://") {
		return true
	}
	rest := rawURL[len(u.Scheme)+len("://"):]
	if end := strings.IndexAny(rest, "/?#"); end >= 0 && strings.Contains(rest[end:], "@") {
		return true
	}
	return u.User != nil && u.Host == "" && u.Scheme != "unix"
}
