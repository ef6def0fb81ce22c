package server

// The tasks extension (io.modelcontextprotocol/tasks, SEP-2663). A tool
// declares TaskSupport; when a tools/call request declares the extension in
// _meta.io.modelcontextprotocol/clientCapabilities.extensions, a
// task-supporting tool does not answer inline: the runtime creates a task,
// runs the tool in its own goroutine and answers a flat CreateTaskResult
// (resultType "task"). The client polls tasks/get (a DetailedTask that
// inlines the tool's result, or the JSON-RPC error, once terminal), answers
// input requests with tasks/update and stops the task with tasks/cancel.
//
// A tool that asks for input (Ask) inside a task works exactly as in a
// multi round-trip request: each round that needs input parks the task as
// input_required with the unanswered requests; once tasks/update has
// answered all of them the tool runs again with every answer so far (and the
// state it stored with SetState). Without the extension nothing changes:
// optional tools run synchronously, required tools are -32021, and
// tasks/get|update|cancel are -32021.
//
// Tasks live in memory, at most defaultMaxTasks of them, each for its ttlMs
// from creation; a running task is cancelled when its TTL ends or the server
// shuts down, so no goroutine outlives its task. When the store is full a
// new task evicts a finished one: the oldest of the client holding the most
// finished tasks, so that one client's quick tasks push out its own unread
// results before anyone else's; with every task running it is refused
// (reason busy).

import (
	"encoding/json"
	"time"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// TasksExtension is the identifier of the tasks extension, the key in
// capabilities.extensions (server/discover) and in the client's
// clientCapabilities.extensions.
const TasksExtension = "io.modelcontextprotocol/tasks"

// TaskSupport is how a tool takes part in the tasks extension.
type TaskSupport string

// TaskSupport values.
const (
	// TaskSupportNone (the zero value): the tool always answers inline.
	TaskSupportNone TaskSupport = ""
	// TaskSupportOptional: the tool runs as a task when the request declares
	// the extension, inline otherwise.
	TaskSupportOptional TaskSupport = "optional"
	// TaskSupportRequired: the tool runs only as a task; a request that does
	// not declare the extension is -32021 with
	// data.requiredCapabilities.extensions["io.modelcontextprotocol/tasks"].
	TaskSupportRequired TaskSupport = "required"
)

// Task statuses (SEP-2663).
const (
	TaskWorking       = "working"
	TaskInputRequired = "input_required"
	TaskCompleted     = "completed"
	TaskFailed        = "failed"
	TaskCancelled     = "cancelled"
)

// Tasks methods. tasks/result and tasks/list were removed by SEP-2663 and
// stay -32601.
const (
	methodTasksGet    = "tasks/get"
	methodTasksUpdate = "tasks/update"
	methodTasksCancel = "tasks/cancel"
)

// Task store defaults.
const (
	defaultTaskTTL      = 5 * time.Minute
	defaultMaxTasks     = 1024
	taskPollIntervalMs  = 250
	taskTimestampLayout = "2006-01-02T15:04:05.000Z07:00"
)

// taskWire is the wire form of a task: CreateTaskResult (resultType "task",
// without inputRequests, result and error) and the DetailedTask of tasks/get
// (resultType "complete", with inputRequests while input_required and the
// inlined result or error once terminal). It never carries requestState,
// the legacy ttl/pollInterval names or a nested task object.
type taskWire struct {
	ResultType     string            `json:"resultType,omitzero"` // "" in notifications/tasks
	TaskID         string            `json:"taskId"`
	Status         string            `json:"status"`
	StatusMessage  string            `json:"statusMessage,omitzero"`
	CreatedAt      string            `json:"createdAt"`
	LastUpdatedAt  string            `json:"lastUpdatedAt"`
	TTLMs          int64             `json:"ttlMs"`
	PollIntervalMs int64             `json:"pollIntervalMs"`
	InputRequests  mcp.InputRequests `json:"inputRequests,omitzero"`
	Result         json.RawMessage   `json:"result,omitzero"`
	Error          *jsonrpc.Error    `json:"error,omitzero"`
	Meta           json.RawMessage   `json:"_meta,omitzero"`
}

// ackResult is the answer of tasks/update and tasks/cancel: an empty result.
type ackResult struct {
	ResultType string          `json:"resultType"`
	Meta       json.RawMessage `json:"_meta,omitzero"`
}
