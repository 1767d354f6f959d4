package executor

// State is a state of the step machine.
type State string

// The states. FINISH, REFUSE, FAIL and ERROR are terminal.
const (
	statePerceive State = "PERCEIVE"
	stateReflect  State = "REFLECT"
	stateInteract State = "INTERACT"
	stateDecide   State = "DECIDE"
	stateGuard    State = "GUARD"
	stateAct      State = "ACT"
	stateCheck    State = "CHECK"
	stateFinish   State = "FINISH"
	stateRefuse   State = "REFUSE"
	stateFail     State = "FAIL"
	stateError    State = "ERROR"
)

// Terminal reports whether the machine stops in s.
func (s State) Terminal() bool {
	switch s {
	case stateFinish, stateRefuse, stateFail, stateError:
		return true
	}
	return false
}
