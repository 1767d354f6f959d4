// Package suite is the format of an evaluation suite: the suite YAML a person writes (or
// a suite builder in Go makes: eval/androidworld), read and validated by Load and Parse,
// the success checks of its tasks with their evaluation on the phone's state (Evaluate
// on a Probe), and the question assertions the runner checks against what the agent
// asked. It knows nothing of the runner: package eval runs a Suite's tasks on phones with
// simulated users and writes the reports.
//
// The few types to know: Suite (its Tasks, Defaults, scripted Rules), Task (Instruction,
// Phone, Limits, User, Checks, Questions), Check (one kind each; CustomCheck for a check
// written in Go) and Probe (what a check may look at after a run).
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
package suite
