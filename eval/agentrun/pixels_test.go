package agentrun

import (
	"context"

	"testing"

	"github.com/fairy-go/fairy/eval/suite"
	"github.com/fairy-go/fairy/executor"
	"github.com/fairy-go/fairy/executor/ocr"
	"github.com/fairy-go/fairy/internal/testenv"
	"github.com/fairy-go/fairy/perception"
)

// pixelReader is the Tesseract reader the suite's tasks tagged pixels need. Without
// tesseract they cannot pass: under CI that fails the test (scripts/test.sh installs it),
// elsewhere those tasks are left out of s, said in the log.
func pixelReader(t testing.TB, s *suite.Suite) executor.PixelReader {
	t.Helper()
	testenv.MustHaveFullTier(t, "starts tesseract")
	tess, err := ocr.New(context.Background(), ocr.Config{})
	if err != nil {
		if testenv.OnCI() {
			t.Fatalf("%v", err)
		}
		var keep []*suite.Task
		for _, x := range s.Tasks {
			if !x.HasTag("pixels") {
				keep = append(keep, x)
			}
		}
		t.Logf("%v: %d tasks tagged pixels left out", err, len(s.Tasks)-len(keep))
		s.Tasks = keep
		return nil
	}
	r, err := perception.NewPixelReader(tess)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
