package skills

import (
	"path"
	"strings"
	"unicode/utf8"
)

// mimeTypes maps the extensions common in skills to their types. A fixed
// table rather than mime.TypeByExtension, whose answers depend on the
// host's mime.types files: the same skills give the same resources
// everywhere.
var mimeTypes = map[string]string{
	".md":       "text/markdown",
	".markdown": "text/markdown",
	".txt":      "text/plain",
	".csv":      "text/csv",
	".html":     "text/html",
	".css":      "text/css",
	".xml":      "application/xml",
	".json":     "application/json",
	".yaml":     "application/yaml",
	".yml":      "application/yaml",
	".toml":     "application/toml",
	".py":       "text/x-python",
	".sh":       "text/x-shellscript",
	".js":       "text/javascript",
	".mjs":      "text/javascript",
	".ts":       "text/x-typescript",
	".go":       "text/x-go",
	".sql":      "application/sql",
	".png":      "image/png",
	".jpg":      "image/jpeg",
	".jpeg":     "image/jpeg",
	".gif":      "image/gif",
	".svg":      "image/svg+xml",
	".webp":     "image/webp",
	".pdf":      "application/pdf",
	".zip":      "application/zip",
}

// mimeTypeOf returns the type of a skill file: by extension, else
// text/plain for UTF-8 text and application/octet-stream for the rest.
func mimeTypeOf(name string, content []byte) string {
	if t, ok := mimeTypes[strings.ToLower(path.Ext(name))]; ok {
		return t
	}
	if utf8.Valid(content) {
		return "text/plain"
	}
	return "application/octet-stream"
}

// isText reports whether a file is served as text (resources/read "text")
// rather than base64 "blob": its bytes are UTF-8 and its type is textual.
func isText(mimeType string, content []byte) bool {
	if !utf8.Valid(content) {
		return false
	}
	return strings.HasPrefix(mimeType, "text/") || strings.HasSuffix(mimeType, "+xml") ||
		mimeType == "application/json" || mimeType == "application/yaml" || mimeType == "application/xml" ||
		mimeType == "application/toml" || mimeType == "application/sql"
}
