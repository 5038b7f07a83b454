package content

import (
	"encoding/json"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// TaskStream names a task's stream.
func TaskStream(id string) string { return "content-task:" + id }

// Task statuses (the seed's).
const (
	TaskQueued     = "queued"
	TaskProcessing = "processing"
	TaskDone       = "done"
	TaskError      = "error"
)

// Task kinds.
const (
	TaskPublish         = "social_publish" // a publish target (its id is the target's)
	TaskAnalyticsExport = "analytics_export"
)

// TaskCreated records a long operation queued.
type TaskCreated struct {
	TaskID string          `json:"task_id"`
	Owner  string          `json:"owner"`
	Kind   string          `json:"kind"`
	Input  json.RawMessage `json:"input,omitempty"`
	By     string          `json:"by"`
	At     time.Time       `json:"at"`
}

// TaskProgressed records a stage reached: progress is the share of the
// task's stages done (0-100).
type TaskProgressed struct {
	TaskID   string    `json:"task_id"`
	Progress int       `json:"progress"`
	Stage    string    `json:"stage"`
	At       time.Time `json:"at"`
}

// TaskFinished records a task done with its result.
type TaskFinished struct {
	TaskID string          `json:"task_id"`
	Result json.RawMessage `json:"result"`
	At     time.Time       `json:"at"`
}

// TaskFailed records a task ended in error.
type TaskFailed struct {
	TaskID  string    `json:"task_id"`
	Code    string    `json:"code"`
	Message string    `json:"message"`
	At      time.Time `json:"at"`
}

// EventType implements kernel.Event.
func (*TaskCreated) EventType() string { return "content.task_created" }

// EventType implements kernel.Event.
func (*TaskProgressed) EventType() string { return "content.task_progressed" }

// EventType implements kernel.Event.
func (*TaskFinished) EventType() string { return "content.task_finished" }

// EventType implements kernel.Event.
func (*TaskFailed) EventType() string { return "content.task_failed" }

// Task is a task's state.
type Task struct {
	ID, Owner, Kind, Status string
	Input                   json.RawMessage
	Progress                int
}

// Apply folds one event.
func (t *Task) Apply(e kernel.Event) {
	switch ev := e.(type) {
	case *TaskCreated:
		*t = Task{ID: ev.TaskID, Owner: ev.Owner, Kind: ev.Kind, Status: TaskQueued, Input: ev.Input}
	case *TaskProgressed:
		t.Status, t.Progress = TaskProcessing, ev.Progress
	case *TaskFinished:
		t.Status, t.Progress = TaskDone, 100
	case *TaskFailed:
		t.Status = TaskError
	}
}

// AnalyticsStream names the stream of owner's analytics at a platform.
func AnalyticsStream(owner, platform string) string {
	return "content-analytics:" + owner + ":" + platform
}

// DayNumbers are one day's numbers as a platform reported them; nil: the
// platform did not give that number.
type DayNumbers struct {
	Date            string `json:"date"` // YYYY-MM-DD (UTC)
	Views           *int64 `json:"views"`
	Likes           *int64 `json:"likes"`
	Comments        *int64 `json:"comments"`
	Shares          *int64 `json:"shares"`
	FollowersGained *int64 `json:"followers_gained"`
}

// AnalyticsSynced records the daily numbers a sync received from a
// platform for one account: only days whose numbers changed since the
// last sync.
type AnalyticsSynced struct {
	Owner     string       `json:"owner"`
	Platform  string       `json:"platform"`
	AccountID string       `json:"account_id"`
	Days      []DayNumbers `json:"days"`
	At        time.Time    `json:"at"`
}

// EventType implements kernel.Event.
func (*AnalyticsSynced) EventType() string { return "content.analytics_synced" }

// Events lists the content context's event constructors.
func Events() []func() kernel.Event {
	return []func() kernel.Event{
		func() kernel.Event { return &TwinCreated{} }, func() kernel.Event { return &TwinUpdated{} },
		func() kernel.Event { return &TwinDeleted{} }, func() kernel.Event { return &PostScheduled{} },
		func() kernel.Event { return &PostDeleted{} }, func() kernel.Event { return &TargetPlanned{} },
		func() kernel.Event { return &TargetStarted{} }, func() kernel.Event { return &TargetPublished{} },
		func() kernel.Event { return &TargetRetryScheduled{} }, func() kernel.Event { return &TargetFailed{} },
		func() kernel.Event { return &TaskCreated{} }, func() kernel.Event { return &TaskProgressed{} },
		func() kernel.Event { return &TaskFinished{} }, func() kernel.Event { return &TaskFailed{} },
		func() kernel.Event { return &AnalyticsSynced{} }, func() kernel.Event { return &CaptionRequested{} },
		func() kernel.Event { return &CaptionTranscribed{} }, func() kernel.Event { return &CaptionFailed{} },
		func() kernel.Event { return &AvatarRequested{} }, func() kernel.Event { return &AvatarSubmitted{} },
		func() kernel.Event { return &AvatarAwaitingWebhook{} }, func() kernel.Event { return &AvatarReported{} },
		func() kernel.Event { return &AvatarRendered{} }, func() kernel.Event { return &AvatarFailed{} },
		func() kernel.Event { return &WebhookDelivered{} }, func() kernel.Event { return &BatchAccepted{} },
		func() kernel.Event { return &ReelStarted{} }, func() kernel.Event { return &ReelRendered{} },
		func() kernel.Event { return &ReelFailed{} },
	}
}
