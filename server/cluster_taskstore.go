package server

import (
	"context"
	"errors"
	"time"
)

// TaskStore keeps the tasks of every replica of a cluster
// (Cluster.Tasks). The replica that runs a task (its owner) creates the
// record, writes each status change (again, should a write fail) and
// re-creates the record should the store lose it before it expires
// (cluster_taskkeep.go); any replica reads it (tasks/get)
// and updates it (tasks/update answers, tasks/cancel). Records are the
// runtime's own bytes; every change is a compare-and-swap on the record's
// revision, so concurrent writers never lose each other's update.
//
// The runtime asks only for ids of the form it generates, but a store
// takes any id (long, or with characters its keys refuse: encode or hash
// it) and any record size (a task's result can be megabytes), and neither
// may cost it its connection; clustertest.Backend checks both.
type TaskStore interface {
	// Create stores a new record that expires at expires (ErrTaskExists
	// when id is taken).
	Create(ctx context.Context, id string, record []byte, expires time.Time) error
	// Load returns the record and its revision (ErrTaskNotFound when id is
	// unknown or expired).
	Load(ctx context.Context, id string) (record []byte, revision uint64, err error)
	// Swap replaces the record if its revision is still revision
	// (ErrTaskConflict otherwise; ErrTaskNotFound when it is gone). The
	// record keeps expiring at expires.
	Swap(ctx context.Context, id string, record []byte, revision uint64, expires time.Time) error
}

// TaskStore errors.
var (
	ErrTaskNotFound = errors.New("task not found")
	ErrTaskExists   = errors.New("task already exists")
	ErrTaskConflict = errors.New("task changed since it was read")
)
