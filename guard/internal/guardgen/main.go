// Command guardgen generates the guard's multilingual data from real app string catalogs
// and from the Unicode CLDR data that golang.org/x/text carries:
//
//   - guard/guard_vocab.yaml: sensitive words, generic confirms, ways out and page
//     words per language, taken from the translated strings.xml of the apps in sources
//     (Thunderbird for Android, the Wikipedia Android app, AOSP Messaging, Nfc ("Pay
//     with"), Mms, Contacts, Dialer, Calendar, Email and Browser, the DuckDuckGo browser,
//     Element, AntennaPod, Mastodon, Tusky, WooCommerce, Nextcloud, the Wikimedia Commons
//     app, Fossify Messages and the strings all Fossify apps share, NewPipe, FairEmail,
//     Delta Chat, QKSMS, Bitcoin Wallet, Firefox for Android (MPL-2.0) — of the GPL
//     ones only
//     translated words, which are facts, are taken), of MediaWiki's Thanks extension's
//     i18n/*.json (MIT: Send thanks, Thank), of its Nuke and MassMessage extensions'
//     (GPL-2.0-or-later, words taken as facts: Delete, Send) and of BlueWallet's loc/*.json (MIT:
//     Pay, Send now, Fee), string by string (the keys are listed below with the category
//     each one names), and the verb, data and view-state words learned from all their
//     strings (learnVerbs);
//   - guard/guard_currency.txt: every currency symbol CLDR gives for every currency in
//     every locale x/text supports (zł, Rp, ر.س., ₫, …), one a line;
//   - guard/testdata/guard/corpus.json: labels and pages for measuring the guard, from
//     other strings of Thunderbird and Wikipedia (held out: no key of the vocabulary is in
//     it, and no other source gives the corpus anything).
//
// Run from the repository root with every repository of sources checked out as a git
// directory, one flag each (the commits the data was made from are in the output's
// provenance):
//
//	go run ./guard/internal/guardgen -thunderbird DIR -wikipedia DIR -messaging DIR -nfc DIR -bluewallet DIR \
//		-antennapod DIR -duckduckgo DIR -woocommerce DIR -mms DIR -contacts DIR -dialer DIR -calendar DIR -email DIR \
//		-mastodon DIR -tusky DIR -element DIR -browser DIR -nextcloud DIR -commons DIR -fossifymessages DIR -newpipe DIR -fossifycommons DIR \
//		-fairemail DIR -deltachat DIR -thanks DIR -firefox DIR -qksms DIR -bitcoinwallet DIR -nuke DIR -massmessage DIR
package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"flag"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/currency"
	"golang.org/x/text/language"
	"golang.org/x/text/language/display"
	"golang.org/x/text/message"
	"gopkg.in/yaml.v3"
)

// catalog is one repository's translated strings: key → locale → text.
type catalog struct {
	repo, commit, licence string
	strings               map[string]map[string]string
	learn                 []string // the topics learnVerbs learns from it (verbs, data, view:…); nil: all
}

// role is what a string is for the guard.
type role struct {
	key      string
	category string // payment, send, …; "confirm", "dismiss", "page:payment", "except:send", …
}

// vocabulary keys, by repository.
var vocabulary = map[string][]role{
	"thunderbird/thunderbird-android": {
		{"send_action", "send"}, {"forward_action", "send"},
		{"delete_action", "delete"}, {"empty_trash_action", "delete"}, {"remove_account_action", "delete"}, {"discard_action", "delete"},
		{"webview_contextmenu_phone_call_action", "call"},
		{"funding_googleplay_contribution_footer_payment_button", "payment"},
		{"onboarding_permissions_allow_button", "permission"},
		{"okay_action", "confirm"}, {"dialog_confirm_delete_confirm_button", "confirm"},
		{"cancel_action", "dismiss"}, {"cancel_action", "cancel"}, {"funding_googleplay_contribution_reminder_negative_button", "dismiss"},
		{"dialog_confirm_delete_title", "page:delete"},
		// The state of a view, not data: removing a star or clearing a search deletes nothing.
		{"star_button_description", "object"}, {"search_action", "object"},
		// Names that hold a sensitive word without doing it (Người gửi, 送信者: sender).
		{"font_size_message_list_sender", "except:send"}, {"special_mailbox_name_sent", "except:send"},
		{"special_mailbox_name_outbox", "except:send"},
	},
	"BlueWallet/BlueWallet": {
		{"lnd.payButton", "payment"}, {"bip47.pay_this_contact", "payment"}, {"send.confirm_sendNow", "transfer"},
		{"lnd.payment", "page:payment"}, {"send.details_recipients_title", "page:transfer"}, {"send.create_fee", "page:transfer"},
	},
	"GrapheneOS/platform_packages_apps_Nfc": {
		{"pay_with", "payment"}, {"pay_with", "page:payment"},
	},
	"GrapheneOS/platform_packages_apps_Messaging": {
		{"action_send", "send"}, {"message_context_menu_forward_message", "send"}, {"action_delete", "delete"},
		{"delete_conversation_decline_button", "dismiss"},
	},
	"AntennaPod/AntennaPod": {
		{"delete_label", "delete"}, {"subscribe_label", "subscription"},
	},
	"woocommerce/woocommerce-android": {
		{"order_refunds_refund", "transfer"}, // a refund pays a customer back
		{"payment", "page:payment"}, {"order_creation_payment_header", "page:payment"},
	},
	// DuckDuckGo's browser contributes only the verb and data forms learned from its strings.
	"duckduckgo/Android": {},
	// Publishing a post sends it to everyone who follows the account.
	"mastodon/mastodon-android":  {{"publish", "send"}, {"discard", "delete"}, {"delete", "delete"}, {"clear", "clear"}},
	"tuskyapp/Tusky":             {{"action_delete", "delete"}, {"action_discard", "delete"}},
	"element-hq/element-android": {{"action_send", "send"}, {"action_delete", "delete"}, {"action_remove", "delete"}, {"direct_chats_header", "data"}},
	// Clear, and the names of a person's data, for the Clear-with-data rule.
	"aosp-mirror/platform_packages_apps_mms":     {{"confirm_clear_search_title", "clear"}},
	"aosp-mirror/platform_packages_apps_browser": {{"clear", "clear"}},
	// The strings every Fossify app shares (gallery, files, contacts, …).
	"FossifyOrg/commons": {{"delete", "delete"}, {"discard", "delete"}, {"empty_recycle_bin", "delete"}},
	"nextcloud/android":  {{"common_delete", "delete"}, {"common_send", "send"}, {"clear", "clear"}},
	// Two more e-mail and chat apps: their translators word send, forward, discard and
	// clearing a chat otherwise than Thunderbird's.
	// (Not its Forward: some of its translators wrote a browser's Forward, Korean 앞으로,
	// ahead.)
	"M66B/FairEmail": {{"title_send", "send"}, {"title_raw_send", "send"}, {"title_delete", "delete"},
		{"title_discard", "delete"}, {"title_empty_trash", "delete"},
		// The names of what a person writes and keeps, word for word.
		{"title_raw_send_message", "data"}, {"title_raw_send_message", "compose"}, {"title_legend_section_messages", "data"},
		{"title_legend_section_messages", "compose"}, {"title_folder_drafts", "data"}, {"title_folder_drafts", "compose"},
		// Names that hold a sensitive word without doing it (Korean 발신, From, is also its
		// Send).
		{"title_sort_on_sender", "except:send"}, {"title_from", "except:send"}, {"title_folder_sent", "except:send"},
		{"title_folder_outbox", "except:send"}, {"title_filter_deleted", "except:delete"}},
	"deltachat/deltachat-android": {{"menu_send", "send"}, {"forward", "send"}, {"menu_forward", "send"}, {"delete", "delete"},
		{"clear_chat", "delete"}, {"donate", "payment"}, {"cancel", "cancel"},
		{"messages", "data"}, {"messages", "compose"}, {"chat_input_placeholder", "data"}, {"chat_input_placeholder", "compose"},
		{"draft", "data"}, {"draft", "compose"}, {"chat", "data"}},
	"aosp-mirror/platform_packages_apps_contacts": {{"contactsList", "data"}},
	// The Commons app, translated on translatewiki.net: its Delete of an upload and of the
	// pictures picked in its image selector.
	"commons-app/apps-android-commons":         {{"delete", "delete"}, {"custom_selector_delete", "delete"}},
	"GrapheneOS/platform_packages_apps_Dialer": {{"tab_voicemail", "data"}},
	// "Send thanks" and the Thank button; a Thank that is also the language's word of thanks
	// itself is left out (thankIsGratitude).
	thanksRepo:                       {{"thanks-submit", "send"}, {"thanks", "send"}, {"thanks-button-thank", "send"}},
	"mozilla-mobile/firefox-android": {{"preferences_delete_browsing_data", "delete"}, {"browser_toolbar_erase", "delete"}},
	"moezbhatti/qksms": {{"compose_menu_forward", "send"}, {"compose_send_cd", "send"}, {"button_delete", "delete"},
		{"info_delete", "delete"}, {"button_cancel", "cancel"}},
	// Translatewiki's smallest languages: Nuke's Delete (of the pages selected) and
	// MassMessage's Send (of a message to many users).
	"wikimedia/mediawiki-extensions-Nuke":        {{"nuke-submit-delete", "delete"}},
	"wikimedia/mediawiki-extensions-MassMessage": {{"massmessage-form-submit", "send"}},
	"bitcoin-wallet/bitcoin-wallet": {{"send_coins_fragment_button_send", "transfer"}, {"send_coins_activity_title", "transfer"},
		{"send_coins_fragment_receiving_address_label", "page:transfer"}},
	"wikimedia/apps-android-wikipedia": {
		{"nav_item_donate", "payment"}, {"donation_reminders_prompt_positive_button", "payment"},
		{"talk_list_item_overflow_subscribe", "subscription"},
		{"edit_done", "send"},
		{"onboarding_continue", "confirm"},
		{"watchlist_page_deleted", "except:delete"},
		// Harmless phrases that hold a send word in some languages (Vietnamese đăng nhập: log in).
		{"menu_login", "except:send"},
	},
}

