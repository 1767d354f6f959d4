package androidworld

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/bufbuild/protocompile"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/types/dynamicpb"
)

// The benchmark's information-retrieval tasks (its tasks.textproto) with the schema they
// are written in (its task.proto and state.proto), embedded as data. They are read as the
// benchmark reads them: the .proto files compiled by protocompile (the parser behind
// buf, kept by Buf), the textproto parsed by the protobuf module's own prototext into a
// message of that schema. A field the schema lacks, a misspelt enum value or a broken
// string is an error, not a list quietly cut short (a regular expression missed two).
//
//go:embed testdata/ir/tasks.textproto testdata/ir/task.proto testdata/ir/state.proto
var irFS embed.FS

// irImportDir is where task.proto imports state.proto from.
const irImportDir = "android_world/task_evals/information_retrieval/proto/"

// irTask is one task of tasks.textproto: the fields the mirror reads.
type irTask struct {
	Name          string    `json:"name"`
	Prompt        string    `json:"prompt"`
	Complexity    int       `json:"complexity"`
	Params        []irParam `json:"task_params"`
	RelevantState struct {
		State struct {
			Calendar *struct {
				AppName string    `json:"app_name"`
				Events  []irEvent `json:"events"`
			} `json:"calendar"`
		} `json:"state"`
		Exclusions []irCondition `json:"exclusion_conditions"`
	} `json:"relevant_state"`
	Success struct {
		Expectations []irExpectation `json:"expectations"`
	} `json:"success_criteria"`
}

// irParam is a task_params entry: a name and the values it is drawn from (repeats kept,
// as random.choice weighs them).
type irParam struct {
	Name   string   `json:"name"`
	Values []string `json:"possible_values"`
}

// irEvent is a state.proto Event; a nil field is one the textproto leaves unset.
type irEvent struct {
	StartDate   *string `json:"start_date"`
	StartTime   *string `json:"start_time"`
	Duration    *string `json:"duration"`
	Description *string `json:"description"`
	Title       *string `json:"title"`
	Location    *string `json:"location"`
}

// fields are the event's fields in field-number order (the order ListFields gives).
func (e *irEvent) fields() []struct {
	name string
	v    **string
} {
	return []struct {
		name string
		v    **string
	}{{"start_date", &e.StartDate}, {"start_time", &e.StartTime}, {"duration", &e.Duration},
		{"description", &e.Description}, {"title", &e.Title}, {"location", &e.Location}}
}

// irCondition is an ExclusionCondition: noise meeting every condition is not drawn.
type irCondition struct {
	Operation string `json:"operation"` // EQUAL_TO, CONTAINS, GREATER_THAN, …
	Field     string `json:"field"`
	Value     string `json:"value"`
}

// irExpectation is an Expectation: how the answer is cast and what it is compared with.
type irExpectation struct {
	Transformation *struct {
		Operation string `json:"operation"` // IDENTITY, SUM, COUNT
		FieldName string `json:"field_name"`
	} `json:"field_transformation"`
	ExpectedValue *string  `json:"expected_value"`
	MatchType     string   `json:"match_type"` // STRING_MATCH, NUMBER_MATCH, DATE_MATCH, TIME_MATCH
	Tolerance     *float64 `json:"tolerance"`
}

// parseIRTasks reads tasks.textproto with the benchmark's schema.
func parseIRTasks() ([]irTask, error) {
	text, err := irFS.ReadFile("testdata/ir/tasks.textproto")
	if err != nil {
		return nil, err
	}
	return parseIRText(text)
}

// parseIRText reads a textproto of message Tasks.
func parseIRText(text []byte) ([]irTask, error) {
	c := protocompile.Compiler{Resolver: &protocompile.SourceResolver{Accessor: func(path string) (io.ReadCloser, error) {
		name, ok := strings.CutPrefix(path, irImportDir)
		if !ok {
			return nil, fs.ErrNotExist
		}
		return irFS.Open("testdata/ir/" + name)
	}}}
	files, err := c.Compile(context.Background(), irImportDir+"task.proto")
	if err != nil {
		return nil, fmt.Errorf("androidworld: compile the benchmark's task.proto: %w", err)
	}
	md := files[0].Messages().ByName("Tasks")
	if md == nil {
		return nil, fmt.Errorf("androidworld: task.proto has no message Tasks")
	}
	msg := dynamicpb.NewMessage(md)
	if err := prototext.Unmarshal(text, msg); err != nil {
		return nil, fmt.Errorf("androidworld: testdata/ir/tasks.textproto: %w", err)
	}
	// The message goes on as JSON into the Go structs above (proto field names, enum
	// names), which keeps the reading code plain.
	j, err := protojson.MarshalOptions{UseProtoNames: true}.Marshal(msg)
	if err != nil {
		return nil, err
	}
	var out struct {
		Tasks []irTask `json:"tasks"`
	}
	if err := json.Unmarshal(j, &out); err != nil {
		return nil, fmt.Errorf("androidworld: tasks.textproto as JSON: %w", err)
	}
	seen := map[string]bool{}
	for _, t := range out.Tasks {
		if t.Name == "" || seen[t.Name] {
			return nil, fmt.Errorf("androidworld: tasks.textproto: task name %q is empty or repeated", t.Name)
		}
		seen[t.Name] = true
	}
	return out.Tasks, nil
}

// irLists are the tasks' parameter lists, named ir.TASK.PARAM.
func irLists(tasks []irTask) map[string][]string {
	out := map[string][]string{}
	for _, t := range tasks {
		for _, p := range t.Params {
			out["ir."+t.Name+"."+p.Name] = p.Values
		}
	}
	return out
}
