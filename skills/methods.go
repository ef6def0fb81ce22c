package skills

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mcpgen/mcpgen/jsonrpc"
	"github.com/mcpgen/mcpgen/server"
)

// SkillResource is a file of a skill with the SHA-256 digest
// ("sha256:<64 lowercase hex>") and length of its raw bytes.
type SkillResource struct {
	URI    string `json:"uri"`
	Digest string `json:"digest"`
	Size   int64  `json:"size"`
}

// Entry is a skill entry of skills/list and skills/get.
type Entry struct {
	// URI is the resource URI of the skill's SKILL.md.
	URI string `json:"uri"`
	// Frontmatter is the SKILL.md YAML frontmatter as a JSON object,
	// every field the author wrote, in their order.
	Frontmatter json.RawMessage `json:"frontmatter"`
	// Resources lists every file of the skill, SKILL.md first.
	Resources []SkillResource `json:"resources"`
}

func (sk *skill) entry() Entry {
	e := Entry{URI: sk.uri, Frontmatter: sk.frontmatter, Resources: make([]SkillResource, len(sk.files))}
	for i, f := range sk.files {
		e.Resources[i] = SkillResource{URI: f.uri, Digest: f.digest, Size: int64(len(f.content))}
	}
	return e
}

// ListParams are the params of skills/list.
type ListParams struct {
	Cursor string `json:"cursor,omitzero"`
}

// ListResult is the result of skills/list (ttlMs and cacheScope are added
// by the runtime).
type ListResult struct {
	Skills     []Entry `json:"skills"`
	NextCursor string  `json:"nextCursor,omitzero"`
}

// GetParams are the params of skills/get.
type GetParams struct {
	URI *string `json:"uri"`
}

// GetResult is the result of skills/get.
type GetResult struct {
	Skill Entry `json:"skill"`
}

// DirectoryParams are the params of resources/directory/read.
type DirectoryParams struct {
	URI    *string `json:"uri"`
	Cursor string  `json:"cursor,omitzero"`
}

// DirectoryEntry is a direct child of a directory resource: a file with
// its Resource metadata, or a subdirectory (mimeType inode/directory).
type DirectoryEntry struct {
	URI         string `json:"uri"`
	Name        string `json:"name"`
	Description string `json:"description,omitzero"`
	MIMEType    string `json:"mimeType"`
}

// DirectoryResult is the result of resources/directory/read.
type DirectoryResult struct {
	Resources  []DirectoryEntry `json:"resources"`
	NextCursor string           `json:"nextCursor,omitzero"`
}

// list, get and readDirectory answer from one catalog, current while they
// read it (fromCurrent, snapshot.go).
func (k *Skills) list(ctx context.Context, p ListParams) (*ListResult, error) {
	return fromCurrent(k, func(c *catalog) (*ListResult, error) { return k.listFrom(ctx, c, p) })
}

func (k *Skills) listFrom(ctx context.Context, c *catalog, p ListParams) (*ListResult, error) {
	page, next, err := server.PaginateKeyed(MethodList, visibleSkills(ctx, c.skills), func(sk *skill) string { return sk.uri }, p.Cursor, k.opts.PageSize)
	if err != nil {
		return nil, err
	}
	res := &ListResult{Skills: make([]Entry, len(page)), NextCursor: next}
	for i, sk := range page {
		res.Skills[i] = sk.visibleEntry(ctx)
	}
	return res, nil
}

func (k *Skills) get(ctx context.Context, p GetParams) (*GetResult, error) {
	if p.URI == nil {
		return nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, "Invalid params: params.uri: missing required member", nil)
	}
	return fromCurrent(k, func(c *catalog) (*GetResult, error) { return getFrom(ctx, c, *p.URI) })
}

func getFrom(ctx context.Context, c *catalog, uri string) (*GetResult, error) {
	sk := c.byURI[uri]
	if sk == nil || !server.ResourceVisible(ctx, sk.uri) {
		return nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, fmt.Sprintf("No skill is served at %s", uri), map[string]string{"uri": uri})
	}
	return &GetResult{Skill: sk.visibleEntry(ctx)}, nil
}

func (k *Skills) readDirectory(ctx context.Context, p DirectoryParams) (*DirectoryResult, error) {
	if p.URI == nil {
		return nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, "Invalid params: params.uri: missing required member", nil)
	}
	return fromCurrent(k, func(c *catalog) (*DirectoryResult, error) { return k.readDirectoryFrom(ctx, c, *p.URI, p.Cursor) })
}

func (k *Skills) readDirectoryFrom(ctx context.Context, c *catalog, uri, cursor string) (*DirectoryResult, error) {
	d := c.dirs[uri]
	if d == nil || !d.visible(ctx) {
		msg := fmt.Sprintf("%s is not a directory resource", uri)
		if d != nil || c.files[uri] == nil || !server.ResourceVisible(ctx, uri) {
			msg = fmt.Sprintf("No directory resource is served at %s", uri)
		}
		return nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, msg, map[string]string{"uri": uri})
	}
	// The cursor names the directory: one of another directory or of
	// skills/list is -32602.
	page, next, err := server.PaginateKeyed(MethodDirectoryRead+" "+d.uri, c.visibleChildren(ctx, d), func(ch child) string { return ch.uri }, cursor, k.opts.PageSize)
	if err != nil {
		return nil, err
	}
	res := &DirectoryResult{Resources: make([]DirectoryEntry, len(page)), NextCursor: next}
	for i, ch := range page {
		res.Resources[i] = DirectoryEntry{URI: ch.uri, Name: ch.name, Description: ch.description, MIMEType: ch.mimeType}
	}
	return res, nil
}
