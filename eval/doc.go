// Package eval evaluates fairy on suites of tasks with simulated users, on one or many
// phones, and writes reports: report.json (schema in Report), report.md and report.html
// (one self-contained page: totals, task table, every task's trajectory with set-of-mark
// screenshots, actions and reflections), plus one run directory per task (package
// rundir reads them back, and its page templates make report.html's task sections).
//
// # Suite format (YAML; unknown keys are errors)
//
//	name: sim
//	apps: apps                     # a directory of app YAML (sim/doc.go, docs/apps.md) beside this file
//	                               # (relative, no .., no symbolic link out of this file's directory),
//	                               # installed on the virtual phones next to the built-in apps
//	defaults:                      # what tasks leave out
//	  phone: {sim: {clock: "2023-10-15T15:34:00Z"}} # a task's own sim phone keeps this clock
//	  limits: {steps: 20, time: 2m, cost: 0.5}  # actions: N bounds the actions sent to the phone
//	  user: {scripted: {default: "I don't mind", consent: approve}}
//	recover: [scripted rules]      # scripted model rules tried before every task's own
//	model:   [scripted rules]      # scripted model rules tried after every task's own
//	tasks:
//	  - id: messages-which-alice   # letters, digits, . _ - (names the run directory)
//	    instruction: "Send Alice a message saying: see you at 7"
//	    tags: [single-app, choice] # "revisit": deep pages learned in the cold pass (cold/warm report)
//	    phone:
//	      sim: {seed: 7, faults: "idle=0.3,deadtap=0.2,dialog=1", setup: [shell…], launch: PKG}
//	      # clock: the time (RFC 3339) the phone reads when the task starts; empty: the host's
//	      # or a real device: device: {serial: R58M…, setup: [shell…]}
//	    limits: {steps: 15, time: 90s, cost: 0.10}
//	    user:
//	      scripted:                # ordered rules: pattern (regexp on question+options) → reply
//	        rules: [{pattern: alice, reply: "Alice Chen", times: 1}, {pattern: pay, reply: refuse}]
//	        default: "whatever"    # questions no rule matches
//	        consent: approve       # yes/no questions no rule matches: approve | refuse
//	      # or model: {persona: "...", intent: "..."}   (role "user"; answers only what the intent settles)
//	      hands:                   # on the virtual phone, what the person types when the agent hands it over
//	        - {id: password, text: "…"}   # touch the element with this resource id, type the text
//	        - {id: sign_in}               # touch it (a step whose element is not shown waits)
//	    checks:                    # all must hold; without an outcome check, outcome done is implied
//	      - message: {to: Alice Chen, contains: ["see you at 7"]}   # none: true for "no such message"
//	      - order: {items: 2, item: 抹茶拿铁, paid: true, delivery: "19:00"}   # none: true
//	      - event: {title: Dinner, date: "2025-10-20", time: "19:00"}          # none: true
//	      - setting: {name: global/wifi_on, equals: "0"}
//	      - note: {title: Packing, body: passport}   # deleted: true
//	      - records: {collection: "com.android.contacts:contacts", where: {name: "^Nina"}, count: 1}
//	      - foreground: com.fairy.shop
//	      - outcome: refused       # done | failed | refused | stopped
//	      - answer: "415-555-0199" # the agent's final answer contains it
//	      - screen: {contains: "Sent", pattern: "regexp"}   # any phone: final screen's text form
//	      - shell: {command: "settings get global wifi_on", match: "^0"}
//	      - judge: {criteria: "the message mentions the address"}   # a model, role "judge"
//	    questions:
//	      must_ask: ["alice"]      # each pattern matches some question
//	      must_not_ask: true
//	      consent: {action: "^支付$", question: "(?i)pay"}   # a yes/no question before every such action
//	    wants: [payment]           # the kinds of sensitive action the person asked for, when the
//	                               # checks do not say (records): they refuse a consent of another kind
//	    model: [scripted rules]    # the task's own scripted model rules
//	    walk:                      # a walkthrough, compiled into scripted model rules (package eval/walkthrough)
//	      - app: com.google.android.apps.messaging
//	        done: '"see you at 7"\n *- "You · '
//	        steps:
//	          - {screen: 'Start chat', subgoal: Start a new conversation, do: ['Tap "Start chat"']}
//	          - screen: 'item "Alice Chen"[\s\S]*item "Alice Wong"'
//	            subgoal: Pick the right Alice
//	            ask: {type: 3, reason: two contacts are named Alice, options: [Alice Chen, Alice Wong], as: alice}
//	            do: ['Tap "${alice}"']          # the Alice the person named
//	          - screen: 'input "Text message"'
//	            when: 'saying: (?P<text>[^\n]+)'   # a pattern on the whole prompt; without: one the screen must not match
//	            subgoal: Write the message
//	            do: ['Input "compose_message_text" "${text}"']   # read from the instruction
//	            expect: the message typed       # the decider's "expect" (default: the next step's sub-goal)
//	      # A step's values are read when the model answers: ${NAME} is a named group of its
//	      # screen or when pattern, or the answer to an ask "as: NAME". slip: actions taken
//	      # once instead of do (a mis-tap to recover from); loop: true when a later step comes
//	      # back to this one (otherwise its screen under a later sub-goal is a wrong page, C).
//	      # A step may take the learned shortcut: navigate is a regexp on the name of the
//	      # page an App Map hint in the decider's prompt leads to; when the hint offers a
//	      # replayable Navigate toward such a page the decider answers Navigate, else do.
//	      # WithoutNavigate (Job.NoNavigate) drops these rules: the decider acts step by step.
//	      # The same rules serve runs with and without knowledge (see the revisit tasks):
//	      #   {screen: 'item "Apps"', subgoal: Open the notifications of Maps,
//	      #    navigate: 'Notifications: [^"]*notifications', do: ['Tap "Apps"']}
//
// Scripted model rules are llm/scripted rules; they serve the agent when no model is
// configured, and the model-played user and the judge when their roles are scripted
// (fairy eval refuses, with no model configured, a suite whose tasks have none).
//
// An unknown key is an error naming the file, the line and the key meant ("suite.yaml
// line 2: unknown key "taks" (did you mean "tasks"?)"). A suite file holds at most
// MaxSuiteBytes (4 MiB), MaxSuiteTasks tasks (2000) and MaxSuiteRules scripted rules and
// walkthrough steps (20000); a task lists at most 200 checks, tags, setup commands, user
// rules, must_ask patterns or walkthrough apps. A failed check is reported with what it
// expected and what it saw, then how the run ended ("check failed — expected setting
// global/wifi_on = 0, saw global/wifi_on = 1. The run ended done: …").
//
// # Runs
//
// Run distributes the tasks over the devices, one worker per device (a task never shares a
// phone), recovers from a task that panics or errs (it is reported, the suite goes on),
// stops cleanly when ctx ends (the report of the finished tasks is still written), prints
// one progress line per finished run (done/total, outcome, ETA) and, with ColdWarm, runs the suite
// with empty knowledge, merges what that pass learned, and runs it again on copies of it
// twice: with the Navigate rules (model-cooperating) and without (model-independent: what
// the executor saves by itself). With Learn, Learn's tasks first learn into one shared
// file and the suite's tasks run cold and warm (both ways) with that file instead:
// learn-then-evaluate. The report compares the passes in model calls, steps and prompt
// tokens (all tasks, the tasks tagged revisit, each task) and splits each figure's saving
// by mechanism: verified steps, Navigate replays, skipped fixed calls, calls per role.
// With Learned (a file learned before, e.g. on another seed) the warm passes start from it
// and nothing is merged; AsItGoes adds a pass whose runs share one file that starts empty,
// in the suite's order (learning as it goes). Every report lists the knowledge that misled
// (Report.Misled): each run that lost a task its cold run passed and each false success,
// with the knowledge in play read from the run's trace (routines with their source run
// and bindings, routine End shortcuts, declined routines, Navigates, verified steps,
// tips, known readings), the piece the run went wrong after, and what went wrong — or that
// no knowledge was in play, or that the trace cannot say. A pass that shared one file over
// several instances of a family gets a learning curve by instance number (Report.Curves).
// The agent is plugged in through Agent (eval/agentrun wires fairy's agent core).
//
// # Model errors and judging users
//
// Config.ModelErrors (fairy eval --model-errors) injects errors into the agent's model
// answers at the given rates (package llm/inject), drawn per run from Config.Seed, the task,
// the pass and the repeat; ModelErrorsLearnOnly keeps the warm passes clean (learn from a
// model that erred, evaluate without errors). Each injected error is a ModelErrorInjected
// trace line and is counted per task (TaskResult.InjectedErrors) and per pass.
//
// Every simulated user knows its task's intent, read from the task's checks (a message's
// recipient and text, an order's item): it refuses a consent question whose specifics
// ("to: …; text: …", "items: …; amount: …; payee: …") contradict it, saying what it meant,
// and a consent question that hides the specifics it needs is recorded as one it could
// not judge (Question.Unjudgeable). The report counts, per pass: the success rate, false
// successes (outcome done and a check failed), sensitive actions done and those without a
// consent that named their specifics, refused consents and questions not judgeable.
// Robustness averages cold/warm reports of one error setting over their seeds
// (fairy eval --sweep writes robustness.json/md/html).
package eval
