package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/internal/jsonscan"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// extensionSet holds the server's extensions, fixed at New: the built-in
// tasks extension and Options.Extensions.
type extensionSet struct {
	list    []*extensionImpl
	methods map[string]*extensionMethod
}

type extensionImpl struct {
	Extension
	settings mcp.JSONObject // decoded Settings, never nil
}

type extensionMethod struct {
	ext *extensionImpl
	m   *methodImpl
}

// coreMethod reports whether name is a method of the protocol itself
// (any request or notification of the revision's schema, or one it
// removed), which an extension may not take.
func coreMethod(name string) bool {
	_, ok := mcp.LookupMethod(name)
	return ok || isRemovedMethod(name)
}

// add registers extensions, reporting every mistake.
func (x *extensionSet) add(exts []Extension) error {
	var errs []error
	if x.methods == nil {
		x.methods = map[string]*extensionMethod{}
	}
	for i, e := range exts {
		fail := func(format string, args ...any) {
			errs = append(errs, fmt.Errorf("server: extension %d (%q): %s", i, e.ID, fmt.Sprintf(format, args...)))
		}
		if e.ID == "" {
			fail("an extension needs an ID")
			continue
		}
		if err := validExtensionID(e.ID); err != nil {
			fail("%v", err)
			continue
		}
		if x.byID(e.ID) != nil {
			fail("duplicate extension ID")
			continue
		}
		impl := &extensionImpl{Extension: e, settings: mcp.JSONObject{}}
		if e.Settings != nil {
			b, err := json.Marshal(e.Settings)
			if err == nil && jsonscan.Kind(b) != '{' {
				err = errors.New("it does not encode to a JSON object")
			}
			if err == nil {
				err = json.Unmarshal(b, &impl.settings)
			}
			if err != nil {
				fail("Settings: %v", err)
				continue
			}
		}
		for _, f := range e.Requires {
			if f != "tools" && f != "prompts" && f != "resources" {
				fail("Requires %q: must be \"tools\", \"prompts\" or \"resources\"", f)
			}
		}
		for j, em := range e.Methods {
			switch {
			case em.m == nil:
				fail("method %d is the zero ExtensionMethod (use NewMethod)", j)
			case em.m.err != nil:
				fail("%v", em.m.err)
			case coreMethod(em.m.info.Name):
				fail("method %q is a core method", em.m.info.Name)
			case x.methods[em.m.info.Name] != nil:
				fail("method %q is already served by extension %q", em.m.info.Name, x.methods[em.m.info.Name].ext.ID)
			default:
				x.methods[em.m.info.Name] = &extensionMethod{ext: impl, m: em.m}
			}
		}
		x.list = append(x.list, impl)
	}
	return errors.Join(errs...)
}

func (x *extensionSet) byID(id string) *extensionImpl {
	for _, e := range x.list {
		if e.ID == id {
			return e
		}
	}
	return nil
}

// offered reports whether the server offers extension e right now.
func (s *Server) extensionOffered(e *extensionImpl) bool {
	for _, f := range e.Requires {
		if !s.offers(f) {
			return false
		}
	}
	return e.Offered == nil || e.Offered()
}

// extensionCapabilities is capabilities.extensions: the settings of every
// extension offered now; nil when none is.
func (s *Server) extensionCapabilities() map[string]mcp.JSONObject {
	var out map[string]mcp.JSONObject
	for _, e := range s.extensions.list {
		if s.extensionOffered(e) {
			if out == nil {
				out = map[string]mcp.JSONObject{}
			}
			out[e.ID] = e.settings
		}
	}
	return out
}

// servesLegacy reports whether method is an extension method served in
// initialize-era sessions.
func (s *Server) servesLegacy(method string) bool {
	em := s.extensions.methods[method]
	return em != nil && em.ext.Legacy
}

