package main

import (
	"embed"
	"io/fs"

	"github.com/mcpgen/mcpgen/server"
	"github.com/mcpgen/mcpgen/skills"
)

// skillFiles are the server's Agent Skills (the Skills extension,
// io.modelcontextprotocol/skills), embedded in the binary:
// skill://plan-day-out/SKILL.md tells the model how to plan a day out with
// weather_current, weather_forecast and calculator_arithmetic. The all:
// prefix keeps files whose names begin with "." or "_", which a plain
// pattern drops.
//
//go:embed all:skills
var skillFiles embed.FS

// registerSkills adds the embedded skills to so: every file a skill://
// resource, and skills/list, skills/get and resources/directory/read.
// A broken skill is an error here, at start-up.
func registerSkills(so *server.Options) (*skills.Skills, error) {
	sub, err := fs.Sub(skillFiles, "skills")
	if err != nil {
		return nil, err
	}
	sk, err := skills.New(sub, skills.Options{DirectoryRead: true})
	if err != nil {
		return nil, err
	}
	sk.Register(so)
	return sk, nil
}
