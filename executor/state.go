package executor

// state is a state of the step machine.
type state string

// The states. FINISH, REFUSE, FAIL and ERROR are terminal.
const (
	statePerceive state = "PERCEIVE"
	stateReflect  state = "REFLECT"
	stateInteract state = "INTERACT"
	stateDecide   state = "DECIDE"
	stateGuard    state = "GUARD"
	stateAct      state = "ACT"
	stateCheck    state = "CHECK"
	stateFinish   state = "FINISH"
	stateRefuse   state = "REFUSE"
	stateFail     state = "FAIL"
	stateError    state = "ERROR"
)

// Terminal reports whether the machine stops in s.
func (s state) Terminal() bool {
	switch s {
	case stateFinish, stateRefuse, stateFail, stateError:
		return true
	}
	return false
}
