package natscluster

import (
	"errors"
	"net/url"
	"strings"
)

// redactURLs is a NATS server list (URLs separated by commas) fit for an
// error message: a password, or a token (a user without password, as
// NATS reads one), is replaced by "xxxxx", and an entry that does not
// parse is not quoted.
func redactURLs(servers string) string {
	parts := strings.Split(servers, ",")
	for i, part := range parts {
		parts[i] = redactURL(strings.TrimSpace(part))
	}
	return strings.Join(parts, ",")
}

func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(invalid URL)"
	}
	if u.User == nil {
		return u.String()
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	} else {
		u.User = url.User("xxxxx")
	}
	return u.String()
}

// withoutURL is err with the URL a *url.Error quotes (password included)
// left out.
func withoutURL(err error) error {
	if ue, ok := errors.AsType[*url.Error](err); ok {
		return ue.Err
	}
	return err
}