// thanksRepo is MediaWiki's Thanks extension; thankKeys are its Send thanks and its Thank
// button: in some languages a verb ("Захвали се", "Lähetä kiitokset"), in others the
// word of thanks itself (感謝, a noun a "Thank you" label holds too), which
// thankIsGratitude leaves out.
const thanksRepo = "wikimedia/mediawiki-extensions-Thanks"

var thankKeys = []string{"thanks-submit", "thanks", "thanks-button-thank"}

// thanksSaid are English strings that only say thanks ("Thanks", "No thanks", "Thank
// you!", "Thanks log", "Thanked", "Thanks received"); not "thank", the verb the button
// is, nor a sentence with other words ("Publicly send 'Thanks'").
var thanksSaid = regexp.MustCompile(`^(?i)\W*(no,?\s+)?(thanks|thank you|thanked)(\s+(log|received|very much|so much))?\W*$`)

// thankIsGratitude reports whether v, a translation in locale loc of the Thanks
// extension's Thank or Send thanks, says thanks rather than thanking: it is inside, or
// each of its words is a word of, the translations there of the
// strings of any catalog that only say thanks (thanksSaid: Romanian mulțumesc; "Lähetä
// kiitokset" has a verb beside the thanks); or it is one word that the guard would read in its
// inflected forms (minStemWord letters or more) and a word of such a string in any locale
// is one of them (Dutch bedanken, to thank, and bedankt, thanks; Greek ευχαριστία and
// ευχαριστώ). A sentence that reports someone thanking ("when someone thanks you") has
// the verb.
func thankIsGratitude(cats []*catalog, loc, v string) bool {
	v = strings.ToLower(v)
	long := slices.Collect(maps.Keys(grams(v)))
	stem := ""
	if rs := []rune(v); len(rs) >= minStemWord && len(long) == 1 && long[0] == v {
		stem = string(rs[:len(rs)-2])
	}
	thanked := map[string]bool{} // the words of v that a string saying thanks holds
	for _, c := range cats {
		for k, tr := range c.strings {
			en := tr["en"]
			if c.repo == thanksRepo && slices.Contains(thankKeys, k) || !thanksSaid.MatchString(en) {
				continue
			}
			if said := strings.ToLower(tr[loc]); said != "" {
				if strings.Contains(said, v) {
					return true
				}
				for _, g := range long {
					if grams(said)[g] {
						thanked[g] = true
					}
				}
			}
			if stem == "" {
				continue
			}
			for l, said := range tr {
				if strings.HasPrefix(l, "en") {
					continue
				}
				for g := range grams(strings.ToLower(said)) {
					if strings.HasPrefix(g, stem) && utf8.RuneCountInString(g)-utf8.RuneCountInString(stem) <= 4 {
						return true
					}
				}
			}
		}
	}
	return len(long) > 0 && len(thanked) == len(long)
}

// minStemWord is the guard's: the fewest letters of a word whose inflected forms it reads
// (the word less two letters and up to four more).
const minStemWord = 7

// notForwarding reports whether the catalog uses w in locale loc, as a word, in more of
// its strings whose English is not about forwarding than of those about it.
func notForwarding(c *catalog, loc, w string) bool {
	about, other := 0, 0
	for _, tr := range c.strings {
		if tr[loc] == "" || tr["en"] == "" || !grams(strings.ToLower(tr[loc]))[w] {
			continue
		}
		if strings.Contains(strings.ToLower(tr["en"]), "forward") {
			about++
		} else {
			other++
		}
	}
	return other > about
}

// harmlessKeys are strings of actions that need no consent (Move, Archive, Copy, Reply,
// Next, Back, Done, Mark as read, Cancel, Edit, Add, Save, Skip, Later, Log out): a
// generated word that is also one of their translations in the same locale is ambiguous
// there (Hebrew העבר is Forward
// and Move, Indonesian batalkan is Discard and Cancel) and left out; so is a learned
// single word that is one of the words of such a translation (Irish cuir, learned from
// "Cuir teachtaireacht" for Send, is also the cuir of "Cuir in eagar", Edit).
var harmlessKeys = map[string][]string{
	"thunderbird/thunderbird-android": {"move_action", "archive_action", "copy_action", "reply_action", "account_common_button_next",
		"account_common_button_back", "done_action", "mark_as_read_action", "cancel_action", "manage_identities_edit_action",
		"edit_identity_save", "onboarding_permissions_skip_button", "settings_import_later_button"},
	// Log out and Skip (Malay keluar, out, of Log keluar, was learned from Alih keluar,
	// Remove).
	"nextcloud/android":                           {"drawer_logout", "common_skip"},
	"aosp-mirror/platform_packages_apps_contacts": {"menu_editContact", "menu_add_contacts", "menu_save"},
	"M66B/FairEmail":                              {"title_move", "title_archive", "title_copy", "title_reply", "title_save", "title_next", "title_add"},
	"deltachat/deltachat-android":                 {"cancel", "save", "next"}, // its Archive is "Send to archive" in some languages
}

// directionKeys are a browser's Forward and Back, which go from page to page: a send word
// that is one of their translations (Finnish eteenpäin, Delta Chat's Forward, is the
// browser's too; Hindi आगे, QKSMS's Forward, is ahead) is a direction, not a verb, unless
// two apps or more translate their Forward so and none of them uses it more often in
// strings not about forwarding ("Tästä eteenpäin", from now on) than in those about it.
var directionKeys = map[string][]string{"mozilla-mobile/firefox-android": {"browser_menu_forward", "browser_menu_back"},
	"wikimedia/apps-android-wikipedia": {"nav_item_forward", "nav_item_back"}}

// browserKeys are a browser's Reload and Stop: with them (or an address bar) on a page,
// the page is a browser's, and its Forward and Back (directionKeys) go from page to page.
var browserKeys = map[string][]string{"mozilla-mobile/firefox-android": {"browser_menu_refresh", "browser_menu_stop"}}

// corpusKeys are held-out strings: sensitive ones name their category, harmless ones "".
var corpusKeys = map[string][]role{
	"thunderbird/thunderbird-android": {
		{"notification_action_delete_all", "delete"}, {"forward_as_attachment_action", "send"}, {"send_messages_action", "send"},
		{"dialog_confirm_clear_local_folder_action", "delete"}, {"webview_contextmenu_email_send_action", "send"},
		{"sent_folder_not_found_dialog_send_and_delete_action", "send"}, {"global_settings_confirm_menu_discard", "delete"},
		{"ac_transfer_button_send", "send"},
		{"sort_by_sender", ""}, {"swipe_action_archive", ""}, {"reader_action_reply", ""}, {"navigation_drawer_dropdown_action_settings", ""},
		{"compose_title_compose", ""}, {"swipe_action_add_star", ""}, {"swipe_action_remove_star", ""}, {"notification_action_mark_all_as_read", ""},
		{"account_settings_search_action", ""}, {"swipe_action_move", ""},
	},
	"wikimedia/apps-android-wikipedia": {
		{"reading_list_menu_delete", "delete"}, {"delete_selected_items", "delete"}, {"thank_dialog_positive_button_text", "send"},
		{"donate_gpay_dialog_pay_button", "payment"}, {"donation_reminders_gpay_text", "payment"}, {"menu_save_changes", "send"},
		{"history_list_title", ""}, {"menu_page_view_edit_history", ""}, {"menu_page_view_talk", ""}, {"menu_edit_article", ""},
		{"settings_item_preferences", ""}, {"search_hint", ""}, {"map_view_link_text", ""}, {"nav_item_login", ""},
	},
}

// corpusScreens name the screens the corpus labels are put on, one per repository.
var corpusScreens = map[string]string{"thunderbird/thunderbird-android": "compose_title_compose", "wikimedia/apps-android-wikipedia": "history_list_title"}

// source is one repository the generator reads: the flag that names its git directory,
// its licence, and whether its strings are BlueWallet's loc/*.json.
type source struct {
	repo, flag, licence string
	json                bool
	mediawiki           bool     // a MediaWiki extension's i18n/*.json
	learn               []string // the topics learnVerbs learns from it; nil: all
}

