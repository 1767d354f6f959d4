package guard

import (
	"testing"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/perception"
)

// TestGuardPhrasingsAndPrecision: the phrasings real apps use for paying, ordering,
// deleting, sending and calling are held, in languages beyond the hand-written nine; a
// sensitive word that only names something is not; every category names what the action
// does.
func TestGuardPhrasingsAndPrecision(t *testing.T) {
	g := defaultGuard(t)
	tap := event.Action{Type: event.Tap, Index: 1}
	for _, tc := range []struct{ label, id, category string }{
		// Languages outside guard.yaml (from the generated vocabulary).
		{"Paga ora", "", "payment"},
		{"Doneren", "", "payment"}, {"Wyślij", "", "send"}, {"Usuń", "", "delete"}, {"Sil", "", "delete"}, {"Gönder", "", "send"},
		{"احذف", "", "delete"}, {"أرسل", "", "send"}, {"हटाएं", "", "delete"}, {"भेजें", "", "send"}, {"Xóa", "", "delete"}, {"Gửi", "", "send"},
		{"ลบ", "", "delete"}, {"ส่งข้อความ", "", "send"}, {"Hapus", "", "delete"}, {"Kirim", "", "send"}, {"Verwijderen", "", "delete"},
		{"Elimina", "", "delete"}, {"Invia", "", "send"},
		// Phrasings.
		{"Top up", "", "payment"}, {"Withdraw $500", "", "transfer"},
		{"Rent $3.99", "", "payment"}, {"Bid $120", "", "payment"}, {"Pre-order", "", "payment"}, {"Empty trash", "", "delete"},
		{"Move to trash", "", "delete"}, {"Discard draft", "", "delete"}, {"Deactivate account", "", "delete"},
		{"Cancel subscription", "", "subscription"}, {"Forward", "", "send"}, {"Call", "", "call"}, {"Clear history", "", "delete"},
		{"Send $20 to Alex", "", "transfer"}, {"Send", "", "send"}, {"Pɑy", "", "payment"}, {"Pаy", "", "payment"}, {"Ρау", "", "payment"},
		// Harmless.
		{"View purchase history", "", ""}, {"Tip of the day", "", ""}, {"Remove filter", "", ""}, {"Clear all filters", "", ""},
		{"Reset zoom", "", ""}, {"Post office hours", "", ""}, {"Transfer history", "", ""}, {"Share this tip", "", ""},
		{"Display name", "com.app:id/sender_name_settings", ""}, {"Sender", "", ""}, {"Remove star", "", ""},
		// A source's word that is also a name or a browser's Forward there (Korean 발신, From;
		// 앞으로, ahead) is no send.
		{"발신자", "", ""}, {"앞으로", "", ""}, {"Terkirim", "", ""},
		// An English word is read as itself, not as another language's inflected form
		// (Spanish publicar, Swedish ignorera) nor as an English word's (subscribe).
		{"Public", "", ""}, {"Ignore", "", ""}, {"Subscribers", "", ""}, {"Purchases", "", ""}, {"Removed", "", ""},
		{"Supprimez", "", "delete"},
		// A dialog's No is no Discard, though one app's translators wrote it so.
		{"Нет", "", ""}, {"Не", "", ""},
		// A cart's way to the order page places nothing (the order page asks): navigation,
		// in English as in the demo's 去结算.
		{"Checkout (3)", "", ""}, {"Proceed to checkout", "", ""}, {"去结算", "", ""},
		// Clear deletes only data: by what it clears, in any language the vocabulary knows,
		// inflected or not.
		{"Clear messages", "", "delete"}, {"Clear chat", "", "delete"}, {"Wyczyść wiadomości", "", "delete"}, {"Berichten wissen", "", "delete"},
		{"Очистить сообщения", "", "delete"}, {"Clear cache", "", ""}, {"Clear search", "", ""}, {"Clear selection", "", ""},
		{"Usuń gwiazdkę", "", ""}, {"Уклони звездицу", "", ""}, {"Yıldızı kaldır", "", ""},
		// A view's state after an article, as a glyph, with the accents or article an
		// inflection or the script writes into it; the same verbs on data still delete.
		{"Retirer l'étoile", "", ""}, {"Elimina il filtro", "", ""}, {"Odstranit ★", "", ""}, {"Remove ♡", "", ""},
		{"Διαγραφή αστεριού", "", ""}, {"إزالة النجمة", "", ""},
		{"Supprimer le message", "", "delete"}, {"Loại bỏ tin nhắn", "", "delete"},
		// Inflected forms of the vocabulary's longer words, unless they are as much forms
		// of an exception (αποστολέων, of the senders); Turkish capitals.
		{"Удалите", "", "delete"}, {"Αποστολέων", "", ""}, {"SİL", "", "delete"},
		// A form as much of a word as of its exception is the word's (Italian cancella of
		// cancellare and of the name cancellato); one nearer the exception is the name's.
		{"Cancellare", "", "delete"}, {"Cancellati", "", ""}, {"Elementos eliminados", "", ""}, {"Supprimés", "", ""},
		// A Clear word that is also a form of a delete word (Italian cancella of cancellare)
		// is a Clear: judged by what it clears.
		{"Cancella conversazione", "", "delete"}, {"Cancella cache", "", ""},
		// Empty is a Clear: it deletes a trash's or a spam folder's messages, not a cache.
		// Cancelling what is being written discards it; Cancel beside anything else, or a
		// way out that is no Cancel, leaves.
		{"Cancel message", "", "delete"}, {"Nachricht abbrechen", "", "delete"}, {"Cancelar mensaje", "", "delete"},
		{"Cancel", "", ""}, {"Cancel download", "", ""}, {"Back to messages", "", ""}, {"Close chat", "", ""},
		{"Empty spam", "", "delete"}, {"Empty cache", "", ""}, {"Vider la corbeille", "", "delete"}, {"Vider le cache", "", ""},
		// A finished action is a state or a folder: Sent, Deleted.
		{"已发送", "", ""}, {"送信済み", "", ""}, {"Đã gửi", "", ""}, {"已删除", "", ""}, {"发送", "", "send"},
		// A view's state learned in another language that is an English word (Sardinian
		// note, night) does not free "Delete note".
		{"Delete note", "", "delete"},
		// So is one awaiting it: an order's status.
		{"订单 1001 · 待支付", "", ""}, {"未支付", "", ""}, {"支付", "", "payment"},
		// Arabic with its vowel signs, or another hamza on the alif.
		{"أَرْسِلْ", "", "send"}, {"إِحْذِفْ", "", "delete"},
		// Hindi's two spellings of a word (मिटायें, मिटाएं; हटाएँ, हटाएं).
		{"संदेश मिटायें", "", "delete"}, {"फ़ोटो हटाएँ", "", "delete"},
		// Sending thanks (MediaWiki's Thanks extension), in languages the Commons app does
		// not word so; a Russian Clear is judged by what it clears; what is selected is a
		// person's data; a short Buy an app says alone stays.
		{"Sampaikan penghargaan", "", "send"}, {"Poslat poděkování", "", "send"}, {"Kiitä", "", "send"}, {"Очистить сообщения", "", "delete"},
		{"Effacer les éléments sélectionnés", "", "delete"}, {"Köp", "", "payment"}, {"Kup", "", "payment"},
		// A Greek Forward that two mail apps agree on, though a browser's translator wrote it
		// for the browser's Forward too.
		{"Προώθηση", "", "send"},
	} {
		el := button(1, tc.label, 1000)
		el.ResourceID = tc.id
		v, hit := g.Check(tap, &el, &perception.Screen{Signature: "plain"})
		if got := map[bool]string{true: v.Category}[hit]; got != tc.category {
			t.Errorf("tap %q: category %q, want %q", tc.label, got, tc.category)
		}
	}
}

