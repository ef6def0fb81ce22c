package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/internal/derive"
	"github.com/mcpgen/mcpgen/internal/jsonscan"
)

// PromptInfo is what a prompt declares besides its function.
type PromptInfo struct {
	Name, Title, Description string
	Icons                    []mcp.Icon
	// Meta is the prompt definition's _meta.
	Meta map[string]any
	// Scopes are the OAuth scopes a caller's token needs to get the prompt
	// (see ToolInfo.Scopes).
	Scopes []string
	// Arguments are the prompt's arguments, one per string field of In by
	// its JSON name; `mcpgen tools` writes them at build time. When nil,
	// they are derived from In at start-up if the program links package
	// argschema (map[string]string takes any arguments).
	Arguments []PromptArgument
	// Complete, when set, completes the prompt's arguments
	// (completion/complete); `mcpgen tools` sets it from the directive's
	// complete= method, which runs on the server value and so reaches its
	// state. Without it, an In implementing Completer completes them.
	Complete func(ctx context.Context, argument, value string, context map[string]string) ([]string, error)
}

// PromptArgument is one argument of a prompt.
type PromptArgument = derive.PromptArg

// Prompt is a prompt ready to register, made by NewPrompt.
type Prompt struct{ p *promptImpl }

type promptImpl struct {
	entry    // key: the name; def: the encoded Prompt definition
	required []string
	declared map[string]bool // argument names; nil: any (map[string]string)
	run      func(ctx context.Context, args map[string]string) (any, error)
	complete func(ctx context.Context, arg, value string, context map[string]string) ([]string, error)
}

type promptWire struct {
	Name        string           `json:"name"`
	Title       string           `json:"title,omitzero"`
	Description string           `json:"description,omitzero"`
	Arguments   []PromptArgument `json:"arguments,omitzero"`
	Icons       []mcp.Icon       `json:"icons,omitzero"`
	Meta        map[string]any   `json:"_meta,omitzero"`
}

// Completer is an optional interface of a prompt's or template's Vars/In
// struct value: argument completion for completion/complete. context holds
// the arguments the client already resolved.
type Completer interface {
	Complete(ctx context.Context, argument, value string, context map[string]string) ([]string, error)
}

// completerOf returns the Completer of T's zero value (or of *T), or nil.
func completerOf[T any]() Completer {
	var zero T
	if c, ok := any(zero).(Completer); ok {
		return c
	}
	if c, ok := any(&zero).(Completer); ok {
		return c
	}
	return nil
}

// NewPrompt binds a typed function as a prompt; the fields of In (strings)
// are its arguments (argschema.PromptArguments: `jsonschema:"required"` makes
// one required; map[string]string takes any arguments). A missing required
// argument is -32602. Out may be *mcp.GetPromptResult, []mcp.PromptMessage
// or string (one user message). An error from fn is a JSON-RPC error
// (-32603 with its text unless it is a *jsonrpc.Error); *InputRequiredError
// from Ask becomes an InputRequiredResult.
func NewPrompt[In, Out any](info PromptInfo, fn func(ctx context.Context, in In) (Out, error)) Prompt {
	p := &promptImpl{entry: newEntry("prompt", info.Name, info.Scopes)}
	fail := func(err error) Prompt {
		p.err = fmt.Errorf("prompt %q: %w", info.Name, err)
		return Prompt{p}
	}
	if info.Name == "" {
		return fail(errors.New("a prompt needs a name"))
	}
	if fn == nil {
		return fail(errors.New("nil function"))
	}
	inType := reflect.TypeFor[In]()
	args := info.Arguments
	if inType != reflect.TypeFor[map[string]string]() {
		if args == nil && !(inType.Kind() == reflect.Struct && inType.NumField() == 0) {
			if derive.PromptArguments == nil {
				return fail(fmt.Errorf("no arguments for %s: run `mcpgen tools` (go generate), which writes PromptInfo.Arguments at build time, or import _ \"github.com/mcpgen/mcpgen/argschema\" to derive them at start-up", inType))
			}
			var err error
			if args, err = derive.PromptArguments(inType); err != nil {
				return fail(err)
			}
		}
		p.declared = map[string]bool{}
	}
	for _, a := range args {
		if p.declared != nil {
			p.declared[a.Name] = true
		}
		if a.Required {
			p.required = append(p.required, a.Name)
		}
	}
	var err error
	if p.def, err = json.Marshal(promptWire{Name: info.Name, Title: info.Title, Description: info.Description,
		Arguments: args, Icons: info.Icons, Meta: info.Meta}); err != nil {
		return fail(err)
	}
	if info.Complete != nil {
		p.complete = info.Complete
	} else if c := completerOf[In](); c != nil {
		p.complete = c.Complete
	}
	p.run = func(ctx context.Context, argv map[string]string) (any, error) {
		var in In
		if p.declared != nil {
			argv = exactArguments(argv, p.declared)
		}
		if len(argv) > 0 {
			b, err := json.Marshal(argv)
			if err != nil {
				return nil, err
			}
			if err := json.Unmarshal(b, &in); err != nil {
				return nil, invalidParams("params.arguments: " + err.Error())
			}
		}
		out, err := fn(ctx, in)
		if err != nil {
			return nil, err
		}
		switch o := any(out).(type) {
		case *mcp.GetPromptResult:
			if o == nil {
				return &mcp.GetPromptResult{}, nil
			}
			return o, nil
		case []mcp.PromptMessage:
			return &mcp.GetPromptResult{Messages: o}, nil
		case string:
			return &mcp.GetPromptResult{Messages: []mcp.PromptMessage{{Role: mcp.RoleUser, Content: &mcp.TextContent{Text: o}}}}, nil
		}
		return nil, fmt.Errorf("prompt %q returned %T; want *mcp.GetPromptResult, []mcp.PromptMessage or string", info.Name, out)
	}
	return Prompt{p}
}

