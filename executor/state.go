package executor

// State is a state of the step machine.
type State string

// The states. FINISH, REFUSE, FAIL and ERROR are terminal.
const (
	StatePerceive State = "PERCEIVE"
	StateReflect  State = "REFLECT"
	StateInteract State = "INTERACT"
	StateDecide   State = "DECIDE"
	StateGuard    State = "GUARD"
	StateAct      State = "ACT"
	StateCheck    State = "CHECK"
	StateFinish   State = "FINISH"
	StateRefuse   State = "REFUSE"
	StateFail     State = "FAIL"
	StateError    State = "ERROR"
)

// Terminal reports whether the machine stops in s.
func (s State) Terminal() bool {
	switch s {
	case StateFinish, StateRefuse, StateFail, StateError:
		return true
	}
	return false
}
