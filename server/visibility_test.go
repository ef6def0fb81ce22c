package server

import (
	"context"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

// ResourceVisible answers as resources/read and resources/list do for the
// current request: false for a resource Options.Visible hides, true for a
// visible one, for a URI nothing serves, and outside a request.
func TestResourceVisibleFollowsOptionsVisible(t *testing.T) {
	read := func(context.Context) (*mcp.ReadResourceResult, error) { return &mcp.ReadResourceResult{}, nil }
	type checkParams struct {
		URI string `json:"uri"`
	}
	type checkResult struct {
		Visible bool `json:"visible"`
	}
	s, err := New(Options{
		Name: "vis-test",
		Resources: []Resource{
			NewResource(ResourceInfo{URI: "test://shown", Name: "shown"}, read),
			NewResource(ResourceInfo{URI: "test://hidden", Name: "hidden"}, read),
		},
		Visible: func(_ context.Context, it Item) bool { return !strings.Contains(it.Name, "hidden") },
		Extensions: []Extension{{ID: "com.example/vis", Methods: []ExtensionMethod{
			NewMethod(MethodInfo{Name: "vis/check"}, func(ctx context.Context, p checkParams) (*checkResult, error) {
				return &checkResult{Visible: ResourceVisible(ctx, p.URI)}, nil
			}),
		}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	for uri, want := range map[string]bool{"test://shown": true, "test://hidden": false, "test://nothing": true} {
		r := rpc(t, s, "vis/check", `{"uri":"`+uri+`"}`)
		wantResult(t, r)
		if got := strings.Contains(string(r.Result), `"visible":true`); got != want {
			t.Errorf("ResourceVisible(%s) = %v, want %v: %s", uri, got, want, r.Result)
		}
	}
	if !ResourceVisible(context.Background(), "test://hidden") {
		t.Error("ResourceVisible outside a request = false, want true")
	}
}