// sources are the repositories, in the order their provenance is written. The corpus is
// made from thunderbird and wikipedia only (corpusKeys); the AOSP apps (Mms, Contacts,
// Dialer, Calendar, Email, Browser), Mastodon, Tusky, Element and Nextcloud only teach the
// vocabulary, so no corpus label comes from them.
var sources = []source{
	{repo: "thunderbird/thunderbird-android", flag: "thunderbird", licence: "Apache-2.0"},
	{repo: "wikimedia/apps-android-wikipedia", flag: "wikipedia", licence: "Apache-2.0"},
	{repo: "GrapheneOS/platform_packages_apps_Messaging", flag: "messaging", licence: "Apache-2.0"},
	{repo: "GrapheneOS/platform_packages_apps_Nfc", flag: "nfc", licence: "Apache-2.0"},
	{repo: "BlueWallet/BlueWallet", flag: "bluewallet", licence: "MIT", json: true},
	{repo: "AntennaPod/AntennaPod", flag: "antennapod", licence: "GPL-3.0 (translated words taken as facts)"},
	{repo: "duckduckgo/Android", flag: "duckduckgo", licence: "Apache-2.0"},
	{repo: "woocommerce/woocommerce-android", flag: "woocommerce", licence: "GPL-2.0 (translated words taken as facts)"},
	{repo: "aosp-mirror/platform_packages_apps_mms", flag: "mms", licence: "Apache-2.0"},
	{repo: "aosp-mirror/platform_packages_apps_contacts", flag: "contacts", licence: "Apache-2.0"},
	{repo: "GrapheneOS/platform_packages_apps_Dialer", flag: "dialer", licence: "Apache-2.0"},
	{repo: "aosp-mirror/platform_packages_apps_calendar", flag: "calendar", licence: "Apache-2.0"},
	{repo: "aosp-mirror/platform_packages_apps_email", flag: "email", licence: "Apache-2.0"},
	{repo: "mastodon/mastodon-android", flag: "mastodon", licence: "GPL-3.0 (translated words taken as facts)"},
	{repo: "tuskyapp/Tusky", flag: "tusky", licence: "GPL-3.0 (translated words taken as facts)"},
	{repo: "element-hq/element-android", flag: "element", licence: "Apache-2.0"},
	{repo: "aosp-mirror/platform_packages_apps_browser", flag: "browser", licence: "Apache-2.0"},
	{repo: "nextcloud/android", flag: "nextcloud", licence: "GPL-2.0 (translated words taken as facts)"},
	// Commons sends thanks to an uploader; its other strings are of uploading and maps.
	{repo: "commons-app/apps-android-commons", flag: "commons", licence: "Apache-2.0", learn: []string{"thank"}},
	{repo: "FossifyOrg/Messages", flag: "fossifymessages", licence: "GPL-3.0 (translated words taken as facts)"},
	{repo: "TeamNewPipe/NewPipe", flag: "newpipe", licence: "GPL-3.0 (translated words taken as facts)"},
	{repo: "FossifyOrg/commons", flag: "fossifycommons", licence: "GPL-3.0 (translated words taken as facts)"},
	// FairEmail and Delta Chat teach the verbs of deleting, emptying, discarding, clearing
	// and sending; their forwarding is learned only from their Forward strings themselves
	// (vocabulary): the words around a forward ("Faire suivre", "להעביר אל") are as often
	// those of following or moving.
	{repo: "M66B/FairEmail", flag: "fairemail", licence: "GPL-3.0 (translated words taken as facts)", learn: mailVerbs},
	{repo: "deltachat/deltachat-android", flag: "deltachat", licence: "GPL-3.0 (translated words taken as facts)", learn: mailVerbs},
	// MediaWiki's Thanks extension sends an editor public thanks, in over four hundred
	// languages (translatewiki.net). Only its Send thanks and Thank strings are taken
	// (vocabulary), no learned word: its fifty strings are nearly all of thanking, so the
	// words around them ("Do you want to publicly send thanks?": möchten, wilt, julkisesti)
	// recur there and nowhere else, and would be learned as sending.
	{repo: "wikimedia/mediawiki-extensions-Thanks", flag: "thanks", licence: "MIT", mediawiki: true, learn: []string{}},
	// Firefox for Android, Focus and their components: deleting, removing and clearing a
	// person's browsing data; its Forward and Back are a page's, and teach which words of
	// a language are directions (directionKeys). Not its Erase nor its Send: nearly every
	// one is "Erase browsing history", "Erase and open" or "Send tab to device", whose
	// other words (history, and open, to device) would be learned as the verb.
	{repo: "mozilla-mobile/firefox-android", flag: "firefox", licence: "MPL-2.0", learn: []string{"delete", "remove", "empty", "discard", "clear"}},
	// QKSMS, an SMS app: sending, forwarding and deleting messages and conversations.
	{repo: "moezbhatti/qksms", flag: "qksms", licence: "GPL-3.0 (translated words taken as facts)", learn: mailVerbs},
	// Bitcoin Wallet: its Send sends money, and "Pay to" names a transfer's page; nothing
	// learned (its strings' other words are of coins and addresses).
	{repo: "bitcoin-wallet/bitcoin-wallet", flag: "bitcoinwallet", licence: "GPL-3.0 (translated words taken as facts)", learn: []string{}},
	// Two MediaWiki extensions translated on translatewiki.net into some two hundred
	// languages, many of them spoken by few (Chechen, Sakha, Pashto, Yiddish, Marathi):
	// Nuke's Delete and MassMessage's Send only (vocabulary), nothing learned — their
	// other strings are of wiki pages, users and lists.
	{repo: "wikimedia/mediawiki-extensions-Nuke", flag: "nuke", licence: "GPL-2.0-or-later (translated words taken as facts)", mediawiki: true, learn: []string{}},
	{repo: "wikimedia/mediawiki-extensions-MassMessage", flag: "massmessage", licence: "GPL-2.0-or-later (translated words taken as facts)", mediawiki: true, learn: []string{}},
}

// mailVerbs are the topics learned from the e-mail and chat apps added last.
var mailVerbs = []string{"delete", "remove", "erase", "empty", "discard", "clear", "send"}

func main() {
	dirs := make([]*string, len(sources))
	for i, s := range sources {
		dirs[i] = flag.String(s.flag, "", "git directory of "+s.repo)
	}
	out := flag.String("out", "guard", "the guard package directory")
	flag.Parse()
	var missing []string
	for i, s := range sources {
		if *dirs[i] == "" {
			missing = append(missing, "-"+s.flag)
		}
	}
	if len(missing) > 0 {
		fmt.Fprintf(os.Stderr, "guardgen: give %s (git directories of the %d repositories)\n", strings.Join(missing, ", "), len(sources))
		os.Exit(2)
	}
	cats := []*catalog{}
	for i, s := range sources {
		read := readCatalog
		switch {
		case s.json:
			read = readJSONCatalog
		case s.mediawiki:
			read = readMediaWikiCatalog
		}
		cat, err := read(s.repo, *dirs[i], s.licence)
		if err != nil {
			fmt.Fprintln(os.Stderr, "guardgen:", err)
			os.Exit(1)
		}
		cat.learn = s.learn
		cats = append(cats, cat)
	}
	if err := writeVocabulary(filepath.Join(*out, "guard_vocab.yaml"), cats); err != nil {
		fmt.Fprintln(os.Stderr, "guardgen:", err)
		os.Exit(1)
	}
	if err := writeCurrencies(filepath.Join(*out, "guard_currency.txt")); err != nil {
		fmt.Fprintln(os.Stderr, "guardgen:", err)
		os.Exit(1)
	}
	if err := writeCorpus(filepath.Join(*out, "testdata", "guard", "corpus.json"), cats); err != nil {
		fmt.Fprintln(os.Stderr, "guardgen:", err)
		os.Exit(1)
	}
}

func git(dir string, args ...string) ([]byte, error) {
	out, err := exec.Command("git", append([]string{"--git-dir", dir}, args...)...).Output()
	if err != nil {
		return nil, fmt.Errorf("git %s in %s: %w", strings.Join(args, " "), dir, err)
	}
	return out, nil
}

// newCatalog is the empty catalog of the repository's HEAD, with the files `git ls-tree
// ls…` lists there.
func newCatalog(repo, dir, licence string, ls ...string) (*catalog, []byte, error) {
	head, err := git(dir, "rev-parse", "HEAD")
	if err != nil {
		return nil, nil, err
	}
	files, err := git(dir, append([]string{"ls-tree"}, ls...)...)
	if err != nil {
		return nil, nil, err
	}
	return &catalog{repo: repo, commit: strings.TrimSpace(string(head)), licence: licence, strings: map[string]map[string]string{}}, files, nil
}

var valuesDir = regexp.MustCompile(`/values(-[^/]+)?/strings\.xml$`)

// readCatalog reads every strings.xml of the repository's HEAD.
func readCatalog(repo, dir, licence string) (*catalog, error) {
	c, files, err := newCatalog(repo, dir, licence, "-r", "--name-only", "HEAD")
	if err != nil {
		return nil, err
	}
	var paths, locs []string
	for _, f := range strings.Split(string(files), "\n") {
		m := valuesDir.FindStringSubmatch(f)
		if m == nil || strings.Contains(f, "/test/") {
			continue
		}
		loc, ok := locale(strings.TrimPrefix(m[1], "-"))
		if !ok {
			continue
		}
		paths, locs = append(paths, f), append(locs, loc)
	}
	blobs, err := showAll(dir, paths)
	if err != nil {
		return nil, err
	}
	for i, data := range blobs {
		loc := locs[i]
		var res struct {
			Strings []struct {
				Name  string `xml:"name,attr"`
				Inner string `xml:",innerxml"`
			} `xml:"string"`
		}
		if err := xml.Unmarshal(data, &res); err != nil {
			continue // a file the XML decoder cannot read (a rare entity) is left out
		}
		for _, s := range res.Strings {
			if c.strings[s.Name] == nil {
				c.strings[s.Name] = map[string]string{}
			}
			if v := clean(s.Inner); v != "" {
				if _, dup := c.strings[s.Name][loc]; !dup {
					c.strings[s.Name][loc] = v
				}
			}
		}
	}
	return c, nil
}

