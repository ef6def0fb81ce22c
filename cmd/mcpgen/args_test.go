package main

import (
	"flag"
	"io"
	"slices"
	"testing"
)

func TestParseArgs(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		pos     []string
		out     string
		json    bool
		wantErr bool
	}{
		{args: []string{"a", "b"}, pos: []string{"a", "b"}},
		{args: []string{"--out", "x", "a"}, pos: []string{"a"}, out: "x"},
		{args: []string{"a", "--out", "x", "b"}, pos: []string{"a", "b"}, out: "x"},
		{args: []string{"a", "b", "--out=x", "--json"}, pos: []string{"a", "b"}, out: "x", json: true},
		{args: []string{"-out", "x", "-json", "a"}, pos: []string{"a"}, out: "x", json: true},
		{args: []string{"--json", "a"}, pos: []string{"a"}, json: true}, // a bool takes no value
		{args: []string{"--json=false", "a"}, pos: []string{"a"}},
		{args: []string{"a", "--", "--out", "-"}, pos: []string{"a", "--out", "-"}},
		{args: []string{"-", "a"}, pos: []string{"-", "a"}},
		{args: []string{"--out"}, wantErr: true},       // missing value
		{args: []string{"a", "--nope"}, wantErr: true}, // unknown flag
		{args: []string{"--json=maybe"}, wantErr: true},
		{args: nil},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		out := fs.String("out", "", "")
		asJSON := fs.Bool("json", false, "")
		pos, err := parseArgs(fs, tc.args)
		if (err != nil) != tc.wantErr {
			t.Errorf("parseArgs(%q) err = %v, want error %v", tc.args, err, tc.wantErr)
			continue
		}
		if tc.wantErr {
			continue
		}
		if !slices.Equal(pos, tc.pos) || *out != tc.out || *asJSON != tc.json {
			t.Errorf("parseArgs(%q) = %q out=%q json=%v; want %q out=%q json=%v", tc.args, pos, *out, *asJSON, tc.pos, tc.out, tc.json)
		}
	}
}

func TestParseArgsHelp(t *testing.T) {
	for _, arg := range []string{"-h", "--help", "-help"} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		if _, err := parseArgs(fs, []string{"a", arg}); err != flag.ErrHelp {
			t.Errorf("%s: err = %v, want flag.ErrHelp", arg, err)
		}
	}
}

func TestDefaultPackage(t *testing.T) {
	for out, want := range map[string]string{
		"generated/mcp":      "mcp",
		"internal/mcp2025":   "mcp2025",
		"out/my-package":     "mcp",
		"out/2026":           "mcp",
		"out/type":           "mcp", // a keyword
		"gen/":               "gen",
		"/tmp/x/protocol.v1": "mcp",
	} {
		if got := defaultPackage(out); got != want {
			t.Errorf("defaultPackage(%q) = %q, want %q", out, got, want)
		}
	}
}