// exactArguments keeps the arguments whose names are declared exactly:
// encoding/json would fill a field from "City" or "CITY" as well as from
// "city", which the declared argument list never named.
func exactArguments(argv map[string]string, declared map[string]bool) map[string]string {
	for k := range argv {
		if !declared[k] {
			kept := make(map[string]string, len(argv))
			for k, v := range argv {
				if declared[k] {
					kept[k] = v
				}
			}
			return kept
		}
	}
	return argv
}

// promptRegistry holds the registered prompts.
type promptRegistry struct{ catalog[*promptImpl] }

func (g *promptRegistry) init(s *Server) {
	g.catalog.init(s, changePrompts, itemKind{noun: "prompt", typ: "Prompt", key: "prompt name"})
}

func (g *promptRegistry) hasCompleter() bool {
	for _, p := range g.set.Load().list {
		if p.complete != nil {
			return true
		}
	}
	return false
}

func (g *promptRegistry) add(prompts []Prompt) error {
	return g.catalog.add(impls(prompts, func(p Prompt) *promptImpl { return p.p }))
}

// AddPrompts adds (or replaces) prompts at run time and notifies listeners
// (notifications/prompts/list_changed).
func (s *Server) AddPrompts(prompts ...Prompt) error {
	return s.announce(ChangePrompts, s.prompts.add(prompts))
}

// RemovePrompts removes prompts by name and notifies listeners.
func (s *Server) RemovePrompts(names ...string) {
	if s.prompts.remove(names) {
		s.broadcast(ChangePrompts, "", "")
	}
}

func (g *promptRegistry) list(ctx context.Context, r *request, p *requestParams, _ json.RawMessage) (any, error) {
	return g.set.Load().page(g.s, r, p, "prompts")
}

func (g *promptRegistry) get(ctx context.Context, r *request, p *requestParams, _ json.RawMessage) (any, error) {
	name, err := p.nameParam()
	if c := r.rounds().identity; c != nil && c.pending {
		// The requestState's comparison prepareMRTR left for the reading
		// of the arguments: made first, as there (mrtr_prompt.go).
		args, aerr := promptArguments(p.arguments)
		if rerr := r.settlePromptState(args, err == nil && aerr == nil); rerr != nil {
			return nil, rerr
		}
		if err == nil {
			err = aerr
		}
		if err != nil {
			return nil, err
		}
		return g.getPrompt(ctx, name, args)
	}
	if err != nil {
		return nil, err
	}
	args, err := promptArguments(p.arguments)
	if err != nil {
		return nil, err
	}
	return g.getPrompt(ctx, name, args)
}

// promptArguments decodes params.arguments, an object of strings (absent or
// null: none). A value that is not a string, null included, is refused
// naming its argument: encoding/json would read null as "", which passes
// a required argument's check. An argument named twice is refused as
// every other repeated member is (README "How a request flows"):
// encoding/json would keep the last value, while a reader taking the
// first (an interceptor auditing params) would see another prompt.
func promptArguments(raw json.RawMessage) (map[string]string, error) {
	if jsonscan.IsNullOrAbsent(raw) {
		return nil, nil
	}
	args := map[string]string{}
	var bad string
	var notString bool
	dup, repeated, ok := jsonscan.Members(raw, func(key, value []byte) {
		var s string
		if jsonscan.Kind(value) != '"' || json.Unmarshal(value, &s) != nil {
			if !notString {
				bad, notString = string(key), true
			}
			return
		}
		args[string(key)] = s
	})
	switch {
	case !ok:
		return nil, invalidParams("params.arguments must be an object of strings")
	case repeated:
		return nil, invalidParams("params.arguments: duplicate member " + strconv.Quote(dup))
	case notString:
		return nil, invalidParams(fmt.Sprintf("params.arguments.%s must be a string", bad))
	}
	return args, nil
}

func (g *promptRegistry) getPrompt(ctx context.Context, name string, args map[string]string) (any, error) {
	pr := g.catalog.get(name)
	if pr == nil || g.s.hidden(ctx, &pr.entry) {
		return nil, invalidParams(fmt.Sprintf("Unknown prompt: %q", name))
	}
	if err := checkScopes(ctx, pr.scopes); err != nil {
		return nil, err
	}
	for _, req := range pr.required {
		if _, ok := args[req]; !ok {
			return nil, invalidParams(fmt.Sprintf("prompt %q: missing required argument %q", name, req))
		}
	}
	return pr.run(ctx, args)
}

// ListPrompts implements mcp.PromptsHandler over the registry.
func (g *promptRegistry) ListPrompts(ctx context.Context, params *mcp.PaginatedRequestParams) (*mcp.ListPromptsResult, error) {
	page, next, err := decodePage[mcp.Prompt](g.set.Load().visible(ctx, g.s), "prompts", params.Cursor, g.s.pageSize)
	if err != nil {
		return nil, err
	}
	return &mcp.ListPromptsResult{Prompts: page, NextCursor: next}, nil
}

// GetPrompt implements mcp.PromptsHandler over the registry.
func (g *promptRegistry) GetPrompt(ctx context.Context, params *mcp.GetPromptRequestParams) (mcp.GetPromptOutcome, error) {
	out, err := g.getPrompt(ctx, params.Name, params.Arguments)
	if err != nil {
		return nil, err
	}
	return out.(*mcp.GetPromptResult), nil
}

var _ mcp.PromptsHandler = (*promptRegistry)(nil)
