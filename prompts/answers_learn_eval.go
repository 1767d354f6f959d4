package prompts

import (
	"errors"
	"strings"
)

// LearnerAnswer is the Self-Learner's answer. The learner keeps what it can use of it and
// reports the rest (a trick of an unknown kind, an ID it did not give), so it has no
// Validate.
type LearnerAnswer struct {
	Tricks         []LearnedTrick `json:"tricks"`
	Wrong          []string       `json:"wrong"` // IDs of given tricks the run shows wrong
	AppDescription string         `json:"app_description"`
}

// LearnedTrick is one trick of a LearnerAnswer.
type LearnedTrick struct {
	Kind string `json:"kind"` // planning, action or error-recovery
	App  string `json:"app"`  // the app's package, or "common"
	Text string `json:"text"`
}

// UserAnswer is the simulated user's answer.
type UserAnswer struct {
	Answer string `json:"answer"`
}

// Validate implements Validator.
func (a *UserAnswer) Validate() error {
	if strings.TrimSpace(a.Answer) == "" {
		return errors.New("the answer is empty: answer the question as the person would")
	}
	return nil
}

// JudgeAnswer is the evaluation judge's verdict.
type JudgeAnswer struct {
	Pass   bool   `json:"pass"`
	Reason string `json:"reason"`
}

// Validate implements Validator.
func (a *JudgeAnswer) Validate() error {
	if strings.TrimSpace(a.Reason) == "" {
		return errors.New("the reason is empty: say what you saw that decides it")
	}
	return nil
}
