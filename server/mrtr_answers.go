package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/internal/argcheck"
	"github.com/mcpgen/mcpgen/internal/jsonscan"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// The answers of a multi round-trip request (params.inputResponses, a
// task's tasks/update) are kept raw, by key, and decoded only when the
// handler asks for that key, as the result of the request it asked
// (decodeAnswer): the server knows what each key answers, so an answer is
// never guessed from its shape, and entries nobody asks for are ignored
// (mrtr.mdx: servers SHOULD ignore what they do not recognise). Built-in
// routes, Options.Handlers and tasks read them the same way.

// readAnswers reads params.inputResponses: an object mapping keys to
// answers, each kept raw (aliasing raw). It is -32602 when it is not an
// object or repeats a key (a reader keeping the first and one keeping the
// last would see different answers).
func readAnswers(raw []byte) (map[string]json.RawMessage, *jsonrpc.Error) {
	if jsonscan.IsNullOrAbsent(raw) {
		return nil, nil
	}
	var answers map[string]json.RawMessage
	dup, repeated, ok := jsonscan.Members(raw, func(key, value []byte) {
		if answers == nil {
			answers = map[string]json.RawMessage{}
		}
		answers[string(key)] = value
	})
	if !ok {
		return nil, invalidParams("inputResponses must be an object mapping keys to input responses")
	}
	if repeated {
		return nil, invalidParams("params.inputResponses: duplicate member " + strconv.Quote(dup))
	}
	return answers, nil
}

// cloneAnswers copies answers and their bytes, for a task that outlives the
// message they alias.
func cloneAnswers(answers map[string]json.RawMessage) map[string]json.RawMessage {
	if answers == nil {
		return nil
	}
	out := make(map[string]json.RawMessage, len(answers))
	for k, v := range answers {
		out[k] = append(json.RawMessage(nil), v...)
	}
	return out
}

// answerError is the -32602 for the answer under key that does not answer
// req.
func answerError(key string, req mcp.InputRequest, err error) *jsonrpc.Error {
	return invalidParams(fmt.Sprintf("inputResponses[%q] is not an answer to its %s request: %v", key, inputMethod(req), err))
}

// decodeAnswer decodes raw as the result of req (ElicitResult,
// CreateMessageResult, ListRootsResult); members the result does not
// declare are kept in its Extra and otherwise ignored. An elicitation's
// content is checked as schema.json types it and, for a form, against the
// requestedSchema (client/elicitation.mdx: servers SHOULD validate that
// the data matches the requested schema).
func decodeAnswer(req mcp.InputRequest, raw json.RawMessage) (mcp.InputResponse, error) {
	if jsonscan.Kind(raw) != '{' {
		return nil, errors.New("an input response must be an object")
	}
	switch q := req.(type) {
	case *mcp.ElicitRequest:
		return decodeElicitResult(q, raw)
	case *mcp.CreateMessageRequest:
		resp := new(mcp.CreateMessageResult)
		return resp, json.Unmarshal(raw, resp)
	case *mcp.ListRootsRequest:
		resp := new(mcp.ListRootsResult)
		return resp, json.Unmarshal(raw, resp)
	}
	return nil, fmt.Errorf("unsupported input request %T", req)
}

// decodeElicitResult decodes and checks the answer to an elicitation.
func decodeElicitResult(req *mcp.ElicitRequest, raw json.RawMessage) (mcp.InputResponse, error) {
	var content []byte
	jsonscan.EachMember(raw, func(key, value []byte) {
		if jsonscan.KeyEquals(key, "content") {
			content = value
		}
	})
	if jsonscan.IsNullOrAbsent(content) {
		content = nil // absent, as the decoder reads a null optional member
	} else if jsonscan.Kind(content) != '{' {
		return nil, errors.New("content: must be an object mapping field names to values")
	}
	resp := new(mcp.ElicitResult)
	if err := json.Unmarshal(raw, resp); err != nil {
		return nil, err
	}
	if err := checkElicitValues(resp.Content); err != nil {
		return nil, err
	}
	form, ok := req.Params.(*mcp.ElicitRequestFormParams)
	if !ok || resp.Action != "accept" {
		return resp, nil
	}
	v, err := elicitValidator(form)
	if err != nil {
		return nil, err
	}
	if content == nil {
		content = []byte("{}")
	}
	if _, err := v.Validate(content); err != nil {
		return nil, contentError(err)
	}
	return resp, nil
}

// contentError names each problem of a content that failed its
// requestedSchema by its pointer in the answer: content/name: ….
func contentError(err error) error {
	var ve *argcheck.ValidationError
	if !errors.As(err, &ve) {
		return fmt.Errorf("content: %w", err)
	}
	problems := make([]string, len(ve.Problems))
	for i, p := range ve.Problems {
		problems[i] = "content" + p.Pointer + ": " + p.Message
	}
	return errors.New("content does not match the requestedSchema: " + strings.Join(problems, "; "))
}

// checkElicitValues checks that every content value is a string, a number,
// a boolean or an array of strings (schema.json ElicitResult.content;
// a number, not only an integer, as a form's "number" field answers).
func checkElicitValues(content map[string]any) error {
	for name, value := range content {
		switch v := value.(type) {
		case string, float64, bool:
		case []any:
			for i, item := range v {
				if _, ok := item.(string); !ok {
					return fmt.Errorf("content.%s[%d]: must be a string", name, i)
				}
			}
		default:
			return fmt.Errorf("content.%s: must be a string, a number, a boolean or an array of strings", name)
		}
	}
	return nil
}

// elicitSchemas caches the validators of requested schemas by their text.
var elicitSchemas schemaCache[*argcheck.Validator]

// elicitValidator compiles form's requestedSchema, once per schema text.
func elicitValidator(form *mcp.ElicitRequestFormParams) (*argcheck.Validator, error) {
	schema, err := json.Marshal(form.RequestedSchema)
	if err != nil {
		return nil, err
	}
	return elicitSchemas.get(schema, func() (*argcheck.Validator, error) { return argcheck.Compile(schema) })
}

// withoutMember returns a copy of the JSON object obj without its member
// name (the other members as they came).
func withoutMember(obj []byte, name string) []byte {
	out := append(make([]byte, 0, len(obj)), '{')
	jsonscan.EachMember(obj, func(key, value []byte) {
		if jsonscan.KeyEquals(key, name) {
			return
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(append(append(append(out, '"'), key...), '"', ':'), value...)
	})
	return append(out, '}')
}

// answersView decodes answers by their shape, leaving out those that match
// no input response: what an Options.Handlers handler finds in its params'
// InputResponses. Ask decodes by the kind asked and is the authority.
func answersView(answers map[string]json.RawMessage) mcp.InputResponses {
	if answers == nil {
		return nil
	}
	view := make(mcp.InputResponses, len(answers))
	for k, raw := range answers {
		if resp, err := mcp.DecodeInputResponse(raw); err == nil {
			view[k] = resp
		}
	}
	return view
}
