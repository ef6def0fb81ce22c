// Package skills serves Agent Skills over MCP: the Skills extension
// (io.modelcontextprotocol/skills, SEP-2640), built on the server's public
// extension API.
//
// A skill is a directory holding a SKILL.md whose YAML frontmatter has at
// least name and description. New reads every skill of an fs.FS — so
//
//	//go:embed all:skills
//	var skillFS embed.FS
//
//	sk, err := skills.New(must(fs.Sub(skillFS, "skills")), skills.Options{DirectoryRead: true})
//	sk.Register(&opts) // resources + extension
//	srv, err := server.New(opts)
//	sk.Bind(srv)       // only needed for Reload
//
// ships them in the binary (all: keeps the files whose names begin with
// "." or "_", which embed otherwise leaves out) — and checks them at
// start-up: the naming rules, the final-segment rule (the directory is
// named after the skill), the per-skill limits (512 files, 16 MiB; no
// more of a file is read than the limit leaves) and reserved metadata
// keys, every problem reported with its file.
//
// Every file is a resource skill://<skill-path>/<file-path> read from
// memory; SKILL.md has mimeType text/markdown and the frontmatter's name and
// description. skills/list (paginated, one entry never split) and skills/get
// (-32602 for a URI that is not a served SKILL.md) return entries with the
// frontmatter rendered verbatim as JSON and the SHA-256 digest and size of
// every file; both carry ttlMs and cacheScope. With Options.DirectoryRead,
// resources/directory/read lists the direct children of every directory
// (skill roots, subdirectories, prefix directories). All three show a
// caller only what the server's Options.Visible lets it see
// (server.ResourceVisible): a skill whose SKILL.md is hidden is not served
// to it, a hidden file is left out of its skill's entry and of its
// directory. Reload swaps the set and the server announces the change
// (resources list_changed).
//
// Frontmatter is parsed with go.yaml.in/yaml/v4 (the YAML organisation's
// maintained parser, already in the module graph) into its node tree and
// rendered with the YAML 1.2 core schema, as hosts read it: mapping keys
// are typed like values (the key 0x10 is the member "16"), and an explicit
// tag decides a scalar's type whatever its style (!!int "3" is 3, ! 12 is
// "12"). A tag the value cannot satisfy (!!int abc), a tag outside the
// core schema, a second YAML document (after a "..." line) and a
// frontmatter over 1 MiB of JSON are refused, naming the line.
package skills
