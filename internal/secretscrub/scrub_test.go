package secretscrub

import (
	"errors"
	"testing"
)

func TestErrorReplacesSecretsLongestFirst(t *testing.T) {
	err := errors.New(`dial redis://u:s3cret@h: s3cret-and-more refused`)
	got := Error(err, []string{"s3cret", "s3cret-and-more"}).Error()
	if want := `dial redis://u:xxxxx@h: xxxxx refused`; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	plain := errors.New("no secret here")
	if Error(plain, []string{"s3cret"}) != plain {
		t.Error("an error without a secret is not returned as is")
	}
}

func TestReplaceShortSecretOnlyAsAWord(t *testing.T) {
	for _, c := range []struct{ text, secret, want string }{
		{"no servers available", "b", "no servers available"},
		{"password b refused", "b", "password xxxxx refused"},
		{"token abcd in abcdx", "abcd", "token xxxxx in xxxxxx"},
	} {
		if got := Replace(c.text, c.secret, "xxxxx"); got != c.want {
			t.Errorf("Replace(%q, %q) = %q, want %q", c.text, c.secret, got, c.want)
		}
	}
}
