package eval

import (
	"context"
	"fmt"
	"sync"

	"github.com/fairy-go/fairy/eval/suite"
	"github.com/fairy-go/fairy/interaction"
	"github.com/fairy-go/fairy/sim"
)

// handsUser is a simulated user who, handed the phone (interaction.Hander), does on it
// what the task's hands say, with a person's hands on the virtual phone (sim.Phone's
// TouchID and TypeKeys): never through the agent, its adb device or its trace. With no
// hands, or nothing they know on the screen, no one takes the phone and the agent is told
// so. Questions go to the user it wraps.
type handsUser struct {
	user
	phone *sim.Phone // nil: not a virtual phone
	hands []suite.HandStep

	mu     sync.Mutex
	handed int // hand-overs the person acted on
}

// HandOver implements interaction.Hander.
func (u *handsUser) HandOver(ctx context.Context, h interaction.HandOver) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.phone == nil || len(u.hands) == 0 {
		return fmt.Errorf("%w: %w: the simulated person was handed the phone for %s and the task gives them nothing to do (user: hands:)", interaction.ErrNoAnswer, errNoAnswer, h.Reason)
	}
	did := false
	for _, s := range u.hands {
		if !u.phone.Shows(s.ID) || !u.phone.TouchID(s.ID) {
			continue // not on this screen: perhaps the next hand-over's
		}
		did = true
		if s.Text == "" {
			continue
		}
		if err := u.phone.TypeKeys(s.Text); err != nil {
			return fmt.Errorf("eval: the simulated person typing into %s: %w", s.ID, err)
		}
	}
	if !did {
		return fmt.Errorf("%w: %w: the simulated person was handed the phone for %s and knows nothing to do on this screen", interaction.ErrNoAnswer, errNoAnswer, h.Reason)
	}
	u.handed++
	return nil
}

// HandOvers is how many hand-overs the person acted on.
func (u *handsUser) HandOvers() int {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.handed
}
