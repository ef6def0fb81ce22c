package main

import (
	"slices"
	"testing"
)

func TestCompletion(t *testing.T) {
	srv := testServer(t)
	complete := func(prompt, arg, value string) []string {
		t.Helper()
		resp, _ := rawCall(t, srv, "completion/complete", map[string]any{
			"ref":      map[string]any{"type": "ref/prompt", "name": prompt},
			"argument": map[string]any{"name": arg, "value": value},
		}, nil)
		res := mustResult(t, "completion/complete", resp)
		if res["resultType"] != "complete" {
			t.Errorf("resultType %v", res["resultType"])
		}
		for _, k := range []string{"ttlMs", "cacheScope"} {
			if _, ok := res[k]; ok {
				t.Errorf("CompleteResult carries %s", k)
			}
		}
		completion, _ := res["completion"].(map[string]any)
		raw, ok := completion["values"].([]any)
		if !ok {
			t.Fatalf("completion.values = %v, want an array", completion["values"])
		}
		var out []string
		for _, v := range raw {
			out = append(out, v.(string))
		}
		return out
	}
	if got, want := complete("test_prompt_with_arguments", "arg1", "test"), []string{"test", "testValue1", "testing"}; !slices.Equal(got, want) {
		t.Errorf("arg1 test: %v, want %v", got, want)
	}
	if got, want := complete("test_prompt_with_arguments", "arg2", "v"), []string{"value2"}; !slices.Equal(got, want) {
		t.Errorf("arg2 v: %v, want %v", got, want)
	}
	if got := complete("test_prompt_with_arguments", "arg1", "zzz"); len(got) != 0 {
		t.Errorf("arg1 zzz: %v, want none", got)
	}
}

func TestDiscover(t *testing.T) {
	srv := testServer(t)
	resp, _ := rawCall(t, srv, "server/discover", nil, nil)
	res := mustResult(t, "server/discover", resp)
	if !slices.Contains(anyStrings(res["supportedVersions"]), "2026-07-28") {
		t.Errorf("supportedVersions %v lacks 2026-07-28", res["supportedVersions"])
	}
	caps, _ := res["capabilities"].(map[string]any)
	for _, k := range []string{"tools", "prompts", "resources", "completions"} {
		if caps[k] == nil {
			t.Errorf("capabilities lack %s: %v", k, caps)
		}
	}
	for _, k := range []string{"tools", "prompts"} {
		if c, _ := caps[k].(map[string]any); c["listChanged"] != true {
			t.Errorf("capabilities.%s.listChanged = %v, want true", k, c["listChanged"])
		}
	}
	info, _ := res["_meta"].(map[string]any)["io.modelcontextprotocol/serverInfo"].(map[string]any)
	if info["name"] != serverName || info["version"] != serverVersion {
		t.Errorf("serverInfo %v", info)
	}
}

func anyStrings(v any) []string {
	var out []string
	l, _ := v.([]any)
	for _, x := range l {
		s, _ := x.(string)
		out = append(out, s)
	}
	return out
}