// showAll reads the files at HEAD with one git process (a catalog of a hundred modules in
// a hundred locales is thousands of files: one git show each took most of a minute).
func showAll(dir string, paths []string) ([][]byte, error) {
	cmd := exec.Command("git", "--git-dir", dir, "cat-file", "--batch")
	cmd.Stdin = strings.NewReader(func() string {
		var b strings.Builder
		for _, p := range paths {
			b.WriteString("HEAD:" + p + "\n")
		}
		return b.String()
	}())
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git cat-file in %s: %w", dir, err)
	}
	blobs := make([][]byte, 0, len(paths))
	for _, p := range paths {
		header, rest, ok := bytes.Cut(out, []byte("\n"))
		var sha, typ string
		var size int
		if !ok {
			return nil, fmt.Errorf("git cat-file in %s: no output for %s", dir, p)
		}
		if _, err := fmt.Sscanf(string(header), "%s %s %d", &sha, &typ, &size); err != nil || typ != "blob" || size > len(rest) {
			return nil, fmt.Errorf("git cat-file in %s: %s: %q", dir, p, header)
		}
		blobs = append(blobs, rest[:size])
		out = bytes.TrimPrefix(rest[size:], []byte("\n"))
	}
	return blobs, nil
}

// mediaWikiLocales are MediaWiki's language codes that are not the BCP 47 tag they stand
// for (sr-ec is Serbian in Cyrillic, not Serbian of Ecuador).
var mediaWikiLocales = map[string]string{"sr-ec": "sr", "sr-el": "sr-Latn", "be-tarask": "be", "zh-hans": "zh-Hans", "zh-hant": "zh-Hant",
	"pt-br": "pt-BR", "kk-cyrl": "kk", "tg-cyrl": "tg", "tt-cyrl": "tt", "ku-latn": "ku", "crh-latn": "crh"}

// mediaWikiMagic is a MediaWiki message's innermost {{GENDER:$1|…}}, {{PLURAL:$1|…|…}} or
// {{GRAMMAR:…|…}}: its first form is taken.
var mediaWikiMagic = regexp.MustCompile(`\{\{(?i:GENDER|PLURAL|GRAMMAR):[^{}|]*\|([^{}|]*)(?:\|[^{}]*)?\}\}`)

// readMediaWikiCatalog reads a MediaWiki extension's i18n/*.json (key → message, one file
// a language; qqq is the documentation of the messages, not a language): the magic words
// resolved to their first form, $1 written as %s.
func readMediaWikiCatalog(repo, dir, licence string) (*catalog, error) {
	c, files, err := newCatalog(repo, dir, licence, "--name-only", "HEAD", "i18n/")
	if err != nil {
		return nil, err
	}
	var paths, locs []string
	for _, f := range strings.Split(string(files), "\n") {
		code := strings.TrimSuffix(filepath.Base(f), ".json")
		if !strings.HasSuffix(f, ".json") || code == "qqq" || code == "qqx" {
			continue
		}
		loc, ok := mediaWikiLocales[code]
		if !ok {
			t, err := language.Parse(code)
			if err != nil {
				continue
			}
			loc = t.String()
		}
		paths, locs = append(paths, f), append(locs, loc)
	}
	blobs, err := showAll(dir, paths)
	if err != nil {
		return nil, err
	}
	for i, data := range blobs {
		var kv map[string]json.RawMessage
		if err := json.Unmarshal(data, &kv); err != nil {
			continue
		}
		for k, raw := range kv {
			var v string
			if strings.HasPrefix(k, "@") || json.Unmarshal(raw, &v) != nil {
				continue
			}
			for prev := ""; prev != v; {
				prev, v = v, mediaWikiMagic.ReplaceAllString(v, "$1")
			}
			v = mediaWikiParam.ReplaceAllString(tags.ReplaceAllString(v, ""), "%s")
			if v = strings.Join(strings.Fields(v), " "); v == "" {
				continue
			}
			if c.strings[k] == nil {
				c.strings[k] = map[string]string{}
			}
			c.strings[k][locs[i]] = v
		}
	}
	return c, nil
}

var mediaWikiParam = regexp.MustCompile(`\$\d+`)

// jsonLocales are BlueWallet's file names that are not BCP 47 tags.
var jsonLocales = map[string]string{"jp_jp": "ja", "ua": "uk", "zar_afr": "af", "zar_xho": "xh", "be@tarask": "be", "kk@Cyrl": "kk"}

// readJSONCatalog reads BlueWallet's loc/*.json: section → key → text, as "section.key".
func readJSONCatalog(repo, dir, licence string) (*catalog, error) {
	c, files, err := newCatalog(repo, dir, licence, "--name-only", "HEAD", "loc/")
	if err != nil {
		return nil, err
	}
	for _, f := range strings.Split(string(files), "\n") {
		if !strings.HasSuffix(f, ".json") {
			continue
		}
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		loc, ok := jsonLocales[name]
		if !ok {
			t, err := language.Parse(strings.ReplaceAll(name, "_", "-"))
			if err != nil {
				continue
			}
			loc = t.String()
		}
		data, err := git(dir, "show", "HEAD:"+f)
		if err != nil {
			return nil, err
		}
		var sections map[string]json.RawMessage
		if err := json.Unmarshal(data, &sections); err != nil {
			continue
		}
		for sec, raw := range sections {
			var kv map[string]string
			if json.Unmarshal(raw, &kv) != nil {
				continue
			}
			for k, v := range kv {
				key := sec + "." + k
				if c.strings[key] == nil {
					c.strings[key] = map[string]string{}
				}
				if v = strings.Join(strings.Fields(v), " "); v != "" {
					c.strings[key][loc] = v
				}
			}
		}
	}
	return c, nil
}

// locale turns a resource qualifier (pt-rBR, b+sr+Latn, iw) into a BCP 47 tag; "" is en.
func locale(q string) (string, bool) {
	if q == "" {
		return "en", true
	}
	q = strings.ReplaceAll(q, "-r", "-")
	if strings.HasPrefix(q, "b+") {
		q = strings.ReplaceAll(strings.TrimPrefix(q, "b+"), "+", "-")
	}
	t, err := language.Parse(q)
	if err != nil {
		return "", false
	}
	return t.String(), true
}

var tags = regexp.MustCompile(`<[^>]+>`)

// clean reads an Android string resource's text: tags stripped, escapes undone.
func clean(inner string) string {
	s := tags.ReplaceAllString(inner, "")
	var b strings.Builder
	if err := xml.EscapeText(&b, nil); err == nil {
		_ = b
	}
	s = strings.NewReplacer(`\'`, "'", `\"`, `"`, `\n`, " ", `\t`, " ", `\@`, "@", `\?`, "?", "&amp;", "&", "&lt;", "<", "&gt;", ">", "&quot;", `"`, "&apos;", "'").Replace(s)
	s = strings.Trim(strings.TrimSpace(s), `"`)
	return strings.Join(strings.Fields(s), " ")
}

var placeholder = regexp.MustCompile(`%(\d+\$)?[sd]`)

// verbs are English verbs whose translations are learned from every string of a catalog
// that starts with them (but no corpus string): "Delete list", "Delete tag", "Remove from
// queue" teach the word a language uses for delete.
var verbs = map[string]string{"delete": "delete", "remove": "delete", "erase": "delete", "empty": "clear", "discard": "delete",
	"send": "send", "forward": "send", "publish": "send", "donate": "payment", "subscribe": "subscription",
	// Empty is a Clear: it deletes what the emptied thing holds when that is data ("Empty
	// trash"), not a cache.
	// Clear empties a thing: a delete only when the thing is data ("Clear messages"), not
	// a view's state or a cache ("Clear search", "Clear cache"); the guard pairs it with
	// the data words below.
	"clear": "clear", "buy": "payment", "purchase": "payment", "refund": "transfer",
	"thank": "send"} // sendThanks

var leadingVerb = regexp.MustCompile(`^(?i)(delete|remove|erase|empty|discard|send|forward|publish|donate|subscribe|clear|buy|purchase|refund)\b`)

// dataNouns are English nouns for a person's data: their translations are learned, like
// the verbs', from every string of a catalog (but no corpus string) that holds them, as
// the "data" a Clear deletes ("Wyczyść wiadomości", "Berichten wissen"); a trash or a
// spam folder holds a person's messages or files, so emptying it deletes them ("Vider la
// corbeille"), as emptying a cache deletes nothing ("Vider le cache").
var dataNouns = regexp.MustCompile(`(?i)\b(messages?|conversations?|chats?|contacts?|photos?|files?|recordings?|data|e-?mails?|drafts?|trash|recycle bin|spam|junk|selected)\b`)

// composed are the data nouns for what a person writes (a message, an e-mail, a draft):
// their words are also written as "compose", what cancelling discards ("إلغاء الرسالة",
// Cancel the message).
var composed = map[string]bool{"message": true, "e-mail": true, "email": true, "mail": true, "draft": true}

// nounCategory reports whether cat names things, not actions: data, what is composed, a
// view's state.
func nounCategory(cat string) bool { return cat == "data" || cat == "compose" || cat == "object" }

