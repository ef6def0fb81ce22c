package natscluster

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/mcpgen/mcpgen/internal/secretscrub"
)

// errBadURL refuses a server URL that does not parse or looks odd; it
// quotes none of the URL, which may hold a password or token anywhere.
var errBadURL = errors.New("it does not parse, or it has no \"://\" after its scheme, " +
	"an '@' after its user name and password or token, or a user name, password or token " +
	"without a host; write it as nats://user:password@host:port or nats://token@host:port " +
	"and escape ',', '/', '?', '#', '@', ':' and '%' in the user name, password or token " +
	"(%2C, %2F, %3F, %23, %40, %3A, %25)")

// redactURLs is a NATS server list (URLs separated by commas) fit for an
// error message, each entry rebuilt from its parts: scheme, user name,
// host and port; a password, or a token (a user without password, as
// NATS reads one), is replaced by "xxxxx", and the path, query and
// fragment are left out. An entry without "://" is read as nats.go reads
// it, as nats://<entry>. An entry that does not parse or looks odd is
// refused with an error that names its index and quotes none of it. The
// second result lists the texts to scrub from errors of nats.go, which
// may quote the entries or parts of them.
func redactURLs(servers string) (shown string, secrets []string, err error) {
	parts := strings.Split(servers, ",")
	for i, part := range parts {
		entry, entrySecrets, err := redactURL(strings.TrimSpace(part))
		if err != nil {
			return "", nil, fmt.Errorf("server URL %d of %d: %w", i+1, len(parts), err)
		}
		parts[i] = entry
		secrets = append(secrets, entrySecrets...)
	}
	shown = strings.Join(parts, ",")
	if servers != shown {
		secrets = append(secrets, servers)
	}
	return shown, secrets, nil
}

func redactURL(raw string) (shown string, secrets []string, err error) {
	if !strings.Contains(raw, "://") {
		raw = "nats://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil || looksOdd(raw, u) {
		return "", nil, errBadURL
	}
	secrets = []string{u.RawQuery, u.RawFragment, u.Fragment}
	rebuilt := &url.URL{Scheme: u.Scheme, Host: u.Host}
	if u.User != nil {
		secrets = append(secrets, u.User.String())
		if p, ok := u.User.Password(); ok {
			secrets = append(secrets, p, url.UserPassword("", p).String()[1:])
			rebuilt.User = url.UserPassword(u.User.Username(), "xxxxx")
		} else {
			token := u.User.Username()
			secrets = append(secrets, token, url.User(token).String())
			rebuilt.User = url.User("xxxxx")
		}
	}
	shown = rebuilt.String()
	if raw != shown {
		secrets = append(secrets, raw)
	}
	return shown, secrets, nil
}

// looksOdd reports whether raw, parsed as u, is not of the form
// scheme://[userinfo@]host[:port][...] with an '@' only at the end of the
// userinfo: a scheme with one slash or none, an '@' after the host (a
// password or token holding '/', '?' or '#' unescaped, which url.Parse
// reads as the path, the query or the fragment), or a user name,
// password or token without a host.
func looksOdd(raw string, u *url.URL) bool {
	if u.Scheme == "" || u.Opaque != "" || !strings.HasPrefix(raw[len(u.Scheme):], "://") {
		return true
	}
	rest := raw[len(u.Scheme)+len("://"):]
	if end := strings.IndexAny(rest, "/?#"); end >= 0 && strings.Contains(rest[end:], "@") {
		return true
	}
	return u.User != nil && u.Host == ""
}

// scrubbed is err's text without the URL a *url.Error quotes and with
// each secret replaced (secretscrub.Error).
func scrubbed(err error, secrets []string) error {
	if ue, ok := errors.AsType[*url.Error](err); ok {
		err = ue.Err
	}
	return secretscrub.Error(err, secrets)
}
