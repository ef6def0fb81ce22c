package natscluster

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// redactURLs is a NATS server list (URLs separated by commas) fit for an
// error message: a password, or a token (a user without password, as
// NATS reads one), is replaced by "xxxxx", and the query and fragment are
// left out. An entry without "://" is read as nats.go reads it, as
// nats://<entry>. An entry that does not parse is refused with an error
// that quotes none of it, and so is one with an '@' after its host (a
// password or token holding '/', '?' or '#' unescaped).
func redactURLs(servers string) (string, error) {
	parts := strings.Split(servers, ",")
	for i, part := range parts {
		shown, err := redactURL(strings.TrimSpace(part))
		if err != nil {
			return "", fmt.Errorf("server URL %d of %d: %w", i+1, len(parts), err)
		}
		parts[i] = shown
	}
	return strings.Join(parts, ","), nil
}

func redactURL(raw string) (string, error) {
	if !strings.Contains(raw, "://") {
		raw = "nats://" + raw
	}
	if credentialsSplit(raw) {
		return "", errors.New("invalid URL: it has an '@' after its host; " +
			"escape '/', '?', '#' and '@' in a user name, password or token (%2F, %3F, %23, %40)")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", parseError(err)
	}
	u.RawQuery, u.Fragment, u.RawFragment = "", "", ""
	if u.User == nil {
		return u.String(), nil
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	} else {
		u.User = url.User("xxxxx")
	}
	return u.String(), nil
}

// parseError is url.Parse's err without the parts that quote the URL: the
// URL itself, and the text of an invalid escape (which may lie in a
// password).
func parseError(err error) error {
	err = withoutURL(err)
	if _, ok := errors.AsType[url.EscapeError](err); ok {
		return errors.New("invalid URL: invalid escape")
	}
	return fmt.Errorf("invalid URL: %w", err)
}

// credentialsSplit reports whether raw has an '@' after the end of its
// authority (the first '/', '?' or '#' after "://"): a password or token
// holding one of those characters unescaped, which url.Parse would read
// as the port, the path or the query.
func credentialsSplit(raw string) bool {
	start := strings.Index(raw, "://") + len("://")
	end := strings.IndexAny(raw[start:], "/?#")
	if end < 0 {
		return false
	}
	return strings.Contains(raw[start+end:], "@")
}

// withoutURL is err with the URL a *url.Error quotes (password included)
// left out.
func withoutURL(err error) error {
	if ue, ok := errors.AsType[*url.Error](err); ok {
		return ue.Err
	}
	return err
}
