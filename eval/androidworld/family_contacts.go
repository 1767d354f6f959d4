package androidworld

import (
	"github.com/fairy-go/fairy/eval/suite"
	"github.com/fairy-go/fairy/eval/walkthrough"
)

// The task families of Contacts.

// contactsAdd is ContactsAddContact: the contacts cleared (AddContact.initialize_task),
// then one added whose display name is exactly the name given and whose number has the
// same digits.
func contactsAdd(g *gen) (*instance, error) {
	name, number := g.name(), g.number()
	clear, err := seed(contactsPkg+":contacts", nil)
	if err != nil {
		return nil, err
	}
	return &instance{
		params: map[string]string{"name": name, "number": number},
		setup:  []string{clear},
		// The number is contactCheck's (digits only, as the benchmark cleans both sides):
		// rowsCheck would keep a leading +.
		checks: []suite.CustomCheck{&contactCheck{Name: name, Number: number}, &rowsCheck{Collection: contactsPkg + ":contacts", Added: []map[string]string{{"name": name}}}},
		walk: []walkthrough.Task{walk(contactsPkg, `item "`+q(name)+`"`,
			walkthrough.Step{Screen: `Create contact`, Unless: `on button "Save"`, Subgoal: "Open the new contact form", Do: []string{`Tap "Create contact"`}},
			walkthrough.Step{Screen: `id=name_field`, When: `contact for (?P<name>[^\n]+?)\. Their number is (?P<phone>\+?[\d -]+)\.`,
				Subgoal: "Fill in the name and number", Do: []string{`Input "name_field" "${name}"`, `Input "phone_field" "${phone}"`}},
			walkthrough.Step{Screen: `"` + q(name) + `" id=name_field`, Subgoal: "Save the contact", Expect: "the contact list with the new contact", Do: []string{`Tap "Save"`}},
		)},
	}, nil
}
