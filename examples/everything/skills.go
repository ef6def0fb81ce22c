package main

import (
	"embed"
	"io/fs"

	"github.com/mcpgen/mcpgen/server"
	"github.com/mcpgen/mcpgen/skills"
)

// skillFiles are the Skills extension fixtures (io.modelcontextprotocol/
// skills, SEP-2640), embedded in the binary: skill://acme/billing/refunds
// (a prefixed skill with an examples/ subdirectory, which the
// sep-2640-skills-directory scenario descends into) and
// skill://conformance-fixture. The all: prefix keeps files whose names
// begin with "." or "_", which a plain pattern drops.
//
//go:embed all:skills
var skillFiles embed.FS

// registerSkills serves the embedded skills, with resources/directory/read.
func registerSkills(opts *server.Options) (*skills.Skills, error) {
	sub, err := fs.Sub(skillFiles, "skills")
	if err != nil {
		return nil, err
	}
	sk, err := skills.New(sub, skills.Options{DirectoryRead: true})
	if err != nil {
		return nil, err
	}
	sk.Register(opts)
	return sk, nil
}
