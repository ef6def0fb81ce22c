package client

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// OAuth documents (authorization server and protected resource metadata,
// token and registration responses) are read by exact member name, and
// one that names a member twice, in any object, is refused: encoding/json
// into a struct would match "Issuer" for issuer and keep the last of two
// "issuer" members, reading the identifiers RFC 8414 §3.3 and RFC 9728
// §3.3 require to be identical from members other readers ignore.

// oauthObject splits the JSON object data into its members by exact name,
// after refusing a member name repeated at any depth (checkNames).
func oauthObject(data []byte) (map[string]json.RawMessage, error) {
	if err := checkNames(data); err != nil {
		return nil, err
	}
	return exactMembers(data)
}

// decodeMembers sets each field of the struct *v from the member its json
// tag names, exactly, with encoding/json. Like json.Unmarshal it sets
// every field it can and returns the first member's error.
func decodeMembers(members map[string]json.RawMessage, v any) error {
	rv := reflect.ValueOf(v).Elem()
	rt := rv.Type()
	var first error
	for i := range rt.NumField() {
		name, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
		raw, ok := members[name]
		if !ok || name == "" || name == "-" {
			continue
		}
		if err := json.Unmarshal(raw, rv.Field(i).Addr().Interface()); err != nil && first == nil {
			first = fmt.Errorf("member %q: %w", name, err)
		}
	}
	return first
}

// decodeOAuthJSON decodes the JSON object data into the struct *v by
// exact member name (oauthObject, decodeMembers).
func decodeOAuthJSON(data []byte, v any) error {
	members, err := oauthObject(data)
	if err != nil {
		return err
	}
	return decodeMembers(members, v)
}