// viewNouns are English nouns for the state of a view — a mark, a favourite, a filter —
// that removing or clearing changes without deleting anything ("Remove star", "Remove
// from favorites", "Clear filter"): their translations are learned like the data nouns'
// and written as objects.
var viewNouns = regexp.MustCompile(`(?i)\b(stars?|starred|favou?rites?|filters?)\b`)

// otherNouns are English nouns that often follow the verbs but are neither data nor a
// view's state (Clear search history, Clear call history, Clear frequents, Clear cache):
// their translations are learned only to be kept out of the verbs — a word that recurs
// with a noun is that noun ("historique", "түүхийг"), not the verb.
var otherNouns = regexp.MustCompile(`(?i)\b(history|search|searches|cache|logs?|frequents?|frequently|contacted|watched|duplicates|bookmarks?|reports?|items?|elements?|entries|selected|all|everything)\b`)

// sendThanks are English strings that send someone thanks ("Send thanks", "Sending
// thanks to %s", "Thank the author"): a public notice on the user's behalf, learned as a
// send. The words of the strings that only say thank you ("Thank you for uploading",
// "Thanks received") are kept out of it, so a "Thanks!" or "Vielen Dank" that closes a
// tip stays free.
var (
	sendThanks = regexp.MustCompile(`(?i)\b(send|sending|sent) thanks\b|\bthank (the|this) (author|contributor|uploader|user|editor)\b`)
	gratitude  = regexp.MustCompile(`(?i)\bthank|\bthanks\b`)
)

// learnVerbs finds, per locale, the words that recur in the translations of the strings
// that start with one of the verbs, and not in the locale's other strings: the verb's
// forms in that language. Scripts written without spaces contribute the character
// sequences that recur the same way.
//
// shares, when not nil, gets the share of its topic's strings each learned word is in, at
// most, by category and locale ("noun" for the nouns that are neither data nor a view's
// state), for writeVocabulary to weigh a word across apps.
func learnVerbs(c *catalog, words map[string]map[string][]string, shares map[string]map[string]map[string]float64) {
	held := map[string]bool{}
	for _, r := range corpusKeys[c.repo] {
		held[r.key] = true
	}
	type doc struct {
		verbs []string // the verb it starts with, the data nouns it holds
		grams map[string]bool
	}
	byLocale := map[string][]doc{}
	for key, tr := range c.strings {
		en := tr["en"]
		if held[key] || en == "" {
			continue
		}
		var topics []string
		if m := leadingVerb.FindString(en); m != "" {
			topics = append(topics, strings.ToLower(m))
		}
		for _, m := range dataNouns.FindAllString(en, -1) {
			if m = strings.TrimSuffix(strings.ToLower(m), "s"); !slices.Contains(topics, m) {
				topics = append(topics, m) // a noun is learned the same way
			}
		}
		for _, m := range viewNouns.FindAllString(en, -1) {
			if m = "view:" + strings.TrimSuffix(strings.TrimSuffix(strings.ToLower(m), "s"), "red"); !slices.Contains(topics, m) {
				topics = append(topics, m)
			}
		}
		switch {
		case sendThanks.MatchString(en):
			topics = append(topics, "thank")
		case gratitude.MatchString(en):
			topics = append(topics, "noun:thanks")
		}
		for _, m := range otherNouns.FindAllString(en, -1) {
			if m = "noun:" + strings.ToLower(m); !slices.Contains(topics, m) {
				topics = append(topics, m)
			}
		}
		english := grams(strings.ToLower(en))
		for loc, v := range tr {
			if loc == "en" || strings.HasPrefix(loc, "en-") {
				continue
			}
			// Format characters are dropped, as the guard drops them: a zero-width non-joiner
			// inside a Malayalam word (അയയ്\u200cക്കുക) does not cut it in two.
			text := strings.Map(dropFormat, placeholder.ReplaceAllString(strings.ToLower(v), " "))
			gs := grams(text)
			for g := range english {
				delete(gs, g) // a brand or a word left in English (Google Pay) is no translation
			}
			for _, p := range pairs(text) {
				if a, b, _ := strings.Cut(p, " "); gs[a] && gs[b] {
					gs[p] = true
				}
			}
			for _, r := range runs(text) {
				if !strings.Contains(strings.ToLower(en), r) {
					gs[r] = true
				}
			}
			byLocale[loc] = append(byLocale[loc], doc{topics, gs})
		}
	}
	// The words of the catalog's English strings: a verb's word learned in another locale
	// that is also an English word (French don, a gift, is the don of Don't allow) would be
	// read in English labels too, since the guard does not know a label's language.
	englishWords := map[string]bool{}
	for _, tr := range c.strings {
		for g := range grams(strings.ToLower(tr["en"])) {
			englishWords[g] = true
		}
	}
	// The words of thank-you strings in any locale ("merci", "grasie") only say thanks:
	// the guard does not know a label's language, so none of them is learned as a send.
	gratitudeWords := map[string]bool{}
	for _, docs := range byLocale {
		for _, d := range docs {
			if slices.Contains(d.verbs, "noun:thanks") {
				for g := range d.grams {
					gratitudeWords[g] = true
				}
			}
		}
	}
	for loc, docs := range byLocale {
		learned := map[string]map[string]float64{} // category → word → the share of a topic's strings it is in
		all := map[string]int{}
		per := map[string]map[string]int{}
		n := map[string]int{}
		for _, d := range docs {
			for g := range d.grams {
				all[g]++
			}
			for _, v := range d.verbs {
				n[v]++
				if per[v] == nil {
					per[v] = map[string]int{}
				}
				for g := range d.grams {
					per[v][g]++
				}
			}
		}
		var otherTopics []string
		for v := range per {
			if strings.HasPrefix(v, "noun:") && v != "noun:thanks" {
				otherTopics = append(otherTopics, v)
			}
		}
		for verb, counts := range per {
			if c.learn != nil && !strings.HasPrefix(verb, "noun:") && !slices.Contains(c.learn, verb) {
				continue
			}
			cat, ok := verbs[verb]
			switch {
			case strings.HasPrefix(verb, "view:"):
				cat = "object"
			case strings.HasPrefix(verb, "noun:"):
				cat = "noun"
			case !ok:
				cat = "data"
			}
			if learned[cat] == nil {
				learned[cat] = map[string]float64{}
			}
			for g, k := range counts {
				if cat == "object" && slices.ContainsFunc(otherTopics, func(v string) bool { return per[v][g] >= 2 }) {
					continue // "Remove items from favourites": the items are no view's state
				}
				if verb == "thank" && (gratitudeWords[g] || all[g] > k || utf8.RuneCountInString(g) < 4) {
					// A word of thank you says thanks and sends nothing; the thanks strings are
					// few, so a word they share with any other string, or a short one
					// (Vietnamese tới, to), is no word of thanking.
					continue
				}
				// Recurs in the verb's strings, and is rare elsewhere in the locale.
				if k < 2 || float64(k) < 0.3*float64(n[verb]) || float64(all[g]-k) > 0.005*float64(len(docs)) || float64(all[g]) > 1.5*float64(k) {
					continue
				}
				learned[cat][g] = max(learned[cat][g], float64(k)/float64(n[verb]))
				if composed[verb] {
					if learned["compose"] == nil {
						learned["compose"] = map[string]float64{}
					}
					learned["compose"][g] = max(learned["compose"][g], float64(k)/float64(n[verb]))
				}
			}
		}
		for cat, ws := range learned {
			if shares != nil {
				if shares[cat] == nil {
					shares[cat] = map[string]map[string]float64{}
				}
				if shares[cat][loc] == nil {
					shares[cat][loc] = map[string]float64{}
				}
				for g, share := range ws {
					shares[cat][loc][g] = max(shares[cat][loc][g], share)
				}
			}
			if cat == "noun" {
				// Kept only to keep them out of the objects (writeVocabulary), not written.
				for g := range ws {
					if words["noun"] == nil {
						words["noun"] = map[string][]string{}
					}
					if !slices.Contains(words["noun"][loc], g) {
						words["noun"][loc] = append(words["noun"][loc], g)
					}
				}
				continue
			}
			for g, share := range ws {
				if a, b, pair := strings.Cut(g, " "); pair && !(all[g] >= minPaired && (ws[a] > 0 && all[a] == all[g] || ws[b] > 0 && all[b] == all[g])) {
					continue // a pair is learned only in place of a word that never occurs without it
				}
				if mixed(g) {
					continue // an English name with a particle (Korean mms로, by MMS): the particle is no word
				}
				if utf8.RuneCountInString(g) < 3 && !strings.ContainsFunc(g, func(r rune) bool { return unicode.Is(unicode.Hangul, r) }) {
					continue // a particle or an article (Turkish mi, French la); Korean 삭제 is a word
				}
				if ideographic(g) && (!nounCategory(cat) || all[g] < minRun || longerRun(g, ws, all)) {
					// A run of characters: only the longest that recurs as often (メッセージ, not
					// ッセージ), and only for a noun — a verb's runs hold its objects and
					// particles (フラインから of Remove from offline); the verbs of Chinese and
					// Japanese come from the strings that are just the verb (削除, 送信).
					continue
				}
				if !strings.Contains(g, " ") && pairedAlways(g, ws, all) {
					continue // a syllable of a word of two (Vietnamese loại of loại bỏ): the pair is the word
				}
				if !nounCategory(cat) && englishWords[g] {
					continue
				}
				if cat == "object" && !strings.HasPrefix(loc, "en") && englishWords[g] && !viewNouns.MatchString(g) {
					// A view's state in one language that is another English word (Sardinian
					// note, the night of night mode) would make "Delete note" a view's state.
					continue
				}
				if cat == "data" && !strings.HasPrefix(loc, "en") && englishWords[g] && !dataNouns.MatchString(g) && g != "mail" {
					// Likewise a data word that is another English word (the selection of a
					// translator who left "Clear selection" in English), unless it names data
					// in English too (mail, as several languages write it).
					continue
				}
				if !nounCategory(cat) && max(learned["noun"][g], learned["object"][g]) >= nounShare*share {
					continue // the verb's usual object ("historique" in Effacer l'historique), as common with the noun as with the verb
				}
				if words[cat] == nil {
					words[cat] = map[string][]string{}
				}
				if !slices.Contains(words[cat][loc], g) {
					words[cat][loc] = append(words[cat][loc], g)
				}
			}
		}
	}
}

