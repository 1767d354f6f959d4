package perception

import (
	"fmt"
	"testing"
)

// settingsPage is a page as Settings' SubSettings shows it: a toolbar with a Back button
// and the page's title over a list of preferences, each row a title and a summary.
func settingsPage(title string, rows ...string) string {
	var kids []string
	for k, r := range rows {
		y := 300 + 200*k
		kids = append(kids, nodeXML(map[string]string{"class": "android.widget.LinearLayout", "clickable": "true", "bounds": fmt.Sprintf("[0,%d][1080,%d]", y, y+200)},
			nodeXML(map[string]string{"class": "android.widget.TextView", "resource-id": "android:id/title", "text": r, "bounds": fmt.Sprintf("[40,%d][1000,%d]", y, y+100)}),
			nodeXML(map[string]string{"class": "android.widget.TextView", "resource-id": "android:id/summary", "text": "On", "bounds": fmt.Sprintf("[40,%d][1000,%d]", y+100, y+200)})))
	}
	return hierarchy(nodeXML(map[string]string{"package": "com.android.settings"},
		nodeXML(map[string]string{"class": "android.view.ViewGroup", "package": "com.android.settings", "resource-id": "com.android.settings:id/action_bar", "bounds": "[0,60][1080,250]"},
			nodeXML(map[string]string{"class": "android.widget.ImageButton", "package": "com.android.settings", "content-desc": "Navigate up", "clickable": "true", "bounds": "[0,60][150,250]"}),
			nodeXML(map[string]string{"class": "android.widget.TextView", "package": "com.android.settings", "text": title, "bounds": "[160,100][900,200]"})),
		nodeXML(map[string]string{"class": "androidx.recyclerview.widget.RecyclerView", "package": "com.android.settings", "scrollable": "true", "resource-id": "com.android.settings:id/recycler_view", "bounds": "[0,300][1080,2400]"}, kids...)))
}

// detailPage is a record's page: the record's name in the toolbar and again as the
// header of the body.
func detailPage(name, phone string) string {
	return hierarchy(nodeXML(nil,
		nodeXML(map[string]string{"class": "androidx.appcompat.widget.Toolbar", "bounds": "[0,60][1080,250]"},
			nodeXML(map[string]string{"class": "android.widget.ImageButton", "content-desc": "Navigate up", "clickable": "true", "bounds": "[0,60][150,250]"}),
			nodeXML(map[string]string{"class": "android.widget.TextView", "text": name, "bounds": "[160,100][900,200]"})),
		nodeXML(map[string]string{"class": "android.widget.TextView", "resource-id": "com.example.app:id/header", "text": name, "bounds": "[0,300][1080,450]"}),
		nodeXML(map[string]string{"class": "android.widget.TextView", "resource-id": "com.example.app:id/phone", "text": phone, "bounds": "[0,450][1080,600]"}),
		nodeXML(map[string]string{"class": "android.widget.Button", "clickable": "true", "text": "Call", "bounds": "[0,600][500,750]"})))
}

// threadPage is a conversation: the contact's name in the toolbar, and on each of the
// contact's messages.
func threadPage(name string, msgs ...string) string {
	var kids []string
	for k, m := range msgs {
		y := 300 + 200*k
		kids = append(kids, nodeXML(map[string]string{"class": "android.widget.LinearLayout", "resource-id": "com.example.app:id/message", "bounds": fmt.Sprintf("[0,%d][1080,%d]", y, y+200)},
			nodeXML(map[string]string{"class": "android.widget.TextView", "resource-id": "com.example.app:id/text", "text": m, "bounds": fmt.Sprintf("[40,%d][1000,%d]", y, y+100)}),
			nodeXML(map[string]string{"class": "android.widget.TextView", "resource-id": "com.example.app:id/meta", "text": name + " · 12:0" + fmt.Sprint(k), "bounds": fmt.Sprintf("[40,%d][1000,%d]", y+100, y+200)})))
	}
	return hierarchy(nodeXML(nil,
		nodeXML(map[string]string{"class": "android.view.ViewGroup", "resource-id": "com.example.app:id/toolbar", "bounds": "[0,60][1080,250]"},
			nodeXML(map[string]string{"class": "android.widget.TextView", "text": name, "bounds": "[160,100][900,200]"})),
		nodeXML(map[string]string{"class": "androidx.recyclerview.widget.RecyclerView", "scrollable": "true", "resource-id": "com.example.app:id/messages", "bounds": "[0,300][1080,2400]"}, kids...)))
}

func TestSignatureTitle(t *testing.T) {
	// One activity, one structure, many pages: only the title tells them apart.
	pages := map[string]string{}
	for _, title := range []string{"Notifications", "Storage", "Accessibility", "System", "Font size", "Permissions", "App battery usage"} {
		s := mustParse(t, settingsPage(title, "Row one", "Row two"))
		if o, dup := pages[s.Signature]; dup {
			t.Errorf("Settings pages %q and %q share signature %s", title, o, s.Signature)
		}
		pages[s.Signature] = title
	}
	// The same page with other rows, another count in its title, scrolled: one page.
	base := mustParse(t, settingsPage("Notifications", "Row one", "Row two"))
	for name, x := range map[string]string{
		"other rows": settingsPage("Notifications", "Notification history", "Conversations", "Bubbles"),
		"scrolled":   settingsPage("Notifications", "Row two"),
	} {
		if s := mustParse(t, x); s.Signature != base.Signature {
			t.Errorf("%s: the same page got another signature", name)
		}
	}
	if a, b := mustParse(t, settingsPage("3 selected", "a")), mustParse(t, settingsPage("12 selected", "b")); a.Signature != b.Signature {
		t.Error("a count in the title made another page")
	}
	// A title the page says again is the name of the record it shows: content.
	if a, b := mustParse(t, detailPage("Alice Chen", "+1 415-555-0132")), mustParse(t, detailPage("Bob Smith", "+1 415-555-0199")); a.Signature != b.Signature {
		t.Error("two contacts' detail pages got two signatures")
	}
	if a, b := mustParse(t, threadPage("Alice Chen", "Hi", "See you")), mustParse(t, threadPage("Bob Smith", "Lunch?")); a.Signature != b.Signature {
		t.Error("two conversations got two signatures")
	}
}

func TestNames(t *testing.T) {
	for _, c := range []struct {
		text, title string
		want        bool
	}{
		{"Alice Chen", "Alice Chen", true},
		{"Alice Chen · 12:02", "Alice Chen", true},
		{"薯条", "薯条", true},
		{"薯条 French fries", "薯条", true},
		{"Notification history", "Notifications", false},
		{"Notifications", "Notification", false},
		{"设置中心", "设置", false},
		{"", "Storage", false},
	} {
		if got := names(c.text, c.title); got != c.want {
			t.Errorf("names(%q, %q) = %t, want %t", c.text, c.title, got, c.want)
		}
	}
}
