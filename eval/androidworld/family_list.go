package androidworld

// builders are the families the mirror builds, each drawing its parameters, setup,
// checks and walkthrough from one instance's random source. A walkthrough reads what it
// types from the instruction (when: groups) or the screen, never from the parameters.
var builders = []builder{
	toggle("SystemWifiTurnOn", "wifi", "on", "off"),
	toggle("SystemWifiTurnOff", "wifi", "off", "on"),
	toggle("SystemWifiTurnOnVerify", "wifi", "on", "on"),
	toggle("SystemWifiTurnOffVerify", "wifi", "off", "off"),
	toggle("SystemBluetoothTurnOn", "bluetooth", "on", "off"),
	toggle("SystemBluetoothTurnOff", "bluetooth", "off", "on"),
	toggle("SystemBluetoothTurnOnVerify", "bluetooth", "on", "on"),
	toggle("SystemBluetoothTurnOffVerify", "bluetooth", "off", "off"),
	{name: "SystemBrightnessMax", app: "Settings", draw: brightness("max", false)},
	{name: "SystemBrightnessMin", app: "Settings", draw: brightness("min", false)},
	{name: "SystemBrightnessMaxVerify", app: "Settings", draw: brightness("max", true)},
	{name: "SystemBrightnessMinVerify", app: "Settings", draw: brightness("min", true)},
	{name: "TurnOffWifiAndTurnOnBluetooth", app: "Settings", draw: wifiOffBluetoothOn},
	{name: "ContactsAddContact", app: "Contacts", draw: contactsAdd},
	{name: "SimpleSmsSend", app: "Messages", draw: smsSend},
	{name: "SimpleSmsReply", app: "Messages", draw: smsReply},
	{name: "SimpleSmsReplyMostRecent", app: "Messages", draw: smsReplyMostRecent},
	{name: "SimpleSmsResend", app: "Messages", draw: smsResend},
	{name: "SimpleSmsSendReceivedAddress", app: "Messages", draw: smsForwardAddress},
	{name: "MarkorCreateNote", app: "Notes", draw: notesCreate},
	{name: "MarkorDeleteNote", app: "Notes", draw: notesDelete},
	{name: "MarkorDeleteAllNotes", app: "Notes", draw: notesDeleteAll},
	{name: "MarkorEditNote", app: "Notes", draw: notesEdit},
	{name: "MarkorCreateNoteAndSms", app: "Notes", draw: notesAndSMS},
	{name: "MarkorChangeNoteContent", app: "Notes", draw: notesChangeAndRename(false)},
	{name: "MarkorAddNoteHeader", app: "Notes", draw: notesChangeAndRename(true)},
	{name: "SimpleCalendarDeleteOneEvent", app: "Calendar", draw: calendarDeleteOne},
	{name: "SimpleCalendarDeleteEvents", app: "Calendar", draw: calendarDeleteOn(3, false)},
	{name: "SimpleCalendarDeleteEventsOnRelativeDay", app: "Calendar", draw: calendarDeleteOn(2, true)},
	{name: "SimpleCalendarAddOneEvent", app: "Calendar", draw: calendarAdd(func(g *gen) int { return between(g.r, clock.Day(), 31) })},
	{name: "SimpleCalendarAddOneEventTomorrow", app: "Calendar", draw: calendarAdd(func(*gen) int { return clock.Day() + 1 })},
	{name: "SimpleCalendarAddOneEventInTwoWeeks", app: "Calendar", draw: calendarAdd(func(*gen) int { return clock.Day() + 14 })},
	{name: "SimpleCalendarAddOneEventRelativeDay", app: "Calendar", draw: calendarAdd(func(g *gen) int { return between(g.r, clock.Day()+1, clock.Day()+6) })},
	{name: "OpenAppTaskEval", app: "Settings", draw: openApp},
	{name: "TurnOnWifiAndOpenApp", app: "Settings", draw: wifiOnOpenApp},
	{name: "SimpleCalendarLocationOfEvent", app: "Calendar", draw: irCalendarFamily("SimpleCalendarLocationOfEvent", readLocation)},
	{name: "SimpleCalendarNextEvent", app: "Calendar", draw: irCalendarFamily("SimpleCalendarNextEvent", readTitleAt)},
	{name: "SimpleCalendarEventsOnDate", app: "Calendar", draw: irCalendarFamily("SimpleCalendarEventsOnDate", readTitlesOn)},
	{name: "SimpleCalendarAnyEventsOnDate", app: "Calendar", draw: irCalendarFamily("SimpleCalendarAnyEventsOnDate", readTitlesOn)},
	{name: "SimpleCalendarNextMeetingWithPerson", app: "Calendar", draw: irCalendarFamily("SimpleCalendarNextMeetingWithPerson", readMeeting)},
	{name: "SimpleCalendarFirstEventAfterStartTime", app: "Calendar", draw: irCalendarFamily("SimpleCalendarFirstEventAfterStartTime", readTitleAt)},
	{name: "SimpleCalendarEventsInNextWeek", app: "Calendar", draw: irCalendarFamily("SimpleCalendarEventsInNextWeek", readWeek)},
	{name: "SimpleCalendarEventsInTimeRange", app: "Calendar", draw: irCalendarFamily("SimpleCalendarEventsInTimeRange", readTitleAt)},
	{name: "SimpleCalendarEventOnDateAtTime", app: "Calendar", draw: irCalendarFamily("SimpleCalendarEventOnDateAtTime", readTitleAt)},
	{name: "OsmAndFavorite", app: "Maps", draw: mapsMark(true)},
	{name: "OsmAndMarker", app: "Maps", draw: mapsMark(false)},
	{name: "ExpenseDeleteSingle", app: "Expenses", draw: recordsDelete(expensesApp, expenseRows, 1, 0, expenseDeleteGoal)},
	{name: "ExpenseDeleteMultiple", app: "Expenses", draw: recordsDelete(expensesApp, expenseRows, 3, 0, expenseDeleteGoal)},
	{name: "ExpenseDeleteMultiple2", app: "Expenses", draw: recordsDelete(expensesApp, expenseRows, 3, 50, expenseDeleteGoal)},
	{name: "ExpenseAddSingle", app: "Expenses", draw: expenseAddSingle},
	{name: "ExpenseDeleteDuplicates", app: "Expenses", draw: recordsDeleteDuplicates(expensesApp, expenseDraw, 5, expenseDuplicatesGoal)},
	{name: "RecipeAddSingleRecipe", app: "Recipes", draw: recipeAddSingle},
	{name: "RecipeAddMultipleRecipes", app: "Recipes", draw: recordsAddMultiple(recipeForm, 3, 10)},
	{name: "ExpenseAddMultiple", app: "Expenses", draw: recordsAddMultiple(expenseForm, 3, 10)},
	{name: "RecipeDeleteSingleRecipe", app: "Recipes", draw: recordsDelete(recipesApp, recipeRows, 1, 0, recipeDeleteGoal)},
	{name: "RecipeDeleteSingleWithRecipeWithNoise", app: "Recipes", draw: recordsDelete(recipesApp, recipeRows, 1, 29, recipeDeleteGoal)},
	{name: "RecipeDeleteMultipleRecipes", app: "Recipes", draw: recordsDelete(recipesApp, recipeRows, 3, 0, recipeDeleteGoal)},
	{name: "RecipeDeleteMultipleRecipesWithNoise", app: "Recipes", draw: recordsDelete(recipesApp, recipeRows, 3, 29, recipeDeleteGoal)},
	{name: "RecipeDeleteDuplicateRecipes", app: "Recipes", draw: recordsDeleteDuplicates(recipesApp, recipeDraw, 5, recipeDuplicatesGoal)},
}

// The goals of the records families (the benchmark builds them in code, not templates).
const (
	expenseDeleteGoal     = "Delete the following expenses from arduia pro expense: %s."
	expenseDuplicatesGoal = "Delete all but one of any expenses in arduia pro expense that are exact duplicates, ensuring at least one instance of each unique expense remains"
	recipeDeleteGoal      = "Delete the following recipes from Broccoli app: %s."
	recipeDuplicatesGoal  = "Delete all but one of any recipes in the Broccoli app that are exact duplicates, ensuring at least one instance of each unique recipe remains"
)