// inflected reports whether w is the single word d of five letters or more with an
// ending of at most four letters.
func inflected(w, d string) bool {
	n := utf8.RuneCountInString(d)
	return w != d && n >= 5 && !strings.Contains(d, " ") && !strings.Contains(w, " ") && strings.HasPrefix(w, d) &&
		utf8.RuneCountInString(w)-n <= 4
}

// sharedRoot is the start two words share, of three characters or more and shorter than
// both, ending where a character (not a vowel sign or another combining mark) begins in
// each; "" when they share none.
func sharedRoot(a, b string) string {
	ra, rb := []rune(a), []rune(b)
	n := 0
	for n < len(ra) && n < len(rb) && ra[n] == rb[n] {
		n++
	}
	for n > 0 && (n < len(ra) && unicode.Is(unicode.M, ra[n]) || n < len(rb) && unicode.Is(unicode.M, rb[n])) {
		n-- // not inside a syllable: its vowel signs and marks stay with it
	}
	if n < 3 || n == len(ra) || n == len(rb) {
		return ""
	}
	return string(ra[:n])
}

// dropFormat drops Unicode's format characters (zero-width joiners, direction marks).
func dropFormat(r rune) rune {
	if unicode.Is(unicode.Cf, r) {
		return -1
	}
	return r
}

// sensitiveCategory reports whether cat is a category of sensitive actions (not a confirm,
// a way out, a page's word, a name or a noun).
func sensitiveCategory(cat string) bool {
	switch cat {
	case "confirm", "dismiss", "cancel", "data", "compose", "object", "clear":
		return false
	}
	return !strings.Contains(cat, ":")
}

// usedOtherwise reports whether v, the translation of key in locale loc, is one word of
// three letters at most that the app's translators use mostly in strings that are not
// about the key's English verb: Russian нет and Bulgarian не (no), one app's Discard in a
// dialog, are in every No. Such a word is no verb of the language.
func usedOtherwise(c *catalog, key, loc, v string) bool {
	v = strings.ToLower(v)
	if utf8.RuneCountInString(v) > 3 || strings.ContainsFunc(v, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.Is(unicode.M, r) }) ||
		strings.ContainsFunc(v, func(r rune) bool {
			return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul, unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar)
		}) {
		return false
	}
	verb, _, _ := strings.Cut(strings.ToLower(c.strings[key]["en"]), " ")
	if rs := []rune(verb); len(rs) > 5 {
		verb = string(rs[:len(rs)-2]) // disca of discarded, dona of donation
	}
	all, about := 0, 0
	for k, tr := range c.strings {
		if k == key || tr[loc] == "" || !grams(strings.ToLower(tr[loc]))[v] {
			continue
		}
		all++
		if strings.Contains(strings.ToLower(tr["en"]), verb) {
			about++
		}
	}
	return all >= 3 && 2*about < all
}

// wholeEnglish are the English words of the catalogs' strings that the guard would read as
// an inflected form of a sensitive word of seven letters or more, its stem (the word less
// its last two letters) and up to four more letters: Public of Spanish publicar, Ignore of
// Swedish ignorera, Subscribers of subscribe. The guard reads them only as themselves: in
// English they name things or states, and a label's words are often English whatever its
// language. handYAML is guard.yaml, whose keywords are stemmed too (absent: none).
func wholeEnglish(words map[string]map[string][]string, cats []*catalog, handYAML string) []string {
	var sensitive []string
	for cat, byLoc := range words {
		if sensitiveCategory(cat) {
			for _, ws := range byLoc {
				sensitive = append(sensitive, ws...)
			}
		}
	}
	if data, err := os.ReadFile(handYAML); err == nil {
		var f struct {
			Rules []struct {
				Keywords map[string][]string `yaml:"keywords"`
			} `yaml:"rules"`
		}
		if yaml.Unmarshal(data, &f) == nil {
			for _, r := range f.Rules {
				for _, ws := range r.Keywords {
					sensitive = append(sensitive, ws...)
				}
			}
		}
	}
	exact := map[string]bool{}
	stems := map[string]bool{}
	for _, w := range sensitive {
		w = strings.ToLower(w)
		exact[w] = true
		if rs := []rune(w); len(rs) >= 7 && !strings.ContainsFunc(w, func(r rune) bool { return !unicode.IsLetter(r) }) {
			stems[string(rs[:len(rs)-2])] = true
		}
	}
	english := map[string]bool{}
	for _, c := range cats {
		for _, tr := range c.strings {
			for g := range grams(strings.ToLower(tr["en"])) {
				if len(g) >= 5 && !exact[g] && !strings.ContainsFunc(g, func(r rune) bool { return r >= utf8.RuneSelf || !unicode.IsLetter(r) }) {
					english[g] = true
				}
			}
		}
	}
	var out []string
	for e := range english {
		for n := len(e) - 4; n <= len(e); n++ {
			if n >= 5 && stems[e[:n]] {
				out = append(out, e)
				break
			}
		}
	}
	sort.Strings(out)
	return out
}

// runs are the character sequences of two to five characters of a text's Chinese and
// Japanese, which are written without spaces: the nouns of those languages are learned
// as the runs that recur in a noun's strings (メッセージ, 聯絡人).
func runs(s string) []string {
	var out []string
	var cur []rune
	flush := func() {
		for i := range cur {
			for n := 2; n <= 5 && i+n <= len(cur); n++ {
				out = append(out, string(cur[i:i+n]))
			}
		}
		cur = cur[:0]
	}
	for _, r := range s {
		if unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana) || r == 'ー' {
			cur = append(cur, r)
			continue
		}
		flush()
	}
	flush()
	return out
}

// mixed reports whether g holds ASCII letters and letters of a script written without
// spaces or agglutinating (Hangul, Han, Kana).
func mixed(g string) bool {
	return strings.ContainsFunc(g, func(r rune) bool { return r < utf8.RuneSelf && unicode.IsLetter(r) }) &&
		strings.ContainsFunc(g, func(r rune) bool {
			return unicode.In(r, unicode.Hangul, unicode.Han, unicode.Hiragana, unicode.Katakana)
		})
}

// ideographic reports whether g is a run of Chinese or Japanese characters.
func ideographic(g string) bool {
	r, _ := utf8.DecodeRuneInString(g)
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana) || r == 'ー'
}

// minRun is the fewest strings of a locale a run of characters must occur in.
const minRun = 3

// longerRun reports whether a longer learned run holds run g and occurs in as many strings:
// g is then only a piece of that word.
func longerRun(g string, ws map[string]float64, all map[string]int) bool {
	for w := range ws {
		if len(w) > len(g) && strings.Contains(w, g) && all[w] == all[g] {
			return true
		}
	}
	return false
}

// pairs are every two neighbouring words of a text as one ("loại bỏ"): languages that
// write a word as syllables with spaces between them (Vietnamese) are learned by the pair.
func pairs(s string) []string {
	ws := strings.Fields(strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.M, r) {
			return r
		}
		return ' '
	}, s))
	var out []string
	for i := 1; i < len(ws); i++ {
		out = append(out, ws[i-1]+" "+ws[i])
	}
	return out
}

// nounShare: a word learned for a verb is the verb's usual object instead when it is in
// at least this share, relative to the verb's, of the strings of a noun that is not data
// (Mongolian түүхийг, history, is in most strings of Clear and of History alike).
const nounShare = 0.7

// minPaired is the fewest strings a word must occur in, always beside the same other
// word, to be learned as the pair: a word seen once or twice beside the same neighbour
// ("Καθαρισμός τοπικών μηνυμάτων") is no syllable of a longer word.
const minPaired = 4

// pairedAlways reports whether the single word w occurs in a learned pair of words, and
// every time it occurs in the locale the pair does too (all counts in how many strings a
// word or a pair occurs).
func pairedAlways(w string, ws map[string]float64, all map[string]int) bool {
	if all[w] < minPaired {
		return false
	}
	for g := range ws {
		if !strings.Contains(g, " ") || all[g] != all[w] {
			continue
		}
		if a, b, _ := strings.Cut(g, " "); a == w || b == w {
			return true
		}
	}
	return false
}

// grams are a text's words; scripts written without spaces give none (their recurring
// character runs are too often parts of other words).
func grams(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !(unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.M, r)) }) {
		rs := []rune(w)
		if len(rs) < 2 {
			continue
		}
		if !unicode.In(rs[0], unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar) {
			out[w] = true
		}
	}
	return out
}