// extensionRoute returns the route of an extension method, nil (-32601)
// when no offered extension has it.
func (s *Server) extensionRoute(method string) routeFunc {
	em := s.extensions.methods[method]
	if em == nil || !s.extensionOffered(em.ext) {
		return nil
	}
	return func(ctx context.Context, r *request, _ *requestParams, params json.RawMessage) (any, error) {
		if em.ext.ClientMustDeclare {
			need := mcp.ClientCapabilities{Extensions: map[string]mcp.JSONObject{em.ext.ID: {}}}
			if err := RequireCapabilities(ctx, need); err != nil {
				return nil, err
			}
		}
		out, err := em.m.call(ctx, withoutMeta(params))
		if err != nil {
			return nil, err
		}
		b, err := json.Marshal(out)
		if err != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "Internal error: encoding the result: " + err.Error()}
		}
		if jsonscan.Kind(b) != '{' {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "Internal error: the " + method + " result is not a JSON object"}
		}
		return rawResult(s.completeResult(r, b, em.m.info.Cacheable)), nil
	}
}

// withoutMeta returns params without its _meta member (checked by serve);
// params without _meta are returned as they are.
func withoutMeta(params json.RawMessage) json.RawMessage {
	has := false
	jsonscan.EachMember(params, func(key, _ []byte) {
		if jsonscan.KeyEquals(key, "_meta") {
			has = true
		}
	})
	if !has {
		return params
	}
	out := make([]byte, 0, len(params))
	out = append(out, '{')
	jsonscan.EachMember(params, func(key, value []byte) {
		if jsonscan.KeyEquals(key, "_meta") {
			return
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(append(append(append(out, '"'), key...), `":`...), value...)
	})
	return append(out, '}')
}

// completeResult adds to an encoded result object what every result
// carries: resultType "complete" unless set, serverInfo in _meta (merged
// into the result's own _meta) and, when cacheable, ttlMs and cacheScope
// from the request's cache policy unless set.
func (s *Server) completeResult(r *request, b []byte, cacheable bool) []byte {
	var hasType, hasTTL, hasScope, hasInfo bool
	var meta []byte
	jsonscan.EachMember(b, func(key, value []byte) {
		switch {
		case jsonscan.KeyEquals(key, "resultType"):
			hasType = true
		case jsonscan.KeyEquals(key, "ttlMs"):
			hasTTL = true
		case jsonscan.KeyEquals(key, "cacheScope"):
			hasScope = true
		case jsonscan.KeyEquals(key, "_meta"):
			meta = value
		}
	})
	if jsonscan.Kind(meta) == '{' {
		jsonscan.EachMember(meta, func(key, _ []byte) {
			if jsonscan.KeyEquals(key, keyServerInfo) {
				hasInfo = true
			}
		})
	}
	out := make([]byte, 0, len(b)+len(s.metaJSON)+64)
	out = append(out, '{')
	jsonscan.EachMember(b, func(key, value []byte) {
		if jsonscan.KeyEquals(key, "_meta") {
			return
		}
		out = append(append(append(append(out, '"'), key...), `":`...), value...)
		out = append(out, ',')
	})
	if !hasType {
		out = append(out, `"resultType":"complete",`...)
	}
	if cacheable {
		p := r.policy()
		if !hasTTL {
			out = strconv.AppendInt(append(out, `"ttlMs":`...), p.TTLMs, 10)
			out = append(out, ',')
		}
		if !hasScope {
			out = append(append(append(out, `"cacheScope":"`...), p.Scope...), `",`...)
		}
	}
	out = append(out, `"_meta":`...)
	switch {
	case jsonscan.Kind(meta) != '{':
		out = append(out, s.metaJSON...)
	case hasInfo:
		out = append(out, meta...)
	default:
		out = append(out, s.metaJSON[:len(s.metaJSON)-1]...)
		if rest := trimObjectOpen(meta); len(rest) > 0 && rest[0] != '}' {
			out = append(out, ',')
		}
		out = append(out, trimObjectOpen(meta)...)
	}
	return append(out, '}')
}

// trimObjectOpen returns an encoded object after its '{' and any space.
func trimObjectOpen(obj []byte) []byte {
	i := 0
	for i < len(obj) && obj[i] != '{' {
		i++
	}
	i++
	for i < len(obj) && (obj[i] == ' ' || obj[i] == '\t' || obj[i] == '\n' || obj[i] == '\r') {
		i++
	}
	return obj[i:]
}

// withLegacyExtensions adds capabilities.extensions to an encoded 2025-11-25
// initialize result, for the extensions served in legacy sessions (Legacy)
// and offered now. 2025-11-25 has no such member, but its schema allows
// it, and clients that backport extensions (the TypeScript SDK's skills
// client) look for it there; older revisions get the result unchanged.
func (s *Server) withLegacyExtensions(result []byte, version string) []byte {
	if version != "2025-11-25" {
		return result
	}
	exts := map[string]mcp.JSONObject{}
	for _, e := range s.extensions.list {
		if e.Legacy && s.extensionOffered(e) {
			exts[e.ID] = e.settings
		}
	}
	if len(exts) == 0 {
		return result
	}
	var res map[string]json.RawMessage
	var caps map[string]json.RawMessage
	if json.Unmarshal(result, &res) != nil || json.Unmarshal(res["capabilities"], &caps) != nil || caps == nil {
		return result
	}
	var err error
	if caps["extensions"], err = marshalRaw(exts); err != nil {
		return result
	}
	if res["capabilities"], err = marshalRaw(caps); err != nil {
		return result
	}
	out, err := marshalRaw(res)
	if err != nil {
		return result
	}
	return out
}

// validExtensionID checks an extension identifier: it follows the _meta key
// naming rules with a mandatory prefix (basic/versioning.mdx, "Extension
// Negotiation"; the rules in basic/index.mdx): dot-separated labels that
// start with a letter and end with a letter or digit (hyphens inside), a
// slash, and a non-empty name that starts and ends with a letter or digit
// (hyphens, underscores and dots inside).
func validExtensionID(id string) error {
	const want = "the ID must be a vendor prefix and a name, like \"com.example/notes\" (SEP-2133)"
	if prefix, name, ok := strings.Cut(id, "/"); !ok || prefix == "" || name == "" {
		return errors.New(want)
	}
	if err := validateMetaKey(id); err != nil {
		return fmt.Errorf("%s: %w", want, err)
	}
	return nil
}

// validateMetaKey is mcp.ValidateMetaKey (generated/mcp/support.go), the
// same checks and errors (TestValidateMetaKeyIsTheGeneratedOne). A copy
// because it is all of the generated package's support code that a server
// runs at start-up (registering the tasks extension): calling the original
// kept a 64 KiB stretch of the binary's text resident for one call (the
// kernel maps a file fault's whole 64 KiB neighbourhood).
func validateMetaKey(key string) error {
	prefix, name, hasPrefix := strings.Cut(key, "/")
	if !hasPrefix {
		prefix, name = "", key
	} else if strings.Contains(name, "/") {
		return fmt.Errorf("_meta key %q: only one slash may separate prefix and name", key)
	}
	if hasPrefix {
		if prefix == "" {
			return fmt.Errorf("_meta key %q: empty prefix before the slash", key)
		}
		for label := range strings.SplitSeq(prefix, ".") {
			if !validMetaLabel(label) {
				return fmt.Errorf("_meta key %q: prefix label %q must start with a letter, end with a letter or digit, and contain only letters, digits and hyphens", key, label)
			}
		}
	}
	if name == "" {
		return nil
	}
	if !isASCIIAlnum(name[0]) || !isASCIIAlnum(name[len(name)-1]) {
		return fmt.Errorf("_meta key %q: name must start and end with a letter or digit", key)
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; !isASCIIAlnum(c) && c != '-' && c != '_' && c != '.' {
			return fmt.Errorf("_meta key %q: name may contain only letters, digits, '-', '_' and '.'", key)
		}
	}
	return nil
}

func validMetaLabel(label string) bool {
	if label == "" || !isASCIILetter(label[0]) || !isASCIIAlnum(label[len(label)-1]) {
		return false
	}
	for i := 0; i < len(label); i++ {
		if c := label[i]; !isASCIIAlnum(c) && c != '-' {
			return false
		}
	}
	return true
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isASCIIAlnum(c byte) bool  { return isASCIILetter(c) || c >= '0' && c <= '9' }
