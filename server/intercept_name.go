package server

import "strings"

// targetMember is the params member a method acts on, which Request.Name
// reports: "name" for tools/call and prompts/get, "uri" for resources/read
// and resources/subscribe|unsubscribe, "taskId" for tasks/*; "" for any
// other method (whose Name is then the first of name, uri and taskId the
// params hold, as an extension method's target is not known here). The
// member is chosen by the method, never by which members are present: a
// resources/read naming "name":"echo" beside its uri is about the uri, and
// an interceptor deciding by Name must see what the handler reads.
func targetMember(method string) string {
	switch method {
	case "tools/call", "prompts/get":
		return "name"
	case "resources/read", "resources/subscribe", "resources/unsubscribe":
		return "uri"
	}
	if strings.HasPrefix(method, "tasks/") {
		return "taskId"
	}
	return ""
}
