package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/term"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

// terminalElicit answers elicitation/create by asking on the terminal: the
// server's message, then one line per requested field (Enter keeps the
// default or skips an optional field). When stdin is not a terminal the
// request is declined.
func terminalElicit(in *os.File, out io.Writer) func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	var lines *bufio.Reader
	return func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		if !term.IsTerminal(int(in.Fd())) {
			fmt.Fprintln(out, "mcpgen call: the server asks for input, but stdin is not a terminal: declined")
			return &mcp.ElicitResult{Action: "decline"}, nil
		}
		if lines == nil {
			lines = bufio.NewReader(in)
		}
		return askElicitation(lines, out, req)
	}
}

// elicitField is a requested field as the form describes it.
type elicitField struct {
	Type        string          `json:"type"`
	Title       string          `json:"title"`
	Description string          `json:"description"`
	Default     json.RawMessage `json:"default"`
	Enum        []string        `json:"enum"`
}

func askElicitation(lines *bufio.Reader, out io.Writer, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	switch p := req.Params.(type) {
	case *mcp.ElicitRequestURLParams:
		fmt.Fprintf(out, "The server asks you to open %s\n%s\nDone? [y/N] ", p.URL, p.Message)
		if answer := readLine(lines); strings.EqualFold(answer, "y") || strings.EqualFold(answer, "yes") {
			return &mcp.ElicitResult{Action: "accept"}, nil
		}
		return &mcp.ElicitResult{Action: "decline"}, nil
	case *mcp.ElicitRequestFormParams:
		fmt.Fprintf(out, "The server asks: %s\n", p.Message)
		raw, err := json.Marshal(p.RequestedSchema)
		if err != nil {
			return nil, err
		}
		var schema struct {
			Properties map[string]elicitField `json:"properties"`
			Required   []string               `json:"required"`
		}
		if err := json.Unmarshal(raw, &schema); err != nil {
			return nil, err
		}
		names := make([]string, 0, len(schema.Properties))
		for n := range schema.Properties {
			names = append(names, n)
		}
		sort.Strings(names)
		content := map[string]mcp.ElicitResultContentValue{}
		for _, n := range names {
			f := schema.Properties[n]
			required := contains(schema.Required, n)
			for {
				fmt.Fprint(out, fieldPrompt(n, f, required))
				answer := readLine(lines)
				if answer == "" && len(f.Default) > 0 {
					var v any
					_ = json.Unmarshal(f.Default, &v)
					content[n] = v
					break
				}
				if answer == "" && !required {
					break
				}
				v, err := fieldValue(f, answer)
				if err != nil {
					fmt.Fprintf(out, "  %v\n", err)
					continue
				}
				content[n] = v
				break
			}
		}
		fmt.Fprint(out, "Send? [Y/n/cancel] ")
		switch strings.ToLower(readLine(lines)) {
		case "", "y", "yes":
			return &mcp.ElicitResult{Action: "accept", Content: content}, nil
		case "cancel":
			return &mcp.ElicitResult{Action: "cancel"}, nil
		}
		return &mcp.ElicitResult{Action: "decline"}, nil
	}
	return &mcp.ElicitResult{Action: "decline"}, nil
}

func fieldPrompt(name string, f elicitField, required bool) string {
	label := name
	if f.Title != "" {
		label = f.Title
	}
	s := "  " + label
	if f.Type != "" {
		s += " (" + f.Type + ")"
	}
	if len(f.Enum) > 0 {
		s += " [" + strings.Join(f.Enum, "|") + "]"
	}
	if len(f.Default) > 0 {
		s += " default " + string(f.Default)
	}
	if !required {
		s += " optional"
	}
	if f.Description != "" {
		s += " — " + f.Description
	}
	return s + ": "
}

func fieldValue(f elicitField, answer string) (any, error) {
	if len(f.Enum) > 0 && !contains(f.Enum, answer) {
		return nil, fmt.Errorf("want one of %s", strings.Join(f.Enum, ", "))
	}
	switch f.Type {
	case "boolean":
		b, err := strconv.ParseBool(answer)
		if err != nil {
			return nil, fmt.Errorf("want true or false")
		}
		return b, nil
	case "integer":
		n, err := strconv.ParseInt(answer, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("want an integer")
		}
		return n, nil
	case "number":
		n, err := strconv.ParseFloat(answer, 64)
		if err != nil {
			return nil, fmt.Errorf("want a number")
		}
		return n, nil
	}
	return answer, nil
}

func readLine(r *bufio.Reader) string {
	s, _ := r.ReadString('\n')
	return strings.TrimSpace(s)
}