// TestGuardJudgesPageStructure: on a page that pays, sends or deletes, the primary action
// is held whatever its label and language — a confirm with more words, a slider, an icon,
// a floating button, a bottom button in a language the vocabulary lacks; amounts in any
// currency and locale format make the page one that pays.
func TestGuardJudgesPageStructure(t *testing.T) {
	g := defaultGuard(t)
	slider := perception.Element{Index: 2, Role: "slider", Label: "Slide to confirm", Text: "Slide to confirm", Class: "android.widget.SeekBar", Clickable: true,
		Bounds: perception.Bounds{X1: 100, Y1: 2000, X2: 980, Y2: 2150}, Center: perception.Point{X: 540, Y: 2075}}
	icon := perception.Element{Index: 3, Role: "button", Desc: "", Class: "android.widget.ImageButton", Clickable: true,
		Bounds: perception.Bounds{X1: 900, Y1: 100, X2: 1000, Y2: 200}, Center: perception.Point{X: 950, Y: 150}}
	pay := func(amount string, labels ...string) *perception.Screen {
		s := &perception.Screen{Signature: "pay " + amount, Context: []string{"Payment", amount}, Width: 1080, Height: 2400}
		for i, l := range labels {
			s.Elements = append(s.Elements, button(i+1, l, 1800+100*i))
		}
		return s
	}
	tap := event.Action{Type: event.Tap, Index: 1}
	for _, tc := range []struct {
		name     string
		el       perception.Element
		s        *perception.Screen
		category string
	}{
		{"Confirm transaction on a payment page", button(1, "Confirm transaction", 1800), pay("$20.00", "Confirm transaction"), "payment"},
		{"Italian pay now, bottom button", button(1, "Paga ora", 1800), pay("12,50 €", "Paga ora"), "payment"},
		{"Thai confirm after a PIN, bottom button", button(2, "ยืนยันการชำระเงิน", 1800), &perception.Screen{Signature: "th", Context: []string{"ชำระเงิน", "฿120.00"},
			Elements: []perception.Element{{Index: 1, Role: "input", Editable: true, Password: true}, button(2, "ยืนยันการชำระเงิน", 1800)}}, "payment"},
		{"Polish zł with a PIN", button(2, "Zatwierdź", 1900), &perception.Screen{Signature: "pl", Context: []string{"Do zapłaty 25,99 zł"},
			Elements: []perception.Element{{Index: 1, Role: "input", Editable: true, Password: true}, button(2, "Zatwierdź", 1900)}}, "payment"},
		{"Indonesian Rp with a PIN", button(2, "Lanjut", 1900), &perception.Screen{Signature: "id", Context: []string{"Total Rp 50.000"},
			Elements: []perception.Element{{Index: 1, Role: "input", Editable: true, Password: true}, button(2, "Lanjut", 1900)}}, "payment"},
		{"Saudi riyal with a PIN", button(2, "تأكيد", 1900), &perception.Screen{Signature: "ar", Context: []string{"المبلغ ٥٠٫٠٠ ر.س"},
			Elements: []perception.Element{{Index: 1, Role: "input", Editable: true, Password: true}, button(2, "تأكيد", 1900)}}, "payment"},
		{"dong after the number with a PIN", button(2, "Xác nhận", 1900), &perception.Screen{Signature: "vi", Context: []string{"Tổng 120.000 ₫"},
			Elements: []perception.Element{{Index: 1, Role: "input", Editable: true, Password: true}, button(2, "Xác nhận", 1900)}}, "payment"},
		{"slide to confirm on a payment page", slider, &perception.Screen{Signature: "s", Context: []string{"Payment", "$20.00"}, Elements: []perception.Element{slider}}, "payment"},
		{"icon on a delete dialog", icon, &perception.Screen{Signature: "d", Context: []string{"Delete 3 items?"}, Elements: []perception.Element{icon}}, "delete"},
		{"compose with a recipient: unknown send icon", perception.Element{Index: 3, Role: "button", Desc: "➤", Class: "android.widget.ImageButton", Clickable: true},
			&perception.Screen{Signature: "c", Elements: []perception.Element{
				{Index: 1, Role: "input", Editable: true, Hint: "To"}, {Index: 2, Role: "input", Editable: true, Hint: "Message"},
				{Index: 3, Role: "button", Desc: "➤", Class: "android.widget.ImageButton", Clickable: true}}}, "send"},
		{"icon over selected items", icon, &perception.Screen{Signature: "sel", Elements: []perception.Element{
			{Index: 1, Role: "checkbox", Checkable: true, Checked: true, Class: "android.widget.CheckBox"},
			{Index: 2, Role: "checkbox", Checkable: true, Class: "android.widget.CheckBox"}, icon}}, "delete"},
		// Harmless: the same buttons where the page neither pays, sends nor deletes.
		{"an unknown label without a payment page", button(1, "Procedi adesso", 1800), &perception.Screen{Signature: "x", Context: []string{"Impostazioni"}}, ""},
		{"an unknown label at the bottom of a payment page", button(1, "Procedi adesso", 1800), pay("12,50 €", "Procedi adesso"), "payment"},
		{"cart: a total alone does not make the checkout button a payment", button(1, "去结算", 1800), &perception.Screen{Signature: "cart", Context: []string{"合计 ¥18"}}, ""},
		{"Continue reading on a payment page", button(1, "Continue reading", 1800), pay("$4.99", "Continue reading"), ""},
		{"Cancel on a payment page", button(1, "Cancel", 1800), pay("$4.99", "Cancel"), ""},
		{"Top 10 is no amount", button(1, "Weiter", 1800), &perception.Screen{Signature: "t", Context: []string{"Top 10"}, Elements: []perception.Element{button(1, "Weiter", 1800)}}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, hit := g.Check(tap, &tc.el, tc.s)
			if got := map[bool]string{true: v.Category}[hit]; got != tc.category {
				t.Errorf("category %q, want %q (%+v)", got, tc.category, v)
			}
		})
	}
}