func writeVocabulary(path string, cats []*catalog) error {
	words := map[string]map[string][]string{} // category → locale → words
	shares := map[string]map[string]map[string]float64{}
	for _, c := range cats {
		learnVerbs(c, words, shares)
	}
	// A verb's word that another app's strings teach as a noun, in as large a share of
	// the noun's strings (Portuguese todas, all, of Remover todas), is that noun.
	for cat, byLoc := range words {
		if nounCategory(cat) || cat == "noun" {
			continue
		}
		for loc, ws := range byLoc {
			byLoc[loc] = slices.DeleteFunc(ws, func(w string) bool {
				verb := shares[cat][loc][w]
				return verb > 0 && shares["noun"][loc][w] >= nounShare*verb
			})
		}
	}
	// A word some app's strings teach as a noun that is neither data nor a view's state
	// (Arabic العناصر, the items) is no view's state in another's.
	for loc, ws := range words["object"] {
		words["object"][loc] = slices.DeleteFunc(ws, func(w string) bool { return slices.Contains(words["noun"][loc], w) })
	}
	delete(words, "noun")
	// A verb's word that is a data word of the locale with an ending (Finnish keskusteluun,
	// into the chat, of keskustelu, learned from "Send to chat") is the verb's object.
	for cat, byLoc := range words {
		if !slices.Contains(slices.Collect(maps.Values(verbs)), cat) {
			continue
		}
		for loc, ws := range byLoc {
			byLoc[loc] = slices.DeleteFunc(ws, func(w string) bool {
				return slices.ContainsFunc(words["data"][loc], func(d string) bool { return inflected(w, d) })
			})
		}
	}
	learned := map[string]map[string]map[string]bool{} // category → locale → words learnVerbs found
	for cat, byLoc := range words {
		learned[cat] = map[string]map[string]bool{}
		for loc, ws := range byLoc {
			learned[cat][loc] = map[string]bool{}
			for _, w := range ws {
				learned[cat][loc][w] = true
			}
		}
	}
	fromKey := map[string][]string{}         // category, locale and word of the vocabulary's keys → the apps that translate a key so
	deleters := map[string]map[string]bool{} // locale → the apps that translate a Delete key there
	for _, c := range cats {
		for _, r := range vocabulary[c.repo] {
			tr := c.strings[r.key]
			if len(tr) == 0 {
				return fmt.Errorf("%s has no string %s", c.repo, r.key)
			}
			for loc, v := range tr {
				v = strings.TrimRight(strings.TrimSpace(v), "…?.!:")
				if v == "" || placeholder.MatchString(v) || len([]rune(v)) > 40 {
					continue
				}
				if sensitiveCategory(r.category) && usedOtherwise(c, r.key, loc, v) {
					continue
				}
				if c.repo == thanksRepo && thankIsGratitude(cats, loc, v) {
					continue
				}
				if words[r.category] == nil {
					words[r.category] = map[string][]string{}
				}
				low := strings.ToLower(v)
				if !slices.Contains(words[r.category][loc], low) {
					words[r.category][loc] = append(words[r.category][loc], low)
				}
				if k := r.category + "\x00" + loc + "\x00" + low; !slices.Contains(fromKey[k], c.repo) {
					fromKey[k] = append(fromKey[k], c.repo)
				}
				if r.category == "delete" {
					if deleters[loc] == nil {
						deleters[loc] = map[string]bool{}
					}
					deleters[loc][c.repo] = true
				}
			}
		}
	}
	// Burmese writes a verb with its particles and no space (ဖျက်ရန်, to delete; ဖျက်မည်,
	// will delete; ဖျက်ပါ, please delete): where two of a language's words for one action
	// start alike and then part, the part they share is the verb (ဖျက်), which the guard
	// finds anywhere in a label, as it does every word of the script. Not Thai, Lao or
	// Khmer: their translators write the verb bare (ลบ, ส่ง), and the start two of their
	// words share is as often a noun (Thai ชำระเงิน, payment, of "Payment history").
	for cat, byLoc := range words {
		if !sensitiveCategory(cat) {
			continue
		}
		byLang := map[string][]string{}
		for loc, ws := range byLoc {
			lang, _, _ := strings.Cut(loc, "-")
			for _, w := range ws {
				if !strings.Contains(w, " ") && strings.ContainsFunc(w, func(r rune) bool {
					return unicode.Is(unicode.Myanmar, r)
				}) && !slices.Contains(byLang[lang], w) {
					byLang[lang] = append(byLang[lang], w)
				}
			}
		}
		for _, lang := range slices.Sorted(maps.Keys(byLang)) {
			ws := byLang[lang]
			for i, a := range ws {
				for _, b := range ws[i+1:] {
					if root := sharedRoot(a, b); root != "" && !slices.Contains(byLoc[lang], root) {
						byLoc[lang] = append(byLoc[lang], root)
					}
				}
			}
		}
	}
	// A learned Latin word of three letters or fewer is a particle or an auxiliary of the
	// strings more often than the verb (Dutch uit of "Verwijderen uit", Danish vil,
	// Norwegian fra, Turkish yap of "Bağış yap" and "Giriş yap"), unless it is the whole
	// translation of a string that is the bare verb, in some app (Swedish köp, Buy; Polish
	// kup) or a key's. Other scripts keep theirs: Hebrew and Arabic write a verb's three
	// root letters alone (הסר, أزل), Indic scripts count vowel signs as letters.
	bareVerb := map[string]bool{} // category, locale and the whole translation of a string that is one English verb
	for _, c := range cats {
		for _, tr := range c.strings {
			cat, ok := verbs[strings.ToLower(strings.Trim(tr["en"], " .…!"))]
			if !ok {
				continue
			}
			for loc, v := range tr {
				bareVerb[cat+"\x00"+loc+"\x00"+strings.ToLower(strings.Trim(v, " .…!"))] = true
			}
		}
	}
	for cat, byLoc := range words {
		if !sensitiveCategory(cat) {
			continue
		}
		for loc, ws := range byLoc {
			byLoc[loc] = slices.DeleteFunc(ws, func(w string) bool {
				return learned[cat][loc][w] && len(fromKey[cat+"\x00"+loc+"\x00"+w]) == 0 && !bareVerb[cat+"\x00"+loc+"\x00"+w] && utf8.RuneCountInString(w) <= 3 &&
					!strings.Contains(w, " ") && !strings.ContainsFunc(w, func(r rune) bool { return unicode.IsLetter(r) && !unicode.Is(unicode.Latin, r) })
			})
		}
	}
	harmless := map[string]map[string]bool{} // locale → normalised harmless strings
	harmlessWords := map[string]map[string]bool{}
	// The guard does not know a label's language: a whole harmless translation in one
	// locale (Indonesian simpan, Save) is left out of every locale's sensitive words
	// (Wikipedia's Malay translators use simpan for Publish).
	harmlessAnywhere := map[string]bool{}
	for _, c := range cats {
		for _, k := range harmlessKeys[c.repo] {
			for loc, v := range c.strings[k] {
				if harmless[loc] == nil {
					harmless[loc], harmlessWords[loc] = map[string]bool{}, map[string]bool{}
				}
				v = strings.ToLower(strings.TrimRight(v, "…."))
				harmless[loc][v], harmlessAnywhere[v] = true, true
				for w := range grams(v) {
					harmlessWords[loc][w] = true
				}
			}
		}
	}
	for cat, byLoc := range words {
		if cat == "confirm" || cat == "dismiss" || cat == "cancel" || cat == "object" || strings.Contains(cat, ":") {
			continue
		}
		for loc, ws := range byLoc {
			byLoc[loc] = slices.DeleteFunc(ws, func(w string) bool {
				return harmless[loc][w] || harmlessAnywhere[w] || learned[cat][loc][w] && harmlessWords[loc][w]
			})
		}
	}
	directions := map[string]map[string]bool{} // language → a browser's Forward and Back
	for _, c := range cats {
		for _, k := range directionKeys[c.repo] {
			for loc, v := range c.strings[k] {
				lang, _, _ := strings.Cut(loc, "-") // Firefox's pa-IN is the other apps' pa
				if directions[lang] == nil {
					directions[lang] = map[string]bool{}
				}
				directions[lang][strings.ToLower(strings.TrimSpace(v))] = true
			}
		}
	}
	// The guard reads a browser's page by its Reload or Stop, and its Forward and Back there
	// as directions, in every locale a browser translates them into.
	for cat, keys := range map[string]map[string][]string{"direction": directionKeys, "browser": browserKeys} {
		byLoc := map[string][]string{}
		for _, c := range cats {
			for _, k := range keys[c.repo] {
				for loc, v := range c.strings[k] {
					if v = strings.ToLower(strings.TrimSpace(v)); v != "" && !slices.Contains(byLoc[loc], v) {
						byLoc[loc] = append(byLoc[loc], v)
					}
				}
			}
		}
		words[cat] = byLoc
	}
	for loc, ws := range words["send"] {
		words["send"][loc] = slices.DeleteFunc(ws, func(w string) bool {
			if lang, _, _ := strings.Cut(loc, "-"); !directions[lang][w] {
				return false
			}
			repos := fromKey["send\x00"+loc+"\x00"+w]
			if len(repos) < 2 {
				return true // learned, or one app's word: the browser's reading is as likely
			}
			return slices.ContainsFunc(cats, func(c *catalog) bool { return slices.Contains(repos, c.repo) && notForwarding(c, loc, w) })
		})
	}
	// A name in one locale (English sender, a Danish verb form too) is no sensitive word
	// of its category in another: the guard drops a word that is also one of the names.
	// In its own locale, a name learned as a verb, or the translation of a key that only
	// one app gives, is the name (Indonesian terkirim, Sent, is one app's Send); a key's
	// translation that several apps give stays (Japanese 削除 is Delete and Deleted).
	for cat, byLoc := range words {
		names := map[string][]string{} // name → the locales it is one in
		for loc, ws := range words["except:"+cat] {
			for _, w := range ws {
				names[w] = append(names[w], loc)
			}
		}
		for loc, ws := range byLoc {
			byLoc[loc] = slices.DeleteFunc(ws, func(w string) bool {
				lang, _, _ := strings.Cut(loc, "-")
				return slices.ContainsFunc(names[w], func(l string) bool { return !strings.HasPrefix(l+"-", lang+"-") }) ||
					slices.Contains(names[w], loc) && len(fromKey[cat+"\x00"+loc+"\x00"+w]) < 2
			})
		}
	}
	// A wallet's "Send now" is a transfer, but where its translation is just the language's
	// send, the word stays a send (the guard names a send with an amount a transfer).
	// In any locale: Bitcoin Wallet's zh 发送 is the send of zh-CN.
	sendAnywhere := map[string]bool{}
	for _, ws := range words["send"] {
		for _, w := range ws {
			sendAnywhere[w] = true
		}
	}
	for loc, ws := range words["transfer"] {
		words["transfer"][loc] = slices.DeleteFunc(ws, func(w string) bool { return sendAnywhere[w] })
	}
	// A Delete that is also the locale's Clear and that fewer than a third of the apps
	// with a Delete there give as it (Italian cancella: Nuke's and the Commons app's, where
	// the others say elimina) is read as the Clear: it deletes only with a person's data
	// beside it ("Cancella cache" keeps the cache's clearing free). The locale's usual
	// Delete (Vietnamese xóa) stays one; a learned form is left as it is.
	for loc, ws := range words["delete"] {
		words["delete"][loc] = slices.DeleteFunc(ws, func(w string) bool {
			n := len(fromKey["delete\x00"+loc+"\x00"+w])
			return slices.Contains(words["clear"][loc], w) && n > 0 && 3*n < len(deleters[loc])
		})
	}
	var b bytes.Buffer
	b.WriteString("# GENERATED by `go run ./guard/internal/guardgen`; do not edit (extend guard.yaml or the config).\n")
	b.WriteString("# Translations of app strings that name a sensitive action, a generic confirm, a way out or a\n# page's purpose, by category and locale; and the words that recur in the translations of every\n# string starting with delete, remove, erase, empty, discard, send, forward, publish, donate,\n# subscribe, clear, buy, purchase or refund, or sending thanks, or holding a data noun (messages,\n# contacts, e-mails, …; those of messages, e-mails and drafts also as compose, what a Cancel\n# discards) or a view's state (star, favourite, filter) (and rarely elsewhere in the\n# locale), none of them a corpus string; a word that also translates Move, Archive, Copy, Reply,\n# Next, Back, Done, Mark as read, Cancel, Edit, Add or Save there is left out, and so is one that\n# another language uses as a name (English Sender). whole: the English words of the catalogs that\n# a sensitive word's stem would reach, read only as themselves (Public, Subscribers). Sources:\n")
	for _, c := range cats {
		fmt.Fprintf(&b, "#   github.com/%s @ %s (%s): strings", c.repo, c.commit, c.licence)
		for _, r := range vocabulary[c.repo] {
			fmt.Fprintf(&b, " %s=%s", r.key, r.category)
		}
		b.WriteString("\n")
	}
	words["whole"] = map[string][]string{"en": wholeEnglish(words, cats, filepath.Join(filepath.Dir(path), "guard.yaml"))}
	cs := make([]string, 0, len(words))
	for c := range words {
		cs = append(cs, c)
	}
	sort.Strings(cs)
	for _, c := range cs {
		fmt.Fprintf(&b, "%s:\n", c)
		locs := make([]string, 0, len(words[c]))
		for l := range words[c] {
			locs = append(locs, l)
		}
		sort.Strings(locs)
		for _, l := range locs {
			ws := words[c][l]
			sort.Strings(ws)
			q, _ := json.Marshal(ws)
			fmt.Fprintf(&b, "  %s: %s\n", l, q)
		}
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// writeCurrencies lists the symbol and narrow symbol of every currency of every region in
// every language x/text can display, as CLDR gives them.
func writeCurrencies(path string) error {
	units := map[currency.Unit]bool{}
	for a := 'A'; a <= 'Z'; a++ {
		for z := 'A'; z <= 'Z'; z++ {
			r, err := language.ParseRegion(string([]rune{a, z}))
			if err != nil {
				continue
			}
			if u, ok := currency.FromRegion(r); ok {
				units[u] = true
			}
		}
	}
	syms := map[string]bool{}
	for _, t := range display.Supported.Tags() {
		p := message.NewPrinter(t)
		for u := range units {
			for _, f := range []currency.Formatter{currency.Symbol, currency.NarrowSymbol} {
				s := strings.TrimSpace(strings.Map(func(r rune) rune {
					if r == '\u200f' || r == '\u200e' || r == '\u061c' {
						return -1
					}
					return r
				}, p.Sprint(f(u))))
				if s != "" {
					syms[s] = true
				}
			}
			syms[u.String()] = true
		}
	}
	list := make([]string, 0, len(syms))
	for s := range syms {
		list = append(list, s)
	}
	sort.Strings(list)
	var b bytes.Buffer
	b.WriteString("# GENERATED by `go run ./guard/internal/guardgen` from the CLDR data of golang.org/x/text/currency:\n")
	b.WriteString("# the symbol and narrow symbol of every region's currency in every language x/text displays, and\n# every ISO 4217 code. One a line.\n")
	for _, s := range list {
		b.WriteString(s + "\n")
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// corpusItem is one label on one page, with what the guard should say.
type corpusItem struct {
	Locale   string   `json:"locale"`
	Label    string   `json:"label"`
	Category string   `json:"category"`         // "" harmless
	Source   string   `json:"source"`           // repo@commit:key
	Title    string   `json:"title"`            // the page's title, from the same catalog
	Others   []string `json:"others"`           // the page's other buttons, above the label's
	Amount   string   `json:"amount,omitempty"` // an amount the page shows, in the locale's format
	PIN      bool     `json:"pin,omitempty"`    // the page asks for a PIN
	Top      bool     `json:"top,omitempty"`    // the label's button is at the top, the others below it
}

func writeCorpus(path string, cats []*catalog) error {
	var items []corpusItem
	for _, c := range cats {
		title := c.strings[corpusScreens[c.repo]]
		var harmless []string
		for _, r := range corpusKeys[c.repo] {
			if r.category == "" {
				harmless = append(harmless, r.key)
			}
		}
		for _, r := range corpusKeys[c.repo] {
			tr := c.strings[r.key]
			if len(tr) == 0 {
				return fmt.Errorf("%s has no string %s", c.repo, r.key)
			}
			locs := make([]string, 0, len(tr))
			for l := range tr {
				locs = append(locs, l)
			}
			sort.Strings(locs)
			for _, l := range locs {
				v := placeholder.ReplaceAllString(tr[l], amountIn(l))
				var others []string
				for _, h := range harmless {
					if o, ok := c.strings[h][l]; ok && h != r.key && len(others) < 3 {
						others = append(others, o)
					}
				}
				items = append(items, corpusItem{Locale: l, Label: v, Category: r.category, Source: c.repo + "@" + c.commit + ":" + r.key,
					Title: title[l], Others: others})
			}
		}
	}
	// Pages held by structure: a PIN and an amount make the bottom button a payment,
	// whatever it says ("Next" in every language); without them it is harmless, and so is
	// a way out above it.
	wp := cats[1]
	for _, l := range sortedLocales(wp.strings["create_account_next"]) {
		next, title, closeL := wp.strings["create_account_next"][l], wp.strings["donate_gpay_activity_title"][l], wp.strings["dialog_close_description"][l]
		if title == "" || closeL == "" {
			continue
		}
		src := wp.repo + "@" + wp.commit + ":"
		amount := amountIn(l)
		items = append(items,
			corpusItem{Locale: l, Label: next, Category: "payment", Source: src + "create_account_next", Title: title, Others: []string{closeL}, Amount: amount, PIN: true},
			corpusItem{Locale: l, Label: next, Category: "", Source: src + "create_account_next", Title: title, Others: []string{closeL}},
			corpusItem{Locale: l, Label: closeL, Category: "", Source: src + "dialog_close_description", Title: title, Others: []string{next}, Amount: amount, PIN: true, Top: true},
		)
	}
	data, err := json.MarshalIndent(struct {
		Note  string       `json:"note"`
		Items []corpusItem `json:"items"`
	}{"GENERATED by `go run ./guard/internal/guardgen`: translated strings of Thunderbird for Android and the Wikipedia Android app (Apache-2.0), none of them a string the vocabulary was made from.", items}, "", " ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

func sortedLocales(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for l := range m {
		out = append(out, l)
	}
	sort.Strings(out)
	return out
}

// amountIn is 5 of the locale's currency, written the way the locale writes it.
func amountIn(loc string) string {
	t := language.Make(loc)
	u, _ := currency.FromTag(t)
	return message.NewPrinter(t).Sprint(currency.Symbol(u.Amount(25)))
}
