package main

import (
	"strings"
	"testing"
)

func TestResourcesList(t *testing.T) {
	srv := testServer(t)
	resp, _ := rawCall(t, srv, "resources/list", nil, nil)
	res := mustResult(t, "resources/list", resp)
	if res["ttlMs"] != 0.0 || res["cacheScope"] != "public" || res["resultType"] != "complete" {
		t.Errorf("resources/list: ttlMs %v cacheScope %v resultType %v", res["ttlMs"], res["cacheScope"], res["resultType"])
	}
	want := map[string]string{
		"test://static-text":      `{"uri":"test://static-text","name":"static-text","mimeType":"text/plain"}`,
		"test://static-binary":    `{"uri":"test://static-binary","name":"static-binary","mimeType":"image/png"}`,
		"test://watched-resource": `{"uri":"test://watched-resource","name":"watched-resource","mimeType":"text/plain"}`,
	}
	var list []any
	skillFiles := 0
	for _, x := range res["resources"].([]any) {
		if uri, _ := x.(map[string]any)["uri"].(string); strings.HasPrefix(uri, "skill://") {
			skillFiles++ // skills_test.go checks them
			continue
		}
		list = append(list, x)
	}
	if skillFiles != 5 {
		t.Errorf("resources/list has %d skill:// resources, want 5", skillFiles)
	}
	if len(list) != len(want) {
		t.Errorf("resources/list has %d resources, want %d", len(list), len(want))
	}
	for _, x := range list {
		r := x.(map[string]any)
		uri, _ := r["uri"].(string)
		w, ok := want[uri]
		if !ok {
			t.Errorf("unexpected resource %v", r)
			continue
		}
		if d, _ := r["description"].(string); d == "" {
			t.Errorf("%s has no description", uri)
		}
		equalJSON(t, uri, map[string]any{"uri": r["uri"], "name": r["name"], "mimeType": r["mimeType"]}, w)
		// Every listed resource is readable (caching reads resources[0]).
		read, _ := rawCall(t, srv, "resources/read", map[string]any{"uri": uri}, nil)
		mustResult(t, "read "+uri, read)
	}
}

func TestResourcesRead(t *testing.T) {
	srv := testServer(t)
	cases := []struct{ uri, contents string }{
		{"test://static-text", `[{"uri":"test://static-text","mimeType":"text/plain","text":"This is the content of the static text resource."}]`},
		{"test://static-binary", `[{"uri":"test://static-binary","mimeType":"image/png","blob":"` + pngBase64 + `"}]`},
		{"test://watched-resource", `[{"uri":"test://watched-resource","mimeType":"text/plain","text":"Watched resource content"}]`},
	}
	for _, c := range cases {
		resp, _ := rawCall(t, srv, "resources/read", map[string]any{"uri": c.uri}, nil)
		res := mustResult(t, c.uri, resp)
		if res["ttlMs"] != 0.0 || res["cacheScope"] != "public" || res["resultType"] != "complete" {
			t.Errorf("%s: ttlMs %v cacheScope %v resultType %v", c.uri, res["ttlMs"], res["cacheScope"], res["resultType"])
		}
		equalJSON(t, c.uri+" contents", res["contents"], c.contents)
	}
}

func TestResourceTemplate(t *testing.T) {
	srv := testServer(t)
	resp, _ := rawCall(t, srv, "resources/templates/list", nil, nil)
	res := mustResult(t, "resources/templates/list", resp)
	if res["ttlMs"] != 0.0 || res["cacheScope"] != "public" {
		t.Errorf("templates/list: ttlMs %v cacheScope %v", res["ttlMs"], res["cacheScope"])
	}
	list := res["resourceTemplates"].([]any)
	if len(list) != 1 {
		t.Fatalf("resourceTemplates %v, want one", list)
	}
	tmpl := list[0].(map[string]any)
	equalJSON(t, "template", map[string]any{"uriTemplate": tmpl["uriTemplate"], "name": tmpl["name"], "mimeType": tmpl["mimeType"]},
		`{"uriTemplate":"test://template/{id}/data","name":"template","mimeType":"application/json"}`)

	resp, _ = rawCall(t, srv, "resources/read", map[string]any{"uri": "test://template/123/data"}, nil)
	res = mustResult(t, "template read", resp)
	if res["ttlMs"] != 0.0 || res["cacheScope"] != "public" || res["resultType"] != "complete" {
		t.Errorf("template read: ttlMs %v cacheScope %v resultType %v", res["ttlMs"], res["cacheScope"], res["resultType"])
	}
	contents := res["contents"].([]any)
	if len(contents) != 1 {
		t.Fatalf("contents %v", contents)
	}
	c := contents[0].(map[string]any)
	if c["uri"] != "test://template/123/data" || c["mimeType"] != "application/json" {
		t.Errorf("contents[0] = %v", c)
	}
	text, _ := c["text"].(string)
	equalJSON(t, "template text", strings.TrimSpace(text), `{"id":"123","templateTest":true,"data":"Data for ID: 123"}`)
}

func TestResourceNotFound(t *testing.T) {
	srv := testServer(t)
	const uri = "test://nonexistent-resource-for-conformance-testing"
	resp, _ := rawCall(t, srv, "resources/read", map[string]any{"uri": uri}, nil)
	if resp.Error == nil || resp.Error.Code != -32602 {
		t.Fatalf("unknown resource: %s, want error -32602", jsonText(t, resp))
	}
	equalJSON(t, "error data", resp.Error.Data, map[string]any{"uri": uri})
}