// TestFindAmounts: amounts in any currency CLDR knows and any locale's number format.
func TestFindAmounts(t *testing.T) {
	rd := newTextReader()
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"$4.99", true}, {"12,50 €", true}, {"25,99 zł", true}, {"Rp 50.000", true}, {"٥٠٫٠٠ ر.س", true}, {"50 ر.س.", true},
		{"120.000 ₫", true}, {"₹1,23,456", true}, {"CHF 12.–", true}, {"1 500 ₽", true}, {"¥18", true}, {"18元", true}, {"฿120", true},
		{"R$ 10,00", true}, {"US$5", true}, {"kr 99", true}, {"Total 18.00", true}, {"USD 12", true},
		{"Top 10", false}, {"STOP 3", false}, {"Page 2 of 5", false}, {"Version 1.2.3", false}, {"10:30", false}, {"3 items", false},
	} {
		if got := rd.hasAmount(rd.normLabel(tc.text)); got != tc.want {
			t.Errorf("hasAmount(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

// TestGuardCommonLabelsAreFree: the labels every app shows — navigation, folders (Sent,
// Drafts, Trash), editing, settings, a shop's browsing — in fourteen languages are not
// held on a plain page. None of them is a corpus label; the generated vocabulary must not
// make any of them sensitive.
func TestGuardCommonLabelsAreFree(t *testing.T) {
	g := defaultGuard(t)
	tap := event.Action{Type: event.Tap, Index: 1}
	for _, l := range []string{
		"Share", "Edit", "Save", "Back", "Sort by date", "Filter", "Select all", "Mark as read", "Move", "Copy",
		"Open", "Download", "Upload", "Refresh", "Sign in", "Log out", "Help", "About", "Contact us",
		"Privacy policy", "Terms", "Notifications", "Profile", "Messages", "Inbox", "Sent", "Drafts", "Trash",
		"Deleted items", "Spam", "Contacts", "Calendar", "Photos", "Deleted", "Sent messages", "Recipients",
		"Message details", "New message", "Add contact", "Favorites", "Starred", "Recent", "Call log", "Voicemail",
		"Sending…", "Delivered", "Read receipts", "Storage", "Clear search", "Clear cache", "Reset zoom",
		"Order history", "Payment methods", "Subscriptions", "Transfer history", "My orders", "Track order",
		"Wishlist", "Add to cart", "View cart", "Compare", "Reviews", "Write a review", "Language", "Dark mode",
		"Font size", "Backup", "Restore", "Sync now", "Export", "Import", "Print", "Zoom in", "Rotate", "Crop",
		"Undo", "Redo", "Teilen", "Bearbeiten", "Speichern", "Zurück", "Gesendet", "Entwürfe", "Papierkorb",
		"Bestellverlauf", "Zahlungsmethoden", "Rechercher", "Partager", "Modifier", "Enregistrer", "Envoyés",
		"Brouillons", "Corbeille", "Éléments supprimés", "Compartir", "Editar", "Guardar", "Enviados",
		"Borradores", "Papelera", "Elementos eliminados", "Поделиться", "Изменить", "Сохранить", "Отправленные",
		"Черновики", "Корзина", "共有", "編集", "保存", "送信済み", "下書き", "ゴミ箱", "分享", "编辑", "保存", "已发送", "草稿", "回收站",
		"历史记录", "Ara", "Paylaş", "Düzenle", "Kaydet", "Gönderilenler", "Taslaklar", "Çöp kutusu", "Cerca",
		"Condividi", "Modifica", "Salva", "Avanti", "Inviati", "Bozze", "Cestino", "Bagikan", "Ubah", "Simpan",
		"Berikutnya", "Terkirim", "Draf", "Sampah", "Cài đặt", "Tìm kiếm", "Chia sẻ", "Chỉnh sửa", "Lưu", "Đã gửi",
		"Thư nháp", "Thùng rác", "بحث", "مشاركة", "تعديل", "حفظ", "المرسلة", "المسودات", "المهملات", "المرسل",
		"السجل", "खोजें", "शेयर करें", "बदलाव करें", "सेव करें", "आगे", "भेजे गए", "ड्राफ़्ट", "ट्रैश",
		"भेजने वाला", "Udostępnij", "Edytuj", "Zapisz", "Wysłane", "Wersje robocze", "Kosz", "Delen", "Bewerken",
		"Opslaan", "Verzonden", "Concepten", "Prullenbak",
		// A browser's directions (Finnish, Hindi, Punjabi), clearing a cache in Russian,
		// particles once learned as verbs (Dutch uit, Danish vil, Turkish yap), a thank-you.
		"Eteenpäin", "Taaksepäin", "ਅੱਗੇ", "Очистить кэш", "Очистить", "Log uit", "Vil du fortsætte?", "Giriş yap",
		"Bedankt!", "Ευχαριστώ", "Mulțumesc", "Clear selection", "ประวัติการชำระเงิน", "ဖျက်ပြီးပြီ",
	} {
		el := button(1, l, 1000)
		if v, hit := g.Check(tap, &el, &perception.Screen{Signature: "plain"}); hit {
			t.Errorf("tap %q is held as %s", l, v.Category)
		}
	}
}

// TestGuardBrowserForward: on a browser's page — an address bar or a Reload beside its
// Back and Forward — Forward goes to the next page and is free, in the languages a
// browser translates it into; a mail app's Forward beside its Back is held, and so is a
// web form's Send on the browser's page.
func TestGuardBrowserForward(t *testing.T) {
	g := defaultGuard(t)
	tap := event.Action{Type: event.Tap, Index: 1}
	icon := func(i int, desc string, x int) perception.Element {
		return perception.Element{Index: i, Role: "button", Desc: desc, Label: desc, Class: "android.widget.ImageButton", Clickable: true,
			Bounds: perception.Bounds{X1: x, Y1: 100, X2: x + 120, Y2: 220}, Center: perception.Point{X: x + 60, Y: 160}}
	}
	bar := perception.Element{Index: 10, Role: "input", Class: "android.widget.EditText", Editable: true, Text: "example.org/news",
		ResourceID: "org.mozilla.firefox:id/mozac_browser_toolbar_url_view", Bounds: perception.Bounds{X1: 400, Y1: 100, X2: 1000, Y2: 220}}
	for _, tc := range []struct {
		name          string
		back, forward string
		withBar       bool
		reload, extra string
		want          bool
	}{
		{"browser, address bar", "Back", "Forward", true, "", "", false},
		{"browser, Reload", "Back", "Forward", false, "Refresh", "", false},
		// Greek, Vietnamese and Hebrew mail apps' Forward is their browser's Forward too.
		{"Greek browser", "Πίσω", "Προώθηση", true, "", "", false},
		{"Vietnamese browser", "Quay lại", "Chuyển tiếp", false, "Làm mới", "", false},
		{"Hebrew browser", "חזרה", "קדימה", true, "", "", false},
		{"Greek mail app", "Πίσω", "Προώθηση", false, "", "Απάντηση", true},
		{"mail app", "Back", "Forward", false, "", "Reply", true},
		{"mail app with a link in its text", "Back", "Forward", false, "", "example.org", true},
	} {
		s := &perception.Screen{Signature: tc.name, Width: 1080, Height: 2400}
		s.Elements = append(s.Elements, icon(1, tc.forward, 140), icon(2, tc.back, 20))
		if tc.withBar {
			s.Elements = append(s.Elements, bar)
		}
		if tc.reload != "" {
			s.Elements = append(s.Elements, icon(3, tc.reload, 260))
		}
		if tc.extra != "" {
			s.Elements = append(s.Elements, button(4, tc.extra, 600))
		}
		if _, hit := g.Check(tap, &s.Elements[0], s); hit != tc.want {
			t.Errorf("%s: tap %q held %v, want %v", tc.name, tc.forward, hit, tc.want)
		}
	}
	// A web form's Send on a browser's page sends.
	s := &perception.Screen{Signature: "form", Width: 1080, Height: 2400}
	s.Elements = append(s.Elements, button(1, "Send", 1200), icon(2, "Back", 20), icon(3, "Forward", 140), bar)
	if v, hit := g.Check(tap, &s.Elements[0], s); !hit || v.Category != "send" {
		t.Errorf("a form's Send on a browser page: %+v %v, want held as send", v, hit)
	}
}
